"""The index panel's notes table: a model the view reads, sorted as the user chose."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mindnet_desktop.ui.index.ops import IndexedNote, IndexStats
from mindnet_desktop.ui.index.panel import IndexPanel


def stats(*notes: IndexedNote) -> IndexStats:
    return IndexStats(len(notes), len(notes), 0, list(notes))


def test_notes_show_sort_by_time_keep_the_order_and_open_on_activation(qtbot) -> None:
    panel = IndexPanel()
    qtbot.addWidget(panel)
    old = IndexedNote("b", "B.md", "Bee", "concept", 1_000_000_000.0)
    new = IndexedNote("a", "A.md", "Ay", "project", 1_700_000_000.0)
    unknown = IndexedNote("c", "C.md", "Cee", "", 0.0)
    panel.show_stats(stats(new, old, unknown))
    model = panel.notes_model
    assert [model.index(r, 0).data() for r in range(3)] == ["A.md", "B.md", "C.md"]
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == "Ay"
    assert model.index(2, 2).data() == "unknown"
    assert "Notes (3)" in panel.tabs.tabText(1)

    panel.notes.sortByColumn(2, Qt.SortOrder.DescendingOrder)  # newest first, by time
    assert [model.index(r, 0).data() for r in range(3)] == ["A.md", "B.md", "C.md"]
    panel.notes.sortByColumn(2, Qt.SortOrder.AscendingOrder)
    assert [model.index(r, 0).data() for r in range(3)] == ["C.md", "B.md", "A.md"]
    panel.show_stats(stats(new, old))  # the next import's counts keep the user's order
    assert [model.index(r, 0).data() for r in range(2)] == ["B.md", "A.md"]

    with qtbot.waitSignal(panel.note_selected) as blocker:
        panel.notes.activated.emit(model.index(1, 2))
    assert blocker.args == ["a"]
