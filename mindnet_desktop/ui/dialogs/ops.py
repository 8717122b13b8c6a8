"""What the dialogs run in the background: the note preview's read, Check search quality's
probe, and the ratings' list, forgetting, learning and applying of weights.

Operations that take `(mn, job, …)` run on the service thread (`JobGroup.submit`); those
that take `(job, …)` run on the global pool (`JobGroup.run_pure`) and reach the service
through `ServiceHost.call` or a reader of their own. Widgets bind the arguments with
`functools.partial`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import Any

from mindnet_desktop.bench.tune import TuneResult, apply, prior_group, tune, user_groups
from mindnet_desktop.core.domain import IndexProgress, drain
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.retrieval.metrics import Scores
from mindnet_desktop.core.service.quality.probes import plan_probes, rated_probes, write_questions
from mindnet_desktop.core.service.quality.score import ConfigScores, by_kind, rank_probes
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.support.workers import Job, ServiceHost

BATCH = 8  # probes scored per turn on the service thread
QUESTION_CONTEXT = 2048


# -- note preview ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NoteView:
    """What the preview shows of one note (read on the core thread)."""

    note_id: str
    title: str
    type: str
    path: str
    body: str
    vault_name: str


def read_note(mn: Mindnet, job: Job, ref: str) -> NoteView:
    """A note by id, path, title or alias (a chunk id shows its note)."""
    note = mn.note(mn.find_note_id(ref if mn.has_note(ref) else ref.split("#", 1)[0]))
    body = "\n\n".join(c.text for c in mn.chunks(note.note_id)) or note.body
    return NoteView(note.note_id, note.title, note.type, note.path, body, mn.vault.name)


# -- check search quality --------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeRequest:
    n: int
    questions: bool  # also the chat model's questions (slow the first time)
    weights: dict[str, float] | None  # compare with these weights (None: the current only)
    model: str | None = None  # GGUF path, None: the packaged default
    threads: int = 2


def probe(
    job: Job, host: ServiceHost, request: ProbeRequest
) -> Generator[Any, None, list[ConfigScores] | None]:
    """Settings → Check search quality: plan the probes, write the missing questions, score
    each configuration; yields `IndexProgress` (phase `probe`, `score` or `other`), returns
    the `ConfigScores`. Runs off the service thread and reads the index through it in small
    steps (`ServiceHost.call`), so the chat stays usable; Cancel stops after a batch."""
    plan = host.call(job, lambda mn: plan_probes(mn, request.n, request.questions))
    plan.save()
    if request.questions and plan.to_ask:
        llm = LlamaChat(request.model, n_ctx=QUESTION_CONTEXT, threads=request.threads)
        try:
            yield IndexProgress(0, len(plan.to_ask), "", "probe")
            yield from write_questions(plan, llm, job.cancelled)
        finally:
            llm.close()
    kinds = ("sentence", "question") if request.questions else ("sentence",)
    probes = plan.probes(kinds) + host.call(job, rated_probes)
    configs: list[tuple[str, Any]] = [("current", None)]
    if request.weights is not None:
        weights = request.weights
        edited = host.call(job, lambda mn: replace(mn.retriever_config, weights=weights))
        configs.append(("against", edited))
    label, embedder = host.call(job, lambda mn: (mn.retriever_config.source, mn.embedder.name))
    results = []
    total = len(probes) * len(configs)
    for i, (name, config) in enumerate(configs):
        scores = Scores()
        for start in range(0, len(probes), BATCH):
            if job.cancelled():
                return None
            batch = probes[start : start + BATCH]
            part = host.call(job, lambda mn, b=batch, c=config: drain(rank_probes(mn, b, c)))
            scores.ranks += part.ranks
            done = i * len(probes) + start + len(batch)
            yield IndexProgress(done, total, name, "score")
        source = label if name == "current" else "settings"
        results.append(ConfigScores(name, source, embedder, by_kind(probes, scores)))
    return results


# -- your ratings ----------------------------------------------------------------------------


def standing_ratings(mn: Mindnet, job: Job) -> list[dict[str, Any]]:
    """The ratings that stand (the last word on each question and note)."""
    return mn.query_log.standing()


def forget_ratings(mn: Mindnet, job: Job, query_id: str | None) -> list[dict[str, Any]]:
    """Forget one question's ratings (every rating: None); the ratings that still stand."""
    mn.query_log.forget(query_id)
    mn.feedback.changed()
    return mn.query_log.standing()


def learn_weights(job: Job, reader: Callable[[], Mindnet]) -> TuneResult:
    """Tune the retriever weights on the user's ratings and the example vault's questions,
    on a reader of its own (the window's service stays free); reports
    `(phase, done, total)`."""
    from mindnet_desktop.bench.fusion import CachedQueries

    with reader() as mn:
        mn.embedder = CachedQueries(mn.embedder)  # type: ignore[assignment]
        job.report(("prior", 0, 1))
        groups = user_groups(mn)
        prior = prior_group(mn)
        try:
            return tune(
                [*groups, prior],
                dict(mn.retriever_config.weights),
                lambda done, total: job.report(("weights", done, total)),
                job.cancelled,
            )
        finally:
            prior.mn.close()


def apply_weights(mn: Mindnet, job: Job, result: TuneResult) -> dict[str, float]:
    """Write the proposed weights (the old retriever.yaml is kept as a backup)."""
    apply(mn, result)
    return dict(result.proposed)
