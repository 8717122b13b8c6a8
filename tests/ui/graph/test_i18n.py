"""The graph view speaks German with its translation file loaded."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTranslator

from mindnet_desktop.core.graph.slice import SliceEdge, SliceNode
from mindnet_desktop.ui.graph.canvas import GraphCanvas
from mindnet_desktop.ui.graph.controls import GraphControls
from mindnet_desktop.ui.graph.side import GraphSidePanel

QM = Path(__file__).resolve().parents[3] / "resources" / "i18n" / "graph_de.qm"


def test_german_strings(qtbot) -> None:
    translator = QTranslator()
    assert translator.load(str(QM))
    QCoreApplication.installTranslator(translator)
    try:
        controls = GraphControls()
        side = GraphSidePanel()
        canvas = GraphCanvas()
        for widget in (controls, side, canvas):
            qtbot.addWidget(widget)
        assert controls.focus_box.itemText(1) == "Ganzer Vault"
        assert controls.deleted_check.text() == "Gelöschte zeigen"
        assert controls.fold_button.text() == "Filter"
        assert side.create_button.text() == "Kante anlegen"
        node = SliceNode("a", "note", "A", "project", "a.md")
        assert "Typ: project" in canvas.node_tooltip(node)
        edge = SliceEdge("e", "references", "a", "b", "rule", "edge_defaults:x:y", 0.7)
        assert "Herkunft: rule" in canvas.edge_tooltip(edge)
    finally:
        QCoreApplication.removeTranslator(translator)
