"""Change storms while the app runs: the main window, open on a vault, watches it through the
core watcher and imports on its service thread; afterwards the app's store and its live
graph equal a fresh import of the vault (note ids, chunk ids, edges, lexical documents).

The storm is `test_storm.storm` (files created, edited, renamed and deleted as fast as
Python can, Obsidian's save pattern 100 times on one note, a folder rename, a case-only
rename) plus case-only renames of a whole folder and of a few more notes. It runs on a
thread of its own while the GUI thread goes on serving the window, as when a sync tool or
Obsidian changes the vault under the open app, so imports run in the middle of the storm.
CI runs it on a vault growing to 200 notes; the slow variant on 1,000 notes with a folder of
200.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.index.indexer import IMPORTING, WATCHING
from mindnet_desktop.ui.shell.main_window import VaultLocation
from tests.conftest import run_import
from tests.reliability.support import FIGURES, note_text, snapshot, snapshot_of
from tests.reliability.test_storm import QUIET_SECONDS, storm, write

LONG = 300_000  # ms: a bound against hanging, far above the normal cost


PACE = 0.6  # seconds between the steps of a paced storm: three debounces of the window's


def storm_with_case_renames(
    vault: Path, start: int, total: int, folder_notes: int, paced: bool
) -> None:
    """`storm`, then a folder renamed by case only and five more notes renamed by case;
    `paced`: a pause after each step, so the app imports while the storm goes on."""
    pause = (lambda: time.sleep(PACE)) if paced else (lambda: None)
    storm(vault, start, total, folder_notes, seed=total, pause=pause)
    (vault / "Ordner 1").rename(vault / "ORDNER 1")
    for path in sorted((vault / "Ordner 2").glob("Note *.md"))[:5]:
        path.rename(path.with_name(path.name.upper()))


def app_view(mn: Mindnet) -> dict[str, Any]:
    """What the app holds: the store's snapshot and the live graph's active edge ids."""
    return {**snapshot_of(mn), "graph": sorted(e.id for e in mn.edges())}


def open_app(qtbot: Any, make_window: Any, vault: Path, data: Path, notes: int) -> Any:
    """The app's window on `vault` with the index in `data`, once it watches and counts
    `notes`."""
    window = make_window(location=VaultLocation(data_dir=data))
    window.show()
    window.open_vault(vault)
    qtbot.waitUntil(
        lambda: window.indexer is not None and window.indexer.state == WATCHING, timeout=LONG
    )
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes == notes)
    return window


def on_core(qtbot, window, fn: Any) -> Any:
    """Run `fn(mindnet)` on the window's service thread (as the app does) and return it."""
    job = window.host.submit(lambda mn, job: fn(mn))
    qtbot.waitUntil(job.is_finished, timeout=LONG)
    assert job.error is None, job.error
    return job.result


def wait_until_quiet(qtbot, window, imports: list[Any], before: int) -> None:
    """Until an import finished after the storm and then nothing ran for a while."""
    qtbot.waitUntil(lambda: len(imports) > before, timeout=LONG)
    seen, since = len(imports), time.monotonic()
    while time.monotonic() - since < QUIET_SECONDS:
        qtbot.wait(250)
        indexer = window.indexer
        busy = indexer.importing or (indexer._watcher is not None and indexer._watcher.busy)
        if busy or len(imports) != seen:
            seen, since = len(imports), time.monotonic()


def run_app_storm(
    qtbot,
    make_window,
    tmp_path: Path,
    initial: int,
    total: int,
    folder_notes: int,
    paced: bool,
) -> int:
    """Open the app on `initial` notes, storm, wait until it is quiet, compare; returns how
    many imports began while the storm went on."""
    vault, data = tmp_path / "vault", tmp_path / "data"
    for i in range(initial):
        folder = "Mappe" if i < folder_notes else f"Ordner {i % 4}"
        write(vault / folder / f"Note {i}.md", note_text(i, total, paragraphs=1))
    window = open_app(qtbot, make_window, vault, data, initial)
    imports: list[Any] = []
    failures: list[str] = []
    began: list[bool] = []  # per import begun: whether the storm still went on
    thread = threading.Thread(
        target=storm_with_case_renames, args=(vault, initial, total, folder_notes, paced)
    )
    window.indexer.imported.connect(imports.append)
    window.indexer.failed.connect(failures.append)
    window.indexer.state_changed.connect(
        lambda state: state == IMPORTING and began.append(thread.is_alive())
    )
    thread.start()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=LONG)
    wait_until_quiet(qtbot, window, imports, len(imports))
    during = sum(began)
    assert failures == [] and window.last_error == "", failures or window.last_error
    # An import in the storm's middle may name files renamed or deleted between its scan
    # and its read (reported per file, by design); the next import takes them. Nothing else.
    vanished = [p for s in imports for p in s.errors]
    gone = "unreadable: No such file or directory"
    assert all(p.message.endswith(gone) and not (vault / p.path).exists() for p in vanished)
    assert imports[-1].errors == [] and imports[-1].warnings == []
    assert window.indexer.state == WATCHING
    in_app = on_core(qtbot, window, app_view)
    stats = window.stats
    window.close()  # releases the data dir; the store as the app left it is compared too
    with Mindnet(vault, tmp_path / "fresh", embedder=HashEmbedder(), write=True) as mn:
        run_import(mn)
        fresh = app_view(mn)
    assert in_app == fresh
    assert (stats.notes, stats.chunks, stats.edges) == (
        len(fresh["notes"]),
        len(fresh["chunks"]),
        len(fresh["graph"]),
    )
    assert snapshot(data, vault) == snapshot(tmp_path / "fresh", vault)
    how = "paced" if paced else "burst"
    FIGURES[f"app storm {total} {how}: imports begun during the storm"] = during
    FIGURES[f"app storm {total} {how}: imports in all"] = len(imports)
    FIGURES[f"app storm {total} {how}: files gone between scan and read"] = len(vanished)
    return during


@pytest.mark.parametrize("paced", [False, True], ids=["burst", "paced"])
def test_storm_of_200_notes_while_the_app_runs_ends_equal_to_a_fresh_import(
    qtbot, make_window, tmp_path, paced
) -> None:
    """Guards: the app's watching (VaultIndexer on the core watcher: a change asks the GUI
    thread for an import with deletes synced, one at a time on the service thread, again
    after changes made during an import) converges on the vault after a storm, and the
    app's live graph and status counts follow it.

    Shown to fail by making the watcher's imports run without `sync_deletes` (the default
    `ImportOptions()` in VaultIndexer.import_now): the paced case then fails, the deleted
    and renamed-away notes' chunks and edges stay in the app's store and graph.
    """
    during = run_app_storm(qtbot, make_window, tmp_path, 100, 200, 50, paced)
    if paced:  # the storm went on while the app imported (else this case proves nothing new)
        assert during >= 1


@pytest.mark.slow
def test_storm_of_1000_notes_while_the_app_runs_ends_equal_to_a_fresh_import(
    qtbot, make_window, tmp_path
) -> None:
    """Guards: the same with 1,000 notes and a folder of 200 renamed, paced."""
    assert run_app_storm(qtbot, make_window, tmp_path, 400, 1000, 200, paced=True) >= 1
