"""Index status: the problem files of the last import and when each note was last indexed."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.domain import ImportSummary
from mindnet_desktop.ui.index.ops import IndexStats
from mindnet_desktop.ui.support.i18n import fill


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class _SortKeyItem(QTableWidgetItem):
    """A cell shown as text but sorted by a key (times sort by time, not by text)."""

    def __init__(self, text: str, key: float) -> None:
        super().__init__(text)
        self.key = key

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, _SortKeyItem):
            return self.key < other.key
        return super().__lt__(other)


class IndexPanel(QWidget):
    """Two tabs: problems (file, severity, message) and notes (path, type, indexed at).

    Signal `note_selected(note_id)` when a note row is activated.
    """

    note_selected = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary_label = QLabel(self.tr("No import yet."))
        self.summary_label.setWordWrap(True)
        self.problems = _table([self.tr("File"), self.tr("Severity"), self.tr("Message")])
        self.notes = _table([self.tr("Note"), self.tr("Type"), self.tr("Last indexed")])
        self.notes.itemActivated.connect(self._activated)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.problems, self.tr("Problems"))
        self.tabs.addTab(self.notes, self.tr("Notes"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.tabs)

    def show_summary(self, summary: ImportSummary) -> None:
        """The problems of the last import (errors first, then warnings)."""
        text = self.tr(
            "Last import: %1 scanned, %2 added, %3 changed, %4 deleted, %5 errors, "
            "%6 warnings (%7 s)."
        )
        text = fill(
            text,
            summary.scanned,
            summary.added,
            summary.changed,
            summary.deleted,
            len(summary.errors),
            len(summary.warnings),
            f"{summary.seconds:.1f}",
        )
        if summary.cancelled:
            text += " " + self.tr("Cancelled.")
        self.summary_label.setText(text)
        problems = summary.errors + summary.warnings
        severity = {"error": self.tr("error"), "warning": self.tr("warning")}
        self.problems.setSortingEnabled(False)
        self.problems.setRowCount(len(problems))
        for row, problem in enumerate(problems):
            self.problems.setItem(row, 0, QTableWidgetItem(problem.path))
            self.problems.setItem(row, 1, QTableWidgetItem(severity[problem.severity]))
            self.problems.setItem(row, 2, QTableWidgetItem(problem.message))
        self.problems.setSortingEnabled(True)
        self.problems.resizeColumnToContents(0)
        self.tabs.setTabText(0, fill(self.tr("Problems (%1)"), len(problems)))

    def show_stats(self, stats: IndexStats) -> None:
        """Every note with the time it was last indexed."""
        self.notes.setSortingEnabled(False)
        self.notes.setRowCount(len(stats.indexed))
        for row, note in enumerate(stats.indexed):
            path = QTableWidgetItem(note.path)
            path.setData(Qt.ItemDataRole.UserRole, note.note_id)
            path.setToolTip(note.title)
            self.notes.setItem(row, 0, path)
            self.notes.setItem(row, 1, QTableWidgetItem(note.type))
            when = (
                datetime.fromtimestamp(note.indexed_at).strftime("%Y-%m-%d %H:%M:%S")
                if note.indexed_at
                else self.tr("unknown")
            )
            self.notes.setItem(row, 2, _SortKeyItem(when, note.indexed_at))
        self.notes.setSortingEnabled(True)
        self.notes.resizeColumnToContents(0)
        self.tabs.setTabText(1, fill(self.tr("Notes (%1)"), len(stats.indexed)))

    def _activated(self, item: QTableWidgetItem) -> None:
        note_id = self.notes.item(item.row(), 0).data(Qt.ItemDataRole.UserRole)
        if note_id:
            self.note_selected.emit(note_id)
