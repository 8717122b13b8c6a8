"""Ask a question: route, retrieve (hybrid, explained), pack the best sources into the
model's context, stream a cited answer, log it."""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from dataclasses import replace
from typing import Protocol

from mindnet_desktop.core.chat.answer import (
    NOTES_HEADER,
    AskResult,
    Prepared,
    Prompts,
    generate,
    load_prompts,
    pack_messages,
)
from mindnet_desktop.core.chat.evidence import Evidence, Source, choose_evidence
from mindnet_desktop.core.chat.excerpt import excerpts
from mindnet_desktop.core.chat.grounding import (
    LANGUAGE_NAMES,
    NOT_FOUND,
    detect_language,
    relevant_enough,
)
from mindnet_desktop.core.chat.intent import model_classifier
from mindnet_desktop.core.chat.rewrite import Expansion, rewrite
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.ask.expansion import DEPTH, expanded_facts
from mindnet_desktop.core.service.notes.text import NoteFiles, note_body
from mindnet_desktop.core.service.search.hybrid import (
    LoggedVault,
    SearchVault,
    hybrid_search,
    log_ranked,
)
from mindnet_desktop.core.service.search.routing import VaultSettings, route_question


def prepare(
    mn: SearchVault,
    question: str,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
    k: int | None = None,
    language: str | None = None,
    expansion: str | None = None,
) -> Prepared:
    """Route `question`, retrieve its sources (one per note) and pack the model's messages
    (`retrieve`, then `pack`). Uses the service; the model only to classify, to rewrite
    the question when `expansion` asks for it, and to count tokens."""
    return pack(mn, retrieve(mn, question, llm, k, language, expansion), llm, history)


def retrieve(
    mn: SearchVault,
    question: str,
    llm: LlamaChat | None = None,
    k: int | None = None,
    language: str | None = None,
    expansion: str | None = None,
) -> Prepared:
    """Route `question` (the model only when the routing asks it to classify) and retrieve
    its sources, facts first; `not_found` when none is close enough. Nothing is packed: the
    app shows these sources while the model loads.

    `expansion` (none, keywords, answer; None: `prompts.yaml`'s): the model first rewrites
    the question, and the sources are ranked for both (`expansion.py`). Without a model the
    expansion is skipped (`result.expansion.skipped` says so), never an error."""
    asked_at = time.perf_counter()
    prompts = load_prompts(mn.config_lookup)
    error: str | None = None
    classify = model_classifier(llm, prompts.classify) if llm is not None else None
    try:
        routing = route_question(mn, question, classify)
    except ModelError as exc:
        routing, error = route_question(mn, question), str(exc)
    asked = detect_language(question, default=language or "en")
    expanded = expand(llm, question, expansion or prompts.expansion, prompts, asked)
    k = k or prompts.sources or mn.retriever.config.k
    # One hit per note: five chunks of one note would crowd out the other sources. Fused
    # with a rewrite, each ranking reads as deep as the measured fusion did.
    found = hybrid_search(
        mn,
        question,
        max(k, DEPTH) if expanded.used else k,
        language=language,
        routing=routing,
        log=False,
        per_note=True,
    )
    facts = [h for h in found.hits if not h.injected]
    # Whether the notes hold an answer is the question's own measure, whatever a rewrite adds.
    relevant = relevant_enough(facts[:k], prompts.min_similarity.get(mn.embedder.name, 0.0))
    if expanded.used:
        facts = expanded_facts(mn, facts, expanded.text, k, routing, language)
    ordered = facts + [h for h in found.hits if h.injected]
    prepared = Prepared(AskResult(found.query_id, question, routing, sources=ordered))
    result = prepared.result
    result.language = asked
    # Nothing close enough to a FACT question: say so rather than let the model build on
    # unrelated notes.
    result.not_found = routing.intent == "FACT" and not relevant
    result.error = error
    result.expansion = expanded
    if not result.not_found:
        result.evidence = evidence_of(mn, question, facts)
    result.evidence_seconds = round(time.perf_counter() - asked_at, 3)
    return prepared


def evidence_of(mn: SearchVault, question: str, facts: list[ScoredHit]) -> list[Evidence]:
    """The evidence sentences of `facts` (the sources, citation n = fact n) for `question`,
    their `start`/`end` moved from the chunk's text into the note's body (a `.ctxt` note's
    chunks have no place in a body: theirs stay in the chunk's text)."""
    sources = [Source(h.note_id, h.node_id, h.text) for h in facts]
    chosen = choose_evidence(question, sources, mn.embedder)
    rows = mn.retriever.store.chunk_rows(sorted({e.chunk_id for e in chosen}))
    moved = []
    for e in chosen:
        row = rows.get(e.chunk_id)
        at = row.chunk.start if row is not None else 0
        moved.append(replace(e, start=e.start + at, end=e.end + at))
    return moved


def renumber_evidence(evidence: list[Evidence], sources: list[ScoredHit]) -> list[Evidence]:
    """`evidence` cited by the sources' numbers after packing (a source left out of the
    prompt takes its evidence with it)."""
    number = {h.node_id: n for n, h in enumerate(sources, 1)}
    return [replace(e, citation=number[e.chunk_id]) for e in evidence if e.chunk_id in number]


def expand(
    llm: LlamaChat | None, question: str, mode: str, prompts: Prompts, language: str
) -> Expansion:
    """The question's rewrite under `mode` in its `language` (`Expansion()` for none)."""
    if mode == "none":
        return Expansion()
    return rewrite(llm, question, mode, prompts.expansion_prompt(mode, language))


def expansion_mode(mn: VaultSettings, override: str | None = None) -> str:
    """The expansion an `ask` uses: `override` (`--expand`, the app's setting), else the
    configured one (`prompts.yaml` `expansion`)."""
    return override or load_prompts(mn.config_lookup).expansion


class PackVault(VaultSettings, NoteFiles, Protocol):
    """What packing an answer reads of an open vault (`Mindnet`): the settings, and the notes'
    files (the answer's claims are checked against the sources' whole notes)."""


def pack(
    mn: PackVault,
    prepared: Prepared,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
) -> Prepared:
    """Pack the model's messages for a retrieved question: the strategy's prompt in the
    question's language, the sources that fit (`result.sources` becomes those). A question
    found in no note gets its "not found" answer instead, without the model."""
    result = prepared.result
    if llm is None:
        return prepared
    if result.not_found:
        result.answer, result.model = NOT_FOUND[result.language], llm.name
        return prepared
    if result.error is None:
        system = system_prompt(mn, result.language, result.routing.intent)
        prompts = load_prompts(mn.config_lookup)
        budget = prompts.context_tokens
        prepared.verify = prompts.verify
        try:
            texts = None
            if budget is not None:
                # The model reads the evidence the user sees first, then what else fits.
                texts = excerpts(
                    result.question,
                    [h.text for h in result.sources],
                    budget,
                    llm.count_tokens,
                    mn.embedder,
                    [(e.citation - 1, e.sentence) for e in result.evidence],
                )
            prepared.messages, used = pack_messages(
                llm, system, result.sources, result.question, history or [], texts
            )
            if texts is not None and texts != [h.text for h in result.sources]:
                read = {id(hit): text for hit, text in zip(result.sources, texts, strict=True)}
                result.excerpts = [read[id(hit)] for hit in used]
            result.sources = used
            prepared.notes = notes_of(mn, used)
            result.prompt_tokens = sum(llm.count_tokens(m["content"]) for m in prepared.messages)
            result.evidence = renumber_evidence(result.evidence, used)
            result.model = llm.name
        except ModelError as exc:
            result.error = str(exc)
    return prepared


def notes_of(mn: NoteFiles, sources: list[ScoredHit]) -> list[str]:
    """The whole note of each source (its chunk's text where the note cannot be read): what
    an answer's claims are checked against. The model reads excerpts, but a claim a source's
    note states elsewhere is still in the user's notes (on the dev half of answers.yaml,
    checked against excerpts alone 1 of 20 right answers was withheld and 3 marked; against
    the notes none, with the same 4 of 7 unanswerable questions told)."""
    texts = []
    for hit in sources:
        try:
            texts.append(note_body(mn, hit.note_id))
        except (KeyError, OSError, UnicodeDecodeError):
            texts.append(hit.text)
    return texts


def system_prompt(mn: VaultSettings, language: str, intent: str) -> str:
    """The system prompt of an `intent` answer in `language` (the sources follow it)."""
    prompts = load_prompts(mn.config_lookup)
    name = mn.decision_engine.strategies[intent].prompt
    system = prompts.localized.get(language, {}).get(name) or prompts.strategies[name]
    example = prompts.examples.get(language) if name == "fact" else None
    if example:  # shown in the question's language: small models copy its form and language
        system = f"{system}\n{example}"
    # Small models drift into the notes' language; name the question's language.
    return f"{system}\nAnswer in {LANGUAGE_NAMES[language]}."


def answer_prefix(mn: VaultSettings, language: str, intent: str = "FACT") -> str:
    """How the model's prompt for an `intent` answer in `language` begins, up to its
    sources: what `LlamaChat.prime` reads ahead of the first question."""
    return system_prompt(mn, language, intent) + NOTES_HEADER


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


def ask(
    mn: SearchVault,
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
