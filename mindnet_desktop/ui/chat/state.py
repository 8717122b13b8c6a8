"""What the chat panel remembers: its turns (question and answer) and what a follow-up
question or a citation reads of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mindnet_desktop.core.chat.answer import AskResult


@dataclass
class Turn:
    """One question and its answer, as the panel shows it."""

    question: str
    answer: str = ""
    state: str = "running"  # running | done | stopped | failed
    error: str | None = None
    result: AskResult | None = None
    vault_name: str = ""
    ratings: dict[str, str] = field(default_factory=dict)  # node_id -> up | down


def history_of(turns: list[Turn]) -> list[dict[str, str]]:
    """The chat history a follow-up question carries: every answered (or stopped) turn."""
    return [
        message
        for t in turns
        if t.state in ("done", "stopped") and t.answer
        for message in (
            {"role": "user", "content": t.question},
            {"role": "assistant", "content": t.answer},
        )
    ]


def cited(turns: list[Turn], citation: tuple[int, int] | None) -> tuple[Turn, Any, int] | None:
    """The turn, source (a `ScoredHit`) and number a citation (turn index, source number)
    points at; None for one that points nowhere."""
    if citation is None:
        return None
    i, n = citation
    if not 0 <= i < len(turns) or turns[i].result is None:
        return None
    sources = turns[i].result.sources  # type: ignore[union-attr]
    return (turns[i], sources[n - 1], n) if 1 <= n <= len(sources) else None
