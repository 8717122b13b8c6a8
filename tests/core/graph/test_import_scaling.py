"""An edit of one note costs work for that note only: no import loads every note's record
unless link targets changed, and what the caller holds stays in step with the store."""

from __future__ import annotations

from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from tests.conftest import run_import

EMBEDDINGS = "Wissen/Embeddings 101"


def _append(vault, rel: str, text: str) -> None:
    path = vault / rel
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _count_loads(mn, monkeypatch) -> list[int]:
    calls: list[int] = []
    load = mn.store.note_records

    def counted():
        calls.append(1)
        return load()

    monkeypatch.setattr(mn.store, "note_records", counted)
    return calls


def _stored_edges(mn) -> dict[str, list[dict]]:
    return {k: [e.to_dict() for e in r.edges] for k, r in mn.store.note_records().items()}


def test_editing_a_body_in_a_fresh_process_loads_no_records(vault, open_mindnet, monkeypatch):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    mn = open_mindnet(vault)  # a fresh process: nothing loaded yet
    calls = _count_loads(mn, monkeypatch)
    _append(vault, "Wissen/Embeddings 101.md", "\n\nNeu: siehe [[HNSW]] und Vektoren.\n")
    outcome = run_import(mn)
    assert calls == []  # the manifest alone answered
    assert (outcome.summary.changed, outcome.summary.added) == (1, 0)
    assert outcome.records is None and [r.note.note_id for r in outcome.written] == [EMBEDDINGS]
    record = mn.store.note_records()[EMBEDDINGS]
    assert any(e.target_note_id == "Glossar/HNSW" for e in record.edges)
    # The summary and the manifest describe the whole index, as after a full load.
    again = run_import(mn)
    assert calls == [1] and again.summary.unchanged == again.summary.scanned
    assert (again.summary.notes, again.summary.edges) == (
        outcome.summary.notes,
        outcome.summary.edges,
    )
    assert again.summary.edges == sum(len(r.edges) for r in mn.store.note_records().values())


def test_records_and_graph_held_in_memory_follow_an_edit(vault, open_mindnet, monkeypatch):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    mn = open_mindnet(vault)
    assert mn.graph is not None and len(mn.records) > 0  # loaded before the edit
    calls = _count_loads(mn, monkeypatch)
    _append(vault, "Wissen/Embeddings 101.md", "\n\nSiehe auch [[Vendor Lock-in]].\n")
    run_import(mn)
    assert calls == []
    monkeypatch.undo()
    stored = mn.store.note_records()
    assert {k: [e.to_dict() for e in r.edges] for k, r in mn.records.items()} == _stored_edges(mn)
    fresh = KnowledgeGraph.from_records(stored.values(), mn.overlay)
    assert mn.graph.signature() == fresh.signature()


def test_a_new_link_target_still_relinks_every_note(vault, open_mindnet, monkeypatch):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    mn = open_mindnet(vault)
    calls = _count_loads(mn, monkeypatch)
    _append(vault, "Wissen/Embeddings 101.md", "\n\nSiehe [[Quantisierung]].\n")
    run_import(mn)
    unresolved = [e for e in mn.store.note_records()[EMBEDDINGS].edges if not e.resolved]
    assert any(e.target_id == "Quantisierung" for e in unresolved)
    calls.clear()
    (vault / "Glossar" / "Quantisierung.md").write_text("# Quantisierung\n\nBits.\n", "utf-8")
    outcome = run_import(mn)
    assert calls == [1]  # a new target: every note's links are resolved again
    assert [r.note.note_id for r in outcome.relinked] == [EMBEDDINGS]
    edges = mn.store.note_records()[EMBEDDINGS].edges
    assert any(e.target_note_id == "Glossar/Quantisierung" for e in edges)
