"""The canvas at scale: a large graph hides its edges while zooming and shows them again;
the benchmark runs and reports its numbers."""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from mindnet_desktop.core.graph.slice import GraphSlice
from mindnet_desktop.ui.bench import graph as bench_graph
from mindnet_desktop.ui.bench.graph import synthetic_slice
from mindnet_desktop.ui.graph.canvas import HIDE_EDGES_WHILE_MOVING, GraphCanvas
from mindnet_desktop.ui.graph.layout import Positions, compute_layout


def layout(graph: GraphSlice) -> Positions:
    return compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])


def test_large_graph_hides_edges_only_while_zooming(qtbot) -> None:
    graph = synthetic_slice(1200, 3.0)
    assert len(graph.edges) > HIDE_EDGES_WHILE_MOVING
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(800, 600)
    canvas.show()
    canvas.show_slice(
        graph, compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])
    )
    assert (len(canvas.nodes), len(canvas.edges)) == (len(graph.nodes), len(graph.edges))
    before = canvas.transform().m11()
    canvas.zoom_by(1.25)
    assert canvas.transform().m11() > before
    assert not canvas.settled()
    qtbot.waitUntil(canvas.settled, timeout=5000)

    canvas.zoom_by(3.0)
    qtbot.waitUntil(canvas.settled, timeout=5000)
    bar = canvas.horizontalScrollBar()
    start = bar.value()
    middle = canvas.viewport().rect().center()
    qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    drag = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(middle.x() + 60, middle.y()),
        canvas.viewport().mapToGlobal(QPointF(middle.x() + 60, middle.y())),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(canvas.viewport(), drag)
    assert bar.value() != start  # dragging pans
    assert not canvas.settled()
    qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=middle)
    qtbot.waitUntil(canvas.settled, timeout=5000)


def test_small_graph_keeps_its_edges_while_zooming(qtbot) -> None:
    graph = synthetic_slice(50, 2.0)
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.show_slice(
        graph, compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])
    )
    canvas.zoom_by(1.25)
    assert canvas.settled()


def test_bench_reports_draw_and_frame_times(capsys) -> None:
    assert bench_graph.main(["--nodes", "300", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["nodes"] == 300 and report["edges"] > 0
    assert report["drawn_s"] > 0 and report["frame_ms"]["pan_median"] > 0


def test_keys_zoom_and_fit(qtbot) -> None:
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    graph = synthetic_slice(200, 2.0)
    canvas.show_slice(graph, layout(graph))
    canvas.fit()
    fitted = canvas.transform().m11()
    qtbot.keyClick(canvas, Qt.Key.Key_Plus)
    assert canvas.transform().m11() > fitted
    qtbot.keyClick(canvas, Qt.Key.Key_0)
    assert canvas.transform().m11() == fitted
    qtbot.keyClick(canvas, Qt.Key.Key_Minus)
    assert canvas.transform().m11() < fitted
