"""The drawing surface of the graph view: a `QGraphicsView` that draws a `GraphSlice` at given
positions, zooms with the wheel, pans by dragging, shows an edge's kind on hover and reports
clicks and context-menu requests on nodes and edges.

Items are plain C++ items (ellipses and paths, no Python subclasses, no shadows), so painting
thousands of them never calls back into Python.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QToolTip,
    QWidget,
)

from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode
from mindnet_desktop.ui.graph_layout import Positions
from mindnet_desktop.ui.graph_style import (
    RADIUS,
    colour_for,
    edge_geometry,
    edge_path,
    edge_pen,
    node_brush,
    short_title,
)
from mindnet_desktop.ui.i18n import fill

LABELS_UP_TO = 300  # node titles are drawn for small graphs only
ANTIALIAS_UP_TO = 3000  # items; beyond, speed wins over smooth lines
HIDE_EDGES_WHILE_MOVING = 3000  # edges
SETTLE_MS = 180  # after the last zoom or pan step, the edges come back
KEY = 0  # QGraphicsItem.data key of ("node" | "edge", id)


class GraphCanvas(QGraphicsView):
    """Draws one slice; knows nothing of the service."""

    node_clicked = Signal(str)
    node_double_clicked = Signal(str)
    menu_requested = Signal(str, str, QPoint)  # role ("node" / "edge"), id, global position

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlags(
            QGraphicsView.OptimizationFlag.DontSavePainterState
            | QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing
        )
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setMouseTracking(True)
        self._edge_layer = QGraphicsRectItem()
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._show_edges)
        self.nodes: dict[str, QGraphicsEllipseItem] = {}
        self.edges: dict[str, QGraphicsPathItem] = {}
        self.slice = GraphSlice()
        self._press: QPoint | None = None
        self._hover = QGraphicsSimpleTextItem()
        self._marks: dict[str, tuple[str | None, QPen]] = {}
        self.edge_data: dict[str, SliceEdge] = {}
        self._outline = QPen(QColor("#303030"), 1.0)
        self._outline.setCosmetic(True)

    # -- drawing -------------------------------------------------------------------------
    def show_slice(self, graph: GraphSlice, positions: Positions) -> None:
        """Replace the scene by `graph` drawn at `positions` (missing nodes at the origin)."""
        self._show_slice(graph, positions)

    def _show_slice(self, graph: GraphSlice, positions: Positions) -> None:
        scene = QGraphicsScene(self)
        # No index: long edges span many cells of a BSP tree, which then costs more to keep
        # and query than a plain list (measured with bench_graph).
        scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.nodes, self.edges, self.slice = {}, {}, graph
        self.edge_data = {edge.id: edge for edge in graph.edges}
        # Items added later are drawn on top: edges first, then nodes, then the hover label.
        # The edges share one parent, so one call hides or shows them all.
        self._edge_layer = QGraphicsRectItem()
        self._edge_layer.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        seen: dict[tuple[str, str], int] = {}
        bends, ends = [], []
        origin = (0.0, 0.0)
        for edge in graph.edges:
            pair = (edge.source, edge.target)
            nth = seen[pair] = seen.get(pair, -1) + 1
            bends.append(0.0 if nth == 0 else 14.0 * ((nth + 1) // 2) * (1 if nth % 2 else -1))
            ends.append((*positions.get(edge.source, origin), *positions.get(edge.target, origin)))
        rows = edge_geometry(np.array(ends).reshape(-1, 4), np.array(bends)).tolist()
        for edge, bend, points in zip(graph.edges, bends, rows):
            item = QGraphicsPathItem(self._edge_layer)
            item.setPen(edge_pen(edge))  # before the path: the bounds are computed once
            item.setPath(edge_path(points, bool(bend)))
            item.setData(KEY, ("edge", edge.id))
            self.edges[edge.id] = item
        scene.addItem(self._edge_layer)  # with its children: cheaper than item by item
        labels = len(graph.nodes) <= LABELS_UP_TO
        ink = self.palette().text()  # readable on the light and the dark palette
        for node in graph.nodes.values():
            x, y = positions.get(node.id, (0.0, 0.0))
            item = QGraphicsEllipseItem(x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS)
            item.setBrush(node_brush(node))
            item.setPen(self._outline)
            item.setData(KEY, ("node", node.id))
            if labels:
                text = QGraphicsSimpleTextItem(short_title(node.title), item)
                text.setBrush(ink)
                text.setPos(x + RADIUS + 2, y - RADIUS)
            scene.addItem(item)
            self.nodes[node.id] = item
        self._hover = QGraphicsSimpleTextItem()
        self._hover.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self._hover.hide()
        scene.addItem(self._hover)
        smooth = len(graph.nodes) + len(graph.edges) <= ANTIALIAS_UP_TO
        self.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
        old = self.scene()
        self.setScene(scene)
        old.deleteLater()
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-60, -60, 60, 60))
        for node_id, _ in self._marks.values():
            if node_id:
                self._style(node_id)

    def tooltip(self, role: str, item_id: str) -> str:
        """The tooltip of a node or an edge (made when shown: thousands of items draw faster
        without a tooltip string each)."""
        if role == "node":
            return self.node_tooltip(self.slice.nodes[item_id])
        return self.edge_tooltip(self.edge_data[item_id])

    def position(self, node_id: str) -> QPointF:
        """A node's centre in scene coordinates."""
        return self.nodes[node_id].rect().center()

    def node_tooltip(self, node: SliceNode) -> str:
        if node.kind != "note":
            return fill(self.tr("Unresolved link: %1"), node.title)
        return fill(self.tr("%1\nType: %2\nPath: %3"), node.title, node.type, node.path)

    def edge_tooltip(self, edge: SliceEdge) -> str:
        text = fill(
            self.tr("%1: %2 → %3\nProvenance: %4\nRule: %5\nConfidence: %6"),
            edge.kind,
            self._title(edge.source),
            self._title(edge.target),
            edge.provenance,
            edge.rule_id,
            f"{edge.confidence:.2f}",
        )
        return text + ("\n" + self.tr("(deleted)") if edge.deleted else "")

    def _title(self, node_id: str) -> str:
        node = self.slice.nodes.get(node_id)
        return node.title if node else node_id

    def mark(self, key: str, node_id: str | None, colour: str) -> None:
        """Outline one node; `key` names the mark ("selected", "source", ...)."""
        pen = QPen(QColor(colour), 3.0)
        pen.setCosmetic(True)
        old = self._marks.get(key, (None, pen))[0]
        self._marks[key] = (node_id, pen)
        for item_id in {old, node_id} - {None}:
            self._style(str(item_id))

    def marked(self, key: str) -> str | None:
        return self._marks.get(key, (None, None))[0]

    def _style(self, node_id: str) -> None:
        item = self.nodes.get(node_id)
        if item is not None:
            pens = [pen for marked, pen in self._marks.values() if marked == node_id]
            item.setPen(pens[-1] if pens else self._outline)

    def centre(self) -> QPointF:
        """The scene point in the middle of the viewport."""
        return self.mapToScene(self.viewport().rect().center())

    def center_on(self, node_id: str) -> None:
        if node_id in self.nodes:
            self.centerOn(self.position(node_id))

    # -- hit testing ---------------------------------------------------------------------
    def hit(self, pos: QPoint) -> tuple[str, str] | None:
        """(role, id) of the node, else the edge, within a few pixels of a viewport point."""
        found = self.items(QRect(pos.x() - 4, pos.y() - 4, 9, 9))
        keys = [item.data(KEY) for item in found]
        for role in ("node", "edge"):
            for key in keys:
                if key and key[0] == role:
                    return role, key[1]
        return None

    def viewport_pos(self, role: str, item_id: str) -> QPoint:
        """Where a node or edge (its middle) is on the viewport (for tests and menus)."""
        if role == "node":
            return self.mapFromScene(self.position(item_id))
        return self.mapFromScene(self.edges[item_id].path().pointAtPercent(0.5))

    # -- zoom, pan, hover, clicks ---------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        self.zoom_by(1.0015 ** event.angleDelta().y())
        event.accept()

    def zoom_by(self, factor: float) -> None:
        """Zoom around the mouse; a large graph hides its edges until the zooming pauses
        (like cytoscape.js's hideEdgesOnViewport), so each step paints only the nodes."""
        zoom = self.transform().m11() * factor
        if not 0.02 < zoom < 20:
            return
        self._moving()
        self.scale(factor, factor)

    def _moving(self) -> None:
        """A large graph hides its edges while the user zooms or pans (transparent: the
        painter then skips them at no cost), and shows them when the moving pauses."""
        if len(self.edges) > HIDE_EDGES_WHILE_MOVING:
            self._edge_layer.setOpacity(0.0)
            self._settle.start()

    def settle_now(self) -> None:
        """End the pause after zooming or panning at once: the edges are drawn again."""
        self._settle.stop()
        self._show_edges()

    def _show_edges(self) -> None:
        self._edge_layer.setOpacity(1.0)

    def settled(self) -> bool:
        """Whether the edges are drawn (no zoom or pan in progress)."""
        return self._edge_layer.opacity() > 0

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        """+ and - zoom, 0 shows the whole graph."""
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(0.8)
        elif key == Qt.Key.Key_0:
            self.fit()
        else:
            super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        pos = event.position().toPoint()
        clicked = self._press is not None and (pos - self._press).manhattanLength() < 4
        self._press = None
        super().mouseReleaseEvent(event)
        if clicked and event.button() == Qt.MouseButton.LeftButton:
            found = self.hit(pos)
            if found and found[0] == "node":
                self.node_clicked.emit(found[1])

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        found = self.hit(event.position().toPoint())
        if found and found[0] == "node":
            self.node_double_clicked.emit(found[1])
        else:
            super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.buttons() != Qt.MouseButton.NoButton:
            self._moving()  # dragging pans the view
            super().mouseMoveEvent(event)
            return
        super().mouseMoveEvent(event)
        found = self.hit(event.position().toPoint())
        if found and found[0] == "edge":
            edge = self.edge_data[found[1]]
            self._hover.setText(edge.kind)
            self._hover.setBrush(QBrush(colour_for(edge.kind).darker(130)))
            self._hover.setPos(self.edges[edge.id].path().pointAtPercent(0.5))
            self._hover.show()
        else:
            self._hover.hide()

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            found = self.hit(event.pos())
            if found:
                QToolTip.showText(event.globalPos(), self.tooltip(*found), self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def hover_text(self) -> str:
        """The edge label shown under the mouse ("" when none)."""
        return self._hover.text() if self._hover.isVisible() else ""

    def contextMenuEvent(self, event) -> None:  # noqa: N802, ANN001 - Qt API
        found = self.hit(event.pos())
        if found:
            self.menu_requested.emit(found[0], found[1], event.globalPos())
            event.accept()

    def fit(self) -> None:
        rect: QRectF = self.scene().sceneRect()
        if rect.width() < self.viewport().width() and rect.height() < self.viewport().height():
            self.resetTransform()
            self.centerOn(rect.center())
        else:
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
