"""The graph view's slices read from the note index, for a process that has not loaded the
graph (the app until something changes): the same slices `slice.py` makes of the whole graph,
from the part of it a slice needs (`neighbourhood.py`), or for the whole vault from the
index's rows without building a graph at all."""

from __future__ import annotations

from collections.abc import Iterable

from mindnet_desktop.core.domain import chunk_id
from mindnet_desktop.core.graph.knowledge_graph import UNRESOLVED_PREFIX, graph_node
from mindnet_desktop.core.graph.neighbourhood import around, note_of, within
from mindnet_desktop.core.graph.note_index import IndexReads
from mindnet_desktop.core.graph.queries import Direction, GraphQueries
from mindnet_desktop.core.graph.slice import (
    GraphSlice,
    SliceEdge,
    SliceNode,
    joining,
    neighbourhood,
)
from mindnet_desktop.core.store.overlay import EdgeOverlay


def neighbourhood_of(
    index: IndexReads,
    overlay: EdgeOverlay,
    symmetric: frozenset[str],
    root: str,
    depth: int = 1,
    direction: Direction = "out",
    kinds: set[str] | None = None,
    include_deleted: bool = False,
) -> GraphSlice:
    """`slice.neighbourhood` of the note `root`."""
    part = within(index, root, depth, overlay)
    queries = GraphQueries(part, symmetric)
    return neighbourhood(queries, root, depth, direction, kinds, include_deleted)


def joining_of(
    index: IndexReads,
    overlay: EdgeOverlay,
    symmetric: frozenset[str],
    notes: Iterable[str],
    kinds: set[str] | None = None,
    include_deleted: bool = False,
) -> GraphSlice:
    """`slice.joining` of `notes` (chunk ids stand for their notes)."""
    wanted = list(notes)
    owners = {owner for n in wanted if (owner := note_of(index, n)) is not None}
    part = around(index, sorted(owners), overlay)
    return joining(GraphQueries(part, symmetric), wanted, kinds, include_deleted)


def whole_vault_of(
    index: IndexReads,
    overlay: EdgeOverlay,
    kinds: set[str] | None = None,
    include_deleted: bool = False,
) -> GraphSlice:
    """`slice.whole_vault`: every note, and every edge between two different notes (or an
    unresolved target), from the index's rows."""
    nodes = {
        n.note_id: SliceNode(
            n.note_id, "note", n.title or n.note_id, n.type, n.path, n.tags, n.aliases
        )
        for n in index.notes.every()
    }
    chunks = index.chunk_counts()

    def note_at(node: str) -> str | None:  # the note a note or chunk node stands for
        if node in chunks:
            return node
        owner, sep, seq = node.rpartition("#")
        if sep and seq.isdigit() and 1 <= int(seq) <= chunks.get(owner, 0):
            return owner if chunk_id(owner, int(seq)) == node else None
        return None

    # As the graph keeps them: one edge per id, the last copy of a link; a user edge only
    # when the notes hold none with its id (`KnowledgeGraph.add_edge`, `sync_user_edges`).
    chosen = {edge.id: (edge, occurrence) for edge, occurrence in index.every_edge()}
    for edge in overlay.user_edges.values():
        chosen.setdefault(edge.id, (edge, 0))
    edges: list[SliceEdge] = []
    for edge, occurrence in chosen.values():
        source = note_at(edge.source_id)
        if source is None:
            continue
        end = graph_node(edge)
        target = end if end.startswith(UNRESOLVED_PREFIX) else note_at(end)
        if target is None or target == source:
            continue  # a pending target (no such note or chunk), or inside one note
        if kinds is not None and edge.kind not in kinds:
            continue
        deleted = overlay.tombstone(edge, occurrence) is not None
        if deleted and not include_deleted:
            continue
        if target not in nodes:
            nodes[target] = SliceNode(target, "unresolved", edge.target_id or target)
        edges.append(
            SliceEdge(
                edge.id,
                edge.kind,
                source,
                target,
                edge.provenance,
                edge.rule_id,
                float(edge.confidence),
                deleted,
            )
        )
    return GraphSlice(nodes, edges, None)
