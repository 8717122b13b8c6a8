"""The index panel's notes as a table model: the view asks for the rows it shows, so showing
the counts of a 6,500-note vault costs the GUI thread a reset, not 19,500 table items
(~0.2-0.3 s with the GIL held, after every import)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from mindnet_desktop.ui.index.ops import IndexedNote

Index = QModelIndex | QPersistentModelIndex
SORT_KEYS = (
    lambda n: n.path,
    lambda n: n.type,
    lambda n: n.indexed_at,  # times sort by time, not by their text
)


class NotesModel(QAbstractTableModel):
    """Note (path; its title as tooltip, its id as `UserRole`), type, last indexed.

    Args:
        headers: The three column titles.
        unknown: Shown for a note whose index time the store does not know.
    """

    def __init__(self, headers: list[str], unknown: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.headers, self.unknown = headers, unknown
        self.notes: list[IndexedNote] = []
        self._when: dict[float, str] = {}  # formatted times (notes imported together share one)

    def set_notes(self, notes: list[IndexedNote]) -> None:
        self.beginResetModel()
        self.notes = list(notes)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.notes)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        note, column = self.notes[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (note.path, note.type, self._time(note.indexed_at))[column]
        if column == 0 and role == Qt.ItemDataRole.ToolTipRole:
            return note.title
        if column == 0 and role == Qt.ItemDataRole.UserRole:
            return note.note_id
        return None

    def _time(self, when: float) -> str:
        if not when:
            return self.unknown
        if when not in self._when:
            self._when[when] = datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M:%S")
        return self._when[when]

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(SORT_KEYS):
            return
        self.beginResetModel()
        self.notes.sort(key=SORT_KEYS[column], reverse=order == Qt.SortOrder.DescendingOrder)
        self.endResetModel()
