"""Reports how many examples the fuzz tests ran and the figures the tests measured (the
docs/reliability.md quotes them); the GUI tests' window fixtures for the app's
storm and crash tests."""

from __future__ import annotations

from typing import Any

from tests.reliability.support import FIGURES, FUZZ_EXAMPLES
from tests.ui.conftest import app_settings, make_window  # noqa: F401 - the app's fixtures


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if FIGURES:
        terminalreporter.section("reliability figures")
        for name, value in FIGURES.items():
            terminalreporter.write_line(f"{value:>9}  {name}")
    if not FUZZ_EXAMPLES:
        return
    terminalreporter.section("fuzz examples")
    for name, count in sorted(FUZZ_EXAMPLES.items()):
        terminalreporter.write_line(f"{count:7d}  {name}")
    terminalreporter.write_line(f"{sum(FUZZ_EXAMPLES.values()):7d}  total")
