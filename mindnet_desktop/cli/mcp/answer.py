"""The `ask` tool (only with `--with-ask`): the local model's answer with its sources and
citations, as `mindnet ask` gives it, without logging the question (the server writes
nothing)."""

from __future__ import annotations

from typing import Any

from mindnet_desktop.core.chat.answer import generate
from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.service.ask.pipeline import pack, retrieve
from mindnet_desktop.core.service.vault.mindnet import Mindnet


def answer(mn: Mindnet, question: str, llm: LlamaChat) -> dict[str, Any]:
    """Route, retrieve, pack and answer `question` (see `service/ask/pipeline.py`)."""
    prepared = pack(mn, retrieve(mn, question, llm), llm)
    drain(generate(prepared, llm))
    result = prepared.result
    sources = [
        {"n": n, "note_id": hit.note_id, "title": hit.title}
        for n, hit in enumerate(result.sources, start=1)
    ]
    data: dict[str, Any] = {"answer": result.answer, "sources": sources}
    flagged = [c.to_dict() for c in result.citation_checks if not c.supported]
    if flagged:
        data["flagged_citations"] = flagged
    if result.unsupported_figures:
        data["not_in_notes"] = result.unsupported_figures
    if result.not_found:
        data["not_found"] = True
    if result.error:
        data["error"] = result.error
    return data
