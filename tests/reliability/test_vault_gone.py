"""The vault folder vanishes while `mindnet watch` runs: renamed away, replaced by an empty
folder (a drive unmounted, its mount point left behind), deleted. The watcher says so in one
line, never crashes, keeps the index as it was, and catches up when the folder is back.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import threading
import time
from pathlib import Path

from tests.conftest import EXAMPLE_VAULT
from tests.reliability.support import snapshot, start_watch
from tests.reliability.test_environments import fresh_snapshot


class Watch:
    """`mindnet watch --json` in a child process; its stdout and stderr read as they come."""

    def __init__(self, vault: Path, data: Path) -> None:
        self.proc = start_watch(vault, data)
        self.reports: queue.Queue[dict] = queue.Queue()
        self.said: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        out, err = self.proc.stdout, self.proc.stderr
        threading.Thread(target=lambda: [self.reports.put(json.loads(x)) for x in out]).start()
        threading.Thread(target=lambda: [self._err(x) for x in err]).start()

    def _err(self, line: str) -> None:
        self.stderr.append(line)
        self.said.put(line)

    def report(self, timeout: float = 120) -> dict:
        return self.reports.get(timeout=timeout)

    def says(self, text: str, timeout: float = 60) -> str:
        """The next stderr line containing `text` (fails after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.said.get(timeout=max(0.1, deadline - time.monotonic()))
            if text in line:
                return line

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=120)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def test_watch_survives_the_vault_vanishing_and_keeps_the_index(tmp_path) -> None:
    """Guards: a vault folder that is renamed away, swapped for an empty folder, or deleted
    while `watch` runs gives one clear line each (gone / back / holds no notes), never a
    traceback; no note is removed from the index meanwhile (when the folder comes back, the
    catch-up import finds every note unchanged), and the watcher follows the folder again.

    Shown to fail by removing the `_recover` calls from VaultWatcher._loop (watchdog then
    loses the folder: no "is gone" line is said, the note added while it was away is never
    imported) and by dropping the `indexed` guard of scan_vault (the empty mount point then
    deletes every note from the index and "holds no notes" is never said)."""
    vault, data, away = tmp_path / "vault", tmp_path / "data", tmp_path / "away"
    shutil.copytree(EXAMPLE_VAULT, vault)
    watch = Watch(vault, data)
    try:
        notes = watch.report()["notes"]  # the catch-up import at start
        os.rename(vault, away)  # renamed (or moved to the trash) while watched
        assert "is gone" in watch.says("mindnet: watch: ")
        (away / "Neu.md").write_text("# Neu\n\n[[Local First]]\n", encoding="utf-8")
        os.rename(away, vault)
        assert "is back" in watch.says("mindnet: watch: ")
        back = watch.report()
        assert (back["added"], back["deleted"], back["notes"]) == (1, 0, notes + 1)

        os.rename(vault, away)  # a drive unmounted: its empty mount point stays behind
        vault.mkdir()
        assert "holds no notes" in watch.says("holds no notes")
        vault.rmdir()
        os.rename(away, vault)  # mounted again
        back = watch.report()
        assert (back["added"], back["changed"], back["deleted"]) == (0, 0, 0)
        assert back["notes"] == notes + 1

        shutil.copytree(vault, away)
        shutil.rmtree(vault)  # deleted
        assert "is gone" in watch.says("mindnet: watch: ")
        assert watch.proc.poll() is None
        os.rename(away, vault)  # restored from a backup
        back = watch.report()
        assert (back["added"], back["changed"], back["deleted"]) == (0, 0, 0), back
        assert back["notes"] == notes + 1
    finally:
        code = watch.stop()
    assert code == 0 and "Traceback" not in "".join(watch.stderr), watch.stderr
    assert snapshot(data, vault) == fresh_snapshot(vault, tmp_path / "fresh")
