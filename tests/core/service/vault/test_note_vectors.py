"""The notes of some types nearest to a question (a DECISION question's injected notes)."""

from __future__ import annotations

import numpy as np

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.service.vault.note_vectors import nearest_notes


def note(note_id: str, type_: str) -> Note:
    return Note(note_id, f"{note_id}.md", note_id, type_, "", content_hash="h")


def test_the_nearest_notes_of_the_types_best_first_ties_by_position():
    rng = np.random.default_rng(3)
    ids = [f"n{i}" for i in range(300)]
    matrix = rng.normal(size=(300, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)  # unit length, as stored
    matrix[21] = matrix[12]  # a tie: the earlier note first
    types = ["value", "concept", "goal"]
    notes = {nid: note(nid, types[i % 3]) for i, nid in enumerate(ids)}
    vector = matrix[12]
    picked = nearest_notes(ids, matrix, notes, vector, {"value", "goal"}, 5, {"n30"})
    scores = matrix @ vector
    expected = [
        ids[i]
        for i in sorted(range(300), key=lambda i: -scores[i])
        if notes[ids[i]].type in {"value", "goal"} and ids[i] != "n30"
    ][:5]
    assert picked == expected and picked[:2] == ["n12", "n21"]
    assert nearest_notes([], matrix[:0], notes, vector, {"value"}, 3, set()) == []


def test_a_writer_reads_the_note_vectors_from_the_chunk_snapshot(vault, tmp_path, monkeypatch):
    """Guards the app's memory: with the chunk snapshot in step, the note vectors come from
    its file, equal to the store's, and after an edit they follow it (shown to fail by
    reading them through Chroma: every vector a Python list first)."""
    from mindnet_desktop.cli.vault import import_for_readers
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store.chroma import ChromaStore
    from tests.conftest import run_import

    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)
        expected_ids, expected = mn.store.note_vectors()
    every = ChromaStore.note_vectors

    def only_some(self, ids=None):  # noqa: ANN001, ANN202
        assert ids is not None, "every note's vector read through Chroma"
        return every(self, ids)

    monkeypatch.setattr(ChromaStore, "note_vectors", only_some)
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True, background_store=True) as mn:
        mn.wait_for_store()
        ids, matrix = mn.note_vectors()
        order = [expected_ids.index(i) for i in ids]  # by id (the store's: its own order)
        assert sorted(ids) == sorted(expected_ids)
        assert np.allclose(matrix, expected[order], atol=1e-6)
        note_path = next(vault.rglob("Embeddings 101.md"))
        note_path.write_text("# Embeddings 101\n\nGanz neuer Text über Wombats.\n", "utf-8")
        run_import(mn, sync_deletes=True)
        ids, matrix = mn.note_vectors()
        fresh_ids, fresh = every(mn.store, None)
        order = [fresh_ids.index(i) for i in ids]
        assert sorted(ids) == sorted(fresh_ids) and np.allclose(matrix, fresh[order], atol=1e-6)


def test_neighbourhood_rag_reads_chunk_vectors_from_the_snapshot_in_step(
    vault, tmp_path, monkeypatch
):
    """Guards RAG at 50,000 notes (a root beside a hub reaches ~19,000 chunks: 0.44 s through
    Chroma): with the chunk snapshot in step no chunk vector is read from Chroma and the hits
    equal the store's; after an edit the store answers, with the edit (shown to fail by
    `Searcher` reading the store's vectors alone)."""
    from mindnet_desktop.cli.vault import import_for_readers
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store.chroma import ChromaStore
    from tests.conftest import run_import

    root, query = "Produkte/LaserJet 500", "Papierstau Toner Wombats"
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)
        expected = [(h.node_id, round(h.score, 5)) for h in mn.searcher.rag(root, query, 2, 8)]
    assert len(expected) == 8
    read = ChromaStore.chunk_vectors
    calls: list[int] = []

    def counted(self, ids):  # noqa: ANN001, ANN202
        calls.append(len(ids))
        return read(self, ids)

    monkeypatch.setattr(ChromaStore, "chunk_vectors", counted)
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        got = [(h.node_id, round(h.score, 5)) for h in mn.searcher.rag(root, query, 2, 8)]
        assert got == expected and calls == []
        note = next(vault.rglob("Papierstau beheben.md"))
        note.write_text(note.read_text(encoding="utf-8") + "\nWombats im Papierfach.\n", "utf-8")
        run_import(mn, sync_deletes=True)
        after = [h.node_id for h in mn.searcher.rag(root, query, 2, 8)]
        assert calls and any(n.startswith("Support/Papierstau beheben") for n in after)
