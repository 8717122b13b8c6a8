"""Fixtures of the GUI tests: a service host on an imported copy of the example vault,
settings in tmp_path, windows with the test embedder (closed at the end)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.support.settings import AppSettings
from mindnet_desktop.ui.support.workers import ServiceHost
from tests.conftest import run_import

OPEN_WAIT_MS = 120_000


@pytest.fixture
def host(qtbot, vault: Path, open_mindnet: Callable[..., Mindnet]) -> Iterator[ServiceHost]:
    """The window's host, opened on the vault copy (test embedder) after an import."""

    def opener() -> Mindnet:
        mn = open_mindnet(vault)
        run_import(mn)
        return mn

    service = ServiceHost(opener)
    with qtbot.waitSignal(service.opened, timeout=OPEN_WAIT_MS):
        service.open()
    yield service
    service.close()


@pytest.fixture
def app_settings(tmp_path: Path) -> AppSettings:
    """Settings in an ini file of this test (never the user's); the chat model is not
    preloaded (a test that wants it says so)."""
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    settings.preload_chat_model = False
    return settings


@pytest.fixture
def make_window(qtbot, app_settings: AppSettings) -> Iterator:
    """Builds MainWindows with the HashEmbedder; closes them (and checks no job survives)."""
    from mindnet_desktop.ui.shell.main_window import MainWindow

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
