"""Ask a question: the answer's seven stages in order, each timed into the answer's record
(`AskResult.stages`, `ask --json` `stages`):

    route → retrieve → choose evidence → pack → generate → align → check

The first four read the vault (`stages.py`), the last three only the model
(`chat/stages.py`). A front end runs them in three steps, so that it can show the evidence
before the model is loaded and stream the answer without holding the vault: `retrieve`
(route, retrieve, choose evidence), `pack`, then `chat.answer.generate` (generate, align,
check); `finish` logs the answer. `ask` runs all of them, as `mindnet ask` does."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from typing import Protocol

from mindnet_desktop.core.chat.answer import AskResult, Prepared, generate, record, result_of
from mindnet_desktop.core.chat.grounding import LANGUAGE_NAMES
from mindnet_desktop.core.chat.packing import NOTES_HEADER
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.chat.stages import Question, timed
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.service.ask import stages
from mindnet_desktop.core.service.ask.stages import PackVault, system_prompt
from mindnet_desktop.core.service.search.hybrid import LoggedVault, SearchVault, log_ranked
from mindnet_desktop.core.service.search.routing import VaultSettings


class AskVault(SearchVault, PackVault, Protocol):
    """What asking reads of an open vault (`Mindnet`): what a search reads, and the notes'
    files the answer is checked against."""


# `expand` was defined here before the stages had a module of their own; the bench imports it.
expand = stages.expand


def retrieve(
    mn: SearchVault,
    question: str,
    llm: LlamaChat | None = None,
    k: int | None = None,
    language: str | None = None,
    expansion: str | None = None,
) -> Prepared:
    """Route `question`, retrieve its sources (facts first) and choose the evidence among
    their sentences; `evidence_seconds` says how long after the question it was ready.
    Nothing is packed: the app shows the evidence and the sources while the model loads.

    `llm`: only to classify when the routing asks for it, and to rewrite the question under
    `expansion` (none, keywords, answer; None: `prompts.yaml`'s); without one the rewrite is
    skipped (`result.expansion.skipped` says so), never an error. `language`: of the
    sources' reasons (None: the system's)."""
    asked_at = time.perf_counter()
    seconds: dict[str, float] = {}
    with timed(seconds, "route"):
        routed = stages.route(mn, Question(question, k, language, expansion), llm)
    with timed(seconds, "retrieve"):
        retrieved = stages.retrieve(mn, routed, llm)
    with timed(seconds, "evidence"):
        chosen = stages.choose_evidence(mn, retrieved)
    result = result_of(chosen)
    result.stages.update(seconds)
    result.evidence_seconds = round(time.perf_counter() - asked_at, 3)
    return Prepared(result, chosen=chosen)


def pack(
    mn: PackVault,
    prepared: Prepared,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
) -> Prepared:
    """Pack the model's messages for a retrieved question (`stages.pack`): `result.sources`
    become the sources that fit, numbered as the model reads them. Without a model nothing
    is packed; a question found in no note gets its "not found" answer."""
    if prepared.chosen is None:
        raise ValueError("pack a question retrieved by `retrieve`")
    result = prepared.result
    with timed(result.stages, "pack"):
        packed = stages.pack(mn, prepared.chosen, llm, history)
    record(result, packed)
    return Prepared(result, prepared.chosen, packed)


def prepare(
    mn: AskVault,
    question: str,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
    k: int | None = None,
    language: str | None = None,
    expansion: str | None = None,
) -> Prepared:
    """`retrieve`, then `pack`: an answer ready to be generated."""
    return pack(mn, retrieve(mn, question, llm, k, language, expansion), llm, history)


def ask(
    mn: AskVault,
    question: str,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
    k: int | None = None,
    cancel: threading.Event | None = None,
    language: str | None = None,
    expansion: str | None = None,
) -> Generator[Token, None, AskResult]:
    """Answer `question`, yielding tokens as they come; returns the result (with sources
    even when the model is missing or fails, then with `error` set). `llm=None` retrieves
    only. `expansion`: as `retrieve`."""
    prepared = prepare(mn, question, llm, history, k, language, expansion)
    yield from generate(prepared, llm, cancel)
    return finish(mn, prepared)


def log_sources(mn: LoggedVault, prepared: Prepared) -> None:
    """Log the question and its sources before the answer is written, so that thumbs on a
    source can be recorded while the answer streams; `finish` completes the entry."""
    r = prepared.result
    log_ranked(mn.query_log, r.query_id, r.question, r.routing, r.sources, r.model, "")


def finish(mn: LoggedVault, prepared: Prepared) -> AskResult:
    """Log the question, its sources and the answer; the result."""
    r = prepared.result
    log_ranked(mn.query_log, r.query_id, r.question, r.routing, r.sources, r.model, r.answer)
    return r


def expansion_mode(mn: VaultSettings, override: str | None = None) -> str:
    """The expansion an `ask` uses: `override` (`--expand`, the app's setting), else the
    configured one (`prompts.yaml` `expansion`)."""
    return override or load_prompts(mn.config_lookup).expansion


def answer_prefix(mn: VaultSettings, language: str, intent: str = "FACT") -> str:
    """How the model's prompt for an `intent` answer in `language` begins, up to its
    sources: what `LlamaChat.prime` reads ahead of the first question."""
    return system_prompt(mn, language, intent) + NOTES_HEADER


READ_AHEAD = ("FACT", "DECISION")  # the intents whose prompts the app reads ahead


def answer_prefixes(mn: VaultSettings, language: str) -> list[str]:
    """The answer prompts' beginnings the app reads ahead once a vault is open, the likeliest
    first: a FACT answer in `language`, then in the other language, then DECISION answers;
    each is kept (`LlamaChat.prefixes`), so that a question in either language reads only
    its sources and itself."""
    order = [language, *(x for x in LANGUAGE_NAMES if x != language)]  # the prompts' languages
    found = [answer_prefix(mn, lang, intent) for intent in READ_AHEAD for lang in order]
    return list(dict.fromkeys(found))
