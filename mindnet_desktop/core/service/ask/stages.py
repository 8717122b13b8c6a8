"""The stages of an answer that read the vault, in the order they run: `route` the question,
`retrieve` its sources, `choose_evidence` among their sentences, `pack` them into the
model's messages. Each takes and returns frozen dataclasses (`chat/stages.py`, which also
holds the three stages after them: generate, align, check); `pipeline.py` runs all seven.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from mindnet_desktop.core.chat.evidence import Evidence, Source
from mindnet_desktop.core.chat.evidence import choose_evidence as best_sentences
from mindnet_desktop.core.chat.excerpt import excerpts
from mindnet_desktop.core.chat.grounding import (
    LANGUAGE_NAMES,
    NOT_FOUND,
    detect_language,
    relevant_enough,
)
from mindnet_desktop.core.chat.intent import model_classifier
from mindnet_desktop.core.chat.packing import NOTES_HEADER, pack_messages
from mindnet_desktop.core.chat.prompts import Prompts, load_prompts
from mindnet_desktop.core.chat.rewrite import Expansion, rewrite
from mindnet_desktop.core.chat.stages import Packed, Question, Retrieved, Routed, WithEvidence
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.ask.expansion import DEPTH, expanded_facts
from mindnet_desktop.core.service.notes.text import NoteFiles, note_body
from mindnet_desktop.core.service.search.hybrid import SearchVault, hybrid_search
from mindnet_desktop.core.service.search.routing import VaultSettings, route_question


def route(mn: VaultSettings, question: Question, llm: LlamaChat | None = None) -> Routed:
    """The question's intent (the model only when the routing asks it to classify; a model
    that fails leaves the routing without it, with `error` set) and its language."""
    prompts = load_prompts(mn.config_lookup)
    error: str | None = None
    classify = model_classifier(llm, prompts.classify) if llm is not None else None
    try:
        routing = route_question(mn, question.text, classify)
    except ModelError as exc:
        routing, error = route_question(mn, question.text), str(exc)
    language = detect_language(question.text, default=question.language or "en")
    return Routed(question, prompts, routing, language, error)


def retrieve(mn: SearchVault, routed: Routed, llm: LlamaChat | None = None) -> Retrieved:
    """The question's sources, one per note, facts first; `not_found` when no fact is close
    enough to a FACT question.

    With ask-time expansion (`Question.expansion`, else `prompts.yaml`'s) the model first
    rewrites the question, and the facts are ranked for both (`expansion.py`). Without a
    model the expansion is skipped (`Expansion.skipped` says so), never an error."""
    question, prompts = routed.question, routed.prompts
    mode = question.expansion or prompts.expansion
    expanded = expand(llm, question.text, mode, prompts, routed.language)
    k = question.k or prompts.sources or mn.retriever.config.k
    # One hit per note: five chunks of one note would crowd out the other sources. Fused
    # with a rewrite, each ranking reads as deep as the measured fusion did.
    found = hybrid_search(
        mn,
        question.text,
        max(k, DEPTH) if expanded.used else k,
        language=question.language,
        routing=routed.routing,
        log=False,
        per_note=True,
    )
    facts = [h for h in found.hits if not h.injected]
    # Whether the notes hold an answer is the question's own measure, whatever a rewrite adds.
    relevant = relevant_enough(facts[:k], prompts.min_similarity.get(mn.embedder.name, 0.0))
    if expanded.used:
        facts = expanded_facts(mn, facts, expanded.text, k, routed.routing, question.language)
    injected = tuple(h for h in found.hits if h.injected)
    # Nothing close enough to a FACT question: say so rather than let the model build on
    # unrelated notes.
    not_found = routed.routing.intent == "FACT" and not relevant
    return Retrieved(routed, found.query_id, tuple(facts), injected, not_found, expanded)


def expand(
    llm: LlamaChat | None, question: str, mode: str, prompts: Prompts, language: str
) -> Expansion:
    """The question's rewrite under `mode` in its `language` (`Expansion()` for none)."""
    if mode == "none":
        return Expansion()
    return rewrite(llm, question, mode, prompts.expansion_prompt(mode, language))


def choose_evidence(mn: SearchVault, retrieved: Retrieved) -> WithEvidence:
    """The sentences of the facts that best answer the question (none when it is not found
    in the notes)."""
    if retrieved.not_found:
        return WithEvidence(retrieved, ())
    question = retrieved.routed.question.text
    return WithEvidence(retrieved, tuple(evidence_of(mn, question, list(retrieved.facts))))


def evidence_of(mn: SearchVault, question: str, facts: list[ScoredHit]) -> list[Evidence]:
    """The evidence sentences of `facts` (the sources, citation n = fact n) for `question`,
    their `start`/`end` moved from the chunk's text into the note's body (a `.ctxt` note's
    chunks have no place in a body: theirs stay in the chunk's text)."""
    sources = [Source(h.note_id, h.node_id, h.text) for h in facts]
    chosen = best_sentences(question, sources, mn.embedder)
    rows = mn.retriever.store.chunk_rows(sorted({e.chunk_id for e in chosen}))
    moved = []
    for e in chosen:
        row = rows.get(e.chunk_id)
        at = row.chunk.start if row is not None else 0
        moved.append(replace(e, start=e.start + at, end=e.end + at))
    return moved


class PackVault(VaultSettings, NoteFiles, Protocol):
    """What packing an answer reads of an open vault (`Mindnet`): the settings, and the notes'
    files (the answer's claims are checked against the sources' whole notes)."""


def pack(
    mn: PackVault,
    chosen: WithEvidence,
    llm: LlamaChat | None,
    history: list[dict[str, str]] | None = None,
) -> Packed:
    """The model's messages: the strategy's prompt in the question's language, then the
    sources that fit (the evidence first, then as much of each as `context_tokens` allows),
    the sources renumbered as the model reads them. Without a model nothing is packed; a
    question found in no note gets its "not found" answer instead, without the model."""
    retrieved = chosen.retrieved
    routed = retrieved.routed
    question, intent, language = routed.question.text, routed.routing.intent, routed.language
    unpacked = Packed(
        question,
        intent,
        language,
        retrieved.sources,
        chosen.evidence,
        not_found=retrieved.not_found,
        error=routed.error,
    )
    if llm is None:
        return unpacked
    if retrieved.not_found:
        return replace(unpacked, answer=NOT_FOUND[language], model=llm.name)
    if routed.error is not None:
        return unpacked
    verify = routed.prompts.verify
    sources = list(retrieved.sources)
    try:
        system = system_prompt(mn, language, intent, routed.prompts)
        budget = routed.prompts.context_tokens
        texts = None
        if budget is not None:
            # The model reads the evidence the user sees first, then what else fits.
            texts = excerpts(
                question,
                [h.text for h in sources],
                budget,
                llm.count_tokens,
                mn.embedder,
                [(e.citation - 1, e.sentence) for e in chosen.evidence],
            )
        messages, used = pack_messages(llm, system, sources, question, history or [], texts)
        read = None
        if texts is not None and texts != [h.text for h in sources]:
            by_hit = {id(hit): text for hit, text in zip(sources, texts, strict=True)}
            read = tuple(by_hit[id(hit)] for hit in used)
        return replace(
            unpacked,
            sources=tuple(used),
            evidence=tuple(renumber_evidence(list(chosen.evidence), used)),
            messages=tuple(messages),
            prefix=system + NOTES_HEADER,
            excerpts=read,
            notes=tuple(notes_of(mn, used)),
            verify=verify,
            prompt_tokens=sum(llm.count_tokens(m["content"]) for m in messages),
            model=llm.name,
        )
    except ModelError as exc:
        return replace(unpacked, verify=verify, error=str(exc))


def renumber_evidence(evidence: list[Evidence], sources: list[ScoredHit]) -> list[Evidence]:
    """`evidence` cited by the sources' numbers after packing (a source left out of the
    prompt takes its evidence with it)."""
    number = {h.node_id: n for n, h in enumerate(sources, 1)}
    return [replace(e, citation=number[e.chunk_id]) for e in evidence if e.chunk_id in number]


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


def system_prompt(
    mn: VaultSettings, language: str, intent: str, prompts: Prompts | None = None
) -> str:
    """The system prompt of an `intent` answer in `language` (the sources follow it), from
    `prompts` (None: the vault's `prompts.yaml`)."""
    prompts = prompts or load_prompts(mn.config_lookup)
    name = mn.decision_engine.strategies[intent].prompt
    system = prompts.localized.get(language, {}).get(name) or prompts.strategies[name]
    example = prompts.examples.get(language) if name == "fact" else None
    if example:  # shown in the question's language: small models copy its form and language
        system = f"{system}\n{example}"
    # Small models drift into the notes' language; name the question's language.
    return f"{system}\nAnswer in {LANGUAGE_NAMES[language]}."
