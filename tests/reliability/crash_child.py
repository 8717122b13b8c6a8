"""Runs `mindnet ARGS` and kills itself with SIGKILL at a chosen point (the crash tests).

Usage: python crash_child.py POINT N -- ARGS. POINT is where, N which occurrence:
  chunks-upsert  after the N-th Chroma upsert of chunks (inside a write batch)
  notes-upsert   after the N-th Chroma upsert of note records
  lexical-write  before the N-th lexical replace (Chroma written, tantivy not)
  lexical-commit before the N-th lexical commit (tantivy documents added, not committed)
  manifest-save  before the N-th manifest save (the store complete, the manifest not)
  note-replace   before the N-th os.replace (an edge callout's temp file written, not renamed)
  note-replaced  after the N-th os.replace (the note written, not yet imported again)
  embed-worker   SIGKILL to the embedding process the N-th batch goes to, before it is sent
                 (the import itself goes on, then fails; batches of 16 chunks, a pool of
                 embedding processes from 32 chunks on)
SIGKILL is what `kill -9` sends: no handler, no cleanup, no flush of Python buffers.

The child embeds 32 chunks per flush and writes 8 per Chroma call (instead of 256 and 32), so
a small vault already has several flushes and batches to die in; it embeds in an embedding
process from 64 chunks on (instead of 512), as a large import does.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def hook(
    owner: Any, name: str, n: int, after: bool, only: Callable[..., bool] | None = None
) -> None:
    original = getattr(owner, name)
    calls = [0]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if only is not None and not only(*args, **kwargs):
            return original(*args, **kwargs)
        calls[0] += 1
        if calls[0] == n and not after:
            die()
        result = original(*args, **kwargs)
        if calls[0] == n:
            die()
        return result

    setattr(owner, name, wrapper)


def kill_embedding_process(n: int) -> None:
    """Before the n-th batch is sent, kill -9 the embedding process it goes to (and wait
    until it is gone: the send then fails as it would after an out-of-memory kill)."""
    from mindnet_desktop.core.ingest import write_stage
    from mindnet_desktop.core.models import embed_worker
    from mindnet_desktop.core.models.embed_worker import EmbeddingPool

    write_stage.EMBED_BATCH_CHUNKS = 16  # six batches: some are written before the kill
    write_stage.WRITE_GROUP_CHUNKS = 32  # written two at a time, as a large import groups them
    embed_worker.WORKER_MIN_TEXTS = 32
    original = EmbeddingPool.submit
    calls = [0]

    def submit(self: EmbeddingPool, texts: Any) -> None:
        calls[0] += 1
        if calls[0] == n:
            worker = self.workers[self._submitted % len(self.workers)]
            os.kill(worker.pid, signal.SIGKILL)
            worker._process.wait()
        original(self, texts)

    EmbeddingPool.submit = submit  # type: ignore[method-assign]


def install(point: str, n: int) -> None:
    from chromadb.api.models.Collection import Collection

    from mindnet_desktop.core.ingest import write_stage
    from mindnet_desktop.core.ingest.manifest import Manifest
    from mindnet_desktop.core.models import embed_worker
    from mindnet_desktop.core.store import chroma
    from mindnet_desktop.core.store.lexical import LexicalIndex

    write_stage.EMBED_BATCH_CHUNKS, chroma.WRITE_BATCH, chroma.NOTE_BATCH = 32, 8, 4
    chroma.LONG_WRITE_BATCH, chroma.LONG_NOTE_BATCH = 8, 4  # the CLI writes in long calls
    # Embed in a child process as a large import does: batches are in flight when it dies.
    embed_worker.WORKER_MIN_TEXTS = 64
    if point in ("chunks-upsert", "notes-upsert"):
        wanted = "mindnet_" + point.split("-")[0]
        hook(Collection, "upsert", n, True, lambda self, *a, **k: self.name == wanted)
    elif point == "lexical-write":
        hook(LexicalIndex, "replace", n, False)
    elif point == "lexical-commit":
        hook(LexicalIndex, "commit", n, False)
    elif point == "manifest-save":
        hook(Manifest, "save", n, False)
    elif point == "embed-worker":
        kill_embedding_process(n)
    elif point in ("note-replace", "note-replaced"):
        # Only renames onto a note of the vault, not Chroma's or tantivy's own files.
        hook(
            os,
            "replace",
            n,
            point == "note-replaced",
            lambda src, dst, **k: str(dst).endswith(".md"),
        )
    else:
        raise SystemExit(f"unknown crash point {point}")


if __name__ == "__main__":
    point, count, sep, *argv = sys.argv[1:]
    assert sep == "--"
    install(point, int(count))
    from mindnet_desktop.cli.main import main

    sys.exit(main(argv))
