"""The `feedback` term: what the user's thumbs on sources say about a new question (pure:
ratings and vectors in, one effect per note out; `service/quality/feedback.py` reads the log).

A rating counts for a question as far as the two questions are alike: the cosine of their
vectors, scaled so that the `threshold` (per embedder: models spread cosines differently)
gives 0 and the same question 1. A ▼ may ask for closer questions than a ▲: a note wrong for
one question is often right for a neighbouring one. Of a note's ratings the closest counts;
among ratings about as close (`TIE`), the latest, so a later ▲ on the same question replaces
an earlier ▼. It fades with age (half-life) and with how much of the note changed since
(`kept`).

A ▼ says the note was not the answer to the rated question although search put it there. A
neighbouring question may be just the one the note answers: where the note's own evidence
for the new question (its semantic, lexical and coverage terms, blended by their weights) is
stronger than it was for the rated question, the ▼ counts less, and not at all once it is
stronger by `down_margin` (`down_share`). A ▲ is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

TIE = 0.02  # ratings whose questions are this close in closeness count as the same question
MIN_KEPT = 0.25  # a rating of a note rewritten since still counts this much
EVIDENCE_TERMS = ("semantic", "lexical", "coverage")  # a note's own evidence for a question


@dataclass(frozen=True)
class Rating:
    """A standing thumbs up (sign +1) or down (-1) on a note, for a question."""

    query_id: str
    query: str
    note_id: str
    sign: float
    age_days: float
    kept: float  # share of the note's text (chunks) unchanged since the rating, 0..1
    vector: np.ndarray  # the question's vector (same embedder as the index)
    # the rated source's raw evidence terms for its question (None: not logged)
    evidence: Mapping[str, float] | None = None


@dataclass(frozen=True)
class FeedbackSettings:
    threshold: float  # question cosine at which a ▲ starts to count
    half_life_days: float
    down_threshold: float | None = None  # the same for a ▼ (None: `threshold`)


@dataclass(frozen=True)
class Effect:
    """A note's feedback term for a question: raw in -1..1 and the rating behind it."""

    raw: float
    query: str  # the rated question
    query_id: str
    # a ▼'s: the note's raw evidence terms for the rated question (None: no guard)
    evidence: Mapping[str, float] | None = None


def closeness(similarity: np.ndarray, threshold: float) -> np.ndarray:
    """0 at or below `threshold`, 1 for the same question, linear in between."""
    span = max(1.0 - threshold, 1e-6)
    return np.clip((similarity - threshold) / span, 0.0, 1.0)


def effects(
    ratings: list[Rating], vector: np.ndarray, settings: FeedbackSettings
) -> dict[str, Effect]:
    """The feedback effect on each rated note for the question with `vector` (notes whose
    ratings are all for unlike questions are left out). `ratings` are in the order they
    were given: of two as old (the log keeps seconds), the later one counts."""
    if not ratings:
        return {}
    similarity = np.stack([r.vector for r in ratings]) @ vector
    up, down = settings.threshold, settings.down_threshold or settings.threshold
    near = np.where(
        np.array([r.sign > 0 for r in ratings]),
        closeness(similarity, up),
        closeness(similarity, down),
    )
    best: dict[str, float] = {}
    for rating, close in zip(ratings, near.tolist(), strict=True):
        if close > best.get(rating.note_id, 0.0):
            best[rating.note_id] = close
    chosen: dict[str, tuple[float, Rating]] = {}
    for rating, close in zip(ratings, near.tolist(), strict=True):
        if close <= 0.0 or rating.note_id not in best or close < best[rating.note_id] - TIE:
            continue
        held = chosen.get(rating.note_id)
        if held is None or rating.age_days <= held[1].age_days:  # equal: the later line
            chosen[rating.note_id] = (close, rating)
    out = {}
    for note_id, (close, rating) in chosen.items():
        fade = 0.5 ** (max(rating.age_days, 0.0) / settings.half_life_days)
        kept = MIN_KEPT + (1.0 - MIN_KEPT) * min(max(rating.kept, 0.0), 1.0)
        raw = round(rating.sign * close * fade * kept, 6)
        evidence = rating.evidence if rating.sign < 0 else None
        out[note_id] = Effect(raw, rating.query, rating.query_id, evidence)
    return out


def evidence(raws: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """A note's own evidence for a question, 0..1: its semantic, lexical and coverage raw
    values blended by the terms' weights (terms missing from `raws` count 0)."""
    total = sum(weights.get(t, 0.0) for t in EVIDENCE_TERMS)
    if total <= 0:
        return 0.0
    return sum(weights.get(t, 0.0) * raws.get(t, 0.0) for t in EVIDENCE_TERMS) / total


def down_share(
    rated: Mapping[str, float] | None,
    now: Mapping[str, float],
    weights: Mapping[str, float],
    margin: float | None,
) -> float:
    """How much of a ▼ counts for a note whose evidence for the new question is `now`
    (raw terms) and was `rated` for the rated question: 1 while the note fits the new
    question no better, falling linearly to 0 where it fits it better by `margin` or more.
    1 when the rated evidence is unknown or the guard is off (`margin` None)."""
    if rated is None or margin is None:
        return 1.0
    gain = evidence(now, weights) - evidence(rated, weights)
    return float(np.clip(1.0 - gain / max(margin, 1e-6), 0.0, 1.0))
