"""Fixtures of the GUI tests: a service host on an imported copy of the example vault."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mindnet_desktop.core.service import Mindnet
from mindnet_desktop.ui.workers import ServiceHost
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
