"""The main window's menus and shortcuts (strings in the window's translation context)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QWidget

translate = QCoreApplication.translate


class MenuWindow(Protocol):
    """What the menus need of the main window: its slots, its docks, and a place for the
    actions that the window and the tests use."""

    file_menu: QMenu
    recent_menu: QMenu
    view_menu: QMenu
    open_action: QAction
    reimport_action: QAction
    settings_action: QAction
    ratings_action: QAction
    graph_action: QAction
    index_dock: QDockWidget
    preview_dock: QDockWidget

    def menuBar(self) -> QMenuBar: ...  # noqa: N802 - Qt's name
    def addAction(self, action: QAction) -> None: ...  # noqa: N802 - Qt's name
    def choose_vault(self) -> None: ...
    def fill_recent(self) -> None: ...
    def reimport(self) -> None: ...
    def open_settings(self) -> None: ...
    def open_ratings(self) -> None: ...
    def close(self) -> bool: ...
    def toggle_graph(self) -> None: ...
    def about(self) -> None: ...
    def focus_input(self) -> None: ...


def build_menus(window: MenuWindow) -> None:
    """File (open, recent, re-import, settings, quit), View (graph, docks), Help; the
    actions the window and the tests use are kept on it."""
    file_menu = window.menuBar().addMenu(translate("MainWindow", "&File"))
    window.file_menu = file_menu
    window.open_action = _action(
        window, translate("MainWindow", "&Open vault…"), window.choose_vault, "Ctrl+O"
    )
    file_menu.addAction(window.open_action)
    window.recent_menu = file_menu.addMenu(translate("MainWindow", "&Recent vaults"))
    window.recent_menu.aboutToShow.connect(window.fill_recent)
    window.reimport_action = _action(
        window, translate("MainWindow", "Re-&import"), window.reimport, "F5"
    )
    file_menu.addAction(window.reimport_action)
    file_menu.addSeparator()
    window.settings_action = _action(
        window, translate("MainWindow", "&Settings…"), window.open_settings, "Ctrl+,"
    )
    file_menu.addAction(window.settings_action)
    window.ratings_action = _action(
        window, translate("MainWindow", "Your &ratings…"), window.open_ratings
    )
    file_menu.addAction(window.ratings_action)
    file_menu.addSeparator()
    quit_action = _action(
        window, translate("MainWindow", "&Quit"), window.close, QKeySequence.StandardKey.Quit
    )
    quit_action.setShortcut("Ctrl+Q")
    file_menu.addAction(quit_action)

    view_menu = window.menuBar().addMenu(translate("MainWindow", "&View"))
    window.view_menu = view_menu
    window.graph_action = _action(
        window, translate("MainWindow", "&Graph"), window.toggle_graph, "Ctrl+G"
    )
    window.graph_action.setCheckable(True)
    window.graph_action.setChecked(True)
    view_menu.addAction(window.graph_action)
    index_action = window.index_dock.toggleViewAction()
    index_action.setText(translate("MainWindow", "&Index status"))
    view_menu.addAction(index_action)
    preview_action = window.preview_dock.toggleViewAction()
    preview_action.setText(translate("MainWindow", "Note &preview"))
    view_menu.addAction(preview_action)

    help_menu = window.menuBar().addMenu(translate("MainWindow", "&Help"))
    help_menu.addAction(_action(window, translate("MainWindow", "&About Mindnet"), window.about))

    focus = _action(
        window, translate("MainWindow", "Focus the chat input"), window.focus_input, "Ctrl+F"
    )
    window.addAction(focus)


def _action(
    window: MenuWindow, text: str, slot: Callable[[], object], shortcut: object = None
) -> QAction:
    parent = window if isinstance(window, QWidget) else None
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))  # type: ignore[arg-type]
    action.triggered.connect(lambda _checked=False: slot())
    return action
