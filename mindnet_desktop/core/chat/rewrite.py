"""Ask-time expansion, the model's part: the chat model rewrites a question into the words
notes use (search keywords, or a short hypothetical answer), so that `ask` can retrieve with
both (`service/ask/expansion.py`). One short, greedy call; only where configured
(`prompts.yaml` `expansion`, `mindnet ask --expand`, the app's settings), never for `search`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mindnet_desktop.core.models.weights import ModelError

if TYPE_CHECKING:
    from mindnet_desktop.core.models.llm import LlamaChat

EXPANSIONS = ("none", "keywords", "answer")
# Longest rewrite in tokens: 5-10 keywords; 2-3 sentences. As measured (the model wrote ~19
# keyword tokens and ~96 answer tokens, the answer's cut at the limit).
MAX_TOKENS = {"keywords": 48, "answer": 96}
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*", re.MULTILINE)
SPACE = re.compile(r"\s+")


@dataclass
class Expansion:
    """What the expansion of one question did (the `expansion` of `ask --json`).

    `seconds` is the model's call alone: its cost, reported apart from retrieval and from
    the answer's first token. `skipped` says why a configured expansion was not used (no
    chat model, nothing written); None when it was used or not configured."""

    mode: str = "none"
    text: str = ""
    seconds: float = 0.0
    skipped: str | None = None

    @property
    def used(self) -> bool:
        return bool(self.text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "text": self.text,
            "seconds": self.seconds,
            "skipped": self.skipped,
        }


def clean_keywords(text: str) -> str:
    """The model's keyword list as one line: bullets, numbering, quotes and line breaks
    removed."""
    text = BULLET.sub("", text)
    return SPACE.sub(" ", text.replace("\n", ", ")).strip(" ,\"'")


def rewrite(
    llm: LlamaChat | None,
    question: str,
    mode: str,
    prompt: str,
) -> Expansion:
    """The rewrite of `question` by the chat model under `prompt` (the system prompt of
    `mode` in the question's language). Never raises for a missing model: the expansion is
    then skipped, with the reason."""
    if mode == "none":
        return Expansion()
    if mode not in MAX_TOKENS:
        raise ValueError(f"unknown expansion {mode!r}: one of {', '.join(EXPANSIONS)}")
    if llm is None:
        return Expansion(mode, skipped="no chat model")
    messages = [{"role": "system", "content": prompt}, {"role": "user", "content": question}]
    try:
        llm.warm_up()  # loading is not the expansion's cost: the answer needs the model anyway
        started = time.perf_counter()
        written = llm.complete(messages, max_tokens=MAX_TOKENS[mode])
    except ModelError as exc:
        return Expansion(mode, skipped=f"the chat model is not available: {exc}")
    seconds = round(time.perf_counter() - started, 3)
    text = clean_keywords(written) if mode == "keywords" else SPACE.sub(" ", written).strip()
    if not text:
        return Expansion(mode, seconds=seconds, skipped="the model wrote nothing")
    return Expansion(mode, text, seconds)
