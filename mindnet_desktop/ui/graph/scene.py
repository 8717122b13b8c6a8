"""Builds the scene of one `GraphSlice`: edges, nodes (size by degree), the hover layer, the
title layer; plain C++ items (ellipses and paths, no Python subclasses, no shadows), so
painting thousands of them never calls back into Python. Beyond `BATCH_EDGES_FROM` edges
(a whole vault of tens of thousands of notes) one `EdgeBatch` paints every edge instead."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge
from mindnet_desktop.ui.graph.focus import HoverFocus
from mindnet_desktop.ui.graph.labels import KEY, LabelLayer
from mindnet_desktop.ui.graph.layout import Positions
from mindnet_desktop.ui.graph.style import (
    edge_geometry,
    edge_path,
    edge_pen,
    node_brush,
    node_radius,
    pen_for,
    pen_key,
    short_title,
)

__all__ = [
    "KEY",
    "VEIL_ALPHA",
    "Adjacency",
    "DrawnGraph",
    "EdgeBatch",
    "EdgeItems",
    "EdgeRows",
    "bounds",
    "build_scene",
    "parallel_bends",
]

VEIL_ALPHA = 215  # of 255: what a hover does not touch shows through at about 15 %
TITLE_PAPER_ALPHA = 200  # of 255: under a title, the edges beneath show through faintly
BATCH_EDGES_FROM = 20_000  # more edges: one `EdgeBatch` paints them all
BATCH_ALPHA = 0.35  # of each pen's opacity, for the batch's thin lines


@dataclass
class DrawnGraph:
    """A built scene and what the canvas needs to find its items again."""

    scene: QGraphicsScene
    nodes: dict[str, QGraphicsEllipseItem]
    edges: Mapping[str, QGraphicsPathItem]  # in the scene; or `EdgeItems` (made when asked)
    ids: list[str]
    index_of: dict[str, int]
    adjacent: Adjacency  # node -> ids of its edges
    edge_data: EdgeRows  # edge id -> its `SliceEdge`
    points: np.ndarray  # n x 2 scene centres, in `ids` order
    radii: np.ndarray
    degree: np.ndarray
    edge_layer: QGraphicsRectItem
    veil: QGraphicsRectItem  # over the nodes and edges, under the hovered ones: dims the rest
    focus: HoverFocus
    labels: LabelLayer
    hover_text: QGraphicsSimpleTextItem


def build_scene(
    parent: QWidget,
    graph: GraphSlice,
    positions: Positions,
    outline: QPen,
    ink: QBrush,
    base: QColor,
) -> DrawnGraph:
    """`graph` drawn at `positions` (missing nodes at the origin); `ink` for titles, `base`
    the background (the hover veil's colour)."""
    scene = QGraphicsScene(parent)
    # No index: long edges span many cells of a BSP tree, which then costs more to keep
    # and query than a plain list (measured with bench_graph).
    scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
    ids = list(graph.nodes)
    index = {node: i for i, node in enumerate(ids)}
    points = np.array([positions.get(node, (0.0, 0.0)) for node in ids], dtype=float)
    points = points.reshape(-1, 2)
    count = len(graph.edges)
    a = np.fromiter((index[edge.source] for edge in graph.edges), np.intp, count)
    b = np.fromiter((index[edge.target] for edge in graph.edges), np.intp, count)
    rows = EdgeRows(graph.edges)
    adjacent = Adjacency(ids, index, rows, a, b)
    degree = adjacent.degree().astype(float)
    radii = np.array([node_radius(int(d)) for d in degree])
    # Drawn in this order: the edge layer, the nodes, the veil, the hovered neighbourhood,
    # titles, the hover text. A layer is one parent: one call hides or shows all it holds.
    edge_layer, focus_layer, label_layer = (_layer() for _ in range(3))
    bends = parallel_bends(a, b, len(ids))
    geometry = edge_geometry(
        np.hstack([points[a], points[b]]), bends, np.stack([radii[a], radii[b]], 1)
    )
    edges: Mapping[str, QGraphicsPathItem]
    if len(graph.edges) > BATCH_EDGES_FROM:
        edges = EdgeItems(rows, geometry, bends)
        EdgeBatch(graph.edges, geometry, edge_layer)
    else:
        edges = {}
        for edge, bend, row in zip(graph.edges, bends.tolist(), geometry.tolist()):
            item = QGraphicsPathItem(edge_layer)
            item.setPen(edge_pen(edge))  # before the path: the bounds are computed once
            item.setPath(edge_path(row, bool(bend)))
            item.setData(KEY, ("edge", edge.id))
            edges[edge.id] = item
    nodes: dict[str, QGraphicsEllipseItem] = {}
    for i, node in enumerate(graph.nodes.values()):
        (x, y), r = points[i], radii[i]
        # Top-level items: children of a layer paint about a third slower (bench_graph).
        item = QGraphicsEllipseItem(x - r, y - r, 2 * r, 2 * r)
        item.setBrush(node_brush(node))
        item.setPen(outline)
        item.setData(KEY, ("node", node.id))
        nodes[node.id] = item
    veil = QGraphicsRectItem(-1e7, -1e7, 2e7, 2e7)
    veil.setPen(Qt.PenStyle.NoPen)
    veil.setBrush(QBrush(QColor(base.red(), base.green(), base.blue(), VEIL_ALPHA)))
    veil.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # drags pan through it
    veil.hide()
    paper = QColor(base.red(), base.green(), base.blue(), TITLE_PAPER_ALPHA)
    labels = LabelLayer(
        label_layer, [short_title(n.title) for n in graph.nodes.values()], ink, paper
    )
    scene.addItem(edge_layer)  # with its children: cheaper than item by item
    for item in nodes.values():
        scene.addItem(item)
    for layer in (veil, focus_layer, label_layer):
        scene.addItem(layer)
    hover = QGraphicsSimpleTextItem()
    hover.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    hover.hide()
    scene.addItem(hover)
    return DrawnGraph(
        scene,
        nodes,
        edges,
        ids,
        index,
        adjacent,
        rows,
        points,
        radii,
        degree,
        edge_layer,
        veil,
        HoverFocus(focus_layer),
        labels,
        hover,
    )


def parallel_bends(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """The bend of each edge from node `a[i]` to `b[i]`: the first of a pair's edges is
    straight (0), the next ones bow out 14, -14, 28, -28 ... px, in edge order."""
    if not len(a):
        return np.zeros(0)
    pair = a.astype(np.int64) * max(n, 1) + b
    order = np.argsort(pair, kind="stable")
    ranked = pair[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    nth = np.empty(len(a), dtype=np.int64)
    nth[order] = np.arange(len(a)) - np.repeat(starts, np.diff(np.r_[starts, len(a)]))
    sign = np.where(nth % 2 == 1, 1.0, -1.0)
    return np.where(nth == 0, 0.0, 14.0 * ((nth + 1) // 2) * sign)


def grouped(keys: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The positions of `keys` (each in 0 .. count - 1) sorted by key, stable, and where
    each key's run starts: key k's positions are `order[starts[k] : starts[k + 1]]`."""
    order = np.argsort(keys, kind="stable")
    return order, np.searchsorted(keys[order], np.arange(count + 1))


class EdgeRows(Mapping[str, SliceEdge]):
    """Edge id -> its `SliceEdge` and its row in the slice's edge list; the id index is made
    when first asked for (most whole-vault views never ask)."""

    def __init__(self, edges: list[SliceEdge]) -> None:
        self.edges = edges
        self._row: dict[str, int] | None = None

    def row(self, edge_id: str) -> int:
        """The edge's row (KeyError for an unknown edge, as a dict)."""
        if self._row is None:
            self._row = {edge.id: i for i, edge in enumerate(self.edges)}
        return self._row[edge_id]

    def __getitem__(self, edge_id: str) -> SliceEdge:
        return self.edges[self.row(edge_id)]

    def __iter__(self) -> Iterator[str]:
        return (edge.id for edge in self.edges)

    def __len__(self) -> int:
        return len(self.edges)


class Adjacency(Mapping[str, list[str]]):
    """Node id -> the ids of its edges (either end; a loop once), in edge order. The index
    behind it is built when first asked for: a hover or a neighbourhood asks, a whole-vault
    view's first draw does not."""

    def __init__(
        self,
        ids: list[str],
        index: dict[str, int],
        rows: EdgeRows,
        a: np.ndarray,
        b: np.ndarray,
    ) -> None:
        self._ids, self._index, self._rows = ids, index, rows
        self._a, self._b = a, b
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None

    def degree(self) -> np.ndarray:
        """Each node's edge count, in `ids` order."""
        n = len(self._ids)
        other = self._b[self._a != self._b]
        return np.bincount(self._a, minlength=n) + np.bincount(other, minlength=n)

    def edge_rows(self, node_id: str) -> np.ndarray:
        """The rows of the node's edges, in edge order (KeyError for an unknown node)."""
        i = self._index[node_id]
        if self._sorted is None:
            loop = self._a == self._b
            ends = np.concatenate([self._a, self._b[~loop]])
            edge_rows = np.concatenate([np.arange(len(self._a)), np.flatnonzero(~loop)])
            order, starts = grouped(ends, len(self._ids))
            self._sorted = (edge_rows[order], starts)
        edge_rows, starts = self._sorted
        return np.sort(edge_rows[starts[i] : starts[i + 1]])

    def neighbours(self, node_id: str) -> list[str]:
        """The node and every node one edge away (either way), in `ids` order."""
        rows = self.edge_rows(node_id)
        ends = np.concatenate([self._a[rows], self._b[rows], [self._index[node_id]]])
        return [self._ids[j] for j in np.unique(ends).tolist()]

    def __getitem__(self, node_id: str) -> list[str]:
        edges = self._rows.edges  # KeyError below for an unknown node, as a dict
        return [edges[r].id for r in self.edge_rows(node_id).tolist()]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class EdgeItems(Mapping[str, QGraphicsPathItem]):
    """The edges of a large graph as items, each made when first asked for and kept, never
    in the scene: the hovered note's edges are drawn from them (`HoverFocus` copies them, or
    a hub's are painted by `painted`), and their paths say where an edge's middle is."""

    def __init__(self, rows: EdgeRows, geometry: np.ndarray, bends: np.ndarray) -> None:
        self._rows, self._geometry, self._bends = rows, geometry, bends
        self._made: dict[str, QGraphicsPathItem] = {}

    def __getitem__(self, edge_id: str) -> QGraphicsPathItem:
        item = self._made.get(edge_id)
        if item is None:
            i = self._rows.row(edge_id)  # KeyError for an unknown edge, as a dict
            item = QGraphicsPathItem()
            item.setPen(edge_pen(self._rows.edges[i]))
            item.setPath(edge_path(self._geometry[i].tolist(), bool(self._bends[i])))
            item.setData(KEY, ("edge", edge_id))
            self._made[edge_id] = item
        return item

    def painted(self, rows: np.ndarray, width: float) -> EdgeBatch:
        """One item that paints the edges of `rows` (`Adjacency.edge_rows`) as lines `width`
        px wide at their pens' full strength: a hovered hub's edges, too many to copy."""
        edges = [self._rows.edges[i] for i in rows.tolist()]
        return EdgeBatch(edges, self._geometry[rows], None, width, 1.0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class EdgeBatch(QGraphicsItem):
    """Every edge of a large graph painted by one item: straight lines from node to node (no
    arrow heads, parallel edges on one line), one `drawLines` call per pen. 174,000 edges
    as items took ~2.5 s to build and ~1 s to paint; as one picture ~0.1 s each. The price:
    an edge is not an item one can point at; a hovered note's edges are (see `EdgeItems`),
    and a note's neighbourhood view draws every edge as an item again."""

    def __init__(
        self,
        edges: list[SliceEdge],
        geometry: np.ndarray,
        parent: QGraphicsItem | None,
        width: float = 1.0,
        alpha: float = BATCH_ALPHA,
    ) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        lines = geometry[:, [0, 1, 4, 5]]  # start and end of each line
        # The edges by pen: one code per pen key, then one sort.
        codes: dict[tuple[str, bool, bool], int] = {}
        code = np.fromiter(
            (codes.setdefault(pen_key(e), len(codes)) for e in edges), np.intp, len(edges)
        )
        order, starts = grouped(code, len(codes))
        self._groups = []
        # The most common pen first: the rarer kinds are drawn over it, not buried under it.
        sizes = np.diff(starts)
        for key, c in sorted(codes.items(), key=lambda item: -sizes[item[1]]):
            rows = order[starts[c] : starts[c + 1]]
            light = QPen(pen_for(*key))  # thin and see-through: where many run, it darkens
            colour = light.color()
            colour.setAlpha(int(colour.alpha() * alpha))
            light.setColor(colour)
            light.setWidthF(width)
            coords = lines[rows]
            qlines = [QLineF(*row) for row in coords.tolist()]
            low = np.minimum(coords[:, :2], coords[:, 2:])
            high = np.maximum(coords[:, :2], coords[:, 2:])
            self._groups.append((light, qlines, low, high))
        if len(lines):
            x0, y0 = np.minimum(lines[:, :2], lines[:, 2:]).min(axis=0)
            x1, y1 = np.maximum(lines[:, :2], lines[:, 2:]).max(axis=0)
            self._rect = QRectF(x0, y0, x1 - x0, y1 - y0).adjusted(-2, -2, 2, 2)
        else:
            self._rect = QRectF()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: object = None
    ) -> None:
        exposed = option.exposedRect  # type: ignore[attr-defined]
        whole = exposed.contains(self._rect)
        box = (exposed.left(), exposed.top(), exposed.right(), exposed.bottom())
        for pen, qlines, low, high in self._groups:
            painter.setPen(pen)
            if whole:
                painter.drawLines(qlines)
                continue
            # Zoomed in: only the lines whose box meets the exposed part.
            seen = (high[:, 0] >= box[0]) & (low[:, 0] <= box[2])
            seen &= (high[:, 1] >= box[1]) & (low[:, 1] <= box[3])
            picked = np.flatnonzero(seen)
            if len(picked):
                painter.drawLines([qlines[i] for i in picked.tolist()])


def bounds(points: np.ndarray, radii: np.ndarray) -> QRectF:
    """The scene rectangle holding every node (a small one at the origin when none)."""
    if not len(points):
        return QRectF(-1, -1, 2, 2)
    low = (points - radii[:, None]).min(axis=0)
    high = (points + radii[:, None]).max(axis=0)
    return QRectF(low[0], low[1], high[0] - low[0], high[1] - low[1])


def _layer() -> QGraphicsRectItem:
    """An invisible parent item: one call dims, hides or shows all its children."""
    layer = QGraphicsRectItem()
    layer.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
    return layer
