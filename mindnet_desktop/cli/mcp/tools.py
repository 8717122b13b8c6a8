"""What each MCP tool answers, over an open vault: the CLI's JSON shapes, cut down for a
model's context (capped excerpts, one line of reasons; `detail` asks for more)."""

from __future__ import annotations

from typing import Any, Literal

from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.notes.lookup import NoteNotFoundError
from mindnet_desktop.core.service.notes.related import related
from mindnet_desktop.core.service.notes.text import note_body, note_section
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet

EXCERPT_CHARS = 240
DETAIL_EXCERPT_CHARS = 1500
NOTE_CHARS = 20_000  # a whole note beyond it is cut: ask for one section
WHY_TERMS = 3  # score terms named in a hit's `why`
MAX_K = 20
MAX_NEIGHBORS = 100


def excerpt(text: str, limit: int) -> str:
    """`text` on one line, cut at a word within `limit` characters (marked with …)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0] or flat[:limit]
    return cut + " …"


def why(hit: ScoredHit) -> str:
    """One line from the score breakdown: the terms that gave the most."""
    terms = sorted(hit.score_breakdown, key=lambda t: -t["contribution"])[:WHY_TERMS]
    line = ", ".join(f"{t['term']} {t['contribution']:.2f}" for t in terms if t["contribution"])
    return ("injected for the intent; " if hit.injected else "") + (line or "no term scored")


def search(
    mn: Mindnet,
    query: str,
    k: int,
    type_: str | None,
    folder: str | None,
    detail: bool,
) -> dict[str, Any]:
    """Hybrid hits, one per note, each with its `why` and an excerpt (nothing is logged)."""
    k = max(1, min(k, MAX_K))
    types = [type_] if type_ else None
    result = hybrid_search(mn, query, k, types, log=False, per_note=True, folder=folder)
    hits = []
    for hit in result.hits:
        row: dict[str, Any] = {
            "note_id": hit.note_id,
            "title": hit.title,
            "type": hit.type,
            "score": round(hit.score, 3),
            "why": why(hit),
            "excerpt": excerpt(hit.text, DETAIL_EXCERPT_CHARS if detail else EXCERPT_CHARS),
        }
        if detail:
            row["path"] = hit.path
            row["chunk"] = hit.node_id
            row["heading"] = " › ".join(hit.heading_path)
            row["reasons"] = hit.reasons
            row["breakdown"] = {t["term"]: round(t["contribution"], 3) for t in hit.score_breakdown}
        hits.append(row)
    return {"intent": result.routing.intent, "hits": hits}


def _note_id(mn: Mindnet, ref: str) -> str:
    return mn.find_note(ref).note.note_id


def get_note(mn: Mindnet, ref: str, heading: str | None) -> dict[str, Any]:
    """A note's properties and its text, or one section of it."""
    record = mn.find_note(ref)
    note = record.note
    headings = list(dict.fromkeys(h for h, _ in record.headings))
    text = note_body(mn, note.note_id)
    data: dict[str, Any] = {
        "note_id": note.note_id,
        "title": note.title,
        "type": note.type,
        "path": note.path,
        "status": note.status,
        "tags": list(note.tags),
        "aliases": list(note.aliases),
        "headings": headings,
    }
    if heading:
        section = note_section(text, heading)
        if section is None:
            raise NoteNotFoundError(
                f"'{note.note_id}' has no heading '{heading}'; its headings: "
                + (", ".join(headings) or "none")
            )
        text = section
    if len(text) > NOTE_CHARS:
        data["truncated"] = f"first {NOTE_CHARS} of {len(text)} characters; ask for a heading"
        text = text[:NOTE_CHARS]
    data["text"] = text
    return data


def note_resource(mn: Mindnet, ref: str) -> str:
    """A note as a resource: its Markdown text as it is in the vault."""
    return note_body(mn, _note_id(mn, ref))


def neighbors(
    mn: Mindnet,
    ref: str,
    direction: Literal["out", "in", "both"],
    kind: str | None,
    limit: int,
) -> dict[str, Any]:
    """The notes joined to a note by edges (of `kind`), each with its edges' kinds."""
    node = edge_actions.resolve_node(mn, ref)
    kinds = {mn.vocabulary.resolve(kind)} if kind else None
    queries = mn.queries
    limit = max(1, min(limit, MAX_NEIGHBORS))
    page = queries.neighbors(node, direction, kinds, limit, None, False, "note")
    items = []
    for item in page.items:
        info = item.node
        arrows = sorted(
            {("->" if e["direction"] == "out" else "<-") + e["kind"] for e in item.edges}
        )
        items.append(
            {
                "note_id": info["id"],
                "title": info.get("title", info["id"]),
                "type": info.get("type", info.get("kind")),
                "edges": arrows,
            }
        )
    return {"note_id": node, "total": page.total, "neighbors": items}


def related_notes(mn: Mindnet, ref: str, unlinked: bool, k: int) -> dict[str, Any]:
    """Notes most like a note (optionally only those not linked to it yet)."""
    note_id = _note_id(mn, ref)
    found = related(mn, note_id, max(1, min(k, MAX_K)), unlinked)
    rows = [
        {
            "note_id": r.note_id,
            "title": r.title,
            "type": r.type,
            "score": r.score,
            "linked": r.linked,
            "why": "; ".join(r.reasons),
        }
        for r in found
    ]
    return {"note_id": note_id, "related": rows}


def add_edge(mn: Mindnet, source: str, kind: str, target: str) -> dict[str, Any]:
    """Create an edge: a callout in the source note, or in the overlay (read-only vault)."""
    edge, stored = edge_actions.add_edge(mn, source, kind, target)
    return {
        "edge_id": edge.id,
        "source": edge.source_id,
        "kind": edge.kind,
        "target": edge.target_id,
        "stored": stored,
    }
