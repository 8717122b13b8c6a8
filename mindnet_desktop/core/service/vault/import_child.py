"""A large import in a child process, so that the process that asked for it stays responsive.

Chroma's embedded client holds the GIL for the whole of each write call, and parsing and
deriving edges are Python work too: an import of a few hundred notes or more in the app's
process left its GUI thread waiting for the GIL (p99 gaps of 130–180 ms, freezes of over a
second at 6,500 notes). In a child the import has a GIL of its own.

The parent (`import_in_child`, through `Mindnet.release_index`) first lets go of its store
(the embedded Chroma client caches the index in memory and must not see the child's writes
half-way), then starts a fresh `python -m` of this module. The child opens the same vault
with the same settings, sharing the parent's writer lock (it inherits the locked file; no
other process can take the lock in between), imports, saves the snapshots and reports back;
the parent then reads everything anew. Frames are length-prefixed pickles
(`embed_worker.send_frame`):

- parent -> child: the `ChildImport` spec, then `"cancel"` (or the pipe closes: cancel too);
- child -> parent: `("progress", IndexProgress)` at most every `PROGRESS_INTERVAL` seconds
  and at each phase's end, then `("done", ImportSummary)` or `("error", message)`.

A kill -9 of either side is as safe as one of an import in-process: the import is
crash-safe (see tests/reliability), and the child stops when its parent's pipe closes.
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mindnet_desktop.core.domain import ImportSummary, IndexProgress, throttled
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.ingest.importer import (
    ImportOptions,
    ImportOutcome,
    scan_vault,
    stat_changed,
)
from mindnet_desktop.core.ingest.manifest import type_fingerprint
from mindnet_desktop.core.models.embed_worker import receive_frame, run_child, send_frame
from mindnet_desktop.core.models.embedders import Embedder

if TYPE_CHECKING:
    from mindnet_desktop.core.config.type_registry import TypeRegistry
    from mindnet_desktop.core.ingest.manifest import Manifest
    from mindnet_desktop.core.store.chroma import ChromaStore
    from mindnet_desktop.core.store.lock import WriterLock

# Below this many changed files an import stays in the caller's process: a child costs
# ~2-3 s (Python, chromadb, the model; the parent opens its store again after it).
CHILD_MIN_FILES = 200
CHILD_NICENESS = 2  # below the app's GUI; the embedding grandchild adds its own 5
PROGRESS_INTERVAL = 0.05
POLL = 0.1  # seconds between looks at `cancel` while waiting for the child
STOP_GRACE = 30.0  # seconds a cancelled child may take to finish its batch


class ImportChildError(MindnetError):
    """The import in the child process failed (its message says why) or the child died."""


class ImportingVault(Protocol):
    """What an import in a child needs of the vault opened for writing (`Mindnet`): what
    the child opens it with, and letting go of the index meanwhile."""

    @property
    def vault(self) -> Path: ...

    @property
    def data_dir(self) -> Path: ...

    @property
    def config_override(self) -> Path | None: ...

    @property
    def embedder(self) -> Embedder: ...

    @property
    def registry(self) -> TypeRegistry: ...

    @property
    def manifest(self) -> Manifest: ...

    @property
    def store(self) -> ChromaStore: ...

    def release_index(self) -> WriterLock: ...

    def reread_index(self) -> None: ...


@dataclass
class ChildImport:
    """What the child needs to open the vault as the parent did."""

    vault: Path
    data_dir: Path
    config_dir: Path | None  # the explicit override, or None (the data dir's own)
    embedder: Embedder  # pickled with its settings, not its loaded model
    options: ImportOptions
    chroma_url: str | None
    lock_fd: int  # the parent's locked writer.lock, inherited


def files_to_import(mn: ImportingVault, options: ImportOptions) -> int:
    """How many files an import would read (new, or changed by size or time; every file
    without a manifest or with `force`): a stat of each, nothing is read."""
    try:
        files = scan_vault(mn.vault, [], [])
    except (OSError, MindnetError):
        return 0  # the import itself reports it
    entries = None if options.force else mn.manifest.load(mn.store.counts()["notes"])
    if entries is None:
        return len(files)
    fingerprint = functools.cache(lambda type_name: type_fingerprint(mn.registry, type_name))
    return sum(
        1 for rel, stat in files.items() if stat_changed(entries.get(rel), stat, fingerprint)
    )


def import_in_child(
    mn: ImportingVault,
    options: ImportOptions | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Generator[IndexProgress, None, ImportOutcome]:
    """`mn.import_vault` run by a child process: `mn` lets go of its store meanwhile and
    reads the index anew afterwards (also after a failure). Only the summary comes back."""
    server = mn.store.server
    lock = mn.release_index()
    spec = ChildImport(
        mn.vault,
        mn.data_dir,
        mn.config_override,
        mn.embedder,
        options or ImportOptions(),
        server.url if server is not None else None,
        lock.fileno,  # type: ignore[arg-type]  # held: release_index checked
    )
    try:
        summary = yield from run_in_child(spec, cancel or (lambda: False))
    finally:
        mn.reread_index()
    return ImportOutcome(summary)


def run_in_child(
    spec: ChildImport, cancel: Callable[[], bool]
) -> Generator[IndexProgress, None, ImportSummary]:
    """Start the child, relay its progress, pass a cancel on; its summary."""
    package_root = str(Path(__file__).resolve().parents[4])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
    process = subprocess.Popen(
        [sys.executable, "-m", __name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        pass_fds=(spec.lock_fd,),
    )
    replies: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        while True:
            try:
                reply = receive_frame(process.stdout)
            except (EOFError, OSError):
                reply = None
            replies.put(reply)
            if reply is None or reply[0] != "progress":
                return

    threading.Thread(target=read, daemon=True).start()
    cancel_sent = False
    finished = False
    try:
        send_frame(process.stdin, spec)
        while True:
            if not cancel_sent and cancel():
                with contextlib.suppress(OSError):
                    send_frame(process.stdin, "cancel")
                cancel_sent = True
            try:
                reply = replies.get(timeout=POLL)
            except queue.Empty:
                continue
            if reply is None:
                process.wait()
                raise ImportChildError(
                    f"The import process stopped unexpectedly (exit code {process.returncode})."
                )
            kind, payload = reply
            if kind == "progress":
                yield payload
            elif kind == "done":
                finished = True
                return payload
            else:
                raise ImportChildError(payload)
    finally:
        _stop(process, finished)


def _stop(process: subprocess.Popen[bytes], finished: bool) -> None:
    """Let the child end by itself (it is done, or it was cancelled and finishes its batch);
    kill it if it does not."""
    with contextlib.suppress(OSError):
        process.stdin.close()  # type: ignore[union-attr]
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOP_GRACE if not finished else 10)
    if process.poll() is None:
        process.kill()
        process.wait()
    with contextlib.suppress(OSError):
        process.stdout.close()  # type: ignore[union-attr]


def serve(inbox: Any, outbox: Any) -> None:
    """The child: open the vault as the parent did, import, report."""
    from mindnet_desktop.core.domain import drain
    from mindnet_desktop.core.errors import user_message
    from mindnet_desktop.core.service.search.view import update_reader_snapshots
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store.lock import WriterLock

    spec: ChildImport = receive_frame(inbox)
    stop = threading.Event()

    def listen() -> None:
        # "cancel", or the parent is gone (the pipe closed, also after a kill -9): stop.
        with contextlib.suppress(EOFError, OSError):
            receive_frame(inbox)
        stop.set()

    threading.Thread(target=listen, daemon=True).start()
    report = throttled(lambda p: send_frame(outbox, ("progress", p)), PROGRESS_INTERVAL)

    try:
        lock = WriterLock.inherited(spec.data_dir, spec.lock_fd)
        with Mindnet(
            spec.vault,
            spec.data_dir,
            spec.config_dir,
            spec.embedder,
            write=True,
            chroma_url=spec.chroma_url,
            writer_lock=lock,
        ) as mn:
            before = mn.snapshots.signatures()[0]
            outcome = drain(mn.import_vault(spec.options, cancel=stop.is_set), report)
            # What a fresh search reads, as `mindnet import` leaves it (the app's CLI too).
            written = [r.note.note_id for r in outcome.written]
            update_reader_snapshots(mn, before, written, outcome.deleted)
        reply: tuple[str, Any] = ("done", outcome.summary)
    except Exception as exc:  # the parent raises it as an ImportChildError
        message = user_message(exc)
        if message is None:  # a bug: its traceback goes to the log (stderr)
            traceback.print_exc()
            message = f"The import failed: {type(exc).__name__}: {exc}"
        reply = ("error", message)
    with contextlib.suppress(OSError):
        send_frame(outbox, reply)


if __name__ == "__main__":
    run_child(serve, CHILD_NICENESS)
