"""Placeholder of the graph view (the real one arrives from the ui-graph branch)."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from mindnet_desktop.ui.workers import ServiceHost


class GraphView(QWidget):
    """The knowledge graph: slots `focus_note`, `reload`; signal `note_selected(note_id)`."""

    note_selected = Signal(str)

    def __init__(self, host: ServiceHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.focused = ""
        self.reloads = 0
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Graph")))

    @Slot(str)
    def focus_note(self, note_id: str) -> None:
        self.focused = note_id

    @Slot()
    def reload(self) -> None:
        self.reloads += 1

    def shutdown(self) -> None:
        """Stop layout jobs."""
