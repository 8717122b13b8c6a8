"""End to end with the real default embedder (Google USE multilingual from its PyPI wheel)."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.models.embedders import UseEmbedder
from tests.conftest import run_import

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def use_embedder() -> UseEmbedder:
    embedder = UseEmbedder(threads=2)
    embedder.warm_up()
    return embedder


def top_notes(mn, query: str, k: int = 3) -> list[str]:
    vector = mn.embedder.embed([query])[0]
    return [row.note_id for row, _ in mn.store.nearest_chunks(vector, k)]


def test_real_import_finds_the_right_notes_in_german_and_english(vault, open_mindnet, use_embedder):
    mn = open_mindnet(vault, embedder=use_embedder)
    summary = run_import(mn).summary
    assert summary.errors == [] and summary.chunks > summary.notes
    assert mn.store.embedding_function_name == "mindnet"
    paper_jam = {
        "Support/Papierstau beheben",
        "Support/drucker-faq",
        "Erfahrungen/Papierstau vor der Quartalspräsentation",
    }
    assert top_notes(mn, "Wie behebe ich einen Papierstau im Drucker?")[0] in paper_jam
    assert top_notes(mn, "How do I clear a paper jam in the printer?")[0] in paper_jam
    assert "Persönlich/Ziele/Halbmarathon unter 2 Stunden" in top_notes(
        mn, "Laufen Halbmarathon Trainingsziel"
    )


def test_real_reimport_and_restart_embed_nothing(vault, open_mindnet, use_embedder):
    mn = open_mindnet(vault, embedder=use_embedder)
    first = run_import(mn).summary
    calls = use_embedder.calls
    second = run_import(mn).summary
    assert second.changed == 0 and second.chunks == first.chunks and use_embedder.calls == calls
    signature = mn.graph.signature()
    mn.close()
    fresh = UseEmbedder(threads=2)  # not loaded: a restart must not need it
    restarted = open_mindnet(vault, write=False, embedder=fresh)
    assert restarted.graph.signature() == signature and not fresh.loaded


def test_neighborhood_rag_finds_the_paper_jam_chunk_via_its_edge(vault, open_mindnet, use_embedder):
    mn = open_mindnet(vault, embedder=use_embedder)
    run_import(mn)
    hits = mn.searcher.rag("Produkte/LaserJet 500", "Papierstau", depth=2, k=5)
    assert hits[0].note_id == "Support/Papierstau beheben"
    assert [h["kind"] for h in hits[0].via] == ["resolves"]
    assert hits[0].via[0]["from"].startswith("Produkte/LaserJet 500")
    assert all(h.note_id != "Produkte/LaserJet 500" for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_a_question_naming_a_heading_or_an_alias_finds_it(vault, open_mindnet, use_embedder):
    from mindnet_desktop.core.service.search.hybrid import hybrid_search

    mn = open_mindnet(vault, embedder=use_embedder)
    run_import(mn)
    hits = hybrid_search(mn, "Hintere Klappe prüfen", log=False, per_note=True).hits
    assert hits[0].heading_path[-1] == "Hintere Klappe prüfen"
    hits = hybrid_search(
        mn, "Was weißt du über Hierarchical Navigable Small World?", log=False, per_note=True
    ).hits
    assert hits[0].note_id == "Glossar/HNSW"
    assert "Named in the question" in hits[0].reasons or "In der Frage genannt" in hits[0].reasons
