"""Packing the sources into the model's context: each source as the model reads it, recent
history while it fits, the best sources first, never overflowing the context."""

from __future__ import annotations

from mindnet_desktop.core.config.type_registry import DEFAULT_TYPE
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.retriever import ScoredHit

MAX_HISTORY_TURNS = 6
NOTES_HEADER = "\n\nNotes:\n\n"  # between the strategy's prompt and the sources
MIN_SOURCE_TOKENS = 48  # a source cut shorter than this is left out


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
