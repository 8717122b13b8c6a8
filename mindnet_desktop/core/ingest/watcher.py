"""Keep the index in step with the vault while it changes (watchdog, debounced).

Events only mark the vault dirty; after `debounce` seconds of quiet one incremental import
runs (with deletes synced). That coalesces bursts and covers every save pattern alike
(Obsidian's temp file + rename, moves, deletes, folder renames): the import compares the
whole vault with the store by stat and content hash, which is cheap when little changed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mindnet_desktop.core.ingest.vault import is_note_path


def relevant(vault: Path, path: str) -> bool:
    """A note file (or a folder that may hold notes) outside hidden folders."""
    try:
        rel = Path(path).resolve().relative_to(vault).as_posix()
    except ValueError:
        return False
    if rel == ".":
        return False
    if any(part.startswith(".") for part in rel.split("/")):
        return False
    return is_note_path(rel) or "." not in rel.rsplit("/", 1)[-1]


class VaultWatcher:
    """Calls `on_change()` once per quiet period after relevant file system events.

    Args:
        vault: The vault folder.
        on_change: Runs the import; called on the watcher's worker thread, never twice at once.
        debounce: Seconds without events before `on_change` runs.
        on_error: Receives exceptions raised by `on_change` (the watcher keeps going).
    """

    def __init__(
        self,
        vault: Path,
        on_change: Callable[[], None],
        debounce: float = 0.5,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        self.vault = vault.resolve()
        self.on_change = on_change
        self.debounce = debounce
        self.on_error = on_error or (lambda exc: None)
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._observer: Any = None
        self._thread: threading.Thread | None = None
        self.runs = 0

    def start(self, reconcile: bool = True) -> None:
        """Start watching; with `reconcile`, first catch up with changes made while off."""
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: Any) -> None:
                if event.event_type in ("opened", "closed_no_write"):
                    return
                paths = [event.src_path, getattr(event, "dest_path", "")]
                if any(p and relevant(watcher.vault, str(p)) for p in paths):
                    watcher._dirty.set()

        self._observer = Observer()
        self._observer.schedule(Handler(), str(self.vault), recursive=True)
        self._observer.start()
        if reconcile:
            self._dirty.set()
        self._thread = threading.Thread(target=self._loop, name="mindnet-watcher", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            if not self._dirty.wait(timeout=0.2):
                continue
            # Debounce: wait until no event arrived for a whole quiet period.
            while True:
                self._dirty.clear()
                if self._stop.wait(self.debounce):
                    return
                if not self._dirty.is_set():
                    break
            try:
                self.on_change()
            except BaseException as exc:  # noqa: BLE001 - reported, the watcher survives
                self.on_error(exc)
            self.runs += 1

    @property
    def busy(self) -> bool:
        """Events are waiting to be imported."""
        return self._dirty.is_set()

    def stop(self) -> None:
        """Stop the observer and the worker thread (waits for a running import)."""
        self._stop.set()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None
        if self._thread is not None:
            self._thread.join(timeout=60)
            self._thread = None
