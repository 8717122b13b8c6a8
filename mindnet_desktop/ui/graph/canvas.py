"""The drawing surface of the graph view: a `QGraphicsView` that draws a `GraphSlice` at given
positions (node size by degree, titles that never overlap), zooms with the wheel, pans by
dragging, highlights a hovered node's neighbourhood, shows an edge's kind on hover and reports
clicks and context-menu requests on nodes and edges.

Items are plain C++ items (ellipses and paths, no Python subclasses, no shadows), so painting
thousands of them never calls back into Python; past thousands of edges a few batch items
paint many at once instead (`scene.EdgeBatch`, and a hovered hub's `focus.DiscBatch`).
"""

from __future__ import annotations

from collections.abc import Mapping

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
    QGraphicsScene,
    QGraphicsView,
    QToolTip,
    QWidget,
)

from mindnet_desktop.core.gcpause import paused_gc
from mindnet_desktop.core.graph.slice import GraphSlice, SliceEdge, SliceNode
from mindnet_desktop.ui.graph.focus import FOCUS_ITEMS_UP_TO, FOCUS_WIDTH
from mindnet_desktop.ui.graph.layout import Positions
from mindnet_desktop.ui.graph.scene import KEY, VEIL_ALPHA, EdgeItems, bounds, build_scene
from mindnet_desktop.ui.graph.style import colour_for
from mindnet_desktop.ui.support.i18n import fill

MAX_FIT_ZOOM = 2.0
DIM_EDGES = 0.5  # under the veil: faint
ANTIALIAS_UP_TO = 3000  # items; beyond, speed wins over smooth lines
HIDE_EDGES_WHILE_MOVING = 3000  # edges
SETTLE_MS = 180  # after the last zoom or pan step, the edges come back


class GraphCanvas(QGraphicsView):
    """Draws one slice; knows nothing of the service."""

    node_clicked = Signal(str)
    node_double_clicked = Signal(str)
    menu_requested = Signal(str, str, QPoint)  # role ("node" / "edge"), id, global position
    hovered = Signal(str)  # the node under the mouse ("" when none)

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
        for policy in (self.setHorizontalScrollBarPolicy, self.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # drag to pan, like Obsidian
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._show_edges)
        self._settle.timeout.connect(self.update_labels)
        self._relabel = QTimer(self)
        self._relabel.setSingleShot(True)
        self._relabel.setInterval(40)  # after a burst of scroll events, once
        self._relabel.timeout.connect(self.update_labels)
        self._press: QPoint | None = None
        self._marks: dict[str, tuple[str | None, QPen]] = {}
        self._outline = QPen(QColor("#303030"), 1.0)
        self._outline.setCosmetic(True)
        self.show_slice(GraphSlice(), {})  # every drawing attribute, for an empty graph

    # -- drawing -------------------------------------------------------------------------
    def show_slice(self, graph: GraphSlice, positions: Positions) -> None:
        """Replace the scene by `graph` drawn at `positions` (missing nodes at the origin)."""
        palette = self.palette()
        with paused_gc():  # a whole vault's items: 1.2 s of collections at 50,000 notes
            drawn = build_scene(
                self, graph, positions, self._outline, palette.text(), palette.base().color()
            )
        scene = drawn.scene
        self.slice, self.nodes, self.edges = graph, drawn.nodes, drawn.edges
        self.edge_data: Mapping[str, SliceEdge] = drawn.edge_data  # id index made when asked
        self.hover_node = ""
        self.node_notes: dict[str, str] = {}  # a line more in a node's tooltip (the view's)
        # Node arrays in `_ids` order: scene centres, radii, edge counts.
        self._ids, self._index_of, self._adjacent = drawn.ids, drawn.index_of, drawn.adjacent
        self._points, self._radii, self.degree = drawn.points, drawn.radii, drawn.degree
        self._edge_layer, self._veil = drawn.edge_layer, drawn.veil
        self._focus, self.labels, self._hover = drawn.focus, drawn.labels, drawn.hover_text
        self._edge_opacity = 1.0
        self._full_labels: set[int] = set()  # titles of the last full pass
        smooth = len(graph.nodes) + len(graph.edges) <= ANTIALIAS_UP_TO
        self.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
        # Room around the nodes, so any of them can be centred (search, focus). Set before
        # the view takes the scene, which would otherwise measure every item first (0.36 s
        # at 50,000 notes).
        rect = self.nodes_rect()
        room = max(rect.width(), rect.height(), 1000.0)
        scene.setSceneRect(rect.adjusted(-room, -room, room, room))
        old = self.scene()
        self.setScene(scene)
        old.deleteLater()
        for node_id, _ in self._marks.values():
            if node_id:
                self._style(node_id)

    def nodes_rect(self) -> QRectF:
        """The scene rectangle holding every node (titles may reach beyond)."""
        return bounds(self._points, self._radii)

    def set_brushes(self, brushes: dict[str, QBrush]) -> None:
        """Recolour nodes (colour by type, folder or community)."""
        for node_id, brush in brushes.items():
            item = self.nodes.get(node_id)
            if item is not None:
                item.setBrush(brush)

    # -- titles and hover ---------------------------------------------------------------
    def update_labels(self, quick: bool = False) -> None:
        """Show the titles that fit at this zoom, most important first (selected, hovered
        and its neighbours, then by degree); none of them overlap, and none covers a node,
        but while a node is hovered its neighbours' titles may cover the notes under the
        veil. `quick` (a hover) only reconsiders the titles of the last full pass and the
        ranked nodes."""
        near = self.neighbourhood(self.hover_node) if self.hover_node else set()
        rank = {self._index_of[n]: 2 for n in near}
        if self.hover_node:
            rank[self._index_of[self.hover_node]] = 1
        selected = self.marked("selected")
        if selected in self._index_of:
            rank[self._index_of[str(selected)]] = 0
        faded = {i for i, n in enumerate(self._ids) if n not in near} if near else set()
        view = self.viewport().rect()
        self.labels.update(
            self.viewportTransform(),
            self._points,
            self._radii,
            self.degree,
            rank,
            faded,
            (view.width(), view.height()),
            self._full_labels if quick else None,
            {self._index_of[n] for n in near} if near else None,
        )
        if not quick:
            self._full_labels = set(self.labels.shown)

    def neighbourhood(self, node_id: str) -> set[str]:
        """The node and the nodes one edge away (either way)."""
        if node_id not in self._index_of:
            return {node_id}
        return set(self._adjacent.neighbours(node_id))

    def highlight(self, node_id: str) -> None:
        """Hovering: the node, its edges and its neighbours drawn on top at full strength,
        everything else dimmed ("" ends it). Costs the node's degree, not the graph's size:
        the rest is dimmed through its layers' opacity."""
        if node_id == self.hover_node or (node_id and node_id not in self.nodes):
            return
        self.hover_node = node_id
        dim = bool(node_id)
        # A large graph hides the other edges: faint, they would cost a full paint each time.
        faint = DIM_EDGES if len(self.edges) <= HIDE_EDGES_WHILE_MOVING else 0.0
        self._edge_opacity = faint if dim else 1.0
        if self.settled():
            self._edge_layer.setOpacity(self._edge_opacity)
        self._veil.setVisible(dim)
        rows = self._adjacent.edge_rows(node_id) if dim else np.zeros(0, dtype=np.intp)
        nodes = [self.nodes[n] for n in sorted(self.neighbourhood(node_id))] if dim else []
        if isinstance(self.edges, EdgeItems) and len(rows) > FOCUS_ITEMS_UP_TO:
            self._focus.draw_painted(self.edges.painted(rows, FOCUS_WIDTH), nodes)
        else:
            edges = self.slice.edges  # the adjacency's rows are rows of the slice's edges
            self._focus.draw([self.edges[edges[r].id] for r in rows.tolist()], nodes)
        self.update_labels(quick=True)
        self.hovered.emit(node_id)

    def node_opacity(self, node_id: str) -> float:
        """How strongly a node is drawn now (1: full; tests check the hover dimming)."""
        if node_id in self._focus.nodes:
            return 1.0
        veiled = 1 - VEIL_ALPHA / 255 if self._veil.isVisible() else 1.0
        return veiled * self.nodes[node_id].effectiveOpacity()

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
        text = fill(self.tr("%1\nType: %2\nPath: %3"), node.title, node.type, node.path)
        return f"{text}\n{self.node_notes[node.id]}" if node.id in self.node_notes else text

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

    def zoom_to_read(self, node_id: str) -> None:
        """Centre a node, zoomed in to natural size if the view is farther out (search)."""
        if self.transform().m11() < 1.0:
            self.setTransform(self.transform().fromScale(1.0, 1.0))
        self.center_on(node_id)
        self.update_labels()

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
        self._relabel.start()

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
        self._edge_layer.setOpacity(self._edge_opacity)

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
        self.highlight(found[1] if found and found[0] == "node" else "")
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

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        self.highlight("")
        super().leaveEvent(event)

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt API
        super().scrollContentsBy(dx, dy)
        self._relabel.start()  # panned: other nodes are in view

    def resizeEvent(self, event: QEvent) -> None:  # noqa: N802, D102 - Qt API
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._relabel.start()

    def fit(self) -> None:
        """Every node in view and filling it (a tiny graph at most twice its natural
        size), titles chosen anew."""
        rect = self.nodes_rect().adjusted(-30, -30, 30, 30)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.transform().m11() > MAX_FIT_ZOOM:
            self.resetTransform()
            self.scale(MAX_FIT_ZOOM, MAX_FIT_ZOOM)
            self.centerOn(rect.center())
        with paused_gc():  # the first placement of titles fills a grid of every node
            self.update_labels()
