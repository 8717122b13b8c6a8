"""An answer's record, the `ask --json` schema (`AskResult`), filled in as the stages run,
and the run of the three stages that need only the model (`generate`: generate, align,
check; `chat/stages.py`). `service/ask/pipeline.py` runs the stages before them."""

from __future__ import annotations

import threading
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from mindnet_desktop.core.chat import stages
from mindnet_desktop.core.chat.align import Alignment
from mindnet_desktop.core.chat.evidence import Evidence
from mindnet_desktop.core.chat.grounding import CitationCheck
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.chat.rewrite import Expansion
from mindnet_desktop.core.chat.stages import (
    STAGES,
    Checked,
    Cited,
    Packed,
    WithEvidence,
    Written,
    timed,
)
from mindnet_desktop.core.chat.verify import Verification
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit

# `load_prompts` lived here before the answer was split by stage; the bench imports it here.
__all__ = ["AskResult", "Prepared", "generate", "load_prompts", "record", "result_of"]


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
    # Seconds each stage took (`chat/stages.py` STAGES), in the order they ran.
    stages: dict[str, float] = field(default_factory=dict)

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
            # Every stage, null for one that did not run (align and check need an answer
            # the model wrote).
            "stages": {stage: self.stages.get(stage) for stage in STAGES},
        }


def result_of(chosen: WithEvidence) -> AskResult:
    """The record of a question whose sources and evidence are known (the model has not
    read them yet)."""
    retrieved = chosen.retrieved
    routed = retrieved.routed
    return AskResult(
        retrieved.query_id,
        routed.question.text,
        routed.routing,
        sources=list(retrieved.sources),
        error=routed.error,
        language=routed.language,
        not_found=retrieved.not_found,
        expansion=retrieved.expansion,
        evidence=list(chosen.evidence),
    )


def record(result: AskResult, done: Packed | Written | Cited | Checked) -> None:
    """Write what a stage handed on into `result`."""
    if isinstance(done, Packed):
        result.sources = list(done.sources)
        result.excerpts = list(done.excerpts) if done.excerpts is not None else None
        result.evidence = list(done.evidence)
        result.prompt_tokens, result.model = done.prompt_tokens, done.model
        result.answer, result.error = done.answer, done.error
    elif isinstance(done, Written):
        result.answer, result.cancelled = done.answer, done.cancelled
        result.repaired_citation = done.repaired_citation
    elif isinstance(done, Cited):
        result.answer = done.answer
        result.alignments = list(done.alignments)
        result.citation_checks = list(done.citation_checks)
    else:
        result.answer, result.not_found = done.answer, done.not_found
        result.unsupported_figures = list(done.unsupported_figures)
        result.verification, result.unsupported_answer = done.verification, done.unsupported_answer
        result.draft_answer, result.withheld = done.draft_answer, done.withheld
        if done.error is not None:
            result.error = done.error


@dataclass(frozen=True)
class Prepared:
    """An answer on its way through the stages: its record so far (`result`) and what the
    last stage handed on: the evidence (`chosen`) before packing, what the model reads
    (`packed`) after."""

    result: AskResult
    chosen: WithEvidence | None = None
    packed: Packed | None = None

    @property
    def messages(self) -> list[dict[str, str]] | None:
        """The model's messages (None: nothing to generate, or not packed yet)."""
        if self.packed is None or self.packed.messages is None:
            return None
        return list(self.packed.messages)


def generate(
    prepared: Prepared, llm: LlamaChat | None, cancel: threading.Event | None = None
) -> Generator[Token, None, None]:
    """The stages after packing, each timed into `prepared.result`: stream the answer
    (`stages.generate`), align its citations (`stages.align`), check its support
    (`stages.check`). Uses only the model, never the service: it may run beside other work
    on the vault. A model that fails sets `error`; nothing is generated before packing."""
    result, packed = prepared.result, prepared.packed
    if packed is None:
        return
    try:
        with timed(result.stages, "generate"):
            written = yield from stages.generate(packed, llm, cancel)
        if written is None:  # no model, or decided without it
            return
        record(result, written)
        with timed(result.stages, "align"):
            cited = stages.align(written)
        record(result, cited)
        with timed(result.stages, "check"):
            checked = stages.check(cited, llm)
        record(result, checked)
    except ModelError as exc:
        result.error = str(exc)
