"""The check `setup.sh run` and the app make before Qt picks its platform plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.ui import display_check
from mindnet_desktop.ui.display_check import (
    DESKTOP_PACKAGES,
    PACKAGES,
    install_line,
    missing_libraries,
    platform_of,
    problem,
    qt_plugin,
)

FAKE = Path("/nowhere/libqxcb.so")


@pytest.fixture
def missing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    found = ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libweird.so.7"]
    monkeypatch.setattr(display_check, "missing_libraries", lambda plugin: found)
    monkeypatch.setattr(display_check.sys, "platform", "linux")
    return found


def test_missing_libraries_name_their_packages(missing: list[str]) -> None:
    message = problem({"DISPLAY": ":0"}, FAKE)
    assert message is not None
    line = next(line.strip() for line in message.splitlines() if "apt-get install" in line)
    assert line.endswith("apt-get install -y libweird.so.7 libxcb-cursor0 libxkbcommon-x11-0")
    assert "libweird.so.7" in message and "apt-file search" in message
    assert "QT_QPA_PLATFORM=wayland" in message


@pytest.mark.parametrize(
    "env",
    [
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"},
        {"WAYLAND_DISPLAY": "wayland-0"},
    ],
)
def test_other_platforms_are_not_checked(missing: list[str], env: dict[str, str]) -> None:
    assert problem(env, FAKE) is None


def test_no_display_is_said_with_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_check, "missing_libraries", lambda plugin: [])
    monkeypatch.setattr(display_check.sys, "platform", "linux")
    message = problem({}, FAKE)
    assert message is not None and "DISPLAY" in message and "xvfb-run" in message
    assert problem({"DISPLAY": ":0"}, FAKE) is None
    assert problem({"QT_QPA_PLATFORM": "xcb:foo", "DISPLAY": ":1"}, FAKE) is None


def test_platform_of() -> None:
    assert platform_of({}) == "xcb"
    assert platform_of({"QT_QPA_PLATFORM": "xcb;wayland"}) == "xcb"
    assert platform_of({"WAYLAND_DISPLAY": "w", "DISPLAY": ":0"}) == "wayland"


def test_install_line_merges_libraries_of_one_package() -> None:
    line = install_line(["libglib-2.0.so.0", "libgthread-2.0.so.0"])
    assert line.endswith("apt-get install -y libglib2.0-0")


@pytest.mark.skipif(qt_plugin() is None, reason="this PySide6 has no xcb plugin")
def test_the_installed_xcb_plugin_is_found_and_read_by_ldd(tmp_path: Path) -> None:
    plugin = qt_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    assert all(name in PACKAGES for name in missing_libraries(plugin))
    assert missing_libraries(tmp_path / "not-there.so") == []


def test_readme_lists_the_system_packages() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if "apt-get install" in line)
    assert set(DESKTOP_PACKAGES) <= set(line.split())
