"""How the graph view shows an answer's notes: a ring around each note the answer cites,
the notes that only join sources drawn faint, a line in each one's tooltip and the legend
entries that explain both."""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsEllipseItem

from mindnet_desktop.ui.graph.canvas import GraphCanvas

RING = QColor("#6a1b9a")  # apart from the type colours and the selection's amber
RING_GAP = 4.0  # scene units between a node and its ring
RING_WIDTH = 3.0  # pixels
BRIDGE_OPACITY = 0.45
RING_KEY = 1  # item data key of a ring (the canvas finds nodes by KEY = 0)
translate = QCoreApplication.translate


def ring_icon(faint: bool = False) -> QIcon:
    """A legend swatch: a ring (a cited note), or a faint dot (a note joining sources)."""
    pixmap = QPixmap(14, 14)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if faint:
        painter.setOpacity(BRIDGE_OPACITY)
        painter.setBrush(QColor("#808080"))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QRectF(3, 3, 8, 8))
    else:
        painter.setPen(QPen(RING, 2.5))
        painter.drawEllipse(QRectF(2, 2, 10, 10))
    painter.end()
    return QIcon(pixmap)


def legend() -> list[tuple[QIcon, str]]:
    """The legend entries of an answer's view."""
    return [
        (ring_icon(), translate("GraphAnswer", "cited in the answer")),
        (ring_icon(faint=True), translate("GraphAnswer", "faint: joins sources, not one")),
    ]


def mark_answer(canvas: GraphCanvas, sources: Collection[str], cited: Collection[str]) -> None:
    """Ring the `cited` notes drawn on `canvas`, draw the notes that are not `sources` faint
    and say which is which in their tooltips. Called after each `show_slice` (a new scene)."""
    tips = {}
    for node_id, item in canvas.nodes.items():
        if node_id in cited:
            around = item.rect().adjusted(-RING_GAP, -RING_GAP, RING_GAP, RING_GAP)
            ring = QGraphicsEllipseItem(around, item)
            pen = QPen(RING, RING_WIDTH)
            pen.setCosmetic(True)
            ring.setPen(pen)
            ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            ring.setData(RING_KEY, "cited")
            tips[node_id] = translate("GraphAnswer", "Cited in the answer")
        elif node_id in sources:
            tips[node_id] = translate("GraphAnswer", "A source of the answer, not cited")
        else:
            item.setOpacity(BRIDGE_OPACITY)
            tips[node_id] = translate("GraphAnswer", "Links sources of the answer")
    canvas.node_notes = tips


def ringed(canvas: GraphCanvas) -> set[str]:
    """The notes drawn with a ring (tests)."""
    return {
        node_id
        for node_id, item in canvas.nodes.items()
        if any(child.data(RING_KEY) == "cited" for child in item.childItems())
    }
