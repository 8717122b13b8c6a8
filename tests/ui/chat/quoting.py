"""A chat model without weights that answers with a sentence of source [1], cited: the
answer aligns to that source whatever the retrieval found, for tests of what an answer
leads to (opening a source, the graph following it), not of what a model writes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import mindnet_desktop.ui.chat.ops as chat_ops
from mindnet_desktop.core.chat.excerpt import HEADING, split_units
from mindnet_desktop.core.chat.packing import NOTES_HEADER
from mindnet_desktop.core.models.llm import MIN_ANSWER_TOKENS, Token


def quoted(messages: list[dict[str, str]]) -> str:
    """The longest plain sentence of source [1] as the prompt gives it to the model."""
    notes = messages[0]["content"].split(NOTES_HEADER, 1)[1]
    first = re.split(r"\n\n\[2\] ", notes)[0].split("\n", 1)[1]
    sentences = [
        unit.strip()
        for unit, _line, code in split_units(first)
        if not code and not HEADING.match(unit.strip()) and not unit.rstrip().endswith(":")
    ]
    return max(sentences, key=len)


class QuotingChat:
    """A chat model without weights whose answer is a sentence of source [1], cited."""

    def __init__(self, model: str | None = None, n_ctx: int = 4096, **kw: object) -> None:
        self.n_ctx, self.max_tokens = n_ctx, int(kw.get("max_tokens", 512))  # type: ignore[call-overload]
        self.loaded, self.name = False, "fake.gguf"

    def warm_up(self) -> None:
        self.loaded = True

    def close(self) -> None:
        self.loaded = False

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def prompt_budget(self) -> int:
        return self.n_ctx - max(self.max_tokens, MIN_ANSWER_TOKENS)

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        return "FACT"

    def stream(
        self, messages, cancel=None, max_tokens=None, temperature=None, prefix=None
    ) -> Iterator[Token]:
        sentence = quoted(messages).rstrip(".")
        for word in f"{sentence} [1].".split(" "):
            yield Token(word + " ")


def use_quoting_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chat panel's model is a `QuotingChat` (the test's monkeypatch undoes it)."""
    monkeypatch.setattr(chat_ops, "LlamaChat", QuotingChat)
