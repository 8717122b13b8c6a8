"""The graph view's slices read from the note index, for a process that has not loaded the
graph (the app until something changes): the same slices `slice.py` makes of the whole graph,
from the part of it a slice needs (`neighbourhood.py`), or for the whole vault from the
index's rows without building a graph at all."""

from __future__ import annotations

from collections.abc import Iterable

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
    unresolved target), from the rows the index keeps of them (`vault_edges`)."""
    nodes = {
        n.note_id: SliceNode(
            n.note_id, "note", n.title or n.note_id, n.type, n.path, n.tags, n.aliases
        )
        for n in index.notes.every()
    }
    edges: list[SliceEdge] = []
    for (
        edge_id,
        kind,
        source,
        target,
        provenance,
        rule,
        confidence,
        deleted,
        title,
    ) in index.vault_edges():
        if (kinds is not None and kind not in kinds) or (deleted and not include_deleted):
            continue
        if target not in nodes:
            nodes[target] = SliceNode(target, "unresolved", title or target)
        edges.append(
            SliceEdge(edge_id, kind, source, target, provenance, rule, confidence, bool(deleted))
        )
    return GraphSlice(nodes, edges, None)
