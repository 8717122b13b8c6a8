"""The window's status bar: import progress with Cancel, the watcher state and the counts."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar, QWidget

from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.ui.index.indexer import ERROR, IMPORTING, STOPPED, WATCHING
from mindnet_desktop.ui.index.ops import IndexStats
from mindnet_desktop.ui.support.i18n import fill


class IndexStatusBar(QStatusBar):
    """Signal `cancel_requested()` when the user cancels the running import."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.progress_label = QLabel()
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(220)
        self.progress_bar.setFormat("%v / %m")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self._cancel)
        self.watch_label = QLabel()
        self.counts_label = QLabel()
        for widget in self._progress_widgets():
            self.addWidget(widget)
            widget.setVisible(False)
        self.addPermanentWidget(self.watch_label)
        self.addPermanentWidget(self.counts_label)
        self.show_state(STOPPED)

    def _progress_widgets(self) -> tuple[QWidget, ...]:
        return (self.progress_label, self.progress_bar, self.cancel_button)

    def show_progress(self, progress: IndexProgress) -> None:
        """done/total and the current file; the first item of an import shows the bar."""
        phase = self.tr("Reading") if progress.phase == "scan" else self.tr("Indexing")
        self.progress_bar.setMaximum(max(progress.total, 1))
        self.progress_bar.setValue(progress.done)
        self.progress_label.setText(f"{phase}: {progress.path}")
        if self.progress_bar.isHidden():
            self.cancel_button.setEnabled(True)
            for widget in self._progress_widgets():
                widget.setVisible(True)

    def hide_progress(self) -> None:
        for widget in self._progress_widgets():
            widget.setVisible(False)

    def show_counts(self, stats: IndexStats) -> None:
        self.counts_label.setText(
            fill(self.tr("%1 notes, %2 chunks, %3 edges"), stats.notes, stats.chunks, stats.edges)
        )

    def show_state(self, state: str) -> None:
        texts = {
            WATCHING: self.tr("Watching"),
            IMPORTING: self.tr("Importing"),
            STOPPED: self.tr("Stopped"),
            ERROR: self.tr("Error"),
        }
        self.watch_label.setText(texts.get(state, state))
        self.watch_label.setProperty("state", state)

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_requested.emit()
