"""The note index (`core/graph/note_index.py`): a fresh reader's search reads the notes and
the graph from it instead of loading every record and the whole graph, answers exactly as
with them, and never uses an index out of step.

The hash embedder stands in for a model: what is tested is that two ways of reading the same
index give the same ranking, which does not depend on meaning.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mindnet_desktop.core.graph.note_index import (
    INDEX_FILE,
    NoteIndex,
    note_names,
    write_note_index,
)
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.notes.edge_actions import delete_edge
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.search.view import keep_note_index
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import

REPO = Path(__file__).resolve().parents[3]
QUESTIONS = [
    "Warum Qdrant statt Chroma?",  # names a note: its chunks and its neighbours join
    "Projekt Alpha Budget",
    "Wie viel Platz braucht der Drucker?",
    "What did I learn from the first RAG prototype?",
]


def _index(vault: Path, data: Path) -> None:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn, sync_deletes=True)
        assert keep_note_index(mn)


def _reader(vault: Path, data: Path) -> Mindnet:
    return Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True)


def test_the_index_answers_as_the_graph_does(vault, tmp_path):
    """Guards every answer of the index against the graph's and the records' own (shown to
    fail by an index that keeps soft-deleted edges or drops links from chunks)."""
    data = tmp_path / "data"
    _index(vault, data)
    with Mindnet(vault, data, embedder=HashEmbedder()) as mn:
        index = NoteIndex.load(data, mn.snapshots.signatures()[1])
        assert index is not None
        graph, records = mn.graph, mn.records
        everything = set(records)
        links = Counter(index.links_among(everything))
        assert links and links == Counter(graph.links_among(everything))
        assert any(link.source != link.target for link in links)
        some = set(sorted(everything)[::3])
        links_some = Counter(graph.links_among(some))
        assert Counter(index.links_among(some)) == links_some
        for note_id, record in records.items():
            assert index.chunks_of(note_id) == graph.chunks_of(note_id)
            assert index.note_neighbours(note_id) == graph.note_neighbours(note_id)
            assert index.stamp(note_id) == (record.mtime_ns, record.size)
            note = index.notes[note_id]
            expected = record.note
            assert (note.title, note.path, note.type, note.status) == (
                expected.title, expected.path, expected.type, expected.status,
            )  # fmt: skip
            assert (note.aliases, note.tags) == (expected.aliases, expected.tags)
        assert dict(index.names) == note_names(records)
        assert "no such note" not in index.notes and index.chunks_of("no such note") == []
        assert Counter(graph.links_among({"no such note", *some})) == links_some
        with ThreadPoolExecutor(1) as pool:  # a reader opened on one thread, used on another
            assert pool.submit(index.links_among, some).result() == index.links_among(some)
        assert len(index.notes) == len(records)
        index.close()


def test_a_fresh_search_reads_no_record_and_no_graph(vault, tmp_path, monkeypatch):
    """Guards what the index is for: a lazy reader's search loads neither snapshot nor the
    store's records, and ranks and explains exactly as a search over them does (shown to
    fail by a reader that still asks for `mn.records`)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _reader(vault, data) as full:  # no index: the records and the graph
        (data / INDEX_FILE).rename(data / "aside")
        expected = [hybrid_search(full, q, 8, log=False, language="de") for q in QUESTIONS]
        assert type(full.search_view.graph).__name__ == "KnowledgeGraph"
    (data / "aside").rename(data / INDEX_FILE)

    def refuse(*args: object) -> None:
        raise AssertionError("a fresh search read a whole snapshot")

    monkeypatch.setattr(Snapshots, "load_records", refuse)
    monkeypatch.setattr(Snapshots, "load_graph", refuse)
    with _reader(vault, data) as reader:
        for question, before in zip(QUESTIONS, expected, strict=True):
            found = hybrid_search(reader, question, 8, log=False, language="de")
            assert [h.to_dict() for h in found.hits] == [h.to_dict() for h in before.hits]
        assert isinstance(reader.search_view.graph, NoteIndex)
        assert reader.has_note(expected[0].hits[0].note_id)


def test_a_fresh_reader_without_an_index_leaves_one(vault, tmp_path, monkeypatch):
    """Guards `open_search_view`: a reader that found no index in step (an older version's
    import, the app's) searches over the records and the graph and writes the index, which
    the next reader uses (shown to fail by not writing it there)."""
    data = tmp_path / "data"
    _index(vault, data)
    (data / INDEX_FILE).unlink()
    with _reader(vault, data) as first:
        before = hybrid_search(first, QUESTIONS[0], 8, log=False, language="de")
        assert type(first.search_view.graph).__name__ == "KnowledgeGraph"
    assert NoteIndex.load(data, Snapshots(data).signatures()[1]) is not None
    monkeypatch.setattr(Snapshots, "load_records", None)  # the next one reads neither
    monkeypatch.setattr(Snapshots, "load_graph", None)
    with _reader(vault, data) as second:
        again = hybrid_search(second, QUESTIONS[0], 8, log=False, language="de")
        assert isinstance(second.search_view.graph, NoteIndex)
    assert [h.to_dict() for h in again.hits] == [h.to_dict() for h in before.hits]
    assert not [p.name for p in data.iterdir() if p.name.endswith(".tmp")]


def test_an_index_out_of_step_is_not_used(vault, tmp_path):
    """Guards the signature: after an edge is soft-deleted (the overlay changed) or the
    vault was imported again, the old index is ignored, and a broken or foreign file
    means no index (shown to fail by loading without comparing signatures)."""
    data = tmp_path / "data"
    _index(vault, data)
    snapshots = Snapshots(data)
    old = snapshots.signatures()[1]
    assert NoteIndex.load(data, old) is not None
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        edge = next(e for e in mn.edges() if e.resolved and e.provenance == "explicit")
        delete_edge(mn, edge.id)
    new = snapshots.signatures()[1]
    assert new != old and NoteIndex.load(data, new) is None
    with _reader(vault, data) as reader:  # falls back to the graph, which knows the delete
        hybrid_search(reader, "Qdrant", 5, log=False)
        assert type(reader.search_view.graph).__name__ == "KnowledgeGraph"
    (data / INDEX_FILE).write_bytes(b"not a database")
    assert NoteIndex.load(data, old) is None
    with sqlite3.connect(data / INDEX_FILE.replace(".sqlite", ".other")) as con:
        con.execute("CREATE TABLE t (x)")
    os.replace(data / INDEX_FILE.replace(".sqlite", ".other"), data / INDEX_FILE)
    assert NoteIndex.load(data, old) is None
    assert NoteIndex.load(data, None) is None


def test_watch_writes_the_index_with_its_deferred_snapshots(vault, tmp_path):
    """Guards `save_snapshots`: a watcher (chunk_snapshot on) writes the index of the new
    manifest, private to the user, and the app's way (off) writes none (shown to fail by
    not writing it there)."""
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        mn.defer_snapshots = True
        run_import(mn, sync_deletes=True)
        assert mn.save_snapshots()
        assert not (data / INDEX_FILE).exists()
        (vault / "Neu.md").write_text("# Neu\n\nEin neuer Gedanke über [[KI-Projekt Alpha]].\n")
        mn.chunk_snapshot = True
        run_import(mn, sync_deletes=True)
        assert mn.save_snapshots()
        index = NoteIndex.load(data, mn.snapshots.signatures()[1])
        assert index is not None and "Neu" in index.notes
        index.close()
    assert stat.S_IMODE((data / INDEX_FILE).stat().st_mode) == 0o600


def test_a_full_disk_leaves_no_index(vault, tmp_path, monkeypatch):
    """Guards that writing is all or nothing: a failure leaves neither the index nor its
    temporary file (shown to fail by writing in place)."""
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn, sync_deletes=True)
        records, graph, signature = mn.records, mn.graph, mn.snapshots.signatures()[1]

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    assert not write_note_index(data, records, graph, signature)
    assert sorted(p.name for p in data.iterdir() if "index" in p.name) == []


@pytest.mark.parametrize("edit", [False, True])
def test_mindnet_import_leaves_an_index_in_step(vault, tmp_path, edit):
    """Guards `mindnet import`: after a cold import and after an edit, the index matches the
    new manifest (shown to fail by not keeping it in cmd_import)."""
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(REPO), "MINDNET_EMBEDDER": "hash"}
    base = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    base += ["--data-dir", str(data), "import"]
    subprocess.run(base, env=env, check=True, capture_output=True)
    if edit:
        note = vault / "Projekte" / "KI-Projekt Alpha.md"
        note.write_text(note.read_text() + "\nSiehe auch [[HNSW]].\n")
        subprocess.run(base, env=env, check=True, capture_output=True)
    index = NoteIndex.load(data, Snapshots(data).signatures()[1])
    assert index is not None
    linked = "Glossar/HNSW" in index.note_neighbours("Projekte/KI-Projekt Alpha")
    assert linked == edit
    index.close()
