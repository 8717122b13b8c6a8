"""Known-item metrics: where the first gold note lands in a ranking, and hit@1 / hit@5 /
MRR over many rankings (the QA benchmarks and `mindnet probe` share them)."""

from __future__ import annotations

from dataclasses import dataclass, field

DEPTH = 10  # ranks looked at: a gold note beyond this counts as a miss (reciprocal rank 0)


def first_gold_rank(ranked: list[tuple[str, str]], gold: tuple[str, ...]) -> int | None:
    """The rank (1-based) of the first (note id, path) in `ranked` that is gold (by note id
    or vault path); None when no gold note is ranked."""
    wanted = set(gold)
    for rank, (note_id, path) in enumerate(ranked, start=1):
        if path in wanted or note_id in wanted:
            return rank
    return None


@dataclass
class Scores:
    """The first gold rank of each question (None: missed)."""

    ranks: list[int | None] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        n = max(len(self.ranks), 1)
        return {
            "hit@1": round(sum(1 for r in self.ranks if r == 1) / n, 3),
            "hit@5": round(sum(1 for r in self.ranks if r is not None and r <= 5) / n, 3),
            "mrr": round(sum(1 / r for r in self.ranks if r is not None) / n, 3),
        }
