"""The embedding child process of large imports (`core/models/embed_worker.py`) and the
import that embeds the next batch while it writes the last one (`core/ingest/write_stage.py`).

The hash embedder stands in for a model: what is tested is the plumbing (order, errors, a
child that dies, a parent that dies), which does not depend on meaning.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from mindnet_desktop.core.ingest import write_stage
from mindnet_desktop.core.ingest.embedding import embedding_text, text_key
from mindnet_desktop.core.models.embed_worker import EmbeddingWorker, open_embedding
from mindnet_desktop.core.models.embedders import EmbedderError, HashEmbedder, UseEmbedder
from tests.conftest import run_import

TEXTS = [f"note {i} about vectors and graphs, part {i % 7}" for i in range(40)]


def test_the_child_returns_each_batch_in_order_with_the_vectors_of_this_process():
    """Guards the pipeline's bookkeeping: batches submitted ahead come back in order and
    equal in-process vectors (shown to fail by reversing the rows of each reply)."""
    embedder = HashEmbedder(dim=48)
    worker = EmbeddingWorker(embedder)
    try:
        batches = [TEXTS[:10], TEXTS[10:25], TEXTS[25:]]
        for batch in batches:
            worker.submit(batch)
        for batch in batches:
            np.testing.assert_allclose(worker.take(), embedder.embed(batch), atol=1e-6)
    finally:
        worker.close()


def test_an_error_in_the_child_is_raised_here_and_the_next_batch_still_works():
    """Guards that a failing batch gives a clear EmbedderError, not a hang or a traceback
    from the child (shown to fail by not catching the exception in `serve`)."""
    worker = EmbeddingWorker(HashEmbedder())
    try:
        worker.submit([None])  # type: ignore[list-item] - the hash embedder cannot read it
        with pytest.raises(EmbedderError, match="Embedding failed: AttributeError"):
            worker.take()
        worker.submit(TEXTS[:3])
        assert worker.take().shape == (3, 64)
    finally:
        worker.close()


def test_a_child_that_dies_gives_a_clear_error_not_a_hang():
    """Guards reading from a child that was killed (an out-of-memory kill): EOF becomes an
    EmbedderError (without the conversion in `take`, an EOFError escapes)."""
    worker = EmbeddingWorker(HashEmbedder())
    try:
        worker._process.kill()  # noqa: SLF001 - the test plays the out-of-memory killer
        worker._process.wait()  # noqa: SLF001
        with pytest.raises(EmbedderError, match="stopped unexpectedly"):
            worker.submit(TEXTS[:3])
            worker.take()
    finally:
        worker.close()


PARENT = """
import sys, time
sys.path.insert(0, {root!r})
from mindnet_desktop.core.models.embed_worker import EmbeddingWorker
from mindnet_desktop.core.models.embedders import HashEmbedder
worker = EmbeddingWorker(HashEmbedder())
worker.submit(["warm"]); worker.take()
print(worker._process.pid, flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    """Running: not gone, and not a zombie (exited, waiting for init to reap it)."""
    try:
        return ") Z" not in Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False


def test_the_child_exits_when_its_parent_is_killed(tmp_path: Path):
    """Guards against orphans: kill -9 of the app mid-import must not leave an embedding
    process running (shown to fail by ignoring EOF in the child's reader thread)."""
    root = str(Path(__file__).resolve().parents[3])
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT.format(root=root)], stdout=subprocess.PIPE, text=True
    )
    child = int(parent.stdout.readline())  # type: ignore[union-attr]
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    for _ in range(100):
        if not alive(child):
            return
        time.sleep(0.1)
    os.kill(child, signal.SIGKILL)
    pytest.fail("the embedding process outlived its killed parent by 10 s")


def test_small_imports_embed_in_process_and_large_ones_in_a_child(monkeypatch):
    """Guards the choice: a one-note edit must not pay a process start, and a frozen app
    (no interpreter for `python -m`) embeds in-process (shown to fail without the check)."""
    small = open_embedding(UseEmbedder(), 10)
    large = open_embedding(HashEmbedder(), 10_000)
    try:
        assert small.lookahead == 0 and large.lookahead == 1
        assert not isinstance(small, EmbeddingWorker) and isinstance(large, EmbeddingWorker)
    finally:
        small.close()
        large.close()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert not isinstance(open_embedding(HashEmbedder(), 10_000), EmbeddingWorker)


def test_an_import_through_the_child_gives_every_chunk_the_vector_of_its_own_text(
    vault, open_mindnet, monkeypatch
):
    """Guards the pipelined write: with several batches in flight, every chunk is stored
    with the vector of its own text and every note is written once (shown to fail by
    reversing the vectors of each batch the child returns)."""
    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 8)
    embedder = HashEmbedder()
    mn = open_mindnet(vault, embedder=embedder)
    outcome = run_import(mn, embed_worker=True)
    records = mn.store.note_records()
    stored = mn.store.known_vectors(sorted(records))
    assert outcome.summary.added == len(records) == len(outcome.written) > 8
    texts = [embedding_text(r.note, c) for r in records.values() for c in mn.chunks(r.note.note_id)]
    assert len(texts) == outcome.summary.chunks == len(mn.store.chunk_ids())
    for text in texts:
        np.testing.assert_allclose(
            stored[text_key(embedder, text)], embedder.embed([text])[0], atol=1e-6
        )
