"""The feedback term's logic (no model: vectors are given) and the log it reads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mindnet_desktop.core.retrieval.feedback import (
    MIN_KEPT,
    FeedbackSettings,
    Rating,
    closeness,
    down_share,
    effects,
    evidence,
)
from mindnet_desktop.core.store.query_log import QueryLog, UnknownQueryError

SETTINGS = FeedbackSettings(threshold=0.6, half_life_days=180)


def unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def rating(note: str, sign: float, vector: np.ndarray, age: float = 0.0, kept: float = 1.0):
    return Rating(f"q-{note}-{age}", f"question {age}", note, sign, age, kept, vector)


def test_closeness_is_zero_at_the_threshold_and_one_for_the_same_question() -> None:
    got = closeness(np.array([0.3, 0.6, 0.8, 1.0]), 0.6)
    assert got.tolist() == pytest.approx([0.0, 0.0, 0.5, 1.0])


def test_a_rating_moves_its_note_for_the_same_question_fully_and_not_for_an_unlike_one() -> None:
    asked = unit(1, 0, 0)
    ratings = [rating("A", -1.0, asked), rating("B", 1.0, asked)]
    same = effects(ratings, asked, SETTINGS)
    assert same["A"].raw == pytest.approx(-1.0) and same["B"].raw == pytest.approx(1.0)
    assert effects(ratings, unit(0, 1, 0), SETTINGS) == {}


def test_the_effect_shrinks_with_dissimilarity() -> None:
    asked = unit(1, 0, 0)
    near, farther = unit(1, 0.2, 0), unit(1, 0.6, 0)
    ratings = [rating("A", 1.0, asked)]
    assert (
        0 < effects(ratings, farther, SETTINGS)["A"].raw < effects(ratings, near, SETTINGS)["A"].raw
    )


def test_a_later_rating_on_the_same_question_replaces_the_earlier_one() -> None:
    asked = unit(1, 0, 0)
    down_then_up = [rating("A", -1.0, asked, age=2.0), rating("A", 1.0, asked, age=1.0)]
    assert effects(down_then_up, asked, SETTINGS)["A"].raw > 0
    up_then_down = [rating("A", 1.0, asked, age=2.0), rating("A", -1.0, asked, age=1.0)]
    assert effects(up_then_down, asked, SETTINGS)["A"].raw < 0


def test_of_two_ratings_the_one_for_the_closer_question_counts() -> None:
    asked = unit(1, 0, 0)
    ratings = [rating("A", 1.0, asked, age=5.0), rating("A", -1.0, unit(1, 0.7, 0), age=0.0)]
    assert effects(ratings, asked, SETTINGS)["A"].raw > 0


def test_ratings_fade_with_age_and_with_how_much_the_note_changed() -> None:
    asked = unit(1, 0, 0)
    one_half_life = effects([rating("A", 1.0, asked, age=180.0)], asked, SETTINGS)["A"].raw
    assert one_half_life == pytest.approx(0.5)
    rewritten = effects([rating("A", 1.0, asked, kept=0.0)], asked, SETTINGS)["A"].raw
    assert rewritten == pytest.approx(MIN_KEPT)
    half_kept = effects([rating("A", 1.0, asked, kept=0.5)], asked, SETTINGS)["A"].raw
    assert MIN_KEPT < half_kept < 1.0


def _log(tmp_path: Path) -> QueryLog:
    log = QueryLog(tmp_path)
    hits = [{"node_id": "A#1", "note_id": "A"}, {"node_id": "B#2", "note_id": "B"}]
    log.log_query({"query_id": "q1", "query": "first", "hits": hits})
    log.log_query({"query_id": "q2", "query": "second", "hits": hits})
    return log


def test_standing_ratings_are_the_last_per_source_without_cleared_ones(tmp_path: Path) -> None:
    log = _log(tmp_path)
    log.feedback("q1", "A#1", "down")
    log.feedback("q1", "B#2", "up")
    log.feedback("q1", "A#1", "up")
    log.feedback("q1", "B#2", "clear")
    log.feedback("q2", "answer", "up", {"model": "m"})
    standing = [(e["query_id"], e.get("note_id"), e["rating"], e["query"]) for e in log.standing()]
    assert standing == [("q1", "A", "up", "first"), ("q2", None, "up", "second")]
    assert log.read_feedback()[-1]["model"] == "m"


def test_forget_removes_one_query_or_all_and_rewrites_the_log(tmp_path: Path) -> None:
    log = _log(tmp_path)
    log.feedback("q1", "A#1", "down")
    log.feedback("q2", "B#2", "up")
    assert log.forget("q1") == 1
    assert [e["query_id"] for e in log.read_feedback()] == ["q2"]
    with pytest.raises(UnknownQueryError, match="no ratings"):
        log.forget("q1")
    assert log.forget() == 1
    assert log.read_feedback() == [] and log.feedback_path.read_text() == ""


def test_of_two_ratings_given_in_the_same_second_the_later_one_counts() -> None:
    asked = unit(1, 0, 0)
    assert (
        effects([rating("A", -1.0, asked), rating("A", 1.0, asked)], asked, SETTINGS)["A"].raw > 0
    )
    assert (
        effects([rating("A", 1.0, asked), rating("A", -1.0, asked)], asked, SETTINGS)["A"].raw < 0
    )


def test_a_down_can_ask_for_closer_questions_than_an_up() -> None:
    asked, near = unit(1, 0, 0), unit(1, 0.75, 0)  # cosine 0.8
    strict = FeedbackSettings(threshold=0.6, half_life_days=180, down_threshold=0.85)
    ratings = [rating("A", 1.0, asked), rating("B", -1.0, asked)]
    got = effects(ratings, near, strict)
    assert got["A"].raw > 0 and "B" not in got
    assert effects(ratings, asked, strict)["B"].raw == pytest.approx(-1.0)


WEIGHTS = {"semantic": 0.6, "lexical": 0.4, "coverage": 0.3, "name": 5.0}


def test_evidence_blends_semantic_lexical_and_coverage_by_their_weights() -> None:
    """Only the three terms that say how well the note fits the question count (not the
    name, type or feedback terms), each by its weight."""
    raws = {"semantic": 1.0, "lexical": 0.5, "coverage": 0.0, "name": 1.0, "feedback": -1.0}
    assert evidence(raws, WEIGHTS) == pytest.approx((0.6 + 0.2) / 1.3)
    assert evidence({"semantic": 0.5}, {"semantic": 0.0, "lexical": 0.0}) == 0.0


def test_a_down_counts_less_where_the_note_fits_the_new_question_better() -> None:
    """A ▼ counts fully while the note's evidence for the new question is no stronger than
    for the rated one, less as it is stronger, and not at all from `margin` on; without the
    rated evidence (an old log) or without a margin it counts fully."""
    rated = {"semantic": 0.5, "lexical": 0.5, "coverage": 0.5}
    weaker = {"semantic": 0.4, "lexical": 0.5, "coverage": 0.5}
    better = {"semantic": 0.6, "lexical": 0.6, "coverage": 0.6}  # evidence +0.1
    best = {"semantic": 1.0, "lexical": 1.0, "coverage": 1.0}
    assert down_share(rated, weaker, WEIGHTS, 0.2) == 1.0
    assert down_share(rated, rated, WEIGHTS, 0.2) == 1.0
    assert down_share(rated, better, WEIGHTS, 0.2) == pytest.approx(0.5)
    assert down_share(rated, best, WEIGHTS, 0.2) == 0.0
    assert down_share(None, best, WEIGHTS, 0.2) == 1.0
    assert down_share(rated, best, WEIGHTS, None) == 1.0


def test_a_downs_effect_carries_its_rated_evidence_and_an_ups_does_not() -> None:
    """The retriever can guard a ▼ only if the effect hands on what the note's evidence was
    for the rated question; a ▲ is never guarded."""
    asked, raws = unit(1, 0, 0), {"semantic": 0.9, "lexical": 0.2, "coverage": 0.1}
    down = Rating("q1", "first", "A", -1.0, 0.0, 1.0, asked, raws)
    up = Rating("q1", "first", "B", 1.0, 0.0, 1.0, asked, raws)
    got = effects([down, up], asked, SETTINGS)
    assert got["A"].evidence == raws and got["B"].evidence is None


def test_standing_ratings_carry_the_rated_sources_logged_terms(tmp_path: Path) -> None:
    """The rated source's raw terms come from the query log (so ratings given before this
    version are guarded too); a hit logged without a breakdown gives none."""
    log = QueryLog(tmp_path)
    breakdown = [
        {"term": "semantic", "raw": 0.8, "weight": 0.6, "contribution": 0.48},
        {"term": "lexical", "raw": 0.25, "weight": 0.4, "contribution": 0.1},
    ]
    hits = [
        {"node_id": "A#1", "note_id": "A", "score_breakdown": breakdown},
        {"node_id": "B#2", "note_id": "B"},
    ]
    log.log_query({"query_id": "q1", "query": "first", "hits": hits})
    log.feedback("q1", "A#1", "down")
    log.feedback("q1", "B#2", "down")
    standing = {e["note_id"]: e for e in log.standing()}
    assert standing["A"]["raws"] == {"semantic": 0.8, "lexical": 0.25}
    assert "raws" not in standing["B"]


def test_a_rating_counts_less_once_its_note_was_rewritten(vault, open_mindnet) -> None:
    from mindnet_desktop.core.service.quality.feedback import record_feedback
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from tests.conftest import run_import

    mn = open_mindnet(vault)
    run_import(mn)
    query = "Papierstau im Drucker"
    result = hybrid_search(mn, query, k=5, per_note=True)
    hit = result.hits[0]
    record_feedback(mn, result.query_id, hit.node_id, "up")
    vector = mn.embedder.embed_query([query])[0]
    assert mn.feedback.effects(vector)[hit.note_id].raw == pytest.approx(1.0, abs=1e-4)
    path = vault / hit.path
    path.write_text("# Neu\n\nEin ganz anderer Text über etwas anderes.\n", encoding="utf-8")
    run_import(mn)
    mn.feedback.changed()
    assert mn.feedback.effects(vector)[hit.note_id].raw == pytest.approx(MIN_KEPT, abs=1e-4)
    path.unlink()
    run_import(mn, sync_deletes=True)
    mn.feedback.changed()
    assert hit.note_id not in mn.feedback.effects(vector)  # a deleted note is not rated


def test_ratings_logged_before_they_named_their_note_still_stand(tmp_path: Path) -> None:
    log = _log(tmp_path)
    old = {"time": "2026-01-01T00:00:00+00:00", "query_id": "q1", "node_id": "B#2", "rating": "up"}
    log.feedback_path.write_text(json.dumps(old) + "\n", encoding="utf-8")
    (entry,) = log.standing()
    assert entry["note_id"] == "B" and entry["query"] == "first"
