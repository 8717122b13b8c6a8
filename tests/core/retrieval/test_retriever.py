"""The hybrid retriever: arithmetic, graph signals, per-kind weights, reasons, injection."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.config.type_registry import bundled_config_dir
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

TEXT = "Zitronenfalter Schmetterling Flügel gelb Frühling Wiese"


def small_vault(root: Path, linked_kind: str = "references", other_kind: str = "") -> Path:
    """Twin notes with the same text; only `Verlinkt` is pointed at by two related notes."""
    root.mkdir()
    (root / "Verlinkt.md").write_text(f"# Verlinkt\n{TEXT}\n", encoding="utf-8")
    (root / "Einsam.md").write_text(f"# Einsam\n{TEXT}\n", encoding="utf-8")
    link = f"[[rel:{linked_kind} Verlinkt]]" if linked_kind != "references" else "[[Verlinkt]]"
    (root / "Quelle A.md").write_text(
        f"# Quelle A\nZitronenfalter Wiese {link}\n", encoding="utf-8"
    )
    if other_kind:
        (root / "Quelle B.md").write_text(
            f"# Quelle B\nZitronenfalter Wiese [[rel:{other_kind} Einsam]]\n", encoding="utf-8"
        )
    else:
        (root / "Quelle B.md").write_text(
            f"# Quelle B\nZitronenfalter Wiese {link}\n", encoding="utf-8"
        )
    return root


def ranked_notes(mn, query: str = TEXT, **kw) -> list[str]:
    return [h.note_id for h in hybrid_search(mn, query, log=False, **kw).hits]


def test_score_is_the_sum_of_its_breakdown(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    hits = hybrid_search(mn, "Qdrant Vektordatenbank Alpha", k=8, log=False).hits
    assert len(hits) == 8
    for hit in hits:
        terms = [t["term"] for t in hit.score_breakdown]
        assert terms == list(TERMS) and terms[-1] == "feedback"
        for t in hit.score_breakdown:
            assert t["contribution"] == t["raw"] * t["weight"]
        assert hit.score == sum(t["contribution"] for t in hit.score_breakdown)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_edge_bonus_lifts_the_linked_twin_over_the_isolated_one(tmp_path, open_mindnet):
    mn = open_mindnet(small_vault(tmp_path / "v"))
    run_import(mn)
    hits = hybrid_search(mn, TEXT, log=False).hits
    by_note = {h.note_id: h for h in hits}
    linked, lonely = by_note["Verlinkt"], by_note["Einsam"]
    assert linked.score_breakdown[0]["raw"] == lonely.score_breakdown[0]["raw"]  # same text
    assert linked.score > lonely.score
    assert ranked_notes(mn).index("Verlinkt") < ranked_notes(mn).index("Einsam")


@pytest.mark.parametrize(
    ("heavy", "light", "winner"),
    [
        ("beeinflusst_von", "related_to", "Verlinkt"),
        ("related_to", "beeinflusst_von", "Einsam"),
    ],
)
def test_per_kind_edge_weights_change_the_ranking(tmp_path, open_mindnet, heavy, light, winner):
    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    text = text.replace("  related_to: 0.5\n", f"  {heavy}: 1.5\n  {light}: 0.2\n")
    (config / "retriever.yaml").write_text(text, encoding="utf-8")
    mn = open_mindnet(
        small_vault(tmp_path / "v", "beeinflusst_von", "related_to"), config_dir=config
    )
    run_import(mn)
    order = ranked_notes(mn)
    assert order.index(winner) < order.index("Einsam" if winner == "Verlinkt" else "Verlinkt")


@pytest.mark.parametrize(
    ("language", "semantic", "authority", "type_reason"),
    [
        (
            "de",
            "textuelle Übereinstimmung",
            "Wird referenziert von KI-Projekt Alpha (depends_on",
            "Bevorzugt, da Typ",
        ),
        (
            "en",
            "textual match",
            "Referenced by KI-Projekt Alpha (depends_on",
            "Preferred because of type",
        ),
    ],
)
def test_reasons_name_the_notes_and_kinds_in_both_languages(
    vault, open_mindnet, language, semantic, authority, type_reason
):
    mn = open_mindnet(vault)
    run_import(mn)
    hits = hybrid_search(
        mn, "Qdrant Vektordatenbank lokal Docker", k=20, language=language, log=False
    ).hits
    qdrant = next(h for h in hits if h.note_id == "Wissen/Qdrant Vektordatenbank")
    assert semantic in qdrant.reasons[0]
    assert any(r.startswith(authority) for r in qdrant.reasons), qdrant.reasons
    decision = next(h for h in hits if h.note_id == "dec-2026-001")
    assert any(r.startswith(type_reason) and "decision" in r for r in decision.reasons)


def test_decision_questions_inject_values_principles_and_goals(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    result = hybrid_search(
        mn, "Soll ich für Alpha eine Cloud-Datenbank nehmen?", k=3, language="en", log=False
    )
    assert (result.routing.intent, result.routing.source) == ("DECISION", "keyword")
    injected = [h for h in result.hits if h.injected]
    assert injected and {h.type for h in injected} <= {"value", "principle", "goal", "experience"}
    assert all(
        any(r.startswith("Injected by the DECISION strategy") for r in h.reasons) for h in injected
    )
    # Injected hits are scaled like the main ranking's: a weaker match never gets the top
    # semantic value just because it was ranked apart.
    best = max(h.similarity for h in result.hits if not h.injected)
    for hit in injected:
        semantic = next(t["raw"] for t in hit.score_breakdown if t["term"] == "semantic")
        assert hit.similarity >= best or semantic < 1.0
    fact = hybrid_search(mn, "Was ist HNSW?", k=3, log=False)
    assert fact.routing.intent == "FACT" and not any(h.injected for h in fact.hits)


def test_search_cli_json_logs_the_query_and_feedback_references_it(vault, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import", "--json"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(vault), "search", "Papierstau Fach 2", "--k", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"query_id", "intent", "intent_source", "hits"} <= set(data) and len(data["hits"]) == 3
    hit = data["hits"][0]
    assert {
        "node_id",
        "note_id",
        "title",
        "path",
        "type",
        "text",
        "score",
        "score_breakdown",
        "reasons",
    } <= set(hit)
    node = hit["node_id"]
    assert main(["--vault", str(vault), "feedback", data["query_id"], node, "--up", "--json"]) == 0
    assert (
        main(["--vault", str(vault), "feedback", data["query_id"], "answer", "--down", "--json"])
        == 0
    )
    capsys.readouterr()
    assert main(["--vault", str(vault), "feedback", "0000", node, "--up"]) == 2
    assert "unknown query_id '0000'" in capsys.readouterr().err
    assert (
        main(["--vault", str(vault), "feedback", data["query_id"], "Nicht/Gezeigt#1", "--up"]) == 2
    )
    assert "was not a result" in capsys.readouterr().err
    assert main(["--vault", str(vault), "log", "--json"]) == 0
    log = json.loads(capsys.readouterr().out)
    logged = next(q for q in log["queries"] if q["query_id"] == data["query_id"])
    assert logged["hits"][0]["score_breakdown"] == hit["score_breakdown"]
    assert [(f["node_id"], f["rating"]) for f in log["feedback"]] == [
        (node, "up"),
        ("answer", "down"),
    ]
    assert all(f["query_id"] == data["query_id"] for f in log["feedback"])


def test_a_named_note_and_its_neighbours_join_the_candidates(vault, open_mindnet, tmp_path):
    from mindnet_desktop.core.service.search.hybrid import named_notes

    mn = open_mindnet(vault)
    run_import(mn)
    assert named_notes(mn, "Was sagt Erst verstehen, dann bauen über Prototypen?") == [
        "Persönlich/Prinzipien/Erst verstehen, dann bauen"
    ]
    assert named_notes(mn, "Wie geht es mit qdrant weiter?") == ["Wissen/Qdrant Vektordatenbank"]
    assert named_notes(mn, "Nichts davon hier") == []
    # A tiny pool: only the name brings the note (and its neighbours) into the candidates.
    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    text = text.replace("candidate_pool: 50", "candidate_pool: 1").replace("k: 10 ", "k: 1 ")
    (config / "retriever.yaml").write_text(text, encoding="utf-8")
    mn.close()
    mn = open_mindnet(vault, config_dir=config)
    hits = hybrid_search(mn, "Was weiß Lena Hoffmann?", k=40, log=False).hits
    notes = {h.note_id for h in hits}
    assert "Personen/Lena Hoffmann" in notes
    assert "Wissen/Qdrant Vektordatenbank" in notes  # Lena's note links to [[Qdrant]]
