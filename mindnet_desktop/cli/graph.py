"""The CLI's knowledge-graph commands: edge-types, edge add/delete/restore, neighbors,
traverse, search, rag, related, audit."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from mindnet_desktop.cli.common import CliError, open_mindnet, print_json
from mindnet_desktop.core.config.vocabulary import EdgeKind
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.vault.mindnet import Mindnet


def _kinds(mn: Mindnet, args: argparse.Namespace) -> set[str] | None:
    return {mn.vocabulary.resolve(k) for k in args.kind} if args.kind else None


def _kind_json(kind: EdgeKind, count: int) -> dict[str, Any]:
    return {
        "kind": kind.kind,
        "description": kind.description,
        "example": kind.example,
        "symmetric": kind.symmetric,
        "origin": kind.origin,
        "count": count,
    }


def _edge_json(mn: Mindnet, edge_id: str) -> dict[str, Any]:
    edge = edge_actions.edge_by_id(mn, edge_id)
    stone = mn.overlay.tombstone(edge, edge_actions.occurrence_of(mn, edge_id))
    return {
        **edge.to_dict(),
        "deleted": stone is not None,
        "deleted_at": stone.deleted_at if stone else None,
    }


def cmd_edge_types(args: argparse.Namespace, mn: Mindnet) -> int:
    if getattr(args, "action", None) == "add":
        kind = mn.vocabulary.add(args.kind, args.description)
        if args.json:
            print_json({"kind": _kind_json(kind, 0)})
        else:
            print(f"added kind {kind.kind}: {kind.description} (in {mn.config_dir})")
        return 0
    counts = Counter(e.kind for e in mn.edges())
    kinds = [_kind_json(k, counts.get(k.kind, 0)) for k in mn.vocabulary.kinds.values()]
    if args.json:
        print_json({"count": len(kinds), "kinds": kinds})
        return 0
    for k in kinds:
        flag = " (both ways)" if k["symmetric"] else ""
        print(f"{k['kind']:<16} {k['count']:>6}  [{k['origin']}] {k['description']}{flag}")
    return 0


def cmd_edge(args: argparse.Namespace, mn: Mindnet) -> int:
    if args.action == "add":
        edge, stored = edge_actions.add_edge(mn, args.source, args.kind, args.target)
        data = {"edge": _edge_json(mn, edge.id), "stored": stored}
        text = f"created {edge.id}: {edge.source_id} -[{edge.kind}]-> {edge.target_id} ({stored})"
    elif args.action == "delete":
        edge = edge_actions.delete_edge(mn, args.edge_id)
        data, text = (
            {"edge": _edge_json(mn, edge.id)},
            f"deleted {edge.id} (restore with `mindnet edge restore {edge.id}`)",
        )
    else:
        edge = edge_actions.restore_edge(mn, args.edge_id)
        data, text = {"edge": _edge_json(mn, edge.id)}, f"restored {edge.id}"
    if args.json:
        print_json(data)
    else:
        print(text)
    return 0


def cmd_neighbors(args: argparse.Namespace, mn: Mindnet) -> int:
    node, queries = mn.neighbour_queries(args.node)
    page = queries.neighbors(
        node,
        args.direction,
        _kinds(mn, args),
        args.page_size,
        args.cursor,
        args.include_deleted,
        args.level,
    )
    if args.json:
        print_json(
            {
                "node": queries.node_info(node),
                "count": len(page.items),
                "total": page.total,
                "next_cursor": page.next_cursor,
                "items": [{"node": item.node, "edges": item.edges} for item in page.items],
            }
        )
        return 0
    for item in page.items:
        kinds = ", ".join(
            ("-> " if e["direction"] == "out" else "<- ")
            + e["kind"]
            + (" (deleted)" if e.get("deleted") else "")
            for e in item.edges
        )
        print(f"{item.node['id']}  [{item.node.get('type', item.node['kind'])}]  {kinds}")
    print(
        f"{len(page.items)} of {page.total}"
        + (f"; next: --cursor {page.next_cursor}" if page.next_cursor else "")
    )
    return 0


def cmd_traverse(args: argparse.Namespace, mn: Mindnet) -> int:
    root = edge_actions.resolve_node(mn, args.root)
    queries = mn.queries
    reached = queries.traverse(root, args.depth, args.direction, _kinds(mn, args), args.level)
    rows = [
        {"node": queries.node_info(n), "depth": d, "path": [hop.to_dict() for hop in p]}
        for n, d, p in reached
    ]
    if args.json:
        print_json(
            {
                "root": queries.node_info(root),
                "depth": args.depth,
                "count": len(rows),
                "nodes": rows,
            }
        )
        return 0
    for row in rows:
        via = " ".join(f"-[{h['kind']}]->" for h in row["path"])
        print(f"{'  ' * row['depth']}{row['node']['id']}  {via}")
    return 0


def cmd_rag(args: argparse.Namespace, mn: Mindnet) -> int:
    root = edge_actions.resolve_node(mn, args.root)
    hits = mn.searcher.rag(root, args.query, args.depth, args.k)
    head = {"root": mn.queries.node_info(root), "query": args.query, "depth": args.depth}
    return _print_hits(args, head, hits)


def _print_hits(args: argparse.Namespace, head: dict[str, Any], hits: list[Any]) -> int:
    if args.json:
        print_json({**head, "count": len(hits), "hits": [h.to_dict() for h in hits]})
        return 0
    for rank, hit in enumerate(hits, start=1):
        print(f"{rank}. {hit.score:.3f}  {hit.node_id}  [{hit.type}]  {hit.title}")
        if hit.via is not None:
            print("   via " + " ".join(f"-[{h['kind']}]-> {h['to']}" for h in hit.via))
        print("   " + " ".join(hit.text.split())[:160])
    return 0


def cmd_related(args: argparse.Namespace, mn: Mindnet) -> int:
    from mindnet_desktop.core.service.notes.related import related

    note = mn.find_note(args.note).note
    found = related(mn, note.note_id, args.k, args.unlinked, args.folder)
    if args.json:
        print_json(
            {
                "note": mn.queries.node_info(note.note_id),
                "unlinked": args.unlinked,
                "folder": args.folder,
                "count": len(found),
                "related": [r.to_dict() for r in found],
            }
        )
        return 0
    for rank, item in enumerate(found, start=1):
        mark = "  (linked)" if item.linked else ""
        print(f"{rank}. {item.score:.3f}  {item.note_id}  [{item.type}]{mark}")
        print("   " + "; ".join(item.reasons))
    return 0


def cmd_audit(args: argparse.Namespace, mn: Mindnet) -> int:
    events = mn.overlay.audit_log()
    if args.json:
        print_json({"count": len(events), "events": events})
        return 0
    for e in events:
        edge = f"{e['source_id']} -[{e['kind']}]-> {e['target_id']}"
        print(f"{e['time']}  {e['event']:<7} {e['edge_id']}  {edge}")
    return 0


COMMANDS = {
    "edge-types": cmd_edge_types,
    "edge": cmd_edge,
    "neighbors": cmd_neighbors,
    "traverse": cmd_traverse,
    "rag": cmd_rag,
    "related": cmd_related,
    "audit": cmd_audit,
}


def run(args: argparse.Namespace) -> int:
    if args.command == "edge-types" and getattr(args, "action", None) not in (None, "add"):
        raise CliError(f"unknown action '{args.action}'")
    write = args.command == "edge" or getattr(args, "action", None) == "add"
    # Graph-only commands start from the snapshots without opening the store.
    lazy = not write and args.command in ("neighbors", "traverse", "edge-types", "audit", "rag")
    with open_mindnet(args, write=write, lazy_store=lazy) as mn:
        return COMMANDS[args.command](args, mn)
