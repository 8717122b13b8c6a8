"""Queries over the knowledge graph: neighbours (filtered, paginated), traversal.

Every note and chunk is a node. At `level="note"` a note stands for itself and its chunks,
and the other end of each edge is projected onto its note, so a note's neighbours are notes
(or unresolved link targets). Symmetric kinds are read both ways. Deleted edges are hidden
unless asked for.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph

Direction = Literal["out", "in", "both"]
Level = Literal["note", "chunk"]
DIRECTIONS = ("out", "in", "both")


class QueryError(MindnetError, ValueError):
    """Bad query input (unknown node, bad cursor, bad option)."""


@dataclass(frozen=True)
class Hop:
    """One edge on a path, oriented from the walker's point of view."""

    edge_id: str
    kind: str
    source: str
    target: str
    direction: Literal["out", "in"]

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a path step (`via` of RAG hits, `path` of traversals)."""
        return {
            "edge_id": self.edge_id,
            "kind": self.kind,
            "from": self.source,
            "to": self.target,
            "direction": self.direction,
        }


@dataclass
class NeighborItem:
    node: dict[str, Any]
    edges: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class NeighborPage:
    items: list[NeighborItem]
    total: int
    next_cursor: str | None


def encode_cursor(after: str) -> str:
    raw = json.dumps({"v": 1, "after": after}, ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw.decode("utf-8"))
        if data.get("v") != 1 or not isinstance(data.get("after"), str):
            raise ValueError
        return data["after"]
    except (binascii.Error, ValueError, UnicodeDecodeError, AttributeError):
        raise QueryError(
            f"invalid cursor '{cursor}': pass a next_cursor from a previous page"
        ) from None


class GraphQueries:
    """Neighbours and traversal over a `KnowledgeGraph`.

    Args:
        kg: The graph.
        symmetric: Kinds read both ways (related_to, similar_to, ...).
    """

    def __init__(self, kg: KnowledgeGraph, symmetric: Iterable[str]) -> None:
        self.kg = kg
        self.g = kg.graph
        self.symmetric = frozenset(symmetric)

    def node_info(self, node: str) -> dict[str, Any]:
        data = self.g.nodes[node]
        info = {"id": node, "kind": data.get("kind", "pending")}
        for key in ("title", "type", "path", "note_id", "seq"):
            if key in data:
                info[key] = data[key]
        return info

    def require(self, node: str) -> None:
        if node not in self.g or self.g.nodes[node].get("kind") == "pending":
            raise QueryError(f"unknown node '{node}' (a note id, title, alias or chunk id)")

    def project(self, node: str, level: Level) -> str:
        """At note level a chunk stands for its note."""
        if level == "note" and self.g.nodes[node].get("kind") == "chunk":
            return str(self.g.nodes[node]["note_id"])
        return node

    def _seeds(self, node: str, level: Level) -> list[str]:
        if level == "note" and self.g.nodes[node].get("kind") == "note":
            return [node, *self.kg.chunks_of(node)]
        return [node]

    def edges_of(
        self,
        node: str,
        direction: Direction = "out",
        kinds: set[str] | None = None,
        include_deleted: bool = False,
        level: Level = "note",
    ) -> Iterator[tuple[str, Hop, dict[str, Any]]]:
        """(neighbour, hop, edge data) for every matching edge of `node`."""
        if direction not in DIRECTIONS:
            raise QueryError(f"direction must be one of {', '.join(DIRECTIONS)}, not '{direction}'")
        here = self.project(node, level)
        for seed in self._seeds(node, level):
            outgoing = (
                (v, Hop(key, data["kind"], u, v, "out"), data)
                for u, v, key, data in self.g.out_edges(seed, keys=True, data=True)
            )
            incoming = (
                (u, Hop(key, data["kind"], v, u, "in"), data)
                for u, v, key, data in self.g.in_edges(seed, keys=True, data=True)
            )
            for other, hop, data in itertools.chain(outgoing, incoming):
                yield from self._match(
                    here, other, hop, data, direction, kinds, include_deleted, level
                )

    def _match(
        self,
        here: str,
        other: str,
        hop: Hop,
        data: dict[str, Any],
        direction: Direction,
        kinds: set[str] | None,
        include_deleted: bool,
        level: Level,
    ) -> Iterator[tuple[str, Hop, dict[str, Any]]]:
        if not self._follows(hop.kind, hop.direction, data, direction, kinds, include_deleted):
            return
        neighbour = self.project(other, level)
        if neighbour != here:  # edges inside one note are not neighbours at note level
            yield neighbour, hop, data

    def _follows(
        self,
        kind: str,
        way: str,
        data: dict[str, Any],
        direction: Direction,
        kinds: set[str] | None,
        include_deleted: bool,
    ) -> bool:
        """Whether an edge of `kind`, met going `way` ("out" or "in"), is one a query in
        `direction` over `kinds` reads (symmetric kinds both ways; deleted ones when asked)."""
        if kinds is not None and kind not in kinds:
            return False
        if data.get("deleted") and not include_deleted:
            return False
        return direction == "both" or way == direction or kind in self.symmetric

    def neighbors(
        self,
        node: str,
        direction: Direction = "out",
        kinds: set[str] | None = None,
        page_size: int = 50,
        cursor: str | None = None,
        include_deleted: bool = False,
        level: Level = "note",
    ) -> NeighborPage:
        """One page of neighbours in a stable order (by node id), with the joining edges."""
        self.require(node)
        if page_size < 1:
            raise QueryError(f"page size must be at least 1, not {page_size}")
        after = decode_cursor(cursor) if cursor else None
        grouped: dict[str, dict[str, dict[str, Any]]] = {}
        for neighbour, hop, data in self.edges_of(node, direction, kinds, include_deleted, level):
            source = hop.source if hop.direction == "out" else hop.target  # as stored
            edge = {"id": hop.edge_id, "source_id": source, **data, "direction": hop.direction}
            grouped.setdefault(neighbour, {})[hop.edge_id] = edge
        ordered = sorted(grouped)
        start = 0
        if after is not None:
            start = next((i for i, n in enumerate(ordered) if n > after), len(ordered))
        page = ordered[start : start + page_size]
        items = [
            NeighborItem(self.node_info(n), sorted(grouped[n].values(), key=lambda e: e["id"]))
            for n in page
        ]
        more = start + page_size < len(ordered)
        return NeighborPage(items, len(ordered), encode_cursor(page[-1]) if more else None)

    def traverse(
        self,
        root: str,
        depth: int,
        direction: Direction = "out",
        kinds: set[str] | None = None,
        level: Level = "note",
    ) -> list[tuple[str, int, list[Hop]]]:
        """Breadth-first from `root` up to `depth` hops over active edges.

        Returns:
            (node, depth, path of hops from the root) for every node reached, root first.
        """
        self.require(root)
        if depth < 0:
            raise QueryError(f"depth must be 0 or more, not {depth}")
        start = self.project(root, level)
        seen: dict[str, tuple[int, list[Hop]]] = {start: (0, [])}
        queue = deque([start])
        nodes = self.g.nodes
        while queue:
            node = queue.popleft()
            hops, path = seen[node]
            if hops == depth:
                continue
            step = self._step(node, direction, kinds, level, seen)
            for neighbour in sorted(step):
                if nodes[neighbour].get("kind") != "pending":
                    seen[neighbour] = (hops + 1, [*path, step[neighbour]])
                    queue.append(neighbour)
        return [(node, hops, path) for node, (hops, path) in seen.items()]

    def _step(
        self,
        node: str,
        direction: Direction,
        kinds: set[str] | None,
        level: Level,
        seen: dict[str, Any],
    ) -> dict[str, Hop]:
        """The hop a walk takes from `node` to each neighbour not yet `seen`: of the
        matching active edges (as `edges_of`), the one with the smallest id. Only the chosen
        hops are built: beside a hub a step reads thousands of edges to notes already seen."""
        if direction not in DIRECTIONS:
            raise QueryError(f"direction must be one of {', '.join(DIRECTIONS)}, not '{direction}'")
        here = self.project(node, level)
        # NetworkX's own dicts, read-only: its views cost more than the walk itself here.
        nodes, succ, pred = self.g._node, self.g._succ, self.g._pred
        best: dict[str, Hop] = {}
        for seed in self._seeds(node, level):
            ways: tuple[tuple[Literal["out", "in"], Any], ...] = (
                ("out", succ[seed]),
                ("in", pred[seed]),
            )
            for way, adjacent in ways:
                for end, keyed in adjacent.items():
                    other = end
                    if level == "note" and nodes[end].get("kind") == "chunk":
                        other = nodes[end]["note_id"]
                    if other == here or other in seen:
                        continue
                    for key, data in keyed.items():
                        kind = data["kind"]
                        if not self._follows(kind, way, data, direction, kinds, False):
                            continue
                        chosen = best.get(other)
                        if chosen is None or key < chosen.edge_id:
                            best[other] = Hop(key, kind, seed, end, way)
        return best
