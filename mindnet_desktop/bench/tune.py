"""`mindnet tune`: retriever weights learned from the user's ratings, held by a prior.

Evidence, per group of questions (each a list of question → gold notes):
- `qa`: the bundled QA set of the example vault (its own index, kept in the data dir), so a
  few ratings cannot wreck the ranking;
- `rated`: the user's rated questions, ▲ sources as gold, each ranked *without its own
  ratings* (leave-one-out: otherwise the feedback term answers it by heart);
- `probes`: known-item probes built from the user's vault (`mindnet probe`): sentence
  probes, and the chat model's questions where `mindnet probe` wrote them.

A coordinate search moves one term weight at a time (halve, double, or switch on) and keeps
a move when the mean MRR of the user's groups (rated questions, probes) rises while the prior
gets no worse than it was. The proposal is applied only when it is better on the user's
groups and worse on no group (`TuneResult.better`); the old `retriever.yaml` is kept as a
backup.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.quality import DEPTH, Scores, first_gold_rank, load_qa_set
from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.domain import IndexProgress, drain
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.service.quality.probes import build_probes, rated_probes
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.resources import EXAMPLE_VAULT, PRIOR_QA, ROOT

# Terms the search moves (type and status are per-note settings the user chose).
TUNED = ("semantic", "lexical", "coverage", "name", "edge", "centrality", "feedback")
STEPS = (0.5, 2.0)
SWITCH_ON = 0.1  # the weight a term that is off is tried at
ROUNDS = 2
RATED_GROUP = "your rated questions"
PROBES_GROUP = "probes from your notes"
PRIOR_GROUP = "example questions"
PROBES = 100  # notes probed (`mindnet probe --n`)
MIN_GAIN = 0.002  # a move must raise the mean MRR by this much


@dataclass(frozen=True)
class Asked:
    """A question with its gold notes (note ids or vault paths) and the queries whose
    ratings are left out when it is ranked."""

    text: str
    gold: frozenset[str]
    language: str = "en"
    leave_out: frozenset[str] = frozenset()


@dataclass
class Group:
    """A group of questions and the index they are asked on."""

    name: str
    mn: Mindnet
    questions: list[Asked]
    prior: bool = False  # a constraint (not to get worse), not what is learnt from


@dataclass
class TuneResult:
    current: dict[str, float]
    proposed: dict[str, float]
    before: dict[str, dict[str, float]]  # group -> hit@1 / hit@5 / mrr
    after: dict[str, dict[str, float]]
    tried: int = 0
    seconds: float = 0.0
    groups: dict[str, int] = field(default_factory=dict)  # questions per group
    learnt_from: list[str] = field(default_factory=list)  # the user's groups (not the prior)

    @property
    def better(self) -> bool:
        """Better on the user's groups (mean MRR) and worse on no group."""
        own = [g for g in self.learnt_from if self.groups.get(g)]
        if not own or self.proposed == self.current:
            return False
        worse = any(self.after[g]["mrr"] < self.before[g]["mrr"] for g in self.before)
        return not worse and mean_mrr(self.after, own) > mean_mrr(self.before, own)

    def to_dict(self) -> dict[str, Any]:
        return {
            "current": self.current,
            "proposed": self.proposed,
            "before": self.before,
            "after": self.after,
            "questions": self.groups,
            "learnt_from": self.learnt_from,
            "better": self.better,
            "configs_tried": self.tried,
            "seconds": round(self.seconds, 1),
        }


def mean_mrr(scores: dict[str, dict[str, float]], groups: Sequence[str]) -> float:
    return sum(scores[g]["mrr"] for g in groups) / max(len(groups), 1)


def rated_questions(mn: Mindnet) -> list[Asked]:
    """The user's rated questions with their ▲ notes as gold (questions with only ▼ have
    no gold and are left out); asked again without any rating given for the same text."""
    return [
        Asked(p.text, frozenset(p.gold), p.lang, frozenset(p.query_ids)) for p in rated_probes(mn)
    ]


def user_groups(mn: Mindnet, probes: int = PROBES) -> list[Group]:
    """What is learnt from: the rated questions and (`probes` > 0) the known-item probes of
    up to `probes` notes of the vault (`mindnet probe`): sentence probes, built where the
    cache lacks them, and the chat model's questions where the cache has them."""
    groups = [Group(RATED_GROUP, mn, rated_questions(mn))]
    if probes > 0:
        plan = drain(build_probes(mn, probes))
        asked = [Asked(p.text, frozenset(p.gold), p.lang) for p in plan.probes()]
        groups.append(Group(PROBES_GROUP, mn, asked))
    return groups


def prior_group(mn: Mindnet, on_progress: Callable[[IndexProgress], object] | None = None) -> Group:
    """The example vault's dev questions on their own index, built once in `mn`'s data dir
    with `mn`'s embedder and ranked with `mn`'s weights. The caller closes `group.mn`."""
    qa = load_qa_set(PRIOR_QA, ROOT)
    data = mn.data_dir / "tune" / f"example_vault-{mn.embedder.name}"
    prior = Mindnet(EXAMPLE_VAULT, data, None, mn.embedder, write=True, read_only_vault=True)
    try:
        drain(prior.import_vault(ImportOptions(sync_deletes=True)), on_progress)
    except BaseException:
        prior.close()
        raise
    prior.use_retriever_config(replace(prior.retriever_config, weights=mn.retriever_config.weights))
    asked = [Asked(q.q, frozenset(q.gold), q.lang) for q in qa.questions if q.split == "dev"]
    return Group(PRIOR_GROUP, prior, asked, prior=True)


def score_group(group: Group, weights: dict[str, float]) -> dict[str, float]:
    """hit@1 / hit@5 / MRR of `group` under `weights` (the group's index config otherwise)."""
    mn = group.mn
    base = mn.retriever_config
    mn.use_retriever_config(replace(base, weights=weights))
    scores = Scores()
    try:
        for asked in group.questions:
            with mn.feedback.leaving_out(asked.leave_out):
                hits = hybrid_search(
                    mn, asked.text, DEPTH, log=False, per_note=True, language=asked.language
                ).hits
            ranked = [(h.note_id, h.path) for h in hits[:DEPTH]]
            scores.ranks.append(first_gold_rank(ranked, tuple(asked.gold)))
    finally:
        mn.use_retriever_config(base)
    return scores.summary()


def evaluate(groups: list[Group], weights: dict[str, float]) -> dict[str, dict[str, float]]:
    return {g.name: score_group(g, weights) for g in groups if g.questions}


def neighbours(weights: dict[str, float]) -> list[dict[str, float]]:
    """One-term moves from `weights`: each tuned term halved and doubled, or switched on."""
    out = []
    for term in TUNED:
        value = weights[term]
        options = [value * step for step in STEPS] if value > 0 else [SWITCH_ON]
        for option in options:
            out.append({**weights, term: round(min(option, 10.0), 4)})
    return out


def tune(
    groups: list[Group],
    current: dict[str, float],
    on_step: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> TuneResult:
    """Search weights around `current` (see the module docstring); `stop()` true ends the
    search early with the best weights so far."""
    started = time.perf_counter()
    own = [g.name for g in groups if g.questions and not g.prior]
    prior = [g.name for g in groups if g.questions and g.prior]
    before = evaluate(groups, current)
    best, best_scores = dict(current), before
    tried, total = 0, ROUNDS * len(neighbours(current))
    for _ in range(ROUNDS if own else 0):
        moved = False
        for candidate in neighbours(best):
            if stop():
                break
            scores = evaluate(groups, candidate)
            tried += 1
            if on_step:
                on_step(tried, total)
            held = all(scores[g]["mrr"] >= before[g]["mrr"] for g in prior)
            if held and mean_mrr(scores, own) > mean_mrr(best_scores, own) + MIN_GAIN:
                best, best_scores, moved = candidate, scores, True
        if not moved:
            break
    return TuneResult(
        current=dict(current),
        proposed=best,
        before=before,
        after=best_scores,
        tried=tried,
        seconds=time.perf_counter() - started,
        groups={g.name: len(g.questions) for g in groups},
        learnt_from=own,
    )


def apply(mn: Mindnet, result: TuneResult) -> tuple[Path, Path | None]:
    """Write the proposed weights (only when `result.better`), keeping the file in effect
    as `retriever.yaml.bak-<time>` beside the new one; (new file, backup)."""
    if not result.better:
        raise ValueError("the proposal is not better: nothing written")
    source = Path(mn.retriever_config.source)
    backup = None
    mn.config_dir.mkdir(parents=True, exist_ok=True)
    if source.is_file():
        backup = mn.config_dir / f"retriever.yaml.bak-{time.strftime('%Y%m%d-%H%M%S')}"
        shutil.copy2(source, backup)
    return mn.set_retriever_weights({t: result.proposed[t] for t in TERMS}), backup


def weights_table(result: TuneResult, changed_only: bool = False) -> str:
    """Markdown: the term weights, current → proposed (`changed_only`: the moved ones)."""
    lines = ["| term | current | proposed |", "|---|---|---|"]
    for term in TERMS:
        a, b = result.current[term], result.proposed[term]
        if changed_only and a == b:
            continue
        mark = " ←" if a != b else ""
        lines.append(f"| {term} | {a:.2f} | {b:.2f}{mark} |")
    return "\n".join(lines)


def scores_table(result: TuneResult) -> str:
    """Markdown: hit@5 / MRR per group of questions, current and proposed weights."""
    lines = ["| questions | n | hit@5 current | hit@5 proposed | MRR current | MRR proposed |"]
    lines.append("|---|---|---|---|---|---|")
    for name, before in result.before.items():
        after = result.after[name]
        lines.append(
            f"| {name} | {result.groups.get(name, 0)} | {before['hit@5']:.2f} | "
            f"{after['hit@5']:.2f} | {before['mrr']:.2f} | {after['mrr']:.2f} |"
        )
    return "\n".join(lines)
