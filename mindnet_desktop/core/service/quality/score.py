"""How well a retriever configuration finds the probes' notes: hit@1, hit@5 and MRR per kind
of probe (sentence, question, rated), for the configuration in effect and, side by side, for
another one: another `retriever.yaml` on the same index, or another embedder, whose index is
built once in the data dir (`probe-<embedder>`, an import of the whole vault).

Each probe is ranked as `mindnet search --per-note` ranks (the full hybrid, top 10 notes),
like the `hybrid` variant of `mindnet bench quality`. A rated question is ranked without its
own ratings (leave one out), or the feedback term alone would find its ▲ notes.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mindnet_desktop.core.domain import IndexProgress, drain
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.retrieval.metrics import DEPTH, Scores, first_gold_rank
from mindnet_desktop.core.service.quality.probes import KINDS, Probe
from mindnet_desktop.core.service.search.hybrid import SearchVault, hybrid_search

if TYPE_CHECKING:
    from mindnet_desktop.core.config.retriever import RetrieverConfig
    from mindnet_desktop.core.service.quality.feedback import FeedbackIndex


class ProbeError(MindnetError, ValueError):
    """Probing cannot run as asked (an empty index, a comparison that cannot be built)."""


class ScoredVault(SearchVault, Protocol):
    """What scoring reads of an open vault (`Mindnet`): a search's parts, the retriever
    config it can swap for the time of a ranking, the ratings it can leave some out of."""

    @property
    def retriever_config(self) -> RetrieverConfig: ...

    def use_retriever_config(self, config: RetrieverConfig) -> None: ...

    @property
    def feedback(self) -> FeedbackIndex: ...


@dataclass
class ConfigScores:
    """One configuration's scores on the probes, per kind (kinds without probes left out).

    Attributes:
        name: `current` or `against`.
        config: The retriever config file (or `settings` for weights being edited).
        embedder: The embedder of the index it ranked.
        scores: kind -> the first gold rank of each probe of that kind.
    """

    name: str
    config: str
    embedder: str
    scores: dict[str, Scores]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "config": self.config,
            "embedder": self.embedder,
            "scores": {
                kind: {**s.summary(), "probes": len(s.ranks)} for kind, s in self.scores.items()
            },
        }


@contextmanager
def using_config(mn: ScoredVault, config: RetrieverConfig | None) -> Iterator[None]:
    """Rank with `config` inside the block (None: the one in effect), then restore it."""
    if config is None:
        yield
        return
    before = mn.retriever_config
    mn.use_retriever_config(config)
    try:
        yield
    finally:
        mn.use_retriever_config(before)


def ranked_notes(mn: ScoredVault, query: str) -> list[tuple[str, str]]:
    """(note id, path) of the top notes for `query`, as `search --per-note` ranks them."""
    hits = hybrid_search(mn, query, DEPTH, log=False, per_note=True, language="en").hits
    return [(h.note_id, h.path) for h in hits[:DEPTH]]


def probe_rank(mn: ScoredVault, probe: Probe) -> int | None:
    """The rank of the probe's first gold note (None: not in the top 10)."""
    if probe.query_ids:
        with mn.feedback.leaving_out(frozenset(probe.query_ids)):
            return first_gold_rank(ranked_notes(mn, probe.text), probe.gold)
    return first_gold_rank(ranked_notes(mn, probe.text), probe.gold)


def rank_probes(
    mn: ScoredVault,
    probes: list[Probe],
    config: RetrieverConfig | None = None,
    cancel: Callable[[], bool] | None = None,
    phase: str = "score",
) -> Generator[IndexProgress, None, Scores]:
    """The first gold rank of each probe, in order, ranked with `config` (None: the one in
    effect); yields progress after each."""
    scores = Scores()
    for done, probe in enumerate(probes, start=1):
        if cancel is not None and cancel():
            break
        with using_config(mn, config):
            scores.ranks.append(probe_rank(mn, probe))
        yield IndexProgress(done, len(probes), probe.text[:60], phase)
    return scores


def score_probes(
    mn: ScoredVault, probes: list[Probe], config: RetrieverConfig | None = None
) -> Scores:
    """hit@1 / hit@5 / MRR of `config` (None: the one in effect) over `probes`, all kinds
    together (`by_kind` splits them)."""
    return drain(rank_probes(mn, probes, config))


def by_kind(probes: list[Probe], scores: Scores) -> dict[str, Scores]:
    """The ranks of `scores` (one per probe) split by the probes' kind, in KINDS order."""
    out: dict[str, Scores] = {}
    for kind in KINDS:
        ranks = [r for p, r in zip(probes, scores.ranks) if p.kind == kind]
        if ranks:
            out[kind] = Scores(ranks)
    return out


def compare(
    mn: ScoredVault,
    probes: list[Probe],
    against: RetrieverConfig | None = None,
    against_index: ScoredVault | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Generator[IndexProgress, None, list[ConfigScores]]:
    """The scores of the configuration in effect and, when given, of `against` (another
    config on this index) or `against_index` (another embedder's index), side by side."""
    results = []
    scores = yield from rank_probes(mn, probes, None, cancel)
    results.append(
        ConfigScores("current", config_label(mn), mn.embedder.name, by_kind(probes, scores))
    )
    if against is not None or against_index is not None:
        other = against_index or mn
        scores = yield from rank_probes(other, probes, against, cancel, "other")
        label = against.source if against is not None else config_label(other)
        results.append(ConfigScores("against", label, other.embedder.name, by_kind(probes, scores)))
    return results


def config_label(mn: ScoredVault) -> str:
    return mn.retriever_config.source or "retriever.yaml"
