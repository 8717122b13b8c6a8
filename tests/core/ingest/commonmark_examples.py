"""The examples of the vendored CommonMark spec (tests/fixtures/commonmark/spec.txt)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

SPEC = Path(__file__).parents[2] / "fixtures" / "commonmark" / "spec.txt"
FENCE = "`" * 32
EXAMPLE = re.compile(rf"^{FENCE} example\n(.*?)^\.\n(.*?)^{FENCE}$", re.MULTILINE | re.DOTALL)
ANCHOR = re.compile(r'<a href="([^"]*)"')
RAW_ANCHOR = re.compile(r'<a\s[^>]*?href="([^"]*)"', re.IGNORECASE)


@dataclass(frozen=True)
class Example:
    number: int
    section: str
    markdown: str
    html: str

    def link_destinations(self) -> list[str]:
        """The `href` of every `<a>` the spec renders, raw-HTML anchors aside."""
        found = [html.unescape(href) for href in ANCHOR.findall(self.html)]
        for raw in RAW_ANCHOR.findall(self.markdown):
            if html.unescape(raw) in found:
                found.remove(html.unescape(raw))
        return found


def examples() -> list[Example]:
    text = SPEC.read_text(encoding="utf-8")
    out = []
    section = ""
    pos = 0
    for number, match in enumerate(EXAMPLE.finditer(text), start=1):
        headings = re.findall(r"^#{1,6} (.+)$", text[pos : match.start()], re.MULTILINE)
        section = headings[-1] if headings else section
        pos = match.end()
        markdown, rendered = (part.replace("\u2192", "\t") for part in match.groups())
        out.append(Example(number, section, markdown, rendered))
    return out
