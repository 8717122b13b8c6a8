"""Placeholder of the chat panel (the real one arrives from the ui-chat branch)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from mindnet_desktop.ui.workers import ServiceHost


class ChatPanel(QWidget):
    """Chat over the vault: `configure(...)`, `shutdown()`, signal `open_note(note_id)`."""

    open_note = Signal(str)

    def __init__(self, host: ServiceHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.input = QLineEdit()
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Chat")))
        layout.addWidget(self.input)
        self.config: dict[str, object] = {}

    def configure(
        self, model_path: Path | None, threads: int, n_ctx: int, link_target: str
    ) -> None:
        self.config = {
            "model_path": model_path,
            "threads": threads,
            "n_ctx": n_ctx,
            "link_target": link_target,
        }

    def shutdown(self) -> None:
        """Cancel a running answer."""
