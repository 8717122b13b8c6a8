"""The one way a panel shows what it is doing and what went wrong: a status line that
turns red (and keeps the text selectable, so a message can be copied) on an error."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

ERROR_COLOUR = "#c62828"
ERROR_STYLE = f"color: {ERROR_COLOUR};"


class StatusLabel(QLabel):
    """A status line: `show_text` for progress, `show_error` for a failure."""

    def __init__(self, parent: QWidget | None = None, wrap: bool = False) -> None:
        super().__init__(parent)
        self.setWordWrap(wrap)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = False

    def show_text(self, text: str) -> None:
        self.error = False
        self.setStyleSheet("")
        self.setText(text)

    def show_error(self, text: str) -> None:
        self.error = True
        self.setStyleSheet(ERROR_STYLE)
        self.setText(text)
