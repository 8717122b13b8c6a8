"""The chat panel's shape: the transcript and its sources side by side when the panel is
wide, the sources under the transcript when it is narrow; the transcript is never squeezed
below a readable width, whatever the sources hold."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget

TRANSCRIPT_MIN_WIDTH = 320  # about 40 characters a line: still read as text, not a column
TRANSCRIPT_MIN_HEIGHT = 120
SOURCES_MIN_WIDTH = 240  # a title, the thumbs and a score bar beside each other
SOURCES_MIN_HEIGHT = 120
STACK_BELOW = 640  # a panel narrower than this shows the sources under the transcript
TRANSCRIPT_SHARE = 3  # of 5: the transcript's part of the room, the sources get the rest
SHARES = 5


class ChatSplitter(QSplitter):
    """The transcript (first) and the sources (second): side by side, 3 : 2, when the
    splitter is at least `STACK_BELOW` wide, else stacked (the transcript above). Neither
    collapses; the user's own split is kept until the orientation changes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setChildrenCollapsible(False)
        self._shared = False  # the 3 : 2 split was applied to the current orientation

    def set_panes(self, transcript: QWidget, sources: QWidget) -> None:
        """Put the two panes in, with the minimum sizes that keep them readable."""
        transcript.setMinimumSize(TRANSCRIPT_MIN_WIDTH, TRANSCRIPT_MIN_HEIGHT)
        sources.setMinimumSize(SOURCES_MIN_WIDTH, SOURCES_MIN_HEIGHT)
        self.addWidget(transcript)
        self.addWidget(sources)
        self.setStretchFactor(0, TRANSCRIPT_SHARE)
        self.setStretchFactor(1, SHARES - TRANSCRIPT_SHARE)

    @property
    def stacked(self) -> bool:
        """The sources are under the transcript."""
        return self.orientation() == Qt.Orientation.Vertical

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fit(event.size().width())

    def fit(self, width: int) -> None:
        """Stack or unstack for a splitter `width` pixels wide; share the room 3 : 2 the
        first time and after each change of orientation."""
        wanted = Qt.Orientation.Vertical if width < STACK_BELOW else Qt.Orientation.Horizontal
        if wanted != self.orientation():
            self.setOrientation(wanted)
            self._shared = False
        if not self._shared and self.count() == 2:
            length = self.width() if wanted == Qt.Orientation.Horizontal else self.height()
            room = max(length - self.handleWidth(), 0)
            first = room * TRANSCRIPT_SHARE // SHARES
            self.setSizes([first, room - first])
            self._shared = length > 0
