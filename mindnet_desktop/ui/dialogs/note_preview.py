"""The in-app note preview: a note's text (Markdown rendered) with its type, path and links,
for citations and sources when the link target is "preview" (instead of Obsidian)."""

from __future__ import annotations

import html
import re
from functools import partial

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import (
    QDockWidget,
    QPushButton,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.ui.dialogs import ops
from mindnet_desktop.ui.dialogs.ops import NoteView
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.obsidian import obsidian_url
from mindnet_desktop.ui.support.status_label import StatusLabel
from mindnet_desktop.ui.support.workers import Job, JobGroup, ServiceHost

WORDS = re.compile(r"[^\W_]+")


def find_words(text: str, sentence: str) -> tuple[int, int] | None:
    """Where the words of `sentence` stand in `text`, in order, whatever lies between them
    (Markdown marks, a link's brackets, line breaks); None when they are not there."""
    words = WORDS.findall(sentence)
    while words:
        pattern = r"[\W_]+".join(re.escape(w) for w in words)
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            return found.start(), found.end()
        words = words[: len(words) * 2 // 3]  # a rendered link drops words: try the start
        if len(words) < 3:
            return None
    return None


class NotePreview(QWidget):
    """Shows one note; `show_note(ref)` reads it through the host (never on the GUI thread).

    Signals:
        shown(note_id): the note is on screen.
    """

    shown = Signal(str)

    def __init__(self, host: ServiceHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.current: NoteView | None = None
        self._highlight = ""
        self._jobs = JobGroup(host, self)
        self._jobs.failed.connect(self._failed)
        self.header = StatusLabel(self, wrap=True)
        self.header.show_text(self.tr("No note selected."))
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.open_button = QPushButton(self.tr("Open in Obsidian"))
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self._open_in_obsidian)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.header)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.open_button)

    def show_note(self, ref: str, highlight: str = "") -> Job | None:
        """Show the note `ref`; `highlight`: a sentence of it to scroll to and mark."""
        self._jobs.cancel()  # only the newest note is shown
        self._highlight = highlight
        return self._jobs.submit(partial(ops.read_note, ref=ref), "note preview", self._show)

    def refresh(self) -> Job | None:
        """Read the shown note again (a save may have changed it); the same text stays as
        it is, scroll and mark included."""
        if self.current is None:
            return None
        shown = self.current

        def again(view: NoteView) -> None:
            if self.current is shown and view != shown:  # no other note asked for since
                self._show(view)

        return self._jobs.submit(partial(ops.read_note, ref=shown.note_id), "note preview", again)

    def _show(self, view: NoteView) -> None:
        self.current = view
        self.header.show_text(
            fill(
                self.tr("<b>%1</b> · %2 · %3"),
                html.escape(view.title),
                html.escape(view.type),
                html.escape(view.path),
            )
        )
        self.text.setMarkdown(view.body)
        self.text.setExtraSelections([])
        if self._highlight:
            self.mark(self._highlight)
        self.open_button.setEnabled(True)
        self.shown.emit(view.note_id)

    def mark(self, sentence: str) -> bool:
        """Scroll to `sentence` in the shown note and mark it; whether it was found. The note
        is shown rendered, so the sentence's words are looked for, not its Markdown."""
        span = find_words(self.text.toPlainText(), sentence)
        if span is None:
            return False
        cursor = self.text.textCursor()
        cursor.setPosition(span[0])
        cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        marked = QTextEdit.ExtraSelection()
        marked.cursor = cursor
        marked.format.setBackground(self.palette().highlight().color().lighter(160))
        self.text.setExtraSelections([marked])
        self.text.setTextCursor(cursor)
        # The sentence a quarter down the view, not on its last line: what leads to it shows.
        start = QTextCursor(self.text.document())
        start.setPosition(span[0])
        bar = self.text.verticalScrollBar()
        bar.setValue(
            bar.value() + self.text.cursorRect(start).top() - self.text.viewport().height() // 4
        )
        return True

    def _failed(self, message: str) -> None:
        self.current = None
        self.header.show_error(fill(self.tr("Cannot show the note: %1"), message))
        self.text.clear()
        self.open_button.setEnabled(False)

    def _open_in_obsidian(self) -> None:
        if self.current is not None:
            QDesktopServices.openUrl(QUrl(obsidian_url(self.current.vault_name, self.current.path)))


class PreviewDock(QDockWidget):
    """The preview as a dock of the main window; `attach(host)` when a vault opens."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Note preview"))
        self.setObjectName("previewDock")
        self.preview: NotePreview | None = None

    def attach(self, host: ServiceHost) -> None:
        self.preview = NotePreview(host)
        self.setWidget(self.preview)

    def show_note(self, ref: str, highlight: str = "") -> None:
        if self.preview is not None:
            self.show()
            self.raise_()
            self.preview.show_note(ref, highlight)

    def refresh(self) -> None:
        """After an import that changed notes: the shown note again, if the dock is open."""
        if self.preview is not None and not self.isHidden():
            self.preview.refresh()
