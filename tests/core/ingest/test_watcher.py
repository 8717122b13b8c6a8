"""The watcher on a real temp folder: Obsidian saves, moves, deletes, bursts, folder renames."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mindnet_desktop.core.ingest.importer import ImportOptions, scan_vault
from mindnet_desktop.core.ingest.watcher import (
    MAX_PATHS,
    VaultWatcher,
    complete,
    relevant,
    vault_relative,
)
from tests.conftest import run_import


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


@pytest.fixture
def watched(vault, open_mindnet) -> Iterator[tuple[Path, object, VaultWatcher]]:
    mn = open_mindnet(vault)
    lock = threading.Lock()

    def on_change(paths: frozenset[str] | None) -> bool:
        with lock:
            calls.append(paths)
            return complete(run_import(mn, sync_deletes=True, paths=paths).summary)

    errors: list[BaseException] = []
    calls: list[frozenset[str] | None] = []
    watcher = VaultWatcher(vault, on_change, debounce=0.2, on_error=errors.append)
    watcher.calls = calls  # type: ignore[attr-defined] - what each import was given
    watcher.start()
    yield vault, mn, watcher
    watcher.stop()
    assert errors == []


def in_sync(vault: Path, mn) -> bool:
    """Store == vault: the same paths with the same content hashes."""
    import hashlib

    records = mn.store.note_records()
    stored = {r.note.path: r.note.content_hash for r in records.values()}
    files = {p: hashlib.sha256((vault / p).read_bytes()).hexdigest() for p in scan_vault(vault)}
    return stored == files


def settled(vault: Path, mn, watcher: VaultWatcher) -> Callable[[], bool]:
    runs = watcher.runs
    return lambda: watcher.runs > runs and not watcher.busy and in_sync(vault, mn)


def test_reconciles_changes_made_while_off(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    (vault / "Offline.md").write_text("Geschrieben, als niemand zusah.\n", encoding="utf-8")
    (vault / "Glossar" / "HNSW.md").unlink()
    calls: list[frozenset[str] | None] = []

    def on_change(paths: frozenset[str] | None) -> None:
        calls.append(paths)
        run_import(mn, sync_deletes=True, paths=paths)

    watcher = VaultWatcher(vault, on_change, debounce=0.1)
    watcher.start()
    try:
        wait_until(lambda: watcher.runs >= 1 and in_sync(vault, mn))
    finally:
        watcher.stop()
    assert "Offline" in mn.records and "Glossar/HNSW" not in mn.records
    assert calls[0] is None  # changes made while off: the whole vault is compared


def test_obsidian_save_via_temp_file_and_rename(watched):
    vault, mn, watcher = watched
    wait_until(lambda: watcher.runs >= 1 and in_sync(vault, mn))
    target = vault / "Wissen" / "Embeddings 101.md"
    check = settled(vault, mn, watcher)
    tmp = vault / "Wissen" / ".Embeddings 101.md.tmp"
    tmp.write_text(
        target.read_text(encoding="utf-8") + "\nGespeichert über Umbenennen.\n", encoding="utf-8"
    )
    os.replace(tmp, target)
    wait_until(check)
    chunks = mn.store.chunks("Wissen/Embeddings 101")
    assert any("Gespeichert über Umbenennen" in c.text for c in chunks)
    # The import looked at the saved note alone (the hidden temp file is no note).
    assert watcher.calls[-1] == {"Wissen/Embeddings 101.md"}


def test_move_delete_and_folder_rename(watched):
    vault, mn, watcher = watched
    wait_until(lambda: watcher.runs >= 1 and in_sync(vault, mn))
    check = settled(vault, mn, watcher)
    os.rename(vault / "Glossar" / "HNSW.md", vault / "Wissen" / "HNSW.md")
    (vault / "Events" / "Vector Search Meetup München.md").unlink()
    os.rename(vault / "Journal", vault / "Tagebuch")
    wait_until(check)
    ids = set(mn.store.note_records())
    assert "Wissen/HNSW" in ids and "Glossar/HNSW" not in ids
    assert not any(i.startswith("Journal/") for i in ids) and "Tagebuch/2026-11-02" in ids
    assert not any(i.startswith("Events/") for i in ids)
    assert None in watcher.calls[1:]  # a folder moved: its notes went along unnamed


def test_burst_of_200_files_is_coalesced(watched):
    vault, mn, watcher = watched
    wait_until(lambda: watcher.runs >= 1 and in_sync(vault, mn))
    runs = watcher.runs
    check = settled(vault, mn, watcher)
    folder = vault / "Burst"
    folder.mkdir()
    for i in range(200):
        (folder / f"Notiz {i:03d}.md").write_text(
            f"# Notiz {i}\nInhalt {i} [[Notiz {(i + 1) % 200:03d}]]\n", encoding="utf-8"
        )
    wait_until(check, timeout=120)
    assert sum(1 for i in mn.store.note_records() if i.startswith("Burst/")) == 200
    assert watcher.runs - runs < 20  # coalesced, not one import per event
    edges = mn.store.note_records()["Burst/Notiz 000"].edges
    assert any(e.target_note_id == "Burst/Notiz 001" for e in edges)


def test_on_idle_runs_once_after_imports_went_quiet(tmp_path):
    """Guards the idle hook that saves snapshots in `mindnet watch`: it runs after an import
    once nothing changed for `idle` seconds, once, and not while changes keep coming (without
    the hook's reset on each import it would run in the middle of a burst)."""
    (tmp_path / "a.md").write_text("a", encoding="utf-8")
    events: list[str] = []
    watcher = VaultWatcher(
        tmp_path,
        lambda paths: events.append("import"),
        debounce=0.1,
        on_idle=lambda: events.append("idle"),
        idle=3.0,
    )
    watcher.start()
    try:
        wait_until(lambda: events == ["import"])
        for i in range(3):  # changes keep coming: each import moves the idle time on
            time.sleep(0.3)
            (tmp_path / f"n{i}.md").write_text("x", encoding="utf-8")
            wait_until(lambda n=i: events.count("import") == n + 2)
        assert "idle" not in events
        wait_until(lambda: "idle" in events)
        time.sleep(3.5)
        assert events.count("idle") == 1 and events[-1] == "idle"
    finally:
        watcher.stop()


def test_hidden_and_non_note_paths_are_not_relevant(tmp_path):
    vault = tmp_path.resolve()
    assert relevant(vault, str(vault / "a" / "Note.md"))
    assert relevant(vault, str(vault / "faq.ctxt"))
    assert relevant(vault, str(vault / "Folder"))
    for path in (
        ".obsidian/workspace.json",
        ".trash/old.md",
        "a/.hidden.md",
        "img.png",
        "a/readme.txt",
    ):
        assert not relevant(vault, str(vault / path)), path
    assert not relevant(vault, "/elsewhere/Note.md")


def test_import_options_default_keeps_deleted_notes():
    assert ImportOptions().sync_deletes is False


def test_edits_moves_and_deletes_are_imported_by_their_paths(watched):
    """Each import is given the note paths its events named, and the index ends up as a
    comparison of the whole vault would leave it."""
    vault, mn, watcher = watched
    wait_until(lambda: watcher.runs >= 1 and in_sync(vault, mn))
    check = settled(vault, mn, watcher)
    os.rename(vault / "Glossar" / "HNSW.md", vault / "Glossar" / "HNSW-Index.md")
    (vault / "Events" / "Vector Search Meetup München.md").unlink()
    (vault / "Neu.md").write_text("# Neu\nVerweist auf [[HNSW-Index]].\n", encoding="utf-8")
    wait_until(check)
    given = set().union(*(c for c in watcher.calls[1:] if c is not None))
    assert None not in watcher.calls[1:]
    assert given == {
        "Glossar/HNSW.md",
        "Glossar/HNSW-Index.md",
        "Events/Vector Search Meetup München.md",
        "Neu.md",
    }
    edges = mn.store.note_records()["Neu"].edges
    assert any(e.target_note_id == "Glossar/HNSW-Index" for e in edges)


def test_a_failed_import_makes_the_next_one_compare_the_whole_vault(tmp_path):
    (tmp_path / "a.md").write_text("a", encoding="utf-8")
    calls: list[frozenset[str] | None] = []
    results = iter([True, False, True, True])
    watcher = VaultWatcher(
        tmp_path, lambda paths: calls.append(paths) or next(results), debounce=0.1
    )
    watcher.start()
    try:
        wait_until(lambda: len(calls) == 1)
        for i, count in enumerate((2, 3, 4)):
            (tmp_path / f"n{i}.md").write_text("x", encoding="utf-8")
            wait_until(lambda c=count: len(calls) == c)
    finally:
        watcher.stop()
    assert calls == [None, {"n0.md"}, None, {"n2.md"}]


def test_too_many_paths_or_lost_events_compare_the_whole_vault(tmp_path):
    from watchdog.events import EventsLostEvent, FileModifiedEvent

    watcher = VaultWatcher(tmp_path, lambda paths: None)
    watcher._paths = set()
    watcher._event(FileModifiedEvent(str(tmp_path / "a.md")))
    assert watcher._take_paths() == {"a.md"}
    watcher._event(EventsLostEvent(str(tmp_path), is_directory=True))
    assert watcher._take_paths() is None
    for i in range(MAX_PATHS + 1):
        watcher._event(FileModifiedEvent(str(tmp_path / f"n{i}.md")))
    assert watcher._take_paths() is None


def test_a_note_that_is_a_link_is_named_by_its_own_path(tmp_path):
    """A link to another note is a note of its own (as `scan_vault` counts it): its events
    name it, not the note it points to (shown to fail by resolving the whole path)."""
    vault = tmp_path.resolve()
    (vault / "a.md").write_text("a", encoding="utf-8")
    (vault / "d.md").symlink_to(vault / "a.md")
    assert vault_relative(vault, str(vault / "d.md")) == "d.md"
    assert vault_relative(vault, str(vault)) is None
    assert vault_relative(vault, "/elsewhere/x.md") is None
