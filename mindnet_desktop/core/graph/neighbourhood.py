"""The part of the knowledge graph around one node or a few notes, read from the note index.

A `neighbors` query reads a node, its note's chunks (at note level a note stands for them),
the edges into and out of them and the nodes at their other ends: at 50,000 notes a few
hundred rows of the note index, against 1.6 s to load the whole graph's snapshot. The part is
built with the graph's own code (`KnowledgeGraph.add_edge`, the overlay's tombstones and user
edges), so the same query over it answers as over the whole graph. The graph view's slices
read such parts too (`index_slice.py`): the notes a walk of a few hops reaches, or an
answer's sources.
"""

from __future__ import annotations

from collections.abc import Iterable

from mindnet_desktop.core.domain import Edge, chunk_id
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph, graph_node, note_attrs
from mindnet_desktop.core.graph.note_index import IndexReads
from mindnet_desktop.core.ingest.edges import structure_of
from mindnet_desktop.core.store.overlay import EdgeOverlay, occurrences


def note_of(index: IndexReads, node: str) -> str | None:
    """The note a note or chunk node belongs to; None when the graph has no such node."""
    if node in index.notes:
        return node
    note_id, sep, seq = node.rpartition("#")
    if sep and seq.isdigit() and chunk_id(note_id, int(seq)) in index.chunks_of(note_id):
        return note_id
    return None


def neighbourhood(index: IndexReads, node: str, overlay: EdgeOverlay) -> KnowledgeGraph:
    """The graph of `node` (a note or chunk id) and everything one edge away from it or from
    its note's chunks; an empty graph when there is no such node."""
    note_id = note_of(index, node)
    if note_id is None:
        return KnowledgeGraph(overlay)
    chunks = index.chunks_of(note_id)
    return _part(
        index, overlay, [note_id, *chunks] if node == note_id else [node], {note_id: chunks}
    )


def around(index: IndexReads, notes: Iterable[str], overlay: EdgeOverlay) -> KnowledgeGraph:
    """The graph of `notes` (note ids; others are left out) and everything one edge away
    from them or their chunks: every edge of theirs, so a walk at note level from any of them
    takes the same steps as over the whole graph."""
    owners = {n: index.chunks_of(n) for n in notes if n in index.notes}
    return _part(index, overlay, [x for n, c in owners.items() for x in (n, *c)], owners)


def within(index: IndexReads, root: str, depth: int, overlay: EdgeOverlay) -> KnowledgeGraph:
    """The graph that a walk of `depth` hops from the note `root` sees: every edge of each
    note fewer than `depth` hops away (either way, any kind, deleted ones too)."""
    reached = {root}
    part = around(index, reached, overlay)
    for _ in range(depth - 1):
        nearby = {
            data["note_id"] if data.get("kind") == "chunk" else node
            for node, data in part.graph.nodes(data=True)
            if data.get("kind") in ("note", "chunk")
        }
        if nearby <= reached:
            break
        reached |= nearby
        part = around(index, reached, overlay)
    return part


def _part(
    index: IndexReads, overlay: EdgeOverlay, seeds: list[str], owners: dict[str, list[str]]
) -> KnowledgeGraph:
    """The graph of the edges into and out of `seeds` (notes and chunks of the `owners`,
    note id -> its chunks), built as `KnowledgeGraph.upsert_note` would."""
    kg = KnowledgeGraph(overlay)
    inside = set(seeds)
    edges: list[tuple[Edge, int]] = []
    for note_id, chunks in owners.items():
        structure = structure_of(note_id, chunks)
        seen = occurrences(structure)
        edges += [
            (e, seen[e.id]) for e in structure if e.source_id in inside or e.target_id in inside
        ]
    edges += index.edges_touching(seeds)
    edges += [
        (e, 0)
        for e in overlay.user_edges.values()
        if e.source_id in inside or graph_node(e) in inside
    ]
    _add_nodes(kg, index, owners, edges)
    for note_id, chunks in owners.items():
        kg.set_chunks(note_id, chunks)
    for edge, occurrence in edges:
        if edge.source_id in kg.graph:  # as `sync_user_edges`: never from a missing node
            kg.add_edge(edge, occurrence)
    return kg


def _add_nodes(
    kg: KnowledgeGraph,
    index: IndexReads,
    owners: dict[str, list[str]],
    edges: list[tuple[Edge, int]],
) -> None:
    """The notes and chunks at either end of `edges`, with their attributes as
    `KnowledgeGraph.upsert_note` sets them, and the notes of those chunks; link targets that
    are no note or chunk are left to `add_edge` (unresolved or pending)."""
    ends = {x for note_id, chunks in owners.items() for x in (note_id, *chunks)}
    for edge, _ in edges:
        ends.update((edge.source_id, graph_node(edge)))
    # A chunk at the other end stands for its note at note level: the note's node too.
    ends.update(end.rpartition("#")[0] for end in list(ends) if "#" in end)
    counts: dict[str, int] = {}
    for end in sorted(ends):
        owner, sep, seq = end.rpartition("#")
        if end in index.notes:
            kg.graph.add_node(end, **note_attrs(index.notes[end]))
        elif sep and seq.isdigit():
            if owner not in counts:
                counts[owner] = len(index.chunks_of(owner))
            if 1 <= int(seq) <= counts[owner] and chunk_id(owner, int(seq)) == end:
                kg.graph.add_node(end, kind="chunk", note_id=owner, seq=int(seq))
