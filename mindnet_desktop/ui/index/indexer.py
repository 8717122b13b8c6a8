"""Import and watching for the window: every import is a job on the `ServiceHost`.

The watcher's thread never calls the service: it asks the GUI thread (a queued signal) to
submit an import job and waits until that job finished, so it never runs two at once and
the service only ever runs on the host's thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from mindnet_desktop.core.domain import ImportSummary
from mindnet_desktop.core.ingest.importer import ImportOptions, ImportOutcome
from mindnet_desktop.core.ingest.watcher import DEBOUNCE, complete
from mindnet_desktop.ui.index import ops
from mindnet_desktop.ui.support.workers import Job, JobGroup, ServiceHost

WATCHING, IMPORTING, STOPPED, ERROR = "watching", "importing", "stopped", "error"
SNAPSHOT_IDLE_MS = 20_000  # imports quiet this long: the snapshots are saved
WATCH_START_WAIT_S = 60.0  # closing waits this long at most for the watch to start
SNAPSHOT_WAIT_S = 60.0  # and for the snapshot child to finish


@dataclass
class WatchRequest:
    """The watcher's import, asked of the GUI thread: the paths it saw change (None: the whole
    vault), set when the import finished, and whether it took every change in."""

    paths: frozenset[str] | None
    done: threading.Event = field(default_factory=threading.Event)
    complete: bool = False


class VaultIndexer(QObject):
    """Runs imports on the host and keeps a `VaultWatcher` feeding it.

    Signals:
        progress(IndexProgress): after each file of the running import.
        imported(ImportSummary): after each import (also a cancelled one).
        stats_ready(IndexStats): counts after the open and after each import.
        state_changed(str): watching / importing / stopped / error.
        failed(str): a message for the user.
    """

    progress = Signal(object)
    imported = Signal(object)
    stats_ready = Signal(object)
    state_changed = Signal(str)
    failed = Signal(str)
    _watch_request = Signal(object)  # a WatchRequest, from the watcher thread
    _vault_seen = Signal(bool)  # from the watcher thread: the vault folder is there or gone

    def __init__(
        self, host: ServiceHost, debounce: float = DEBOUNCE, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.host = host
        self.debounce = debounce
        self.embed_workers: int | None = None  # the setting (None: the core's default)
        self.state = STOPPED
        self.last_summary: ImportSummary | None = None
        self._watcher: Any = None
        self._job: Job | None = None
        self._imports = JobGroup(host, self)  # submitted, maybe not finished (Cancel stops all)
        self._imports.failed.connect(self._on_failed)
        self._stats = JobGroup(host, self)
        self._stats.failed.connect(self._on_failed)
        self._watch_start = JobGroup(parent=self)
        self._watch_start.failed.connect(self._on_failed)
        self._snapshot_writes = JobGroup(parent=self)  # the wait for the snapshot child
        self._snapshot_writes.failed.connect(self.failed)
        self._closing = False
        self._waiting: set[threading.Event] = set()
        self._lock = threading.Lock()
        self._watch_request.connect(self._on_watch_request)
        self._vault_seen.connect(self._on_vault_seen)
        # Snapshots are saved once imports have been quiet for a while, not after each one.
        self._snapshot_timer = QTimer(self)
        self._snapshot_timer.setSingleShot(True)
        self._snapshot_timer.setInterval(SNAPSHOT_IDLE_MS)
        self._snapshot_timer.timeout.connect(self.save_snapshots)

    @property
    def importing(self) -> bool:
        return self._job is not None and not self._job.is_finished()

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.state_changed.emit(state)

    def import_now(
        self,
        options: ImportOptions | None = None,
        then: Callable[[], None] | None = None,
        small: bool = False,
        outcome: list[ImportOutcome] | None = None,
    ) -> Job | None:
        """Submit an import; `then` runs on the GUI thread once it finished (or failed).

        An import of `CHILD_MIN_FILES` files or more runs in a child process (`import_child`):
        in this one, Chroma's writes and the parsing would hold the GIL from the GUI thread
        for long stretches. `small`: known to be small (the watcher's), not counted.
        `outcome` receives the import's outcome (none when it failed).
        """
        if self._closing:
            return None
        options = options or ImportOptions(sync_deletes=True)
        if options.embed_workers is None:
            options = replace(options, embed_workers=self.embed_workers)
        outcome = outcome if outcome is not None else []
        run_import = partial(ops.import_vault, options=options, small=small, outcome=outcome)
        job = self._imports.submit(run_import, "import")
        if job is None:  # the window is closing
            return None
        self._job = job
        self._set_state(IMPORTING)
        job.progress.connect(self.progress)
        job.finished.connect(lambda: self._on_import_finished(job, outcome, then))
        return job

    def cancel(self) -> None:
        """Cancel every import not finished yet (a running one and any queued behind it)."""
        self._imports.cancel()

    def _on_failed(self, message: str) -> None:
        self._set_state(ERROR)
        self.failed.emit(message)

    def _on_import_finished(
        self, job: Job, outcome: list[ImportOutcome], then: Callable[[], None] | None
    ) -> None:
        if self._job is job:
            self._job = None
        if self._closing:  # the vault was closed meanwhile: nobody listens any more
            return
        self._snapshot_timer.start()  # (again): saved when no import followed for a while
        if outcome:
            self.last_summary = outcome[0].summary
            self.imported.emit(outcome[0].summary)
        if job.error is None and self._watcher is None:
            self._set_state(STOPPED)
        elif job.error is None and not self._watch_start.busy:
            self._set_state(WATCHING)  # (a watch still starting says so when it has)
        if not self._closing:
            self.refresh_stats()
        if then is not None:
            then()

    def save_snapshots(self) -> Job | None:
        """Bring the snapshots a fresh reader reads (records, graph, chunk snapshot, note
        index) in step with the imports so far: the service lists what changed, a child
        process writes them (`snapshot_child`), the service hears back. Closing the service
        saves what is left in its own process."""
        if self._closing or self.host.mindnet is None or self._snapshot_writes.busy:
            return None
        if self.importing:
            return None  # its end starts the timer again
        return self._stats.submit(ops.snapshot_request, "snapshot request", self._write)

    def _write(self, request: object) -> None:
        if request is None or self._closing:
            return  # (a request the close leaves unanswered is saved by the close)
        job = self._snapshot_writes.run_pure(
            partial(ops.write_snapshots, request=request), "write snapshots"
        )
        if job is not None:
            job.done.connect(lambda ok: self._written(bool(ok)))
            job.failed.connect(lambda _message: self._written(False))

    def _written(self, ok: bool) -> None:
        if not self._closing:
            self._stats.submit(partial(ops.snapshots_written, ok=ok), "snapshots written")

    def refresh_stats(self) -> Job | None:
        if self._closing:
            return None
        return self._stats.submit(ops.index_stats, "stats", self.stats_ready)

    # Watching
    def start_watching(self) -> None:
        """Watch the vault (call with or after the first import: it does not reconcile
        again). The watch starts off the GUI thread (adding a watch to each folder of a
        large vault takes a while); `watching` once it has."""
        from mindnet_desktop.core.ingest.watcher import VaultWatcher

        if self._watcher is not None or self._closing or self.host.mindnet is None:
            return
        self._watcher = VaultWatcher(
            self.host.mindnet.vault,
            self._on_change,
            self.debounce,
            self._on_watch_error,
            self._vault_seen.emit,
        )
        self._watch_start.run_pure(
            partial(ops.start_watcher, watcher=self._watcher), "start watching", self._watching
        )

    def _watching(self, _result: object) -> None:
        if not self._closing and not self.importing and self.state != ERROR:
            self._set_state(WATCHING)

    def _on_change(self, paths: frozenset[str] | None) -> bool:
        """Watcher thread: have the GUI thread submit an import of `paths` and wait for it;
        whether it took every change in."""
        request = WatchRequest(paths)
        with self._lock:
            if self._closing:
                return False
            self._waiting.add(request.done)
        self._watch_request.emit(request)
        while not request.done.wait(0.1):
            if self._closing:
                break
        with self._lock:
            self._waiting.discard(request.done)
        return request.complete

    @Slot(object)
    def _on_watch_request(self, request: WatchRequest) -> None:
        outcome: list[ImportOutcome] = []

        def finished() -> None:
            request.complete = bool(outcome) and complete(outcome[0].summary)
            request.done.set()

        options = ImportOptions(sync_deletes=True, paths=request.paths)
        if self._closing or self.import_now(options, finished, True, outcome) is None:
            request.done.set()

    @Slot(bool)
    def _on_vault_seen(self, present: bool) -> None:
        """The vault folder vanished (the index is kept, watching waits) or is back."""
        from mindnet_desktop.core.ingest.watcher import gone_message

        if self._closing or self._watcher is None:
            return
        if present:
            self._set_state(IMPORTING if self.importing else WATCHING)
        else:
            self._set_state(ERROR)
            self.failed.emit(gone_message(self._watcher.vault))

    def _on_watch_error(self, exc: BaseException) -> None:
        self.failed.emit(str(exc))  # a queued signal: reaches the GUI thread

    def stop(self) -> None:
        """Cancel the running import and stop the watcher (no thread survives)."""
        with self._lock:
            self._closing = True
            for done in self._waiting:
                done.set()
        self._snapshot_timer.stop()
        self.cancel()
        self._watch_start.wait(WATCH_START_WAIT_S)  # its thread must not start after the stop
        self._snapshot_writes.wait(SNAPSHOT_WAIT_S)  # the child writes what the close would
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        self._set_state(STOPPED)
