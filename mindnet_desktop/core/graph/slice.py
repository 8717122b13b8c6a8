"""A part of the knowledge graph at note level, as plain data a graph view can draw.

A slice is the neighbourhood of a root note (the nodes a breadth-first walk reaches within
`depth` hops, and the edges that walk follows between them), the whole vault (every note and
every edge between two notes), or a set of notes and how they link to each other (an
answer's sources, with the notes one hop from two or more of them). Edges inside one note
(chunk structure) are not part of a slice; deleted edges only when asked for.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mindnet_desktop.core.graph.queries import Direction, GraphQueries, Hop

MAX_BRIDGES = 10  # notes joining an answer's sources, at most: the sources stay the picture


@dataclass(frozen=True)
class SliceNode:
    """A note (or an unresolved link target) as the view shows it."""

    id: str
    kind: str  # note | unresolved
    title: str
    type: str = ""
    path: str = ""
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


class SliceEdge(NamedTuple):
    """An edge with both ends projected onto their notes (`source` -> `target`). A named
    tuple: the whole vault's slice makes one per edge (174,000 at 50,000 notes)."""

    id: str
    kind: str
    source: str
    target: str
    provenance: str
    rule_id: str
    confidence: float
    deleted: bool = False


@dataclass
class GraphSlice:
    """Nodes by id and edges (each edge once) of one view of the graph."""

    nodes: dict[str, SliceNode] = field(default_factory=dict)
    edges: list[SliceEdge] = field(default_factory=list)
    root: str | None = None


def _node(queries: GraphQueries, node: str) -> SliceNode:
    data = queries.g.nodes[node]
    kind = str(data.get("kind", "pending"))
    title = str(data.get("title") or node)
    return SliceNode(
        node,
        kind,
        title,
        str(data.get("type", "")),
        str(data.get("path", "")),
        tuple(str(t) for t in data.get("tags") or ()),
        tuple(str(a) for a in data.get("aliases") or ()),
    )


def _edge(here: str, neighbour: str, hop: Hop, data: dict[str, Any]) -> SliceEdge:
    source, target = (here, neighbour) if hop.direction == "out" else (neighbour, here)
    return SliceEdge(
        hop.edge_id,
        hop.kind,
        source,
        target,
        str(data.get("provenance", "")),
        str(data.get("rule_id", "")),
        float(data.get("confidence", 0.0)),
        bool(data.get("deleted")),
    )


def _drawable(queries: GraphQueries, node: str) -> bool:
    return queries.g.nodes[node].get("kind") in ("note", "unresolved")


def neighbourhood(
    queries: GraphQueries,
    root: str,
    depth: int = 1,
    direction: Direction = "out",
    kinds: set[str] | None = None,
    include_deleted: bool = False,
) -> GraphSlice:
    """The notes within `depth` hops of `root` and the edges walked between them.

    Same walk as `GraphQueries.traverse` at note level (which sees active edges only), so at
    depth 1 the nodes are the root and its `neighbors`, and the edges those joining edges.
    """
    queries.require(root)
    root = queries.project(root, "note")
    reached = {root: 0}
    found: dict[str, SliceEdge] = {}
    queue = deque([root])
    while queue:
        here = queue.popleft()
        if reached[here] == depth:
            continue
        for neighbour, hop, data in queries.edges_of(
            here, direction, kinds, include_deleted, "note"
        ):
            if not _drawable(queries, neighbour):
                continue
            if neighbour not in reached:
                reached[neighbour] = reached[here] + 1
                queue.append(neighbour)
            found.setdefault(hop.edge_id, _edge(here, neighbour, hop, data))
    nodes = {n: _node(queries, n) for n in reached}
    return GraphSlice(nodes, list(found.values()), root)


def joining(
    queries: GraphQueries,
    notes: Iterable[str],
    kinds: set[str] | None = None,
    include_deleted: bool = False,
    bridges: int = MAX_BRIDGES,
) -> GraphSlice:
    """`notes` (chunk ids stand for their notes; unknown ones are left out), the edges
    among them, and up to `bridges` notes one edge away from two or more of them, with
    those edges: how the notes link to each other, directly or through one note. Bridges
    joining more of the notes come first, then by id."""
    wanted = [queries.project(n, "note") for n in notes if _known(queries, n)]
    members = dict.fromkeys(wanted)
    found: dict[str, SliceEdge] = {}
    near: dict[str, dict[str, SliceEdge]] = {}  # a note outside -> its edges to members
    touches: dict[str, set[str]] = {}  # a note outside -> the members it links
    for here in members:
        for neighbour, hop, data in queries.edges_of(here, "both", kinds, include_deleted, "note"):
            if not _drawable(queries, neighbour):
                continue
            edge = _edge(here, neighbour, hop, data)
            if neighbour in members:
                found.setdefault(hop.edge_id, edge)
            else:
                near.setdefault(neighbour, {}).setdefault(hop.edge_id, edge)
                touches.setdefault(neighbour, set()).add(here)
    joined = sorted(
        (n for n in touches if len(touches[n]) > 1), key=lambda n: (-len(touches[n]), n)
    )
    chosen = joined[: max(bridges, 0)]
    for bridge in chosen:
        for edge_id, edge in near[bridge].items():
            found.setdefault(edge_id, edge)
    nodes = {n: _node(queries, n) for n in [*members, *chosen]}
    return GraphSlice(nodes, list(found.values()), None)


def _known(queries: GraphQueries, node: str) -> bool:
    return node in queries.g and queries.g.nodes[node].get("kind") in ("note", "chunk")


def whole_vault(
    queries: GraphQueries, kinds: set[str] | None = None, include_deleted: bool = False
) -> GraphSlice:
    """Every note, and every edge between two different notes (or an unresolved target)."""
    g = queries.g
    nodes = {n: _node(queries, n) for n, kind in g.nodes(data="kind") if kind == "note"}
    edges: list[SliceEdge] = []
    # `adjacency()` yields NetworkX's own dicts, where its views wrap every step (2.5x
    # slower at 577,000 edges); the structure edges (70 % of them) join a note's own chunks
    # and are never drawn.
    attrs = dict(g.nodes(data=True))
    for u, targets in g.adjacency():
        u_data = attrs[u]
        source = u_data["note_id"] if u_data.get("kind") == "chunk" else u
        if source not in nodes:
            continue
        for v, keyed in targets.items():
            v_data = attrs[v]
            end = v_data.get("kind")
            if end not in ("note", "unresolved", "chunk"):
                continue
            target = v_data["note_id"] if end == "chunk" else v
            if source == target:
                continue
            for key, data in keyed.items():
                if data["provenance"] == "structure":
                    continue
                if kinds is not None and data["kind"] not in kinds:
                    continue
                if data.get("deleted") and not include_deleted:
                    continue
                if target not in nodes:
                    nodes[target] = _node(queries, target)
                hop = Hop(key, data["kind"], source, target, "out")
                edges.append(_edge(source, target, hop, data))
    return GraphSlice(nodes, edges, None)


def default_root(queries: GraphQueries) -> str | None:
    """The note with the most edges (its own and its chunks'), ties by id: where a view of
    the graph starts before the user picks a note."""
    g = queries.g
    best: tuple[int, str] | None = None
    for node, kind in g.nodes(data="kind"):
        if kind != "note":
            continue
        degree = queries.kg.degree_of(node)
        if best is None or (-degree, node) < (-best[0], best[1]):
            best = (degree, node)
    return best[1] if best else None
