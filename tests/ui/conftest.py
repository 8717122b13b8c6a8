"""Fixtures of the window tests: settings in tmp_path, the test embedder, a closed window."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mindnet_desktop.core.embed import HashEmbedder
from mindnet_desktop.ui.settings import AppSettings


@pytest.fixture
def app_settings(tmp_path: Path) -> AppSettings:
    """Settings in an ini file of this test (never the user's)."""
    return AppSettings.from_file(tmp_path / "settings.ini")


@pytest.fixture
def make_window(qtbot, app_settings: AppSettings) -> Iterator:
    """Builds MainWindows with the HashEmbedder; closes them (and checks no job survives)."""
    from mindnet_desktop.ui.main_window import MainWindow

    windows: list[MainWindow] = []

    def _make(**kw: object) -> MainWindow:
        window = MainWindow(
            app_settings,
            embedder_factory=lambda name, threads: HashEmbedder(),
            debounce=0.2,
            **kw,  # type: ignore[arg-type]
        )
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield _make
    for window in windows:
        window.close()
