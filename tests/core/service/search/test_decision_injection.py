"""DECISION injects value / principle / goal notes *after* the facts that answer the question:
the injection adds context for weighing, it never takes a fact's place."""

from __future__ import annotations

import numpy as np

from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.service.ask.pipeline import prepare
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

QUESTION = "Soll ich für Alpha doch wieder von Qdrant auf Chroma zurückwechseln?"
ANSWERING_NOTE = "Entscheidungen/Qdrant statt Chroma.md"


def test_decision_injects_values_after_the_answering_note(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    prepared = prepare(mn, QUESTION, llm=None, k=4)
    result = prepared.result
    assert result.routing.intent == "DECISION"
    injected = [h for h in result.sources if h.injected]
    facts = [h for h in result.sources if not h.injected]
    assert injected, "DECISION injected no value, principle or goal note"
    assert {h.type for h in injected} <= {"value", "principle", "goal", "experience"}
    # Every fact comes before every injected note, and the note that answers is a fact.
    assert result.sources == facts + injected
    assert ANSWERING_NOTE in [h.path for h in facts]
    # The facts are exactly what a FACT routing of the same question retrieves.
    plain = hybrid_search(
        mn, QUESTION, 4, routing=Routing("FACT", "keyword"), log=False, per_note=True
    )
    assert [h.node_id for h in facts] == [h.node_id for h in plain.hits]


def test_an_import_refreshes_only_the_changed_notes_vectors(vault, open_mindnet, monkeypatch):
    """Guards `refreshed_vectors`: after an edit, a new note, a deleted one and a rename,
    the note vectors held in memory equal a fresh read of every note's vector, and the
    import read only the written notes' (shown to fail by keeping the old vectors)."""
    mn = open_mindnet(vault)
    run_import(mn, sync_deletes=True)
    before = dict(zip(*mn.note_vectors(), strict=True))
    edited = vault / "Wissen" / "Qdrant Vektordatenbank.md"
    edited.write_text("# Qdrant\n\nEin ganz anderer Text über Gartenbau und Tomaten.\n")
    (vault / "Wissen" / "Neu.md").write_text("# Neu\n\nEine neue Notiz über Bienen.\n")
    (vault / "Glossar" / "HNSW.md").unlink()
    (vault / "Risiken" / "Vendor Lock-in.md").rename(vault / "Risiken" / "Lock-in.md")
    store_type = type(mn.store)
    read_all = store_type.note_vectors
    asked: list[object] = []

    def spy(self, ids=None):  # noqa: ANN001, ANN202 - a stand-in with the same signature
        asked.append(ids)
        return read_all(self, ids)

    monkeypatch.setattr(store_type, "note_vectors", spy)
    outcome = run_import(mn, sync_deletes=True)
    assert outcome.written and outcome.deleted and None not in asked
    ids, matrix = mn.note_vectors()
    fresh_ids, fresh = read_all(mn.store)
    assert sorted(ids) == sorted(fresh_ids) and len(ids) == len(set(ids))
    mine = dict(zip(ids, matrix, strict=True))
    for note_id, vector in zip(fresh_ids, fresh, strict=True):
        assert np.allclose(mine[note_id], vector, atol=1e-6), note_id
    assert "Glossar/HNSW" not in mine and "Wissen/Neu" in mine
    assert not np.allclose(
        mine["Wissen/Qdrant Vektordatenbank"], before["Wissen/Qdrant Vektordatenbank"]
    )
