"""The hovered neighbourhood drawn on top of the veil: the hovered node, its neighbours and
its edges at full strength while the veil dims the rest (children of a dimmed layer cannot
be brighter than it, so they are drawn again on a layer above it).

A node of ordinary degree gets copies of its items, so its edges keep their arrows and
tooltips. A hub of a large vault (tens of thousands of edges in the whole-vault view) gets
two items that paint all of them instead: at 50,000 notes, hovering the busiest note (23,900
edges, 12,245 neighbours) took 0.88–1.34 s with copies and takes 0.35–0.75 s
(docs/graph-view.md)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
)

from mindnet_desktop.ui.graph.labels import KEY

FOCUS_WIDTH = 2.4  # px: a hovered note's edges, thicker than the rest
# Beyond this many edges, a hovered note's edges and neighbours are painted by one item each.
# Below it copies cost a few milliseconds and keep arrow heads and edge tooltips; a note of
# the generated vaults has ~3 edges, and only hubs pass it.
FOCUS_ITEMS_UP_TO = 400


class HoverFocus:
    """What is drawn over the veil while a node is hovered, on its own layer."""

    def __init__(self, layer: QGraphicsRectItem) -> None:
        self.layer = layer
        self.nodes: set[str] = set()

    def clear(self) -> None:
        """Remove what the last hover drew."""
        for item in self.layer.childItems():
            item.setParentItem(None)
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.nodes = set()

    def draw(self, edges: list[QGraphicsPathItem], nodes: list[QGraphicsEllipseItem]) -> None:
        """Copies of `edges` (thicker) and `nodes`, which keep their keys: hovering one of
        them shows its tooltip as the original would."""
        self.clear()
        for source in edges:
            copy = QGraphicsPathItem(source.path(), self.layer)
            pen = QPen(source.pen())
            pen.setWidthF(FOCUS_WIDTH)
            copy.setPen(pen)
            copy.setData(KEY, source.data(KEY))
        for source in nodes:
            copy = QGraphicsEllipseItem(source.rect(), self.layer)
            copy.setBrush(source.brush())
            copy.setPen(source.pen())
            copy.setData(KEY, source.data(KEY))
            self.nodes.add(source.data(KEY)[1])

    def draw_painted(self, edges: QGraphicsItem, nodes: list[QGraphicsEllipseItem]) -> None:
        """A hub's `edges` as one painting item (see `EdgeItems.painted`), and its `nodes`
        painted by one `DiscBatch`. Neither has a key, so pointing at a neighbour finds the
        node itself under the veil."""
        self.clear()
        edges.setParentItem(self.layer)
        DiscBatch(nodes, self.layer)
        self.nodes = {source.data(KEY)[1] for source in nodes}


class DiscBatch(QGraphicsItem):
    """Circles painted like the given node items (their rectangles, brushes and pens), by one
    item: one `drawEllipse` each, brush and pen set once per distinct pair."""

    def __init__(self, nodes: list[QGraphicsEllipseItem], parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        groups: dict[tuple[int, int, float], list[QGraphicsEllipseItem]] = {}
        for node in nodes:
            pen = node.pen()
            key = (node.brush().color().rgba(), pen.color().rgba(), pen.widthF())
            groups.setdefault(key, []).append(node)
        self._groups = []
        boxes = []
        for members in groups.values():
            rects = [node.rect() for node in members]
            box = np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects])
            self._groups.append((members[0].brush(), members[0].pen(), rects, box))
            boxes.append(box)
        if boxes:
            every = np.vstack(boxes)
            (x0, y0), (x1, y1) = every[:, :2].min(axis=0), every[:, 2:].max(axis=0)
            self._rect = QRectF(x0, y0, x1 - x0, y1 - y0).adjusted(-2, -2, 2, 2)
        else:
            self._rect = QRectF()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: object = None
    ) -> None:
        exposed = option.exposedRect  # type: ignore[attr-defined]
        left, top, right, bottom = exposed.left(), exposed.top(), exposed.right(), exposed.bottom()
        for brush, pen, rects, box in self._groups:
            painter.setBrush(brush)
            painter.setPen(pen)
            seen = (box[:, 2] >= left) & (box[:, 0] <= right)
            seen &= (box[:, 3] >= top) & (box[:, 1] <= bottom)
            for i in np.flatnonzero(seen).tolist():
                painter.drawEllipse(rects[i])
