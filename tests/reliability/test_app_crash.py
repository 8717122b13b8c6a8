"""kill -9 of the app while it creates an edge: the app (its main window, in a child process,
`app_crash_child.py`) creates an edge through the graph view's "Create edge" button and is
killed with SIGKILL before or right after the callout's temp file is renamed over the note.

Afterwards the note is either byte for byte as it was or holds exactly the one callout, no
other file of the vault changed, no temp file is left in the vault after the next start, and
the next start of the app reports nothing, imports and ends equal to a fresh import.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mindnet_desktop.core.ingest.note_edit import EDIT_JOURNAL, clean_interrupted_edit
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import
from tests.reliability.support import REPO, cli_env, make_vault, snapshot
from tests.reliability.test_app_storm import app_view, on_core, open_app

CHILD = Path(__file__).with_name("app_crash_child.py")
NOTES = 12
SOURCE, KIND, TARGET = "Note 0", "causes", "Note 4"  # Note 0 links Note 4: drawn beside it
CALLOUT = b"\n\n> [!edge] causes: [[Note 4]]"


def files_of(vault: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(vault.rglob("*")) if p.is_file()}


def run_app_until_killed(point: str, vault: Path, data: Path, tmp_path: Path) -> None:
    cmd = [sys.executable, str(CHILD), point, str(vault), str(data)]
    cmd += [str(tmp_path / "child-settings.ini"), SOURCE, KIND, TARGET]
    env = cli_env(QT_QPA_PLATFORM="offscreen")
    died = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert died.returncode == -signal.SIGKILL, (died.returncode, died.stderr[-3000:])


@pytest.mark.parametrize("point", ["note-replace", "note-replaced"])
def test_kill_9_of_the_app_while_it_creates_an_edge(qtbot, make_window, tmp_path, point) -> None:
    """Guards: the app's "Create edge" writes the note atomically (temp file + rename) and
    the next start of the app cleans up after a kill: killed before the rename the note is
    untouched; killed after it the note holds the whole callout and nothing else changed;
    the temp file a kill leaves behind is removed at the next start; that start reports no
    error and its store equals a fresh import of the vault as it now is.

    Shown to fail: with note_edit.write_atomic writing the note in place
    (`real.write_bytes(data)`), no rename happens and the child is never killed there (exit
    status 3, not SIGKILL); without the clean-up of an interrupted note edit at the next
    start, the `note-replace` case finds the `.Note 0.md.….tmp` file left in the vault.
    """
    vault = make_vault(tmp_path / "vault", NOTES)
    data = tmp_path / "data"
    note = vault / "Ordner 0" / "Note 0.md"
    before = files_of(vault)
    run_app_until_killed(point, vault, data, tmp_path)

    after = files_of(vault)
    assert {p for p in before if after.get(p) != before[p]} <= {note}
    if point == "note-replace":
        assert after[note] == before[note]
    else:
        assert after[note].count(b"> [!edge] causes: [[") == 1
        assert after[note].replace(CALLOUT, b"", 1) == before[note]
    left = sorted(p.name for p in set(after) - set(before))
    assert all(name.startswith(".Note 0.md.") and name.endswith(".tmp") for name in left), left

    # The next start of the app on the same data dir.
    window = open_app(qtbot, make_window, vault, data, NOTES)
    assert window.last_error == ""
    summary = window.indexer.last_summary
    assert summary is not None and summary.errors == []
    in_app = on_core(qtbot, window, app_view)
    window.close()
    now = files_of(vault)
    assert set(now) == set(before), "a temp file was left in the vault"
    assert now[note] == after[note]
    with Mindnet(vault, tmp_path / "fresh", embedder=HashEmbedder(), write=True) as mn:
        run_import(mn)
        fresh = app_view(mn)
    assert in_app == fresh
    assert snapshot(data, vault) == snapshot(tmp_path / "fresh", vault)
    made = [e for e in fresh["edges"] if e[1] == KIND and e[5] == "callout:edge"]
    assert len(made) == (1 if point == "note-replaced" else 0)


def test_an_edit_journal_removes_only_its_own_temp_file(tmp_path) -> None:
    """Guards: the clean-up at start removes nothing but a hidden `.tmp` file inside the
    vault that a journal names: a journal naming a note, a file outside the vault, or one
    that cannot be read removes nothing (the journal itself goes).

    Shown to fail by dropping the name and place checks in clean_interrupted_edit: the note
    and the file outside the vault are deleted.
    """
    vault = make_vault(tmp_path / "vault", 3)
    journal = tmp_path / "data" / EDIT_JOURNAL
    journal.parent.mkdir()
    outside = tmp_path / ".elsewhere.tmp"
    outside.write_text("not the vault's")
    note = vault / "Ordner 0" / "Note 0.md"
    own = note.with_name(".Note 0.md.0123abcd.tmp")
    own.write_text("half an edit")
    before = files_of(vault)
    for named in (note, outside, vault / "Ordner 0" / "x.tmp", "{not json"):
        journal.write_text(named if isinstance(named, str) else json.dumps({"temp": str(named)}))
        assert clean_interrupted_edit(journal, vault) is None
        assert not journal.exists() and files_of(vault) == before and outside.exists()
    journal.write_text(json.dumps({"temp": str(own)}))
    assert clean_interrupted_edit(journal, vault) == own
    assert not own.exists() and not journal.exists()
    assert clean_interrupted_edit(journal, vault) is None  # no journal: nothing to do
