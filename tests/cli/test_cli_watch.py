"""`mindnet watch` as a user runs it: a separate process that follows the vault until Ctrl+C."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_watch_imports_changes_until_interrupted(vault, tmp_path):
    env = {**os.environ, "MINDNET_EMBEDDER": "hash", "PYTHONPATH": str(REPO)}
    cmd = [
        sys.executable,
        "-m",
        "mindnet_desktop.cli.main",
        "--vault",
        str(vault),
        "--data-dir",
        str(tmp_path / "watch-data"),
        "watch",
        "--json",
        "--debounce",
        "0.2",
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # A test run in the background hands its children SIGINT ignored: Ctrl-C must work.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True)
    reader.start()
    try:
        first = json.loads(lines.get(timeout=60))  # the reconcile at start
        assert first["added"] == first["scanned"] > 20
        (vault / "Neu aus dem Editor.md").write_text(
            "# Neu\n[[KI-Projekt Alpha]]\n", encoding="utf-8"
        )
        second = json.loads(lines.get(timeout=60))
        assert second["added"] == 1 and second["notes"] == first["notes"] + 1
        (vault / "Neu aus dem Editor.md").unlink()
        third = json.loads(lines.get(timeout=60))
        assert third["deleted"] == 1 and third["notes"] == first["notes"]
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    assert code == 0, proc.stderr.read()
