"""Index status: the problem files of the last import and when each note was last indexed."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.domain import ImportSummary
from mindnet_desktop.ui.index.notes_model import NotesModel
from mindnet_desktop.ui.index.ops import IndexStats
from mindnet_desktop.ui.support.i18n import fill


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    _style(table)
    return table


def _style(table: QTableView) -> None:
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.horizontalHeader().setStretchLastSection(True)


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
        headers = [self.tr("Note"), self.tr("Type"), self.tr("Last indexed")]
        self.notes_model = NotesModel(headers, self.tr("unknown"), self)
        self.notes = QTableView()
        self.notes.setModel(self.notes_model)
        _style(self.notes)
        self.notes.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        self.notes.setSortingEnabled(True)
        self.notes.activated.connect(self._activated)
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
        """Every note with the time it was last indexed (in the order the user sorted)."""
        fresh = not self.notes_model.notes
        self.notes_model.set_notes(stats.indexed)
        header = self.notes.horizontalHeader()
        self.notes_model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        if fresh:
            self.notes.resizeColumnToContents(0)
        self.tabs.setTabText(1, fill(self.tr("Notes (%1)"), len(stats.indexed)))

    def _activated(self, index: QModelIndex) -> None:
        note_id = self.notes_model.index(index.row(), 0).data(Qt.ItemDataRole.UserRole)
        if note_id:
            self.note_selected.emit(note_id)
