"""A writer that holds neither the records nor the graph (the app) imports edits without
loading them: it reads the note index with the changed notes laid over it
(`core/graph/patched_index.py`, `service/vault/index_patch.py`), which answers as an index
written after the edits does, before and after the snapshot child wrote, and when it leaves
that mode (a user's edge) it holds the same records and graph as a fresh load."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mindnet_desktop.cli.vault import import_for_readers
from mindnet_desktop.core.graph.index_slice import neighbourhood_of, whole_vault_of
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.note_index import NoteIndex, write_note_index
from mindnet_desktop.core.graph.patched_index import PatchedIndex
from mindnet_desktop.core.graph.queries import GraphQueries
from mindnet_desktop.core.graph.slice import neighbourhood, whole_vault
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.notes.edge_actions import add_edge
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.index_patch import MAX_PATCHED_NOTES
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.service.vault.snapshot_child import snapshot_request, write_snapshots
from tests.conftest import run_import

QUESTIONS = ["Warum Qdrant statt Chroma?", "Projekt Alpha Budget", "Wombats und Quokkas"]


def _index(vault: Path, data: Path) -> None:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)


def _app_writer(vault: Path, data: Path) -> Mindnet:
    mn = Mindnet(vault, data, embedder=HashEmbedder(), write=True, background_store=True)
    mn.defer_snapshots = True  # as the app: the snapshots are left to the child
    return mn


def _edits(vault: Path) -> None:
    """A changed note (new links, one into a chunk), a new note linking an old one, a
    removed note and a renamed one."""
    note = next(vault.rglob("Embeddings 101.md"))
    note.write_text(
        "# Embeddings 101\n\nQuokkas embed sentences. Siehe [[Neue Idee]] und "
        "[[Glossar/HNSW]].\n\n## Mehr\n\nWombats [[Nirgendwo]].\n",
        "utf-8",
    )
    (vault / "Inbox").mkdir(exist_ok=True)
    (vault / "Inbox" / "Neue Idee.md").write_text(
        "---\naliases: [Idee]\n---\n# Neue Idee\n\nWombats, see [[Embeddings 101#Mehr]].\n",
        "utf-8",
    )
    removed = sorted(p for p in vault.rglob("*.md") if "Glossar" in p.parts)[-1]
    removed.unlink()
    moved = sorted(p for p in vault.rglob("*.md") if "Inbox" not in p.parts)[0]
    moved.rename(moved.with_name("Umbenannt.md"))


def _refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> None:
        raise AssertionError("the writer loaded a whole snapshot")

    monkeypatch.setattr(Snapshots, "load_records", refuse)
    monkeypatch.setattr(Snapshots, "load_graph", refuse)


def _shown(note):  # type: ignore[no-untyped-def]
    """What the index holds of a note (a changed note's record holds its body too)."""
    return (note.note_id, note.path, note.title, note.type, note.status, note.aliases, note.tags)


def _same_answers(index: PatchedIndex, truth: NoteIndex, records: dict, graph) -> None:
    notes = set(records)
    assert set(index.notes) == notes and len(index.notes) == len(notes)
    assert Counter(index.links_among(notes)) == Counter(truth.links_among(notes))
    some = set(sorted(notes)[::2])
    assert Counter(index.links_among(some)) == Counter(truth.links_among(some))
    for note_id in sorted(notes):
        assert index.note_neighbours(note_id) == truth.note_neighbours(note_id), note_id
        assert index.chunks_of(note_id) == truth.chunks_of(note_id)
        assert index.stamp(note_id) == truth.stamp(note_id)
        assert _shown(index.notes[note_id]) == _shown(truth.notes[note_id])
        got = Counter((e.id, o) for e, o in index.edges_touching([note_id]))
        assert got == Counter((e.id, o) for e, o in truth.edges_touching([note_id]))
    assert {k: sorted(v) for k, v in index.names.items()} == {
        k: sorted(v) for k, v in truth.names.items()
    }
    assert index.listing() == truth.listing()
    assert index.chunk_counts() == truth.chunk_counts()
    assert (index.edge_total(), index.active_edges()) == (
        truth.edge_total(),
        truth.active_edges(),
    )
    assert Counter((e.id, o) for e, o in index.every_edge()) == Counter(
        (e.id, o) for e, o in truth.every_edge()
    )
    assert truth.kinds() <= index.kinds()
    whole = GraphQueries(graph, frozenset())
    overlay = graph.overlay
    for root in sorted(notes)[::3]:
        expected = neighbourhood(whole, root, 2, "both", None, True)
        got = neighbourhood_of(index, overlay, frozenset(), root, 2, "both", None, True)
        assert (got.nodes, sorted(got.edges, key=str)) == (
            expected.nodes,
            sorted(expected.edges, key=str),
        )
    expected_whole = whole_vault(whole, None, True)
    got_whole = whole_vault_of(index, overlay, None, True)
    assert got_whole.nodes == expected_whole.nodes
    assert sorted(got_whole.edges, key=str) == sorted(expected_whole.edges, key=str)


def _truth(mn: Mindnet, tmp_path: Path) -> tuple[NoteIndex, dict, KnowledgeGraph]:
    """The index written from the store's own records after the edits."""
    records = mn.store.note_records()
    graph = KnowledgeGraph.from_records(records.values(), mn.overlay)
    where = tmp_path / "truth"
    where.mkdir(exist_ok=True)
    assert write_note_index(where, records, graph, "truth")
    truth = NoteIndex.load(where, "truth")
    assert truth is not None
    return truth, records, graph


def test_edits_are_read_from_the_patched_index(vault, tmp_path, monkeypatch):
    """Guards the app's edits at any vault size: no snapshot is loaded, and the patched
    index answers every question as an index written after the edits (shown to fail by a
    patch that keeps a removed note's links, or drops an unchanged note's links into a
    changed one)."""
    data = tmp_path / "data"
    _index(vault, data)
    expected_hits = {}
    _edits(vault)
    _refuse(monkeypatch)
    with _app_writer(vault, data) as mn:
        assert mn.note_index() is not None
        outcome = run_import(mn, sync_deletes=True)
        assert outcome.written and outcome.deleted
        index = mn.note_index()
        assert isinstance(index, PatchedIndex)
        assert mn.state._records is None and mn.state._graph is None
        truth, records, graph = _truth(mn, tmp_path)
        _same_answers(index, truth, records, graph)
        for question in QUESTIONS:
            expected_hits[question] = hybrid_search(mn, question, 8, log=False, language="de")
        assert mn.has_note("Inbox/Neue Idee") and mn.find_note_id("Idee") == "Inbox/Neue Idee"
        assert mn.state._records is None and mn.state._graph is None
        monkeypatch.undo()  # closing saves what the child has not written: it reads them
    with Mindnet(vault, data, embedder=HashEmbedder()) as full:  # records and graph
        for question, got in expected_hits.items():
            want = hybrid_search(full, question, 8, log=False, language="de")
            assert [h.to_dict() for h in got.hits] == [h.to_dict() for h in want.hits]


def test_the_patch_follows_the_child_and_leaves_cleanly(vault, tmp_path):
    """Guards the patch's life: after the child wrote, it follows the index written there
    with the later edits only; a user's edge loads the records and the graph, which equal a
    fresh load's (shown to fail by a patch that forgets the edits made while the child
    wrote)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _app_writer(vault, data) as mn:
        note = next(vault.rglob("Embeddings 101.md"))
        note.write_text("# Embeddings 101\n\nErste Fassung [[Glossar/HNSW]].\n", "utf-8")
        run_import(mn, sync_deletes=True)
        request = snapshot_request(mn)
        assert request is not None and write_snapshots(request)  # the child wrote, then:
        (vault / "Später.md").write_text("# Später\n\nNach [[Embeddings 101]].\n", "utf-8")
        run_import(mn, sync_deletes=True)  # an edit before the app heard back
        mn.state.written(True)
        index = mn.note_index()
        assert isinstance(index, PatchedIndex) and set(index.changed) == {"Später"}
        truth, records, graph = _truth(mn, tmp_path)
        _same_answers(index, truth, records, graph)
        add_edge(mn, "Später", "related_to", "Glossar/HNSW")  # the graph is loaded now
        assert mn.state._graph is not None and mn.note_index() is None
        held = dict(mn.records)
        assert held == mn.store.note_records()
        expected = KnowledgeGraph.from_records(held.values(), mn.overlay)
        assert mn.graph.signature() == expected.signature()


def test_a_big_change_loads_the_records_and_the_graph(vault, tmp_path):
    """Guards the patch's bound: more changed notes than `MAX_PATCHED_NOTES` and the writer
    holds the records and the graph again, in step with the store."""
    data = tmp_path / "data"
    _index(vault, data)
    with _app_writer(vault, data) as mn:
        for i in range(MAX_PATCHED_NOTES + 1):
            (vault / f"Viele {i}.md").write_text(f"# Viele {i}\n\nText {i}.\n", "utf-8")
        run_import(mn, sync_deletes=True, embed_workers=0)
        assert mn.note_index() is None and mn.state._records is not None
        assert dict(mn.records) == mn.store.note_records()
