"""The app on a real X server (Xvfb), and the fix it names when Qt's xcb plugin cannot load.

The other GUI tests run on the offscreen platform, which needs none of the X libraries a
fresh desktop may lack; these start the real `xcb` platform.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mindnet_desktop.ui.display_check import install_line, missing_libraries, qt_plugin

REPO = Path(__file__).resolve().parents[2]
PLUGIN = qt_plugin()
MISSING = missing_libraries(PLUGIN) if PLUGIN else []
DRIVER = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

app = QApplication(sys.argv[:1])
from mindnet_desktop.ui import app as entry
from mindnet_desktop.ui.shell.main_window import MainWindow

ticks = 0


def poll():
    global ticks
    ticks += 1
    shown = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    handle = shown[0].windowHandle() if shown else None
    if handle is not None and handle.isExposed() and ticks > 5:
        print("SHOWN", app.platformName(), shown[0].width(), shown[0].height(), flush=True)
        timer.stop()
        shown[0].close()
    elif ticks > 600:
        print("TIMEOUT", flush=True)
        app.exit(3)


timer = QTimer()
timer.timeout.connect(poll)
timer.start(100)
sys.exit(entry.main(sys.argv[1:]))
"""


def app_env(tmp_path: Path, display: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.pop("DISPLAY", None)
    if display:
        env["DISPLAY"] = display
    env.update(
        PYTHONPATH=str(REPO),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        MINDNET_DATA_DIR=str(tmp_path / "data"),
        MINDNET_EMBEDDER="hash",
        ANONYMIZED_TELEMETRY="False",
    )
    return env


@pytest.fixture
def xvfb() -> Iterator[str]:
    """A virtual X server; its DISPLAY."""
    binary = shutil.which("Xvfb")
    if binary is None:
        pytest.skip("no real X server: Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    server = subprocess.Popen(
        [binary, "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        server.kill()
        server.wait()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


@pytest.mark.skipif(
    bool(MISSING),
    reason=f"Qt's xcb plugin cannot load here, it lacks {', '.join(MISSING)}: "
    f"`{install_line(MISSING)}` lets this test start the window on Xvfb",
)
def test_window_opens_on_a_real_x_server(xvfb: str, tmp_path: Path, vault: Path) -> None:
    env = app_env(tmp_path, xvfb)
    check = subprocess.run(
        [sys.executable, "-m", "mindnet_desktop.ui.display_check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (check.returncode, check.stderr) == (0, "")  # what `setup.sh run` runs first
    result = subprocess.run(
        [sys.executable, "-c", DRIVER, "--vault", str(vault)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "SHOWN xcb" in result.stdout, (result.stdout, result.stderr[-3000:])
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.skipif(not MISSING, reason="Qt's xcb plugin loads here: no missing library")
def test_missing_x_libraries_give_the_apt_get_line_not_a_qt_abort(tmp_path: Path) -> None:
    env = app_env(tmp_path, ":99")
    code = "import sys\nfrom mindnet_desktop.ui.app import main\nsys.exit(main(['--vault', '.']))"
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1, result.stderr[-3000:]
    assert "apt-get install -y " in result.stderr
    for library in MISSING:
        assert library in result.stderr
    assert "QT_QPA_PLATFORM=wayland" in result.stderr
    assert "Aborted" not in result.stderr
