"""Markdown helpers shared by the parser, chunker and link extraction.

Code (fenced blocks and inline spans) is masked with spaces so that offsets stay valid while
`#tags`, headings and `[[links]]` inside code are ignored.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass

FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)
BACKTICKS = re.compile(r"`+")
# The text runs to the end of the line; its closing `#`s and blanks are cut in Python. A
# lazy `(.+?)[ \t#]*$` in the pattern backtracks quadratically on a long line of blanks or
# `#`s (a 20 kB heading line took 20 s).
HEADING = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+([^\n]+)$", re.MULTILINE)


def mask_code(text: str) -> str:
    """`text` with fenced code blocks and inline code replaced by spaces (newlines kept)."""
    out = list(text)

    def blank(start: int, end: int) -> None:
        for i in range(start, end):
            if out[i] != "\n":
                out[i] = " "

    pos = 0
    while True:
        opening = FENCE.search(text, pos)
        if not opening:
            break
        marker = opening.group(1)
        closing = re.compile(rf"^[ \t]{{0,3}}{marker[0]}{{{len(marker)},}}[ \t]*\r?$", re.MULTILINE)
        line_end = text.find("\n", opening.end())
        line_end = len(text) if line_end < 0 else line_end
        close = closing.search(text, line_end)
        end = close.end() if close else len(text)
        blank(opening.start(), end)
        pos = end
    for start, end in inline_code_spans("".join(out)):
        blank(start, end)
    return "".join(out)


def inline_code_spans(text: str) -> list[tuple[int, int]]:
    """Spans of inline code: a run of backticks (or the end of one) up to the next run of
    exactly as many.

    A scan over the runs instead of the pattern ``(`+)(?!`)(.+?)(?<!`)\\1(?!`)`` it
    replaces (and matches exactly): on a long run of backticks that pattern backtracked
    quadratically (`# a` and 30,000 backticks took minutes).
    """
    runs = [(m.start(), m.end() - m.start()) for m in BACKTICKS.finditer(text)]
    by_length: dict[int, list[int]] = defaultdict(list)  # run length -> run indices
    for index, (_, length) in enumerate(runs):
        by_length[length].append(index)
    spans, i = [], 0
    while i < len(runs):
        start, length = runs[i]
        # Like the pattern: the whole run opens first, then ever shorter ends of it.
        for size in range(length, 0, -1):
            same = by_length.get(size, [])
            later = bisect_right(same, i)
            if later < len(same):
                close = same[later]
                spans.append((start + length - size, runs[close][0] + size))
                i = close + 1
                break
        else:
            i += 1
    return spans


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    start: int
    end: int


def headings(masked: str) -> list[Heading]:
    """ATX headings of already code-masked text, in order."""
    return [
        Heading(len(m.group(1)), _heading_text(m.group(2)), m.start(), m.end())
        for m in HEADING.finditer(masked)
    ]


def _heading_text(raw: str) -> str:
    """`Title ##` -> `Title`: the first character always stays (`# #` is the heading `#`)."""
    rest = raw[1:]
    rest = rest[:-1] if rest.endswith("\r") else rest
    return (raw[0] + rest.rstrip(" \t#")).strip()
