"""The answer's parts that need no service: prompts, packing the sources into the model's
context, streaming a cited answer. `service/ask/pipeline.py` puts them together with retrieval."""

from __future__ import annotations

import re
import threading
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mindnet_desktop.core.chat.align import Alignment, align_citations
from mindnet_desktop.core.chat.evidence import Evidence
from mindnet_desktop.core.chat.grounding import (
    NOT_FOUND,
    CitationCheck,
    check_citations,
    in_language,
    missing_citation,
    says_not_found,
    unsupported_figures,
)
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.chat.rewrite import EXPANSIONS, MAX_TOKENS, Expansion
from mindnet_desktop.core.chat.verify import Verification, verify
from mindnet_desktop.core.config.type_registry import (
    DEFAULT_TYPE,
    ConfigError,
    bundled_config_dir,
    config_file,
    load_yaml,
    mapping,
)
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit

STRATEGY_PROMPTS = ("fact", "decision", "empathy", "coding")
MAX_HISTORY_TURNS = 6
NOTES_HEADER = "\n\nNotes:\n\n"  # between the strategy's prompt and the sources
CITATION = re.compile(r"\[\d+\]")
SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
WORD = re.compile(r"\w{4,}")
MIN_SENTENCE_WORDS = 3
MIN_OVERLAP = 0.5  # share of a sentence's words that must come from one source
MIN_SOURCE_TOKENS = 48  # a source cut shorter than this is left out


class Citer:
    """Adds a citation to a finished sentence that cites nothing but clearly draws on one
    source (most of its words are in it): small models often forget to cite. The stream
    stays token by token; the citation goes into the token that ends the sentence (after
    the full stop, or before the line break)."""

    def __init__(self, sources: list[ScoredHit]) -> None:
        self.words = [set(WORD.findall(h.text.casefold())) for h in sources]
        self.sentence = ""
        self.pending = ""  # a citation waiting for the next piece (is it the model's own?)
        self.added = 0

    def cite(self, sentence: str) -> str:
        words = set(WORD.findall(sentence.casefold()))
        if CITATION.search(sentence) or len(words) < MIN_SENTENCE_WORDS or not self.words:
            return ""
        overlap = [len(words & source) / len(words) for source in self.words]
        best = max(range(len(overlap)), key=lambda i: overlap[i])
        if overlap[best] < MIN_OVERLAP:
            return ""
        return f" [{best + 1}]"

    def feed(self, text: str) -> str:
        """`text` (a streamed piece of the answer), with a citation inserted if it ends a
        sentence that needs one. A citation the model writes itself right after the full
        stop ("… ms. [1]") counts: the decision waits for the next word when needed."""
        if self.pending:
            if not text.strip():
                return text
            cited, self.pending = self.pending, ""
            if not text.lstrip().startswith("["):  # not the model's own citation
                text = cited.strip() + (text if text[0].isspace() else " " + text)
                self.added += 1
        combined = self.sentence + text
        ends = list(SENTENCE_END.finditer(combined))
        if not ends:
            self.sentence = combined
            return text
        end = ends[-1]
        done, self.sentence = combined[: end.end()], combined[end.end() :]
        cited = self.cite(done)
        if not cited:
            return text
        if end.group() != "\n":
            after = self.sentence.lstrip()
            if after.startswith("["):  # the model cites it itself
                return text
            if not after:  # nothing after the full stop yet: decide on the next piece
                self.pending = cited
                return text
        at = (end.start() if end.group() == "\n" else end.end()) - (len(combined) - len(text))
        at = max(at, 0)
        self.added += 1
        return text[:at] + cited + text[at:]

    def flush(self) -> str:
        rest, self.sentence = self.sentence, ""
        pending, self.pending = self.pending, ""
        cited = pending.strip() if pending else self.cite(rest)
        self.added += bool(cited)
        return cited


@dataclass(frozen=True)
class Prompts:
    classify: str
    strategies: dict[str, str]
    # Per embedder (cosines spread differently): no fact source this close to the question
    # gives "not found in your notes"; an embedder not listed has no cut-off.
    min_similarity: dict[str, float] = field(default_factory=dict)
    # Sources an answer reads when the caller gives no k (None: the retriever's k).
    sources: int | None = None
    # Tokens of the sources' text the model reads (excerpts of the sentences that bear on
    # the question; None: whole sources, as many as the context holds).
    context_tokens: int | None = None
    # The second look after an answer (`verify.py`): None: not asked; else the log-odds
    # below which an answer counts as not backed by the notes (per check; None: only
    # measured).
    verify: dict[str, float | None] | None = None
    # An example answer per language (de, en), added to the FACT prompt of that language.
    examples: dict[str, str] = field(default_factory=dict)
    # A strategy's prompt written in a question's language (de: {fact: …}), used instead of
    # the English one for questions in that language.
    localized: dict[str, dict[str, str]] = field(default_factory=dict)
    # Ask-time expansion (`rewrite.py`): none, keywords or answer, and the rewrite's system
    # prompt per mode and language ({keywords: {en: …, de: …}, answer: …}).
    expansion: str = "none"
    expansion_prompts: dict[str, dict[str, str]] = field(default_factory=dict)

    def expansion_prompt(self, mode: str, language: str) -> str:
        """The rewrite's system prompt for `mode` in `language` (else the English one)."""
        per_language = self.expansion_prompts[mode]
        return per_language.get(language) or per_language["en"]


def _expansion_prompts(path: Path, data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """`expansion_prompts` of a prompts file; a file written before expansion existed (an
    override in the config dir) takes the bundled file's."""
    raw = data.get("expansion_prompts")
    if raw is None:
        bundled = bundled_config_dir() / "prompts.yaml"
        if path.resolve() == bundled.resolve():
            raise ConfigError(path, "expansion_prompts", "keywords / answer: {en: prompt, …}")
        return _expansion_prompts(bundled, load_yaml(bundled))
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(mode), dict)
        and isinstance(raw[mode].get("en"), str)
        and all(isinstance(t, str) and t.strip() for t in raw[mode].values())
        for mode in MAX_TOKENS
    ):
        raise ConfigError(
            path, "expansion_prompts", "keywords / answer: {en: prompt, de: prompt}", raw
        )
    return {mode: {str(lang): t.strip() for lang, t in raw[mode].items()} for mode in MAX_TOKENS}


def load_prompts(config_dir: Path | None = None) -> Prompts:
    path = config_file("prompts.yaml", config_dir)
    data = load_yaml(path)
    classify = data.get("classify")
    if not isinstance(classify, str) or not classify.strip():
        raise ConfigError(path, "classify", "the classification prompt (text)", classify)
    raw = mapping(path, "strategies", data.get("strategies"))
    for name in STRATEGY_PROMPTS:
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise ConfigError(path, f"strategies.{name}", "a system prompt (text)", raw.get(name))
    cut = data.get("min_similarity") or {}
    if not isinstance(cut, dict) or not all(
        isinstance(v, (int, float)) and 0.0 <= v < 1.0 for v in cut.values()
    ):
        raise ConfigError(path, "min_similarity", "embedder: a cosine between 0 and 1", cut)
    sources = data.get("sources")
    if sources is not None and (not isinstance(sources, int) or sources < 1):
        raise ConfigError(path, "sources", "a positive number of sources", sources)
    budget = data.get("context_tokens")
    if budget is not None and (not isinstance(budget, int) or budget < MIN_SOURCE_TOKENS):
        raise ConfigError(
            path, "context_tokens", f"a number of tokens of at least {MIN_SOURCE_TOKENS}", budget
        )
    checks = data.get("verify")
    if checks is not None and not (
        isinstance(checks, dict)
        and set(checks) <= {"answer", "question"}
        and all(v is None or isinstance(v, (int, float)) for v in checks.values())
    ):
        raise ConfigError(path, "verify", "answer / question: a log-odds cut-off or null", checks)
    examples = data.get("examples") or {}
    if not isinstance(examples, dict) or not all(isinstance(v, str) for v in examples.values()):
        raise ConfigError(path, "examples", "language: an example answer (text)", examples)
    by_language = data.get("strategies_by_language") or {}
    if not isinstance(by_language, dict) or not all(
        isinstance(v, dict) and all(isinstance(t, str) for t in v.values())
        for v in by_language.values()
    ):
        raise ConfigError(
            path, "strategies_by_language", "language: {strategy: prompt}", by_language
        )
    strategies = {k: str(v).strip() for k, v in raw.items()}
    cuts = {str(k): float(v) for k, v in cut.items()}
    shown = {str(k): v.strip() for k, v in examples.items()}
    localized = {
        str(lang): {str(k): t.strip() for k, t in v.items()} for lang, v in by_language.items()
    }
    expansion = data.get("expansion", "none")
    if expansion not in EXPANSIONS:
        raise ConfigError(path, "expansion", " | ".join(EXPANSIONS), expansion)
    return Prompts(
        classify.strip(),
        strategies,
        cuts,
        sources,
        budget,
        checks,
        shown,
        localized,
        expansion,
        _expansion_prompts(path, data),
    )


@dataclass
class AskResult:
    """The `ask --json` schema."""

    query_id: str
    question: str
    routing: Routing
    answer: str = ""
    sources: list[ScoredHit] = field(default_factory=list)
    model: str | None = None
    error: str | None = None
    cancelled: bool = False
    language: str | None = None  # of the question, which the answer follows
    not_found: bool = False  # no source relevant enough, or the model said so
    citation_checks: list[CitationCheck] = field(default_factory=list)
    # Figures the answer states that no source (nor the question) holds: likely made up.
    unsupported_figures: list[str] = field(default_factory=list)
    # What the model read of each source (its excerpt), when it did not read them whole.
    excerpts: list[str] | None = None
    # The second look (None: not asked) and whether it found the answer not backed.
    verification: Verification | None = None
    unsupported_answer: bool = False
    # What the model wrote when the second look withheld it (the answer is then "not found").
    draft_answer: str | None = None
    repaired_citation: int | None = None  # a citation added after the answer (1-based)
    # The question's rewrite (ask-time expansion) and what it cost, apart from retrieval.
    expansion: Expansion = field(default_factory=Expansion)
    # The sentences that best answer the question, chosen before the model (`evidence.py`),
    # and how long after the question they were ready.
    evidence: list[Evidence] = field(default_factory=list)
    evidence_seconds: float | None = None
    # Each answer sentence aligned to the source sentence that supports it (`align.py`).
    alignments: list[Alignment] = field(default_factory=list)
    # The check that withheld the model's answer (alignment, verification; None: none).
    withheld: str | None = None
    # Tokens of the model's messages (what it reads before its first token; None: not packed).
    prompt_tokens: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "query_id": self.query_id,
            "query": self.question,
            "intent": self.routing.intent,
            "intent_source": self.routing.source,
            "answer": self.answer,
            "model": self.model,
            "error": self.error,
            "cancelled": self.cancelled,
            "sources": [
                {
                    "citation": n,
                    **h.to_dict(),
                    "excerpt": self.excerpts[n - 1] if self.excerpts else None,
                }
                for n, h in enumerate(self.sources, 1)
            ],
            "language": self.language,
            "not_found": self.not_found,
            "citation_checks": [c.to_dict() for c in self.citation_checks],
            "flagged_citations": sorted(
                {c.citation for c in self.citation_checks if not c.supported}
            ),
            "unsupported_figures": self.unsupported_figures,
            "verification": self.verification.to_dict() if self.verification else None,
            "unsupported_answer": self.unsupported_answer,
            "draft_answer": self.draft_answer,
            "withheld": self.withheld,
            "repaired_citation": self.repaired_citation,
            "expansion": self.expansion.to_dict(),
            "evidence": [e.to_dict() for e in self.evidence],
            "evidence_seconds": self.evidence_seconds,
            "alignments": [a.to_dict() for a in self.alignments],
            "prompt_tokens": self.prompt_tokens,
        }


def source_block(n: int, hit: ScoredHit, text: str | None = None) -> str:
    """Source `n` as the model reads it: its title, type (unless the fallback type, which
    says nothing) and headings, then `text` (an excerpt) or the hit's whole text."""
    details = [f"type {hit.type}"] if hit.type != DEFAULT_TYPE else []
    if len(hit.heading_path) > 1:
        details.append(" > ".join(hit.heading_path[1:]))
    head = f"[{n}] {hit.title}" + (f" ({', '.join(details)})" if details else "")
    return f"{head}\n{(hit.text if text is None else text).strip()}"


def _cut_to_fit(llm: LlamaChat, block: str, room: int) -> str:
    """The longest prefix of `block` (cut at a word) within `room` tokens, marked with …;
    empty when the room is too small to be useful."""
    if room < MIN_SOURCE_TOKENS:
        return ""
    low, high = 0, len(block)
    while low < high:  # binary search on characters: the largest prefix that fits
        mid = (low + high + 1) // 2
        if llm.count_tokens(block[:mid] + " …") <= room:
            low = mid
        else:
            high = mid - 1
    cut = block[:low].rsplit(" ", 1)[0]
    return cut + " …" if cut else ""


def pack_messages(
    llm: LlamaChat,
    system: str,
    hits: list[ScoredHit],
    question: str,
    history: list[dict[str, str]],
    texts: list[str] | None = None,
) -> tuple[list[dict[str, str]], list[ScoredHit]]:
    """Messages that fit the model's context: best sources first, never overflowing.

    Recent history is kept while it fits; sources are added in rank order (injected notes
    after the facts) until the budget is spent; the first one that does not fit whole is cut.
    `texts` (one per hit) are what the model reads of each source instead of its whole text
    (excerpts); a hit whose text is empty is left out.
    """
    budget = llm.prompt_budget
    question_msg = {"role": "user", "content": question}
    fixed = llm.count_tokens(system) + llm.count_tokens(question) + 32
    if fixed > budget:
        raise ModelError("The question is too long for the model's context size.")
    kept_history: list[dict[str, str]] = []
    for message in reversed(history[-2 * MAX_HISTORY_TURNS :]):
        cost = llm.count_tokens(message["content"]) + 8
        if fixed + cost > budget // 2:
            break
        kept_history.insert(0, message)
        fixed += cost
    used: list[ScoredHit] = []
    blocks: list[str] = []
    for i, hit in enumerate(hits):
        if texts is not None and not texts[i].strip():
            continue
        block = source_block(len(used) + 1, hit, texts[i] if texts is not None else None)
        cost = llm.count_tokens(block) + 4
        if fixed + cost > budget:
            # The best source that does not fit whole is cut to the room left; then stop.
            block = _cut_to_fit(llm, block, budget - fixed - 4)
            if block:
                used.append(hit)
                blocks.append(block)
            break
        used.append(hit)
        blocks.append(block)
        fixed += cost
    notes = "\n\n".join(blocks) if blocks else "(no notes matched)"
    system_msg = {"role": "system", "content": f"{system}{NOTES_HEADER}{notes}"}
    return [system_msg, *kept_history, question_msg], used


@dataclass
class Prepared:
    """An answer ready to be generated: the result so far (routing, sources) and the
    messages for the model (None: nothing to generate: no model, or it failed)."""

    result: AskResult
    messages: list[dict[str, str]] | None = None
    verify: dict[str, float | None] | None = None  # `Prompts.verify`
    # The sources' whole notes, which the answer's claims are aligned to (None: the texts
    # the model read).
    notes: list[str] | None = None


def generate(
    prepared: Prepared, llm: LlamaChat | None, cancel: threading.Event | None = None
) -> Generator[Token, None, None]:
    """Stream the answer (with post-hoc citations) into `prepared.result`. Uses only the
    model, never the service: it may run beside other work on the vault."""
    result = prepared.result
    if prepared.messages is None or llm is None:
        if result.not_found and result.answer:  # decided without the model: say it
            yield Token(result.answer)
        return
    try:
        pieces = []
        citer = Citer(result.sources)
        for token in llm.stream(prepared.messages, cancel):
            piece = citer.feed(token.text)
            pieces.append(piece)
            yield Token(piece)
        cited = citer.flush()
        if cited:
            pieces.append(cited)
            yield Token(cited)
        result.answer = "".join(pieces).strip()
        result.cancelled = cancel is not None and cancel.is_set()
        texts = result.excerpts or [h.text for h in result.sources]
        cite = missing_citation(result.answer, result.question, texts)
        if cite is not None and not result.cancelled:  # a fact one source holds, uncited
            result.answer += f" [{cite}]"
            result.repaired_citation = cite
            yield Token(f" [{cite}]")
        fact = result.routing.intent == "FACT"
        notes = prepared.notes or texts
        aligned = align_citations(result.answer, notes, result.question, mark=fact)
        result.alignments = aligned.alignments
        if not result.cancelled:
            result.answer = aligned.answer  # citations set by what supports each sentence
        result.citation_checks = check_citations(result.answer, result.sources)
        if fact and not result.cancelled and unsupported_throughout(result.alignments):
            withhold(result, "alignment")
        result.not_found = result.not_found or says_not_found(result.answer)
        if result.not_found:
            result.answer = in_language(result.answer, result.language)
        else:
            result.unsupported_figures = unsupported_figures(
                result.answer, result.question, result.sources
            )
        if prepared.verify is not None and not result.not_found and not result.cancelled:
            second_look(result, llm, prepared.messages, prepared.verify)
    except ModelError as exc:
        result.error = str(exc)


def second_look(
    result: AskResult,
    llm: LlamaChat,
    messages: list[dict[str, str]],
    cuts: dict[str, float | None],
) -> None:
    """Verify `result.answer`; when a check falls below its cut-off, the answer becomes
    "not found in your notes" and the model's text is kept as `draft_answer` (the UI shows
    it under a warning)."""
    result.verification = verify(llm, messages, result.answer)
    result.unsupported_answer = any(
        cut is not None and getattr(result.verification, check) < cut for check, cut in cuts.items()
    )
    if result.unsupported_answer:
        withhold(result, "verification")


def unsupported_throughout(alignments: list[Alignment]) -> bool:
    """Whether an answer claims something and no claim of it finds support in the sources
    (each sentence aligned at most `weak`: a few shared words). On the dev half of
    answers.yaml no right answer was such, while 4 of 7 answers to unanswerable questions
    were."""
    return bool(alignments) and all(a.action in ("weak", "unsupported") for a in alignments)


def withhold(result: AskResult, by: str) -> None:
    """The answer becomes "I found nothing in your notes that answers this" (its sources are
    then the closest notes); the model's text stays as `draft_answer`, `withheld` says which
    check (alignment, verification) found it unsupported."""
    result.draft_answer = result.answer
    result.answer = NOT_FOUND.get(result.language or "en", NOT_FOUND["en"])
    result.not_found = True
    result.withheld = by
