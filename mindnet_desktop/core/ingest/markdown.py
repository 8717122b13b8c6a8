"""Markdown helpers shared by the parser, chunker and link extraction.

Code (fenced blocks and inline spans) is masked with spaces so that offsets stay valid while
`#tags`, headings and `[[links]]` inside code are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)
INLINE_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
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
    masked = "".join(out)
    for match in INLINE_CODE.finditer(masked):
        blank(match.start(), match.end())
    return "".join(out)


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
