"""Can Qt open a window here? Checked before Qt tries, so the user gets a fix, not an abort.

Qt 6.5+ needs `libxcb-cursor0` and a few other X libraries for its xcb platform plugin; a
fresh Debian or Ubuntu desktop may lack them, and Qt then aborts with "Could not load the Qt
platform plugin 'xcb' even though it was found". This module finds the plugin inside the
installed PySide6 (without importing Qt), asks `ldd` which libraries it cannot find, and
names the Debian packages that hold them.

    python -m mindnet_desktop.ui.display_check     # exit 0 when the window can start
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

# The Debian / Ubuntu package of each library Qt's xcb plugin links (and a few of theirs).
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
}
# What the README lists for a fresh desktop (apt skips what is installed).
DESKTOP_PACKAGES = (
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-xkb1",
    "libxkbcommon-x11-0",
    "libegl1",
    "libgl1",
    "libfontconfig1",
    "libdbus-1-3",
)


def qt_plugin(name: str = "libqxcb.so") -> Path | None:
    """The platform plugin `name` of the installed PySide6, or None."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / name
        if plugin.is_file():
            return plugin
    return None


def missing_libraries(library: Path) -> list[str]:
    """Shared libraries `library` needs that the dynamic loader cannot find (`ldd`)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        out = subprocess.run(
            [ldd, str(library)], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted(
        {line.split()[0] for line in out.splitlines() if "not found" in line and line.split()}
    )


def platform_of(env: Mapping[str, str]) -> str:
    """The platform plugin Qt will pick: QT_QPA_PLATFORM, else wayland on a Wayland
    session, else xcb."""
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    return "wayland" if env.get("WAYLAND_DISPLAY") else "xcb"


def install_line(missing: list[str]) -> str:
    """The apt-get line that installs the packages of the `missing` libraries."""
    packages = sorted({PACKAGES.get(name, name) for name in missing})
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install -y " + " ".join(packages)


def problem(env: Mapping[str, str] | None = None, plugin: Path | None = None) -> str | None:
    """Why the window cannot start here (with the fix), or None when it can.

    Args:
        env: The environment (default: `os.environ`).
        plugin: The xcb plugin (default: the installed PySide6's).
    """
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux") or platform_of(env) != "xcb":
        return None  # offscreen, wayland, vnc...: Qt reports those itself
    plugin = plugin or qt_plugin()
    if plugin is None:
        return None
    missing = missing_libraries(plugin)
    if missing:
        unknown = [name for name in missing if name not in PACKAGES]
        return (
            "Mindnet cannot open its window: Qt's X11 (xcb) platform plugin needs system "
            f"libraries that are missing: {', '.join(missing)}.\n"
            "On Debian or Ubuntu, install them with:\n\n"
            f"    {install_line(missing)}\n\n"
            + (
                f"(For {', '.join(unknown)}: `apt-file search NAME` names the package.)\n"
                if unknown
                else ""
            )
            + "On a Wayland desktop, the same packages let the window run through XWayland; "
            "or start with QT_QPA_PLATFORM=wayland to use Qt's Wayland plugin.\n"
            "Without a display (a server, CI), QT_QPA_PLATFORM=offscreen runs the tests."
        )
    if not env.get("DISPLAY"):
        return (
            "Mindnet cannot open its window: no X display (DISPLAY is not set).\n"
            "Start it from a desktop session (on Wayland: QT_QPA_PLATFORM=wayland), or on a "
            "server under a virtual X server: `xvfb-run bash packaging/setup.sh run`."
        )
    return None


def main() -> int:
    """Print the problem and return 1, or return 0 quietly."""
    found = problem()
    if found:
        print(found, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
