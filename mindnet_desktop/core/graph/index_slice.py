"""The graph view's slices read from the note index, for a process that has not loaded the
graph (the app until something changes): the same slices `slice.py` makes of the whole graph,
from the part of it a slice needs (`neighbourhood.py`), or for the whole vault from the
index's rows without building a graph at all."""

from __future__ import annotations

from collections.abc import Iterable

from mindnet_desktop.core.domain import Edge, chunk_id
from mindnet_desktop.core.graph.knowledge_graph import UNRESOLVED_PREFIX
from mindnet_desktop.core.graph.neighbourhood import around, note_of, within
from mindnet_desktop.core.graph.note_index import IndexReads, edge_row
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

    def note_at(node: str, owner: str | None) -> str | None:
        """The note a note or chunk node stands for (`owner`: the note it names, if any)."""
        if node in chunks:
            return node
        if owner is None:
            owner = node.rpartition("#")[0]
        seq = node[len(owner) + 1 :]
        if node.startswith(owner + "#") and seq.isdigit() and int(seq) <= chunks.get(owner, 0):
            return owner if chunk_id(owner, int(seq)) == node else None
        return None

    # As the graph keeps them: one edge per id, the last copy of a link; a user edge only
    # when the notes hold none with its id (`KnowledgeGraph.add_edge`, `sync_user_edges`).
    rows = {row[10]: row for row in index.edge_rows()}
    for user_edge in overlay.user_edges.values():
        rows.setdefault(user_edge.id, edge_row(user_edge, 0))
    stones = bool(overlay.tombstones)
    edges: list[SliceEdge] = []
    for row in rows.values():
        kind, source_id, target_id, target_note, note_id = row[:5]
        if source_id.startswith(note_id) and note_id in chunks:  # its own note or chunk
            source: str | None = note_id
        else:  # a user's edge
            source = note_at(source_id, None)
        if source is None:
            continue
        end = row[11]  # a pending target (no such note or chunk) comes out None: left out
        if end in chunks or end.startswith(UNRESOLVED_PREFIX):
            target = end
        else:
            target = note_at(end, target_note)
        if target is None or target == source:
            continue
        if kinds is not None and kind not in kinds:
            continue
        deleted = stones and overlay.tombstone(Edge(*row[:10]), row[12]) is not None
        if deleted and not include_deleted:
            continue
        if target not in nodes:
            nodes[target] = SliceNode(target, "unresolved", target_id or target)
        edges.append(SliceEdge(row[10], kind, source, target, row[5], row[6], row[7], deleted))
    return GraphSlice(nodes, edges, None)
