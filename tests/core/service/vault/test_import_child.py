"""A large import in a child process (`core/service/vault/import_child.py`): the app runs its big
imports there so that Chroma's writes do not hold its GUI thread's GIL.

The hash embedder stands in for a model: what is tested is the hand-over (the writer lock,
the store let go of and read anew, progress, cancel, errors), which does not depend on
meaning.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest.importer import ImportOptions, scan_vault
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.import_child import (
    ImportChildError,
    files_to_import,
    import_in_child,
)
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.lock import DataDirLockedError, WriterLock
from tests.conftest import run_import


def _state(mn: Mindnet) -> tuple[list[str], list[str], list[str], int]:
    """What a converged index holds: note ids, chunk ids, edge ids, lexical postings."""
    edges = sorted(e.id for r in mn.store.note_records().values() for e in r.edges)
    return (
        sorted(mn.store.note_records()),
        sorted(mn.store.chunk_ids()),
        edges,
        (mn.store.lexical.count()),
    )


def _add_notes(vault: Path, n: int, stem: str = "extra") -> None:
    for i in range(n):
        link = f"[[{stem}-{(i + 1) % n}]]"
        text = f"# {stem} {i}\n\nA note about zebra migration number {i}. See {link}.\n"
        (vault / f"{stem}-{i}.md").write_text(text, encoding="utf-8")


def test_an_import_in_the_child_equals_one_in_this_process(vault, open_mindnet, tmp_path):
    """Guards the child's import itself: same notes, chunks, edges and lexical postings as
    the same import in-process, and progress reaches the caller (shown to fail by a child
    that opens the vault with another config dir: the example vault's types differ)."""
    twin = tmp_path / "twin"
    shutil.copytree(vault, twin)
    mn = open_mindnet(vault)
    progress = []
    summary = drain(import_in_child(mn, ImportOptions(sync_deletes=True)), progress.append)
    assert summary.summary.added > 10 and not summary.summary.errors
    assert progress and progress[-1].done == progress[-1].total
    with Mindnet(twin, tmp_path / "twin-data", embedder=mn.embedder, write=True) as other:
        run_import(other, sync_deletes=True)
        assert _state(mn) == _state(other)


def test_this_process_reads_the_index_anew_after_the_child_wrote_it(vault, open_mindnet):
    """Guards `release_index` / `reread_index`: records, graph and Chroma's vectors that this
    process had loaded are not served stale after the child added notes (shown to fail by
    keeping the Chroma client open: a search does not see the new notes)."""
    mn = open_mindnet(vault)
    run_import(mn, sync_deletes=True)
    before = len(mn.records)
    assert mn.graph.graph.number_of_nodes() >= before
    hybrid_search(mn, "zebra migration", k=5, log=False)  # Chroma has the index in memory
    _add_notes(vault, 6)
    drain(import_in_child(mn, ImportOptions(sync_deletes=True)))
    assert len(mn.records) == before + 6
    assert "extra-3" in mn.graph.graph
    hits = hybrid_search(mn, "zebra migration number", k=5, log=False).hits
    assert hits and all(h.note_id.startswith("extra-") for h in hits)


def test_the_writer_lock_stays_with_this_process_throughout(vault, open_mindnet, tmp_path):
    """Guards the lock hand-down: the child shares the lock without unlocking it when it
    ends, so no other writer gets in during or after the import (shown to fail by
    `release` unlocking an inherited lock)."""
    mn = open_mindnet(vault)

    def try_second_writer() -> bool:
        try:
            Mindnet(vault, tmp_path / "data", embedder=mn.embedder, write=True).close()
        except DataDirLockedError:
            return False
        return True

    gen = import_in_child(mn, ImportOptions(sync_deletes=True))
    next(gen)  # the child is importing
    assert not try_second_writer()
    drain(gen)
    assert not try_second_writer()
    mn.close()
    assert try_second_writer()


def test_a_handed_down_lock_must_be_the_data_dirs_own(tmp_path):
    """Guards `WriterLock.inherited` against a wrong file (shown to fail without the
    inode check)."""
    lock = WriterLock(tmp_path / "a")
    lock.acquire()
    try:
        with pytest.raises(DataDirLockedError, match="not the one"):
            (tmp_path / "b").mkdir()
            (tmp_path / "b" / "writer.lock").write_text("")
            WriterLock.inherited(tmp_path / "b", lock.fileno)  # type: ignore[arg-type]
    finally:
        lock.release()


def test_a_cancelled_child_import_stops_and_the_next_import_finishes(vault, open_mindnet):
    """Guards cancel across the process boundary: the child stops between files, the store
    stays consistent, and the next import completes (shown to fail by never sending
    "cancel": the summary is not cancelled)."""
    _add_notes(vault, 60)
    mn = open_mindnet(vault)
    seen = []
    gen = import_in_child(mn, ImportOptions(sync_deletes=True), cancel=lambda: bool(seen))
    outcome = drain(gen, seen.append)
    assert outcome.summary.cancelled
    total = run_import(mn, sync_deletes=True).summary
    assert not total.cancelled and total.notes == len(mn.records)
    assert len(mn.store.note_records()) == total.notes


def test_a_failing_child_gives_a_clear_error_and_this_process_goes_on(vault, open_mindnet):
    """Guards errors in the child: the user's message comes back as an ImportChildError,
    and the parent's store is usable after it (shown to fail by a child that exits without
    a reply: the message is then the exit code's)."""
    mn = open_mindnet(vault)
    run_import(mn, sync_deletes=True)
    notes = len(mn.records)
    moved = vault.with_name("moved")
    vault.rename(moved)
    try:
        with pytest.raises(ImportChildError, match="does not exist"):
            drain(import_in_child(mn, ImportOptions(sync_deletes=True)))
    finally:
        moved.rename(vault)
    assert len(mn.records) == notes
    assert hybrid_search(mn, "decision", k=3, log=False).hits


def test_files_to_import_counts_what_an_import_would_read(vault, open_mindnet):
    """Guards the app's choice of a child: every file before the first import, none after
    it, the new and changed ones after edits, all with `force` (shown to fail by comparing
    only paths, not size and time)."""
    mn = open_mindnet(vault)
    files = len(scan_vault(vault))
    assert files_to_import(mn, ImportOptions()) == files
    run_import(mn, sync_deletes=True)
    assert files_to_import(mn, ImportOptions()) == 0
    first = vault / sorted(p for p in scan_vault(vault) if p.endswith(".md"))[0]
    _add_notes(vault, 3)
    first.write_text(first.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert files_to_import(mn, ImportOptions()) == 4
    assert files_to_import(mn, ImportOptions(force=True)) == files + 3


PARENT = """
import sys
from pathlib import Path
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.import_child import import_in_child
from mindnet_desktop.core.service.vault.mindnet import Mindnet
mn = Mindnet(Path(sys.argv[1]), sys.argv[2], embedder=HashEmbedder(), write=True)
for progress in import_in_child(mn, ImportOptions(sync_deletes=True)):
    if progress.phase != "scan":
        print(progress.done, flush=True)
"""


def test_a_parent_killed_mid_import_leaves_a_child_that_stops_and_a_store_that_converges(
    tmp_path,
):
    """Guards a kill -9 of the app while its child imports: the child notices that its
    parent is gone (its stdin closes; its next progress report fails), stops, lets the lock
    go, and the next import ends equal to a fresh import (shown to fail by a child that
    ignores both: it imports all 300 notes)."""
    vault = generate_vault(tmp_path / "vault", 300)
    data = tmp_path / "data-killed"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(vault), str(data)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[4])},
    )
    assert parent.stdout is not None and parent.stdout.readline()  # notes are being written
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 60
    while True:
        try:
            with WriterLock(data):
                break
        except DataDirLockedError:
            assert time.monotonic() < deadline, "the child still holds the lock"
            time.sleep(0.2)
    twin = tmp_path / "twin"
    shutil.copytree(vault, twin)
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        assert 0 < len(mn.store.note_records()) < 300  # the import stopped part-way
        run_import(mn, sync_deletes=True)
        with Mindnet(twin, tmp_path / "data-twin", embedder=HashEmbedder(), write=True) as fresh:
            run_import(fresh, sync_deletes=True)
            assert _state(mn) == _state(fresh)
