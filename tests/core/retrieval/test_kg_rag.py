"""Neighborhood RAG and rooted search: only what the root reaches (never over deleted edges),
each RAG hit with its path from the root; k and depth respected. With the hash embedder a
ranking is only asserted for an exact lexical match."""

from __future__ import annotations

import numpy as np
import pytest

from mindnet_desktop.core.graph.queries import QueryError
from mindnet_desktop.core.ingest.embedding import embedding_text
from mindnet_desktop.core.retrieval.rag import top
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

LASERJET = "Produkte/LaserJet 500"
LOCAL_FIRST = "Persönlich/Prinzipien/Local First"
TONER = "Support/Toner wechseln"
PAPIERSTAU = "Support/Papierstau beheben"
HANDBUCH = "Produkte/LaserJet 500 Handbuch"


def search(mn, query, k=10, types=None, root=None, depth=2):
    """Search as `mindnet search` does (hybrid, filtered by type and root)."""
    return hybrid_search(mn, query, k, types, root, depth, log=False).hits


@pytest.fixture
def mn(vault, open_mindnet):
    opened = open_mindnet(vault)
    run_import(opened)
    return opened


def reachable(mn, root: str, depth: int) -> dict[str, int]:
    return {n: d for n, d, _ in mn.queries.traverse(root, depth) if n != root}


def embedded_text(mn, note_id: str, seq: int) -> str:
    """Exactly what the importer embedded for that chunk."""
    [chunk] = [c for c in mn.store.chunks(note_id) if c.seq == seq]
    return embedding_text(mn.records[note_id].note, chunk)


@pytest.mark.parametrize(("root", "depth"), [(LASERJET, 1), (LOCAL_FIRST, 1), (LOCAL_FIRST, 2)])
def test_hits_come_only_from_reachable_notes_with_their_path(mn, root, depth):
    hits = mn.searcher.rag(root, "Papierstau Toner Daten lokal Notizen", depth=depth, k=500)
    reach = reachable(mn, root, depth)
    notes = {h.note_id for h in hits}
    assert notes and notes <= set(reach) and root not in notes
    # every chunk of every reachable note is a candidate: with k large, all come back
    expected = {n for n in reach if mn.graph.graph.nodes[n]["kind"] == "note"}
    assert notes == expected
    assert len(hits) == sum(mn.records[n].chunk_count for n in expected)
    q = mn.queries
    for hit in hits:
        assert hit.via and len(hit.via) == reach[hit.note_id] <= depth
        walker = root
        for hop in hit.via:  # starts at the root and leads to the hit's note
            assert q.project(hop["from"], "note") == walker
            assert hop["kind"] and hop["edge_id"].startswith("e_")
            walker = q.project(hop["to"], "note")
        assert walker == hit.note_id
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_depth_and_k_are_respected(mn):
    q = "Kassette Toner Papier"
    assert mn.searcher.rag(LOCAL_FIRST, q, depth=0, k=10) == []
    one = mn.searcher.rag(LOCAL_FIRST, q, depth=1, k=500)
    two = mn.searcher.rag(LOCAL_FIRST, q, depth=2, k=500)
    assert {h.note_id for h in one} < {h.note_id for h in two}
    assert max(len(h.via) for h in one) == 1 and max(len(h.via) for h in two) == 2
    for k in (1, 3, 7):
        top = mn.searcher.rag(LOCAL_FIRST, q, depth=2, k=k)
        assert len(top) == k
        assert [h.node_id for h in top] == [h.node_id for h in two[:k]]


def test_an_exact_lexical_match_ranks_first(mn):
    query = embedded_text(mn, TONER, 2)
    hits = mn.searcher.rag(LASERJET, query, depth=1, k=3)
    assert hits[0].node_id == f"{TONER}#2"
    assert hits[0].score == pytest.approx(1.0, abs=1e-3)
    assert hits[1].score < hits[0].score
    other = embedded_text(mn, HANDBUCH, 3)
    assert mn.searcher.rag(LASERJET, other, depth=1, k=1)[0].node_id == f"{HANDBUCH}#3"
    # the same text is not found from a root that does not reach it
    far = mn.searcher.rag("Persönlich/Werte/Neugier", query, depth=1, k=50)
    assert TONER not in {h.note_id for h in far}


def test_rag_never_follows_deleted_edges(mn):
    query = embedded_text(mn, TONER, 1)
    assert mn.searcher.rag(LASERJET, query, depth=2, k=1)[0].note_id == TONER
    to_toner = [
        e for e in mn.records[LASERJET].edges if e.target_note_id == TONER and not e.deleted
    ]
    assert {e.rule_id for e in to_toner} == {"inline:rel", "edge_defaults:source:references"}
    for edge in to_toner:
        edge_actions.delete_edge(mn, edge.id)
    hits = mn.searcher.rag(LASERJET, query, depth=2, k=500)
    assert TONER not in {h.note_id for h in hits}
    assert {h.note_id for h in hits} == {PAPIERSTAU, HANDBUCH}
    deleted = {e.id for e in to_toner}
    assert not any(hop["edge_id"] in deleted for h in hits for hop in h.via)
    assert TONER not in {h.note_id for h in search(mn, query, k=50, root=LASERJET)}
    edge_actions.restore_edge(mn, to_toner[0].id)
    back = mn.searcher.rag(LASERJET, query, depth=2, k=1)
    assert back[0].node_id == f"{TONER}#1"
    assert [hop["edge_id"] for hop in back[0].via] == [to_toner[0].id]


def test_rooted_and_typed_search(mn):
    query = embedded_text(mn, PAPIERSTAU, 3)
    everywhere = search(mn, query, k=5)
    assert everywhere[0].node_id == f"{PAPIERSTAU}#3" and everywhere[0].via is None
    rooted = search(mn, query, k=500, root=LASERJET, depth=1)
    assert {h.note_id for h in rooted} == {PAPIERSTAU, TONER, HANDBUCH}
    assert rooted[0].node_id == f"{PAPIERSTAU}#3"
    typed = search(mn, query, k=500, types=["Source"])
    assert typed and {h.type for h in typed} == {"source"}
    assert PAPIERSTAU not in {h.note_id for h in typed}  # a concept
    both = search(mn, query, k=500, types=["source"], root=LASERJET, depth=1)
    assert {h.note_id for h in both} == {HANDBUCH}
    assert (
        search(mn, query, k=5, root="Persönlich/Ziele/Halbmarathon unter 2 Stunden", depth=0) == []
    )


def test_bad_rag_input(mn):
    with pytest.raises(QueryError, match="the query is empty"):
        mn.searcher.rag(LASERJET, "   ")
    with pytest.raises(QueryError, match="unknown node"):
        mn.searcher.rag("Nirgendwo", "Toner")
    with pytest.raises(QueryError, match="depth must be 0 or more"):
        mn.searcher.rag(LASERJET, "Toner", depth=-1)


def test_only_the_k_best_chunks_are_read_whole(mn, monkeypatch):
    """Guards RAG beside a hub note (issue 32, 20,000 notes): the candidates are ranked by
    their vectors alone and only the k best rows are decoded (shown to fail by reading every
    candidate's row); the hits are those of ranking every row."""
    every = mn.searcher.rag(LOCAL_FIRST, "Daten lokal", depth=2, k=500)
    asked: list[int] = []
    real = type(mn.store).chunk_rows

    def spy(self, ids, vectors=False):  # type: ignore[no-untyped-def]
        asked.append(len(ids))
        return real(self, ids, vectors)

    monkeypatch.setattr(type(mn.store), "chunk_rows", spy)
    best = mn.searcher.rag(LOCAL_FIRST, "Daten lokal", depth=2, k=3)
    assert [h.node_id for h in best] == [h.node_id for h in every[:3]] and asked == [3]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5, 8, 20])
def test_the_k_best_chunks_are_the_sorted_ones_ties_by_id(k):
    rng = np.random.default_rng(k)
    scores = rng.choice([0.1, 0.5, 0.5, 0.5, 0.9], size=12).astype(np.float32)
    ids = [f"n{i:02d}#0" for i in rng.permutation(12)]
    expected = sorted(range(12), key=lambda i: (-scores[i], ids[i]))[:k]
    assert top(scores, ids, k) == expected
