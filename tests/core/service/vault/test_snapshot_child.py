"""The snapshots written by another process (`snapshot_child.py`) from the changes a writer
lists (`unsaved.py`): a fresh reader then finds every one in step and searches the edit,
whether the child patched the snapshots or had to read the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.cli.vault import import_for_readers
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.note_index import NoteIndex
from mindnet_desktop.core.graph.snapshot import RECORDS_FILE, Snapshots
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.freshness import index_status
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.service.vault.snapshot_child import (
    snapshot_request,
    write_in_child,
    write_snapshots,
)
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chunk_snapshot import ChunkSnapshot
from mindnet_desktop.core.store.reader_store import ReaderStore
from tests.conftest import run_import

EDIT = "# Embeddings 101\n\nQuokkas embed sentences into vectors. Siehe [[Neue Idee]].\n"


def _index(vault: Path, data: Path) -> None:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)


def _edit(vault: Path) -> None:
    (vault / "Inbox" / "Neue Idee.md").write_text("# Neue Idee\n\nWombats.\n", "utf-8")
    note = next(vault.rglob("Embeddings 101.md"))
    note.write_text(EDIT, "utf-8")


def _app_writer(vault: Path, data: Path) -> Mindnet:
    mn = Mindnet(vault, data, embedder=HashEmbedder(), write=True, background_store=True)
    mn.defer_snapshots = True  # as the app: the snapshots are left to the child
    return mn


def _check_in_step(vault: Path, data: Path, writer_records: dict, writer_graph) -> None:
    """What a fresh reader finds after the child wrote: everything in step, the edit in it."""
    assert index_status(data, "hash").state == "ready"
    snapshots = Snapshots(data)
    records_signature, graph_signature = snapshots.signatures()
    records = snapshots.load_records(records_signature)
    assert records is not None and list(records) == list(writer_records)
    assert records == writer_records
    graph = snapshots.load_graph(graph_signature, None)
    assert graph is not None and graph.signature() == writer_graph.signature()
    index = NoteIndex.load(data, graph_signature)
    assert index is not None and "Inbox/Neue Idee" in index.notes
    index.close()
    chunks = ChunkSnapshot.load(data, records_signature, "hash")
    assert chunks is not None
    ids = [c for c, n in zip(chunks.ids, chunks.note_ids) if n.endswith("Embeddings 101")]
    assert any("Quokkas" in row.chunk.text for row in chunks.chunk_rows(ids).values())
    with Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True) as reader:
        hits = hybrid_search(reader, "Quokkas embed sentences", 3, log=False).hits
        assert isinstance(reader.store, ReaderStore) and reader.store._store is None
        assert hits[0].note_id.endswith("Embeddings 101")


@pytest.mark.parametrize("in_child", [False, True], ids=["in-process", "child"])
def test_the_child_patches_the_snapshots_by_the_changed_notes(vault, tmp_path, in_child):
    """Guards the app's snapshots after its own imports (shown to fail by a request whose
    chunks leave out the edited note: the reader would not find the edit)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _app_writer(vault, data) as mn:
        _edit(vault)
        outcome = run_import(mn, sync_deletes=True)
        assert outcome.summary.added == 1 and outcome.summary.changed == 1
        request = snapshot_request(mn)
        assert request is not None and request.unsaved.since is not None  # a patch
        assert snapshot_request(mn) is None  # taken: not twice
        assert (write_in_child if in_child else write_snapshots)(request)
        mn.state.written(True)
        assert not mn.state.stale
        records = dict(mn.records)
        graph = KnowledgeGraph.from_records(records.values(), mn.overlay)
        _check_in_step(vault, data, records, graph)
        assert not mn.save_snapshots()  # nothing left for the close


def test_once_the_child_wrote_them_rag_reads_chunk_vectors_from_the_snapshot(
    vault, tmp_path, monkeypatch
):
    """Guards RAG in the app at 50,000 notes (~1 s a hub's root through Chroma): after its
    own import was written by the child, the app reads the chunk snapshot again, with the
    edit (shown to fail without the look-up again in `VaultState.written`)."""
    data = tmp_path / "data"
    _index(vault, data)
    calls: list[int] = []
    read = ChromaStore.chunk_vectors

    def counted(self, ids):  # noqa: ANN001, ANN202
        calls.append(len(ids))
        return read(self, ids)

    monkeypatch.setattr(ChromaStore, "chunk_vectors", counted)
    with _app_writer(vault, data) as mn:
        _edit(vault)
        run_import(mn, sync_deletes=True)
        root = "Wissen/Embeddings 101"
        before = mn.searcher.rag(root, "Quokkas", 2, 5)
        assert calls  # behind the store: the store answers
        request = snapshot_request(mn)
        assert request is not None and write_in_child(request)
        mn.state.written(True)
        calls.clear()
        after = mn.searcher.rag(root, "Quokkas", 2, 5)
        assert calls == [] and after
        assert [(h.node_id, round(h.score, 5)) for h in after] == [
            (h.node_id, round(h.score, 5)) for h in before
        ]


def test_without_snapshots_to_patch_the_child_reads_the_store(vault, tmp_path):
    data = tmp_path / "data"
    _index(vault, data)
    (data / RECORDS_FILE).unlink()  # nothing the changes could follow
    with _app_writer(vault, data) as mn:
        _edit(vault)
        run_import(mn, sync_deletes=True)
        request = snapshot_request(mn)
        assert request is not None and request.unsaved.since is None
        assert write_in_child(request)
        mn.state.written(True)
        records = dict(mn.records)
        _check_in_step(vault, data, records, KnowledgeGraph.from_records(records.values()))


def test_a_write_that_fails_or_comes_late_is_owed_again(vault, tmp_path):
    data = tmp_path / "data"
    _index(vault, data)
    with _app_writer(vault, data) as mn:
        _edit(vault)
        run_import(mn, sync_deletes=True)
        request = snapshot_request(mn)
        (vault / "Inbox" / "Dritte.md").write_text("# Dritte\n\nLemurs.\n", "utf-8")
        run_import(mn, sync_deletes=True)  # the manifest moved on meanwhile
        assert not write_snapshots(request)  # nothing is written at old signatures
        mn.state.written(False)
        again = snapshot_request(mn)
        assert again is not None
        assert {"Inbox/Neue Idee", "Inbox/Dritte"} <= set(again.unsaved.changed)
        assert write_snapshots(again)
        mn.state.written(True)
        records = dict(mn.records)
        graph = KnowledgeGraph.from_records(records.values(), mn.overlay)
        _check_in_step(vault, data, records, graph)


@pytest.mark.parametrize("behind", ["notes.index.sqlite", "chunks.snapshot"])
def test_reader_snapshots_left_behind_are_owed_with_nothing_changed(vault, tmp_path, behind):
    """Guards a writer closed or killed before the child wrote: the next start changes
    nothing, yet the chunk snapshot and the note index it finds out of step are owed and
    written (shown to fail by owing only what an import changed: every later start then
    waits for the store and loads every record)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _app_writer(vault, data) as mn:
        run_import(mn, sync_deletes=True)
        assert snapshot_request(mn) is None  # all in step: nothing owed
    (data / behind).unlink()
    with _app_writer(vault, data) as mn:
        run_import(mn, sync_deletes=True)  # the start's check: nothing changed
        request = snapshot_request(mn)
        assert request is not None and request.unsaved.since is not None  # records follow
        assert write_snapshots(request)
        mn.state.written(True)
        assert snapshot_request(mn) is None
    assert index_status(data, "hash").state == "ready"
    records_signature, graph_signature = Snapshots(data).signatures()
    index = NoteIndex.load(data, graph_signature)
    assert index is not None and "Glossar/HNSW" in index.notes
    index.close()
    assert ChunkSnapshot.load(data, records_signature, "hash") is not None
