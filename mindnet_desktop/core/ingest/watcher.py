"""Keep the index in step with the vault while it changes (watchdog, debounced).

Events mark the vault dirty and collect the note paths they name; after `debounce` seconds
of quiet one incremental import runs (with deletes synced) over those paths alone, so an
edit costs the same in a vault of 50,000 notes as in one of 500. That coalesces bursts and
covers the save patterns of files (Obsidian's temp file + rename, moves, deletes). What no
list of paths describes makes the import compare the whole vault with the store by stat and
content hash instead: the first import, a folder created, moved or deleted, events the
system lost (an overflowing queue), more than `MAX_PATHS` paths, and the import after one
that failed, was cancelled or could not read a file.

A vault folder that vanishes (deleted, renamed, its drive unmounted) is noticed within
`poll` seconds: no import runs while it is gone (the index is kept as it is), the watcher
says so once and waits; when a folder is back at the vault's path (or another one took its
place, such as a drive mounted again) it watches that one and catches up with one import.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from mindnet_desktop.core.domain import ImportSummary
from mindnet_desktop.core.ingest.vault import is_note_path


def gone_message(vault: Path) -> str:
    return (
        f"The vault folder {vault} is gone (deleted, renamed or unmounted); the index is kept "
        "as it was. Waiting for the folder to come back."
    )


def back_message(vault: Path) -> str:
    return f"The vault folder {vault} is back; catching up with its changes."


def folder_identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of a folder that can be listed; None when it is missing or cannot."""
    try:
        info = os.stat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not os.access(folder, os.R_OK | os.X_OK):
        return None
    return info.st_dev, info.st_ino


def vault_relative(vault: Path, path: str) -> str | None:
    """`path` as a vault-relative POSIX path; None outside the vault or for the vault itself.
    Only its folder is resolved: a note that is a link counts at its own path, as a scan
    counts it."""
    try:
        given = Path(path)
        rel = (given.parent.resolve() / given.name).relative_to(vault).as_posix()
    except ValueError:
        return None
    return None if rel == "." else rel


def relevant(vault: Path, path: str) -> bool:
    """A note file (or a folder that may hold notes) outside hidden folders."""
    rel = vault_relative(vault, path)
    if rel is None or any(part.startswith(".") for part in rel.split("/")):
        return False
    return is_note_path(rel) or "." not in rel.rsplit("/", 1)[-1]


def complete(summary: ImportSummary) -> bool:
    """Whether an import took in every change it was given: not cancelled, every file read
    (what `on_change` returns)."""
    return not summary.cancelled and not summary.errors


# More changed paths than this between two imports: compare the whole vault instead of
# keeping them (a folder of notes copied in, a sync tool catching up).
MAX_PATHS = 2000


# Seconds of quiet before an import. A save's events (Obsidian: a temp file, then a rename)
# arrive within milliseconds, so a quarter second still makes one import of them; it is a
# quarter of the one-second budget from a save to a search hit at 6,500 notes.
DEBOUNCE = 0.25


class VaultWatcher:
    """Calls `on_change(paths)` once per quiet period after relevant file system events.

    Args:
        vault: The vault folder.
        on_change: Runs the import; called on the watcher's worker thread, never twice at once,
            with the vault-relative note paths created, changed, moved or deleted since the
            last call, or None when the whole vault must be compared (see the module's
            docstring). It returns False when the import did not take every change in
            (cancelled, or a file could not be read): the next one compares the whole vault.
        debounce: Seconds without events before `on_change` runs.
        on_error: Receives exceptions raised by `on_change` (the watcher keeps going).
        on_vault: Called with False when the vault folder is gone, with True when it is back
            (on the worker thread; `gone_message` / `back_message` say it to a person).
        poll: Seconds between checks that the vault folder is still there.
        on_idle: Called once (on the worker thread) when `idle` seconds passed after an
            import without a new event: the time for work that would delay the next
            import, such as saving snapshots.
        idle: Seconds of quiet after an import before `on_idle`.
    """

    def __init__(
        self,
        vault: Path,
        on_change: Callable[[frozenset[str] | None], bool | None],
        debounce: float = DEBOUNCE,
        on_error: Callable[[BaseException], None] | None = None,
        on_vault: Callable[[bool], None] | None = None,
        poll: float = 1.0,
        on_idle: Callable[[], None] | None = None,
        idle: float = 20.0,
    ) -> None:
        self.vault = vault.resolve()
        self.on_idle, self.idle = on_idle, idle
        self._idle_due: float | None = None
        self.on_change = on_change
        self.debounce, self.poll = debounce, poll
        self.on_error = on_error or (lambda exc: None)
        self.on_vault = on_vault or (lambda present: None)
        self._dirty = threading.Event()
        # Note paths changed since the last import (None: compare the whole vault).
        self._paths: set[str] | None = None
        self._paths_lock = threading.Lock()
        self._last_event = 0.0  # time.monotonic() of the last relevant event
        self._stop = threading.Event()
        self._observer: Any = None
        self._observer_lock = threading.Lock()  # the worker restarts it, stop() ends it
        self._identity: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self.runs = 0
        self.gone = False

    def start(self, reconcile: bool = True) -> None:
        """Start watching; with `reconcile`, first catch up with changes made while off."""
        self._start_observer()
        if reconcile:
            self._changed(None)
        else:
            self._paths = set()
        self._thread = threading.Thread(target=self._loop, name="mindnet-watcher", daemon=True)
        self._thread.start()

    def _start_observer(self) -> None:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:
                watcher._event(event)

        with self._observer_lock:
            if self._stop.is_set():
                return
            identity = folder_identity(self.vault)
            observer = Observer()
            observer.schedule(Handler(), str(self.vault), recursive=True)
            try:
                observer.start()
            except OSError:
                observer.stop()
                raise
            self._observer, self._identity = observer, identity

    def _event(self, event: Any) -> None:
        """An event of the observer's thread: mark the vault dirty, keep its note paths."""
        kind = event.event_type
        if kind in ("opened", "closed_no_write"):
            return
        if kind == "events_lost":  # the system's queue overflowed: anything may have changed
            self._changed(None)
            return
        paths = [str(p) for p in (event.src_path, getattr(event, "dest_path", "")) if p]
        if not any(relevant(self.vault, p) for p in paths):
            return
        if event.is_directory:
            # A folder's "modified" only says that something in it changed (its files have
            # their own events); a folder created, moved or deleted takes its notes along.
            self._changed(None if kind != "modified" else set())
            return
        rels = (vault_relative(self.vault, p) for p in paths)
        self._changed({rel for rel in rels if rel is not None and is_note_path(rel)})

    def _changed(self, paths: set[str] | None) -> None:
        self._last_event = time.monotonic()
        with self._paths_lock:
            if paths is None:
                self._paths = None
            elif self._paths is not None:
                self._paths |= paths
                if len(self._paths) > MAX_PATHS:
                    self._paths = None
        self._dirty.set()

    def _take_paths(self) -> frozenset[str] | None:
        with self._paths_lock:
            paths, self._paths = self._paths, set()
        return frozenset(paths) if paths is not None else None

    def _stop_observer(self) -> None:
        with self._observer_lock:
            observer, self._observer = self._observer, None
        if observer is not None:
            try:
                observer.stop()
                observer.join(timeout=5)
            except OSError:  # its folder is gone: nothing left to unwatch
                pass

    def _loop(self) -> None:
        checked = time.monotonic()
        while not self._stop.is_set():
            if time.monotonic() - checked >= self.poll:
                checked = time.monotonic()
                if folder_identity(self.vault) != self._identity:
                    self._recover()
                    continue
            if not self._dirty.wait(timeout=0.2):
                if self._idle_due is not None and time.monotonic() >= self._idle_due:
                    self._idle_due = None
                    self._call(self.on_idle)
                continue
            # Debounce: wait until no event arrived for a whole quiet period, counted from
            # the last event (one save's events trickle in over a few milliseconds: counted
            # from the wake-up, each straggler cost a whole period more).
            while (quiet := time.monotonic() - self._last_event) < self.debounce:
                if self._stop.wait(self.debounce - quiet):
                    return
            self._dirty.clear()
            if folder_identity(self.vault) != self._identity:
                self._recover()  # never import a vault that is gone or half there
                continue
            if self._call(partial(self.on_change, self._take_paths())) is False:
                with self._paths_lock:  # the next import (at the next event) compares all
                    self._paths = None
            self.runs += 1
            if self.on_idle is not None:
                self._idle_due = time.monotonic() + self.idle

    def _call(self, fn: Callable[[], bool | None] | None) -> bool | None:
        """`fn()`'s result; False when it raised (reported to `on_error`)."""
        if fn is None:
            return None
        try:
            return fn()
        except BaseException as exc:  # noqa: BLE001 - reported, the watcher survives
            self.on_error(exc)
            return False

    def _recover(self) -> None:
        """The vault folder vanished or another took its place: watch it again once it is
        there, and catch up with one import (nothing is imported while it is gone)."""
        self._stop_observer()
        while not self._stop.is_set():
            if folder_identity(self.vault) is None:
                if not self.gone:
                    self.gone = True
                    self.on_vault(False)
                self._stop.wait(self.poll)
                continue
            try:
                self._start_observer()
            except OSError:  # vanished again at once (or no inotify watch left): retry
                self._stop.wait(self.poll)
                continue
            if self.gone:
                self.gone = False
                self.on_vault(True)
            self._changed(None)
            return

    @property
    def busy(self) -> bool:
        """Events are waiting to be imported."""
        return self._dirty.is_set()

    def stop(self) -> None:
        """Stop the observer and the worker thread (waits for a running import)."""
        self._stop.set()
        self._stop_observer()
        if self._thread is not None:
            self._thread.join(timeout=60)
            self._thread = None
