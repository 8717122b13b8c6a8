"""Workers: every heavy call of the GUI (import, search, LLM, layout) runs off the GUI thread.

`Job` wraps one call. It runs on a `QThreadPool` and reports through Qt signals, which reach
their receivers on the GUI thread (queued connections):

- `progress(object)`: each item a generator function yields (import progress, LLM tokens);
- `done(object)`: the return value (a generator's `return` value);
- `failed(str)`: a message for the user (the traceback goes to the log);
- `finished()`: always last, after done, failed or a cancel.

The worker thread never emits these signals itself: it posts each event to the job, which
lives on the GUI thread and emits there. So a caller may connect its slots right after
starting a job: nothing a quick job reports is lost.

`ServiceHost` owns the one `Mindnet` of the window. The core service is not thread-safe, so
its jobs run one at a time, in order, on a pool with a single thread. Pure computations that
do not touch the service (a graph layout on a copied subgraph) use `run_pure`, which runs on
the global pool in parallel.
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal

from mindnet_desktop.core.errors import user_message as core_user_message
from mindnet_desktop.core.service.vault.mindnet import Mindnet

log = logging.getLogger(__name__)

JobFn = Callable[["Job"], Any]


def user_message(exc: BaseException) -> str:
    """What the user reads about a failed job: our own errors (and the machine's, a missing
    file or a full disk) carry a clear message; anything else is named with its type."""
    return core_user_message(exc) or f"{type(exc).__name__}: {exc}"


class Job(QObject):
    """One call run off the GUI thread. `fn(job)` may check `job.cancelled()`."""

    progress = Signal(object)
    done = Signal(object)
    failed = Signal(str)
    finished = Signal()
    _posted = Signal(object, object)  # (public signal name, value), queued to the GUI thread
    _live: set[Job] = set()  # started jobs whose `finished` was not delivered yet

    def __init__(self, fn: JobFn, name: str = "") -> None:
        super().__init__()
        app = QCoreApplication.instance()
        if app is not None and self.thread() is not app.thread():
            self.moveToThread(app.thread())  # created on another thread: emit on the GUI's
        self._posted.connect(self._emit, Qt.ConnectionType.QueuedConnection)
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "job")
        self._cancel = threading.Event()
        self._started = threading.Event()
        self._finished = threading.Event()
        self.result: Any = None
        self.error: str | None = None

    def cancel(self) -> None:
        """Ask the job to stop; a generator is not resumed after its current item."""
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def has_started(self) -> bool:
        """It began to run (a job still queued when its host closes never runs)."""
        return self._started.is_set()

    def is_finished(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job finished (tests and shutdown only, never on the GUI thread)."""
        return self._finished.wait(timeout)

    def run(self) -> None:
        """Runs on a worker thread."""
        Job._live.add(self)  # alive until `finished` reached the GUI thread
        self._started.set()
        try:
            if self.cancelled():
                return
            outcome = self.fn(self)
            if inspect.isgenerator(outcome):
                outcome = self._drain(outcome)
            if not self.cancelled():
                self.result = outcome
                self._posted.emit("done", outcome)
        except BaseException as exc:  # noqa: BLE001 - every failure reaches the user
            log.exception("job %s failed", self.name)
            self.error = user_message(exc)
            self._posted.emit("failed", self.error)
        finally:
            self._finished.set()
            self._posted.emit("finished", None)

    def report(self, item: Any) -> None:
        """Emit `progress(item)` from inside `fn` (for functions that drive a generator
        themselves, e.g. to report only every so often)."""
        self._posted.emit("progress", item)

    def _emit(self, name: str, value: object) -> None:
        if name == "finished":
            self.finished.emit()
            Job._live.discard(self)  # its last signal is out: the caller may drop it now
        else:
            getattr(self, name).emit(value)

    def _drain(self, generator: Any) -> Any:
        try:
            while True:
                if self.cancelled():
                    generator.close()
                    return None
                self._posted.emit("progress", next(generator))
        except StopIteration as stop:
            return stop.value


class _Runnable(QRunnable):
    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job
        self.setAutoDelete(True)

    def run(self) -> None:
        self.job.run()


class JobGroup(QObject):
    """The jobs of one widget: started through it, forgotten once finished, cancelled
    together. A job that cannot start (the window is closing) reports through `failed`, like
    a job that failed, so a widget has one place that shows its errors.

    Args:
        host: Runs the jobs that use the service (None: only pure jobs and tracked ones).
    """

    failed = Signal(str)

    def __init__(self, host: ServiceHost | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self._jobs: list[Job] = []
        self.closed = False

    def submit(
        self,
        fn: Callable[[Mindnet, Job], Any],
        name: str = "",
        on_done: Callable[[Any], Any] | None = None,
    ) -> Job | None:
        """Run `fn(mindnet, job)` on the service thread; `on_done(result)` on the GUI thread.
        None when it cannot start (the group or the window is closing)."""
        if self.closed or self.host is None:
            return None
        try:
            job = self.host.submit(fn, name)
        except RuntimeError as exc:  # the window is closing
            self.failed.emit(str(exc))
            return None
        return self.track(job, on_done)

    def run_pure(
        self,
        fn: JobFn,
        name: str = "",
        on_done: Callable[[Any], Any] | None = None,
        pool: QThreadPool | None = None,
    ) -> Job | None:
        """Run `fn(job)` off the GUI thread (work that does not touch the service)."""
        if self.closed:
            return None
        return self.track(run_pure(fn, name, pool), on_done)

    def track(self, job: Job, on_done: Callable[[Any], Any] | None = None) -> Job:
        """Count `job` among the group's (its failure is reported by the group)."""
        self._jobs = [j for j in self._jobs if not j.is_finished()]
        if on_done is not None:
            job.done.connect(on_done)
        job.failed.connect(self.failed)
        self._jobs.append(job)
        return job

    @property
    def jobs(self) -> list[Job]:
        """The jobs not finished yet."""
        self._jobs = [j for j in self._jobs if not j.is_finished()]
        return list(self._jobs)

    @property
    def busy(self) -> bool:
        return bool(self.jobs)

    def cancel(self) -> None:
        """Cancel every job not finished (a job not begun returns at once when it starts)."""
        for job in self.jobs:
            job.cancel()

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the jobs that began (never on the GUI thread while
        they need it); whether all of them finished."""
        deadline = time.monotonic() + timeout
        return all(
            job.wait(max(deadline - time.monotonic(), 0.0))
            for job in self._jobs
            if job.has_started()
        )

    def close(self) -> None:
        """Cancel everything; nothing new starts, results still arriving are the caller's to
        drop (check `closed`)."""
        self.closed = True
        self.cancel()


class ServiceHost(QObject):
    """The window's `Mindnet`, opened and used on one worker thread, one job at a time.

    A `Mindnet` with its store behind the snapshots (`background_store`) takes jobs at once
    (`readable`: searches are answered from the snapshots); once a job started opening its
    store (`open_store_in_background`) and it is open, the host switches to it between two
    jobs and says `opened`. One opened at once says both in a row.

    Args:
        opener: Creates the `Mindnet` (runs on the worker thread: opening Chroma and building
            the graph take seconds on a large vault).
    """

    readable = Signal(object)  # the Mindnet takes jobs (its store may still be opening)
    opened = Signal(object)  # the Mindnet, its store open
    open_failed = Signal(str)
    _store_opening_ended = Signal()  # from the store's opening thread

    def __init__(self, opener: Callable[[], Mindnet], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._opener = opener
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._pool.setExpiryTimeout(-1)
        self._jobs = JobGroup(parent=self)  # every job of the host, for busy and close
        self._closed = False
        self.mindnet: Mindnet | None = None
        self._store_opening_ended.connect(self._use_store, Qt.ConnectionType.QueuedConnection)

    def open(self) -> Job:
        def open_service(job: Job) -> Mindnet:
            self.mindnet = self._opener()
            self.mindnet.when_store_open(self._store_opening_ended.emit)
            return self.mindnet

        job = self._start(Job(open_service, "open"))
        job.done.connect(self.readable)
        job.failed.connect(self.open_failed)
        return job

    def _use_store(self) -> None:
        """The store opened in the background is open (or failed): switch to it between two
        jobs; a store that cannot open closes the service (as when opened at once)."""
        if self._closed:
            return

        def use_store(mn: Mindnet, job: Job) -> Mindnet:
            try:
                mn.wait_for_store()
            except BaseException:
                self.mindnet = None
                mn.close()
                raise
            return mn

        job = self.submit(use_store, "open store")
        job.done.connect(self.opened)
        job.failed.connect(self.open_failed)

    def submit(self, fn: Callable[[Mindnet, Job], Any], name: str = "") -> Job:
        """Run `fn(mindnet, job)` after every job submitted before it."""

        def call(job: Job) -> Any:
            if self.mindnet is None:
                raise RuntimeError(QCoreApplication.translate("Workers", "The vault is not open."))
            return fn(self.mindnet, job)

        return self._start(Job(call, name or getattr(fn, "__name__", "job")))

    def _start(self, job: Job) -> Job:
        if self._closed:
            raise RuntimeError(QCoreApplication.translate("Workers", "The window is closing."))
        self._jobs.track(job)
        self._pool.start(_Runnable(job))
        return job

    @property
    def closed(self) -> bool:
        return self._closed

    def call(self, caller: Job, fn: Callable[[Mindnet], Any], name: str = "") -> Any:
        """Run `fn(mindnet)` on the service thread and wait for its result, from another
        worker thread (never the GUI thread): for jobs that use the service only now and
        then, e.g. the chat answer, whose model streams on a thread of its own."""
        sub = self.submit(lambda mn, job: fn(mn), name or getattr(fn, "__name__", "call"))
        while not sub.wait(0.05):
            if self._closed and not sub.has_started():  # dropped by close(): never runs
                raise RuntimeError(QCoreApplication.translate("Workers", "The window is closing."))
        if sub.error is not None:
            raise RuntimeError(sub.error)
        if sub.cancelled():
            raise RuntimeError(QCoreApplication.translate("Workers", "The window is closing."))
        return sub.result

    @property
    def busy(self) -> bool:
        return self._jobs.busy

    def close(self, timeout_ms: int = 30000) -> None:
        """Cancel every job, wait for the running one, then close the service."""
        self._closed = True
        self._jobs.close()
        self._pool.clear()  # jobs not yet started never run
        self._pool.waitForDone(timeout_ms)
        if self.mindnet is not None:
            self.mindnet.close()
            self.mindnet = None


def run_pure(fn: JobFn, name: str = "", pool: QThreadPool | None = None) -> Job:
    """Run `fn(job)` on `pool` (default: the global one): only for work that does not touch
    the service (it may ask for it through `ServiceHost.call`)."""
    job = Job(fn, name)
    (pool or QThreadPool.globalInstance()).start(_Runnable(job))
    return job
