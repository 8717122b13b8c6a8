"""The pure part of ranking: candidates in, raw term values and scores out (no store, no
model). `retriever.py` gathers the candidates and explains the hits."""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.retrieval.feedback import Effect
from mindnet_desktop.core.store.protocol import ChunkRow


def similarity_range(similarities: Collection[float]) -> tuple[float, float]:
    """The (worst, best) of the cosines (0, 1 when there are none)."""
    return (min(similarities), max(similarities)) if similarities else (0.0, 1.0)


def scaled(similarity: dict[str, float], bounds: tuple[float, float]) -> dict[str, float]:
    """Cosine similarities scaled to the candidates' range (`bounds`: the worst and the best
    candidate's): best 1, worst 0, clipped. Embedders spread their similarities very
    differently (USE over 0.1..0.7, e5 over 0.75..0.9); scaled, the semantic term weighs the
    same against the others whichever model made the vectors."""
    low, high = bounds
    if high - low < 1e-9:
        return {cid: 1.0 for cid in similarity}
    return {cid: min(max((s - low) / (high - low), 0.0), 1.0) for cid, s in similarity.items()}


def rank_scores(values: dict[str, float], reference: tuple[float, ...], k: int) -> dict[str, float]:
    """Reciprocal-rank scores: a value's rank r among `reference` (best first; a value
    between two ranks takes the lower) gives (k + 1) / (k + r), so the best is 1 and the
    scores fall slowly (k = 60: rank 10 0.88, rank 50 0.55), whatever scale the values had."""
    ascending = sorted(reference)
    total = len(ascending)
    out = {}
    for key, value in values.items():
        rank = 1 + total - bisect_right(ascending, value)  # how many are better, plus one
        out[key] = (k + 1) / (k + rank)
    return out


@dataclass
class Link:
    """An edge between two candidate notes, weighted for the edge term."""

    source: str
    target: str
    kind: str
    weight: float


@dataclass
class Candidates:
    """What the store gave for a query: the rows, each one's cosine, the BM25 scores."""

    rows: dict[str, ChunkRow]
    similarity: dict[str, float]
    bm25: dict[str, float]
    coverage: dict[str, float] = field(default_factory=dict)  # share of query words held


@dataclass
class GraphTerms:
    incoming: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    neighbours: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    points_to: dict[str, list[Link]] = field(default_factory=lambda: defaultdict(list))
    pointed_by: dict[str, list[Link]] = field(default_factory=lambda: defaultdict(list))
    max_in: float = 0.0
    max_degree: int = 0


@dataclass
class Terms:
    """Each candidate's raw term values, its note, and what the reasons need."""

    raws: dict[str, dict[str, float]]
    note_of: dict[str, str]
    relevance: dict[str, float]
    graph: GraphTerms
    feedback: dict[str, Effect] = field(default_factory=dict)  # the ratings' effect per note
    # of a note's ▼, the share that counts for this question (`feedback.down_share`)
    down_share: dict[str, float] = field(default_factory=dict)


def score(
    raws: dict[str, dict[str, float]], weights: Mapping[str, float]
) -> list[tuple[float, str, list[dict[str, Any]]]]:
    """(score, chunk id, breakdown) per candidate, best first: score = Σ weight · raw, and
    the breakdown lists raw, weight and contribution of each term (in `TERMS` order)."""
    scored: list[tuple[float, str, list[dict[str, Any]]]] = []
    for cid, values in raws.items():
        breakdown: list[dict[str, Any]] = []
        for term in TERMS:
            raw = round(float(values[term]), 6)
            weight = weights[term]
            breakdown.append(
                {"term": term, "raw": raw, "weight": weight, "contribution": raw * weight}
            )
        scored.append((sum(t["contribution"] for t in breakdown), cid, breakdown))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored
