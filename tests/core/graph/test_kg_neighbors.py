"""Neighbours (direction, kind filter, cursor pages), traversal depth, and soft-deleted edges
hidden everywhere until restored."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from mindnet_desktop.core.graph.queries import QueryError
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import

LASERJET = "Produkte/LaserJet 500"
ALPHA = "Projekte/KI-Projekt Alpha"
HANDBUCH = "Produkte/LaserJet 500 Handbuch"
PAPIERSTAU = "Support/Papierstau beheben"
TONER = "Support/Toner wechseln"
LOCAL_FIRST = "Persönlich/Prinzipien/Local First"
MAX_PAGES = 100


def ids(page) -> list[str]:
    return [item.node["id"] for item in page.items]


def walk(queries, node: str, page_size: int, **kw) -> list[list[str]]:
    pages, cursor = [], None
    for _ in range(MAX_PAGES):  # a cursor that never ends fails instead of hanging
        page = queries.neighbors(node, page_size=page_size, cursor=cursor, **kw)
        pages.append(ids(page))
        cursor = page.next_cursor
        if cursor is None:
            return pages
    raise AssertionError(f"no last page after {MAX_PAGES} pages: {pages[:5]}")


def the_edge(mn, note_id: str, kind: str, target: str, rule_id: str):
    [edge] = [
        e
        for e in mn.records[note_id].edges
        if (e.kind, e.target_id, e.rule_id) == (kind, target, rule_id)
    ]
    return edge


def vault_bytes(vault: Path) -> dict[str, bytes]:
    return {
        p.relative_to(vault).as_posix(): p.read_bytes() for p in vault.rglob("*") if p.is_file()
    }


@pytest.fixture
def mn(vault, open_mindnet):
    opened = open_mindnet(vault)
    run_import(opened)
    return opened


def test_direction_filters(mn):
    q = mn.queries
    assert ids(q.neighbors(LASERJET, "out")) == [HANDBUCH, PAPIERSTAU, TONER]
    assert ids(q.neighbors(LASERJET, "in")) == [ALPHA]
    assert ids(q.neighbors(LASERJET, "both")) == [HANDBUCH, ALPHA, PAPIERSTAU, TONER]
    [alpha] = q.neighbors(LASERJET, "in").items
    assert {(e["kind"], e["direction"], e["source_id"][: len(ALPHA)]) for e in alpha.edges} == {
        ("depends_on", "in", ALPHA),
        ("references", "in", ALPHA),
    }
    with pytest.raises(QueryError, match="direction must be one of"):
        q.neighbors(LASERJET, "sideways")  # type: ignore[arg-type]


def test_kind_filters(mn):
    q = mn.queries
    assert ids(q.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU, TONER]
    assert ids(q.neighbors(LASERJET, "in", {"resolves"})) == []
    assert ids(q.neighbors(LASERJET, "both", {"depends_on"})) == [ALPHA]
    assert ids(q.neighbors(LASERJET, "both", {"depends_on", "resolves"})) == [
        ALPHA,
        PAPIERSTAU,
        TONER,
    ]
    page = q.neighbors(LASERJET, "out", {"resolves"})
    assert all(e["kind"] == "resolves" for item in page.items for e in item.edges)
    # a symmetric kind is read both ways: Alpha wrote `related_to` to Vector DB Basics
    back = q.neighbors("Wissen/Vector DB Basics", "out", {"related_to"})
    assert ALPHA in ids(back)
    assert ALPHA not in ids(q.neighbors("Wissen/Vector DB Basics", "out", {"references"}))


def test_unknown_node_and_bad_page_size(mn):
    with pytest.raises(QueryError, match="unknown node 'Nirgendwo'"):
        mn.queries.neighbors("Nirgendwo")
    with pytest.raises(QueryError, match="page size must be at least 1"):
        mn.queries.neighbors(ALPHA, page_size=0)
    with pytest.raises(QueryError, match="invalid cursor"):
        mn.queries.neighbors(ALPHA, cursor="kein-cursor")


@pytest.mark.parametrize("page_size", [1, 2, 50])
def test_pages_return_every_neighbour_exactly_once(mn, page_size):
    q = mn.queries
    everything = q.neighbors(ALPHA, "both", page_size=500)
    assert everything.next_cursor is None and everything.total == len(everything.items) >= 10
    full = ids(everything)
    assert full == sorted(full)
    pages = walk(q, ALPHA, page_size, direction="both")
    assert all(1 <= len(p) <= page_size for p in pages)
    assert len(pages) == -(-len(full) // page_size)
    flat = [n for p in pages for n in p]
    assert flat == full  # same set, same order, nothing twice
    assert walk(q, ALPHA, page_size, direction="both") == pages  # stable
    first = q.neighbors(ALPHA, "both", page_size=page_size)
    assert first.total == len(full)


def test_a_cursor_survives_an_unrelated_reimport(mn, vault):
    full = ids(mn.queries.neighbors(ALPHA, "both", page_size=500))
    first = mn.queries.neighbors(ALPHA, "both", page_size=3)
    other = vault / "Glossar" / "HNSW.md"
    other.write_text(other.read_text(encoding="utf-8") + "\nEin neuer Satz.\n", encoding="utf-8")
    assert run_import(mn).summary.changed == 1
    rest, cursor = [], first.next_cursor
    for _ in range(MAX_PAGES):
        if cursor is None:
            break
        page = mn.queries.neighbors(ALPHA, "both", page_size=3, cursor=cursor)
        rest += ids(page)
        cursor = page.next_cursor
    assert ids(first) + rest == full


def test_traversal_depths(mn):
    q = mn.queries
    assert q.traverse(ALPHA, 0) == [(ALPHA, 0, [])]
    one = {n: (d, p) for n, d, p in q.traverse(ALPHA, 1)}
    two = {n: (d, p) for n, d, p in q.traverse(ALPHA, 2)}
    assert set(one) - {ALPHA} == set(ids(q.neighbors(ALPHA, "out", page_size=500)))
    expected_two = set(one)
    for node in set(one) - {ALPHA}:
        expected_two |= set(ids(q.neighbors(node, "out", page_size=500)))
    assert set(two) == expected_two and len(two) > len(one)
    assert {n for n, (d, _) in two.items() if d <= 1} == set(one)
    for node, (depth, path) in two.items():
        assert len(path) == depth
        walker = ALPHA
        for hop in path:  # a connected chain from the root to the node
            assert q.project(hop.source, "note") == walker
            walker = q.project(hop.target, "note")
        assert walker == node
    kinds = {n for n, _, _ in q.traverse(LASERJET, 2, kinds={"resolves"})}
    assert kinds == {LASERJET, PAPIERSTAU, TONER}
    with pytest.raises(QueryError, match="depth must be 0 or more"):
        q.traverse(ALPHA, -1)


def reference_walk(q, root: str, depth: int, direction: str, level: str) -> list:
    """The walk as documented: breadth-first over `edges_of`, each node reached by the first
    edge in (neighbour, edge id) order. `traverse` must answer the same, path for path."""
    start = q.project(root, level)
    seen = {start: (0, [])}
    queue = [start]
    for node in queue:
        hops, path = seen[node]
        if hops == depth:
            continue
        for other, hop, _ in sorted(
            q.edges_of(node, direction, None, False, level), key=lambda t: (t[0], t[1].edge_id)
        ):
            if other not in seen and q.g.nodes[other].get("kind") != "pending":
                seen[other] = (hops + 1, [*path, hop])
                queue.append(other)
    return [(node, hops, path) for node, (hops, path) in seen.items()]


def test_the_walk_takes_the_documented_path_to_every_node(mn):
    edge = the_edge(mn, LASERJET, "resolves", TONER, "inline:rel")
    edge_actions.delete_edge(mn, edge.id)  # a deleted edge is never walked
    q = mn.queries
    walked = 0
    for root in sorted(mn.records):
        for direction in ("out", "in", "both"):
            for level in ("note", "chunk"):
                got = q.traverse(root, 3, direction, None, level)
                assert got == reference_walk(q, root, 3, direction, level), (root, direction)
                walked += len(got)
    assert walked > 10 * len(mn.records)


def test_delete_hides_the_edge_everywhere_until_restored(mn, vault):
    edge = the_edge(mn, LASERJET, "resolves", TONER, "inline:rel")
    before = vault_bytes(vault)
    deleted = edge_actions.delete_edge(mn, edge.id)
    assert deleted.deleted and deleted.id == edge.id
    assert vault_bytes(vault) == before  # a delete never touches a note
    q = mn.queries
    assert ids(q.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU]
    assert {n for n, _, _ in q.traverse(LASERJET, 2, kinds={"resolves"})} == {
        LASERJET,
        PAPIERSTAU,
    }
    assert edge.id not in {e.id for e in mn.edges()}
    [marked] = [e for e in mn.edges(include_deleted=True) if e.id == edge.id]
    assert marked.deleted is True
    shown = q.neighbors(LASERJET, "out", {"resolves"}, include_deleted=True)
    assert ids(shown) == [PAPIERSTAU, TONER]
    [hop] = shown.items[1].edges
    assert (hop["id"], hop["deleted"]) == (edge.id, True)
    assert datetime.fromisoformat(hop["deleted_at"]).tzinfo is not None

    restored = edge_actions.restore_edge(mn, edge.id)
    assert restored.deleted is False
    assert ids(mn.queries.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU, TONER]
    assert edge.id in {e.id for e in mn.edges()}
    assert vault_bytes(vault) == before
    events = [(e["event"], e["edge_id"]) for e in mn.overlay.audit_log()]
    assert events == [("delete", edge.id), ("restore", edge.id)]


def test_a_deletion_survives_editing_the_note_and_reopening(mn, vault, open_mindnet):
    edge = the_edge(mn, LASERJET, "resolves", TONER, "inline:rel")
    edge_actions.delete_edge(mn, edge.id)
    path = vault / "Produkte" / "LaserJet 500.md"
    text = path.read_text(encoding="utf-8")
    assert "seit\n2024" in text
    path.write_text(text.replace("seit\n2024", "seit\n2023"), encoding="utf-8")
    assert run_import(mn).summary.changed == 1
    assert edge.id in {e.id for e in mn.edges(include_deleted=True)}  # same edge again
    assert edge.id not in {e.id for e in mn.edges()}
    assert ids(mn.queries.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU]
    mn.close()

    reopened = open_mindnet(vault)
    assert ids(reopened.queries.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU]
    assert reopened.graph.graph.edges[edge.source_id, TONER, edge.id]["deleted"] is True
    edge_actions.restore_edge(reopened, edge.id)
    assert ids(reopened.queries.neighbors(LASERJET, "out", {"resolves"})) == [PAPIERSTAU, TONER]
    reopened.close()
    assert ids(open_mindnet(vault).queries.neighbors(LASERJET, "out", {"resolves"})) == [
        PAPIERSTAU,
        TONER,
    ]


def test_audit_log_records_create_delete_restore(mn):
    created, _ = edge_actions.add_edge(mn, "Local First", "causes", "Neugier")
    edge_actions.delete_edge(mn, created.id)
    edge_actions.restore_edge(mn, created.id)
    log = mn.overlay.audit_log()
    assert [(e["event"], e["edge_id"]) for e in log] == [
        ("create", created.id),
        ("delete", created.id),
        ("restore", created.id),
    ]
    assert log[0]["stored"] == "note" and log[0]["path"] == "Persönlich/Prinzipien/Local First.md"
    stamps = [datetime.fromisoformat(e["time"]) for e in log]
    assert all(s.tzinfo is not None for s in stamps) and stamps == sorted(stamps)
    assert all(e["kind"] == "causes" and e["note_id"] == LOCAL_FIRST for e in log)


def test_a_deletion_survives_a_new_paragraph_before_the_link(mn, vault):
    edge = the_edge(mn, LOCAL_FIRST, "beeinflusst_von", "Persönlich/Werte/Autonomie", "inline:rel")
    edge_actions.delete_edge(mn, edge.id)
    path = vault / "Persönlich" / "Prinzipien" / "Local First.md"
    text = path.read_text(encoding="utf-8")
    anchor = "Die Cloud ist eine Option, keine Voraussetzung.\n"
    extra = "Beispiele: " + "Kalender, Passwörter, Fotos und Musik liegen bei mir. " * 6
    path.write_text(text.replace(anchor, anchor + "\n" + extra.strip() + "\n"), encoding="utf-8")
    assert run_import(mn).summary.changed == 1
    assert "[[rel:beeinflusst_von Autonomie]]" in path.read_text(encoding="utf-8")
    assert ids(mn.queries.neighbors(LOCAL_FIRST, "out", {"beeinflusst_von"})) == []
