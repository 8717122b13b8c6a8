"""The Qt binding the app runs on keeps Python's reference counts intact (PySide6 6.12.0 on
Python 3.11 drops a reference to None on every void call and the app aborts)."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_do_not_lose_references_to_none(qtbot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for i in range(2000):
        label.setText(str(i))
    assert abs(sys.getrefcount(None) - before) < 50
