"""Ask-time expansion, the retrieval's part: an answer's sources ranked for the question and
for its rewrite (`chat/rewrite.py`), the two rankings fused by reciprocal rank per note.

Both rankings count the same and the question's own wins ties, so the rewrite can only lift
a note the question ranked low or add one it missed. Each hit keeps the score breakdown and
reasons of the text it was ranked for, and a reason says what the rewrite did: a note found
by both is the question's hit, "also found via the rewritten question"; a note found only by
the rewrite carries the rewrite's score, and its first reason says so.
"""

from __future__ import annotations

from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.retrieval.explain import system_language, text
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.search.hybrid import SearchVault, hybrid_search

# As measured (docs/retrieval-quality.md): the top 10 notes of each ranking, fused with
# 1 / (60 + rank).
RRF_K = 60
DEPTH = 10


def fuse(
    own: list[ScoredHit],
    other: list[ScoredHit],
    k: int,
    language: str,
    rrf_k: int = RRF_K,
) -> list[ScoredHit]:
    """The top `k` notes of the question's ranking (`own`) and the rewrite's (`other`), one
    hit per note, by Σ 1 / (rrf_k + rank); ties go to the better rank, then to the
    question's ranking. Hits the rewrite found get a reason (`language`) naming its rank."""
    own_rank = {h.note_id: r for r, h in enumerate(own, start=1)}
    other_rank = {h.note_id: r for r, h in enumerate(other, start=1)}
    hits = {h.note_id: h for h in other} | {h.note_id: h for h in own}

    def fused(note: str) -> float:
        return sum(1.0 / (rrf_k + ranks[note]) for ranks in (own_rank, other_rank) if note in ranks)

    def first_seen(note: str) -> tuple[int, int]:
        return (own_rank[note], 0) if note in own_rank else (other_rank[note], 1)

    chosen = sorted(hits, key=lambda note: (-fused(note), first_seen(note)))[:k]
    for note in chosen:
        hit, rank = hits[note], other_rank.get(note)
        if rank is None:
            continue
        if note in own_rank:
            hit.reasons.insert(1, text("expansion_also", language, rank=rank))
        else:  # read before the reasons that follow: they are the rewrite's
            hit.reasons.insert(0, text("expansion_only", language, rank=rank))
    return [hits[note] for note in chosen]


def expanded_facts(
    mn: SearchVault,
    own: list[ScoredHit],
    rewrite: str,
    k: int,
    routing: Routing,
    language: str | None = None,
) -> list[ScoredHit]:
    """The question's facts (`own`, ranked per note to `DEPTH` or more) fused with the
    facts `rewrite` finds, ranked the same way under the question's routing (notes the
    strategy injects are the question's, never fused)."""
    language = language or system_language()
    found = hybrid_search(
        mn,
        rewrite,
        max(len(own), DEPTH),
        language=language,
        routing=routing,
        log=False,
        per_note=True,
    )
    other = [h for h in found.hits if not h.injected]
    return fuse(own, other, k, language)
