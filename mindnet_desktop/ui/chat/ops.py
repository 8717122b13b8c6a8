"""What the chat panel runs in the background: the chat model it keeps loaded (`ModelSlot`),
the job that loads it ahead of the first question, the job that answers one question (load
the model, route, retrieve, log the sources, stream, log the answer), and the writing of a
thumb. Jobs run on the panel's model thread or the global pool and call the service through
`ServiceHost.call`; `rate` runs on the service thread (`JobGroup.submit`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from typing import Any

from mindnet_desktop.core.chat.answer import AskResult, Prepared, generate
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.service.ask.pipeline import (
    answer_prefixes,
    expansion_mode,
    finish,
    log_sources,
    pack,
    retrieve,
)
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.search.routing import route_question
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.support.workers import Job, ServiceHost

# (GGUF path or None for the packaged default, threads, n_ctx, max_tokens)
ModelKey = tuple[str | None, int, int, int]


@dataclass(frozen=True)
class Phase:
    """A step of the answer job the panel reports in its status line."""

    name: str  # "loading" (the chat model) | "thinking" (route, retrieve) | "reading" (prefill)
    count: int = 0  # "reading": the sources the model reads before it writes


@dataclass(frozen=True)
class SourcesReady:
    """The answer's sources, known (and logged, so thumbs on them can be written) before
    the model reads them and writes its first token."""

    result: AskResult  # a copy: query_id, routing and sources; the answer still empty


@dataclass(frozen=True)
class Answered:
    """What the answer job returns."""

    result: AskResult
    vault_name: str


class ModelSlot:
    """The panel's chat model, loaded lazily for a `ModelKey`: by the answer job on the
    panel's model thread, or ahead of the first question by `preload_job` (the model's own
    lock makes an answer wait for a load that is under way)."""

    def __init__(self) -> None:
        self.key: ModelKey | None = None
        self.llm: LlamaChat | None = None
        self._lock = threading.Lock()

    def get(self, key: ModelKey) -> LlamaChat:
        """The model for `key`; a different key drops the old one first."""
        with self._lock:
            if self.llm is None or self.key != key:
                self._release()
                path, threads, n_ctx, max_tokens = key
                self.llm = LlamaChat(path, n_ctx=n_ctx, threads=threads, max_tokens=max_tokens)
                self.key = key
            return self.llm

    def holds(self, key: ModelKey) -> bool:
        """The model for `key` is loaded."""
        llm = self.llm
        return llm is not None and self.key == key and llm.loaded

    def release(self, keep: ModelKey | None = None) -> None:
        """Free the model (not if it is the one for `keep`)."""
        with self._lock:
            if keep is None or self.key != keep:
                self._release()

    def _release(self) -> None:
        if self.llm is not None:
            self.llm.close()
        self.llm, self.key = None, None


def preload_job(
    host: ServiceHost, slot: ModelSlot, key: ModelKey, language: str
) -> Callable[[Job], bool]:
    """A job that loads the chat model for `key` ahead of the first question and reads the
    answer prompts' beginnings (`answer_prefixes`), each kept; whether it loaded. A model
    that cannot load is left for the question to report."""

    def ahead(mn: Mindnet) -> list[str]:
        mn.note_vectors()  # a DECISION question's injected notes are chosen by them
        return answer_prefixes(mn, language)

    def preload(job: Job) -> bool:
        prefixes = host.call(job, ahead)
        try:
            for prefix in prefixes:  # a question asked meanwhile waits for one at most
                if job.cancelled():
                    return False
                slot.get(key).prime(prefix)
        except ModelError:
            return False  # the first question says why (and still shows its sources)
        return True

    return preload


def answer_job(
    host: ServiceHost,
    slot: ModelSlot,
    key: ModelKey,
    question: str,
    history: list[dict[str, str]],
    cancel: threading.Event,
    language: str | None = None,
    expansion: str | None = None,
) -> Callable[[Job], Generator[Any, None, Answered]]:
    """A job for the panel's model thread that answers `question`: yields `Phase` items,
    the `Routing` when keywords or examples decide it, `SourcesReady` and `Token`s; returns
    `Answered`.
    Routing, retrieval and the log run on the service thread (`host.call`); loading the
    model and streaming the answer do not hold it, so the graph, the preview and the thumbs
    stay usable meanwhile. A model that cannot load still gives the sources, with `error`
    set. With ask-time `expansion` (None: the config's) the model rewrites the question
    first, so it is loaded before the sources are searched."""

    def found(mn: Mindnet, llm: LlamaChat | None, mode: str) -> Prepared:
        prepared = retrieve(mn, question, llm, None, language, mode)
        log_sources(mn, prepared)  # before the answer: thumbs on a source work at once
        return prepared

    def answer(job: Job) -> Generator[Any, None, Answered]:
        llm: LlamaChat | None = slot.get(key)
        error = None
        early = host.call(job, lambda mn: route_question(mn, question))  # no model call
        if early.source in ("keyword", "embedding"):
            yield early  # ask routes the same way; the badge need not wait for the answer
        mode = host.call(job, lambda mn: expansion_mode(mn, expansion))
        loaded = llm is not None and llm.loaded
        if mode != "none" and llm is not None and not loaded:  # the rewrite needs it
            yield Phase("loading")
            try:
                llm.warm_up()
                loaded = True
            except ModelError as exc:  # the sources come without the rewrite, as without it
                error, llm = str(exc), None
        yield Phase("thinking")
        # Without expansion the sources come before the model is loaded: on the first
        # question loading takes longer than retrieval, and the user reads them meanwhile.
        prepared = host.call(job, lambda mn: found(mn, llm if loaded else None, mode))
        ready = prepared.result
        yield SourcesReady(replace(ready, sources=list(ready.sources), stages=dict(ready.stages)))
        if llm is not None and not llm.loaded and not prepared.result.not_found:
            yield Phase("loading")
            try:
                llm.warm_up()
            except ModelError as exc:
                error, llm = str(exc), None
        model = llm
        prepared = host.call(job, lambda mn: pack(mn, prepared, model, history))
        if prepared.messages is not None:
            yield Phase("reading", len(prepared.result.sources))
        yield from generate(prepared, llm, cancel)
        result, vault_name = host.call(job, lambda mn: (finish(mn, prepared), mn.vault.name))
        if error and not result.error:
            result.error = error
        return Answered(result, vault_name)

    return answer


def release_model(job: Job, slot: ModelSlot, keep: ModelKey) -> None:
    """Free the loaded model unless it is the one for `keep` (run on the model thread, so
    never under an answer that uses it)."""
    slot.release(keep)


def rate(mn: Mindnet, job: Job, query_id: str, node_id: str, rating: str) -> dict[str, Any]:
    """Write a thumb (`up`, `down` or `clear`) on a source of an answer to the feedback log."""
    return record_feedback(mn, query_id, node_id, rating)  # type: ignore[arg-type]
