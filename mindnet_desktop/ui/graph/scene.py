"""Builds the scene of one `GraphSlice`: edges, nodes (size by degree), the hover layer, the
title layer; plain C++ items (ellipses and paths, no Python subclasses, no shadows), so
painting thousands of them never calls back into Python."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QWidget,
)

from mindnet_desktop.core.graph.slice import GraphSlice
from mindnet_desktop.ui.graph.labels import KEY, HoverFocus, LabelLayer
from mindnet_desktop.ui.graph.layout import Positions
from mindnet_desktop.ui.graph.style import (
    edge_geometry,
    edge_path,
    edge_pen,
    node_brush,
    node_radius,
    short_title,
)

__all__ = ["KEY", "VEIL_ALPHA", "DrawnGraph", "bounds", "build_scene"]

VEIL_ALPHA = 215  # of 255: what a hover does not touch shows through at about 15 %


@dataclass
class DrawnGraph:
    """A built scene and what the canvas needs to find its items again."""

    scene: QGraphicsScene
    nodes: dict[str, QGraphicsEllipseItem]
    edges: dict[str, QGraphicsPathItem]
    ids: list[str]
    index_of: dict[str, int]
    adjacent: dict[str, list[str]]  # node -> ids of its edges
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
    adjacent: dict[str, list[str]] = {node: [] for node in ids}
    for edge in graph.edges:
        adjacent[edge.source].append(edge.id)
        if edge.target != edge.source:
            adjacent[edge.target].append(edge.id)
    degree = np.array([len(adjacent[n]) for n in ids], dtype=float)
    radii = np.array([node_radius(int(d)) for d in degree])
    # Drawn in this order: the edge layer, the nodes, the veil, the hovered neighbourhood,
    # titles, the hover text. A layer is one parent: one call hides or shows all it holds.
    edge_layer, focus_layer, label_layer = (_layer() for _ in range(3))
    seen: dict[tuple[str, str], int] = {}
    bends, ends, ends_radii = [], [], []
    for edge in graph.edges:
        pair = (edge.source, edge.target)
        nth = seen[pair] = seen.get(pair, -1) + 1
        bends.append(0.0 if nth == 0 else 14.0 * ((nth + 1) // 2) * (1 if nth % 2 else -1))
        a, b = index[edge.source], index[edge.target]
        ends.append((*points[a], *points[b]))
        ends_radii.append((radii[a], radii[b]))
    rows = edge_geometry(
        np.array(ends).reshape(-1, 4), np.array(bends), np.array(ends_radii).reshape(-1, 2)
    ).tolist()
    edges: dict[str, QGraphicsPathItem] = {}
    for edge, bend, row in zip(graph.edges, bends, rows):
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
    labels = LabelLayer(label_layer, [short_title(n.title) for n in graph.nodes.values()], ink)
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
        points,
        radii,
        degree,
        edge_layer,
        veil,
        HoverFocus(focus_layer),
        labels,
        hover,
    )


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
