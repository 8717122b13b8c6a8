"""Reports how many examples the fuzz tests ran (the README's Reliability table quotes it)."""

from __future__ import annotations

from typing import Any

from tests.reliability.support import FUZZ_EXAMPLES


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FUZZ_EXAMPLES:
        return
    terminalreporter.section("fuzz examples")
    for name, count in sorted(FUZZ_EXAMPLES.items()):
        terminalreporter.write_line(f"{count:7d}  {name}")
    terminalreporter.write_line(f"{sum(FUZZ_EXAMPLES.values()):7d}  total")
