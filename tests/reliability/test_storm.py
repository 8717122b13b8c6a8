"""Change storms while `mindnet watch` runs in its own process: afterwards the store equals
a fresh import of the vault (note ids, chunk ids, edges, lexical documents).

The storm: files created, edited, renamed and deleted as fast as Python can; Obsidian's
save pattern (a temp file renamed over the note) 100 times on one note; a folder rename;
a case-only rename. CI runs it on a vault growing to 200 notes; the slow variant on 1,000
notes with a folder of 200.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import
from tests.reliability.support import note_text, snapshot, start_watch

QUIET_SECONDS = 8  # no import reported for this long after the storm: the watcher is done


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def storm(
    vault: Path,
    start: int,
    total: int,
    folder_notes: int,
    seed: int,
    pause: Callable[[], None] = lambda: None,
) -> None:
    """Create notes start..total-1, then edit, rename and delete some, save one note 100
    times the way Obsidian does, rename a folder and rename one note by case only.
    `pause()` runs between the steps (and every 25 saves): a paced storm lets imports run
    in its middle."""
    rng = random.Random(seed)
    for i in range(start, total):
        folder = "Mappe" if i < folder_notes else f"Ordner {i % 4}"
        write(vault / folder / f"Note {i}.md", note_text(i, total, paragraphs=1))
    pause()
    notes = sorted(p for p in vault.rglob("*.md") if p.parent.name != "Mappe")
    rng.shuffle(notes)
    k = len(notes) // 10
    edited, renamed, deleted = notes[:k], notes[k : 2 * k], notes[2 * k : 3 * k]
    for path in edited:
        write(path, note_text(int(path.stem.split()[-1]), total, paragraphs=2, version=1))
    pause()
    for path in renamed:
        path.rename(path.with_name(f"Umbenannt {path.stem}.md"))
    pause()
    for path in deleted:
        path.unlink()
    pause()
    saved = notes[3 * k]
    for version in range(100):  # Obsidian: write a temp file, rename it over the note
        tmp = saved.with_name(f".{saved.name}.{version}.tmp")
        tmp.write_text(note_text(0, total, paragraphs=1, version=version), encoding="utf-8")
        os.replace(tmp, saved)
        if version % 25 == 24:
            pause()
    (vault / "Mappe").rename(vault / "Mappe umbenannt")
    pause()
    case = notes[3 * k + 1]
    case.rename(case.with_name(case.name.lower()))


def run_storm(tmp_path: Path, initial: int, total: int, folder_notes: int) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    for i in range(initial):
        folder = "Mappe" if i < folder_notes else f"Ordner {i % 4}"
        write(vault / folder / f"Note {i}.md", note_text(i, total, paragraphs=1))
    proc = start_watch(vault, data)
    lines: queue.Queue[str] = queue.Queue()
    errors: list[str] = []  # read as it comes: a full stderr pipe would block the watcher
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()
    try:
        first = json.loads(lines.get(timeout=300))  # the reconcile at start
        assert first["notes"] == initial
        storm(vault, initial, total, folder_notes, seed=total)
        reports = [json.loads(lines.get(timeout=300))]
        while True:  # until the watcher has been quiet for a while
            try:
                reports.append(json.loads(lines.get(timeout=QUIET_SECONDS)))
            except queue.Empty:
                break
        assert all(r["errors"] == [] for r in reports), reports
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("watch did not stop: " + "".join(errors)[-3000:]) from None
    assert code == 0, "".join(errors)[-3000:]
    with Mindnet(vault, tmp_path / "fresh", embedder=HashEmbedder(), write=True) as mn:
        run_import(mn)
    assert snapshot(data, vault) == snapshot(tmp_path / "fresh", vault)


def test_storm_of_200_notes_while_watching_ends_equal_to_a_fresh_import(tmp_path) -> None:
    """Guards: the watcher converges on the vault after a storm (debounced imports with
    deletes synced, renames and folder moves seen as delete + create).

    Shown to fail by making `watch` import without `sync_deletes`: the deleted notes stay in
    the store (199 lexical documents instead of 193). (Ignoring watchdog's `moved` events
    alone is not caught: the folder's own modified events still trigger the import.)
    """
    run_storm(tmp_path, initial=100, total=200, folder_notes=50)


@pytest.mark.slow
def test_storm_of_1000_notes_while_watching_ends_equal_to_a_fresh_import(tmp_path) -> None:
    """Guards: the same with 1,000 notes and a folder of 200 renamed."""
    run_storm(tmp_path, initial=400, total=1000, folder_notes=200)
