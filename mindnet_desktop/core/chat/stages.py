"""An answer, stage by stage: route → retrieve → choose evidence → pack → generate → align
citations → check support. What each stage hands to the next (frozen), and the three
stages that need only the model: `generate`, `align`, `check`. The four before them read the
vault (`service/ask/stages.py`); `service/ask/pipeline.py` runs the seven in order and
times each one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass

from mindnet_desktop.core.chat.align import Alignment, align_citations
from mindnet_desktop.core.chat.citer import Citer
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
from mindnet_desktop.core.chat.prompts import Prompts
from mindnet_desktop.core.chat.rewrite import Expansion
from mindnet_desktop.core.chat.verify import Verification, verify
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit

# The stages in the order they run, as `ask --json` names them (`stages`).
STAGES = ("route", "retrieve", "evidence", "pack", "generate", "align", "check")


@contextmanager
def timed(seconds: MutableMapping[str, float], stage: str) -> Iterator[None]:
    """Record in `seconds[stage]` how long the block took (wall clock; a block left by an
    exception is not recorded)."""
    started = time.perf_counter()
    yield
    seconds[stage] = round(time.perf_counter() - started, 3)


@dataclass(frozen=True)
class Question:
    """What the user asked, and how."""

    text: str
    k: int | None = None  # sources (None: `prompts.yaml`'s, else the retriever's)
    language: str | None = None  # of the reasons shown (None: the system's)
    expansion: str | None = None  # none | keywords | answer (None: `prompts.yaml`'s)


@dataclass(frozen=True)
class Routed:
    """The question's intent and language (`route`)."""

    question: Question
    prompts: Prompts  # as read for this question
    routing: Routing
    language: str  # the question's, which the answer follows
    error: str | None = None  # the model could not classify: routed without it


@dataclass(frozen=True)
class Retrieved:
    """The question's sources (`retrieve`): facts first, then the notes the strategy injects."""

    routed: Routed
    query_id: str
    facts: tuple[ScoredHit, ...]
    injected: tuple[ScoredHit, ...]
    not_found: bool  # no fact close enough to a FACT question
    expansion: Expansion  # the question's rewrite (what it cost, or why it was skipped)

    @property
    def sources(self) -> tuple[ScoredHit, ...]:
        return self.facts + self.injected


@dataclass(frozen=True)
class WithEvidence:
    """The sources' sentences that best answer the question (`choose_evidence`), cited by
    the sources' numbers."""

    retrieved: Retrieved
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True)
class Packed:
    """What the model reads (`pack`), and what its answer is checked against.
    `messages` None: nothing to generate (no model, it failed, or the notes hold no answer;
    then `answer` is said without the model)."""

    question: str
    intent: str
    language: str | None
    sources: tuple[ScoredHit, ...]  # those that fit, numbered as the model reads them
    evidence: tuple[Evidence, ...] = ()
    messages: tuple[dict[str, str], ...] | None = None
    prefix: str | None = None  # how the system message begins: its system prompt (`pack`)
    excerpts: tuple[str, ...] | None = None  # what it read of each source (None: whole)
    # The sources' whole notes, which the answer's claims are aligned to (None: `read`).
    notes: tuple[str, ...] | None = None
    verify: dict[str, float | None] | None = None  # `Prompts.verify`
    prompt_tokens: int | None = None
    model: str | None = None
    answer: str = ""
    not_found: bool = False
    error: str | None = None

    @property
    def read(self) -> list[str]:
        """What the model read of each source."""
        return list(self.excerpts) if self.excerpts else [h.text for h in self.sources]


@dataclass(frozen=True)
class Written:
    """The model's answer (`generate`), with the citations added while it streamed."""

    packed: Packed
    answer: str
    cancelled: bool = False
    repaired_citation: int | None = None  # a citation added after the answer (1-based)


@dataclass(frozen=True)
class Cited:
    """The answer with each sentence's citation set by what supports it (`align`)."""

    written: Written
    answer: str
    alignments: tuple[Alignment, ...]
    citation_checks: tuple[CitationCheck, ...]


@dataclass(frozen=True)
class Checked:
    """The answer as the user reads it (`check`): withheld ("not found in your notes", the
    model's text kept as `draft_answer`) when no claim of it finds support, or when the
    second look finds it not backed."""

    cited: Cited
    answer: str
    not_found: bool
    unsupported_figures: tuple[str, ...] = ()
    verification: Verification | None = None
    unsupported_answer: bool = False
    draft_answer: str | None = None
    withheld: str | None = None  # the check that withheld it: alignment, verification
    error: str | None = None  # the second look's model failed


def generate(
    packed: Packed, llm: LlamaChat | None, cancel: threading.Event | None = None
) -> Generator[Token, None, Written | None]:
    """Stream the model's answer to `packed`, a citation added to a sentence that draws on
    one source and cites nothing (`Citer`), and at the end the citation of a fact one source
    holds word for word; None when there is nothing to generate (the answer decided without
    the model is streamed)."""
    if packed.messages is None or llm is None:
        if packed.not_found and packed.answer:  # decided without the model: say it
            yield Token(packed.answer)
        return None
    pieces = []
    citer = Citer(list(packed.sources))
    for token in llm.stream(list(packed.messages), cancel, prefix=packed.prefix):
        piece = citer.feed(token.text)
        pieces.append(piece)
        yield Token(piece)
    cited = citer.flush()
    if cited:
        pieces.append(cited)
        yield Token(cited)
    answer = "".join(pieces).strip()
    cancelled = cancel is not None and cancel.is_set()
    cite = missing_citation(answer, packed.question, packed.read)
    if cite is None or cancelled:
        return Written(packed, answer, cancelled)
    yield Token(f" [{cite}]")  # a fact one source holds, uncited
    return Written(packed, f"{answer} [{cite}]", cancelled, cite)


def align(written: Written) -> Cited:
    """Align each sentence of the answer to the source sentence that supports it (in the
    sources' whole notes) and set its citation by it (a cancelled answer stays as written);
    then check every citation."""
    packed = written.packed
    notes = list(packed.notes) if packed.notes else packed.read
    fact = packed.intent == "FACT"
    aligned = align_citations(written.answer, notes, packed.question, mark=fact)
    answer = written.answer if written.cancelled else aligned.answer
    checks = check_citations(answer, notes)
    return Cited(written, answer, tuple(aligned.alignments), tuple(checks))


def check(cited: Cited, llm: LlamaChat | None) -> Checked:
    """Whether the notes support the answer: a FACT answer none of whose claims finds
    support is withheld; figures no source holds are named; "not found" is put in the
    question's language; the second look (`Packed.verify`) may withhold it too."""
    packed, cancelled = cited.written.packed, cited.written.cancelled
    answer, draft, withheld = cited.answer, None, None
    if packed.intent == "FACT" and not cancelled and unsupported_throughout(cited.alignments):
        draft, answer, withheld = answer, not_found_answer(packed.language), "alignment"
    not_found = packed.not_found or withheld is not None or says_not_found(answer)
    figures: list[str] = []
    if not_found:
        answer = in_language(answer, packed.language)
    else:
        figures = unsupported_figures(answer, packed.question, list(packed.sources))
    verification, unsupported, error = None, False, None
    if packed.verify is not None and not not_found and not cancelled and llm is not None:
        try:
            verification = verify(llm, list(packed.messages or ()), answer)
            unsupported = any(
                cut is not None and getattr(verification, name) < cut
                for name, cut in packed.verify.items()
            )
        except ModelError as exc:
            error = str(exc)
        if unsupported:
            draft, answer, withheld = answer, not_found_answer(packed.language), "verification"
            not_found = True
    return Checked(
        cited, answer, not_found, tuple(figures), verification, unsupported, draft, withheld, error
    )


def unsupported_throughout(alignments: tuple[Alignment, ...] | list[Alignment]) -> bool:
    """Whether an answer claims something, no claim of it finds support in the sources, and
    at least one finds none at all (`unsupported`; the others at most `weak`: a few shared
    words). Chosen on the dev halves of answers.yaml and fresh.yaml: withholding answers
    whose claims are all weak too told 5 of 14 unanswerable questions and withheld 2 of 25
    right answers; this tells 4 and withholds 1. A claim in another language than its
    sources (`unchecked`) cannot be judged by words, so such an answer is never withheld."""
    return (
        bool(alignments)
        and all(a.action in ("weak", "unsupported") for a in alignments)
        and any(a.action == "unsupported" for a in alignments)
    )


def not_found_answer(language: str | None) -> str:
    """ "I found nothing in your notes that answers this", in `language` (else English)."""
    return NOT_FOUND.get(language or "en", NOT_FOUND["en"])
