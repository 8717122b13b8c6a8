"""Where the main window opens: as the user left it, else most of the screen."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

FIRST_WINDOW_SHARE = 0.88  # of the screen's free area, for a window with no saved geometry
INDEX_DOCK_MIN_HEIGHT = 110  # the last import's summary, the tabs and a row or two


def restore_geometry(window: QMainWindow, store: QSettings, index_dock: QDockWidget) -> None:
    """The saved geometry and dock state (`window/geometry`, `window/state`), else the first
    window's: most of the screen, the index dock a sixth of the height."""
    geometry = store.value("window/geometry")
    state = store.value("window/state")
    if isinstance(geometry, QByteArray) and not geometry.isEmpty():
        window.restoreGeometry(geometry)
    else:
        fill_screen(window)
    if isinstance(state, QByteArray) and not state.isEmpty():
        window.restoreState(state)
    else:
        # A sixth of the window: on a 768-pixel screen 200 pixels took the chat's room.
        height = max(INDEX_DOCK_MIN_HEIGHT, window.height() // 6)
        window.resizeDocks([index_dock], [height], Qt.Orientation.Vertical)


def fill_screen(window: QMainWindow) -> None:
    """The first window: most of the screen's free area, centred on it."""
    area = window.screen().availableGeometry()  # the primary screen before it is shown
    size = area.size() * FIRST_WINDOW_SHARE
    window.resize(size)
    window.move(area.center() - QPoint(size.width() // 2, size.height() // 2))
