"""The one Markdown reader: markdown-it-py (CommonMark) with Obsidian's extensions.

Headings, links, embeds, block ids and code blocks all come from its tokens, so nothing is a
link or a heading inside code (fenced, indented or inline), an escape, an HTML comment or a
`%%comment%%`. markdown-it gives block tokens line ranges (`map`) only; the places of inline
tokens are their offsets in the inline token's text, mapped back to the note line by line.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline, autolink, image, link
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from mindnet_desktop.core.ingest.obsidian import PLUGINS

# Inline tokens whose text is not prose: no `#tag` is read in them.
NOT_PROSE = frozenset({"code_inline", "wikilink", "comment", "html_inline", "block_id"})


@dataclass(frozen=True)
class Heading:
    """An ATX or setext heading; `nested` when it sits in a list item or a block quote."""

    level: int
    text: str
    start: int
    end: int
    nested: bool = False


@dataclass(frozen=True)
class WikiLink:
    """`[[inner]]` (or the embed `![[inner]]`) at [start, end); `callout` names the callout
    holding it and `callout_kind` the `kind:` its line (or an earlier one) starts with."""

    inner: str
    embed: bool
    start: int
    end: int
    callout: str = ""
    callout_kind: str = ""


@dataclass(frozen=True)
class LinkDestination:
    """A CommonMark link's or image's destination as the spec renders it (`href`, `src`)."""

    href: str
    start: int
    image: bool = False
    autolink: bool = False


@dataclass(frozen=True)
class MarkdownDoc:
    """What the reader found in one text, in document order; offsets are the text's."""

    headings: tuple[Heading, ...]
    wikilinks: tuple[WikiLink, ...]
    links: tuple[LinkDestination, ...]
    block_ids: tuple[tuple[str, int], ...]  # (id without `^`, offset)
    code_blocks: tuple[tuple[int, int], ...]  # [start, end) of fenced and indented code
    prose: tuple[str, ...]  # the text of each inline run, code, links' targets left out
    callouts: tuple[tuple[str, int], ...]  # (type, offset of its `>`)


def _positioned(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """`rule` that records where in the inline text its link or image began."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        found = rule(state, silent)
        if found and not silent:
            for token in state.tokens[count:]:
                if token.type in ("link_open", "image"):
                    token.meta = {**(token.meta or {}), "pos": start}
                    break
        return found

    return wrapped


def make_parser() -> MarkdownIt:
    """CommonMark, GFM tables, front matter, footnotes and Obsidian's extensions."""
    md = MarkdownIt("commonmark").enable("table")
    md.use(front_matter_plugin).use(footnote_plugin)
    for plugin in PLUGINS:
        md.use(plugin)
    md.inline.ruler.at("link", _positioned(link))
    md.inline.ruler.at("image", _positioned(image))
    md.inline.ruler.at("autolink", _positioned(autolink))
    return md


_PARSER = make_parser()


class _Lines:
    """Offsets of a text's lines, and of an inline token's text within them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        pos = text.find("\n")
        while pos >= 0:
            self.starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def start(self, line: int) -> int:
        return self.starts[min(line, len(self.starts) - 1)]

    def end(self, line: int) -> int:
        """Offset of the end of `line` (before its newline)."""
        if line + 1 < len(self.starts):
            return self.starts[line + 1] - 1
        return len(self.text)

    def content_starts(self, token: Token) -> list[int]:
        """For each line of `token.content`, the note offset where it begins.

        A line of inline text is the end of its source line (indentation and container
        markers cut before it, trailing blanks after the last one); a heading's is found in
        its line. Where neither holds (a tab expanded in a block quote) the line start is
        taken, which still names the right line.
        """
        first = token.map[0] if token.map else 0
        starts = []
        for number, part in enumerate(token.content.split("\n")):
            line = first + number
            begin, end = self.start(line), self.end(line)
            source = self.text[begin:end].rstrip()
            if part and source.endswith(part.rstrip()):
                starts.append(begin + len(source) - len(part.rstrip()))
            else:
                found = source.find(part) if part else -1
                starts.append(begin + max(found, 0))
        return starts


@lru_cache(maxsize=16)
def read_markdown(text: str) -> MarkdownDoc:
    """Read `text` (a note body, a property value, a chunk) once; cached, since parsing,
    chunking and edge derivation read the same body."""
    tokens = _PARSER.parse(text)
    lines = _Lines(text)
    headings: list[Heading] = []
    wikilinks: list[WikiLink] = []
    links: list[LinkDestination] = []
    block_ids: list[tuple[str, int]] = []
    code: list[tuple[int, int]] = []
    prose: list[str] = []
    callouts: list[tuple[str, int]] = []
    for index, token in enumerate(tokens):
        if token.type in ("fence", "code_block") and token.map:
            code.append((lines.start(token.map[0]), lines.end(token.map[1] - 1)))
        elif token.type == "blockquote_open" and token.meta.get("callout") and token.map:
            callouts.append((token.meta["callout"], lines.start(token.map[0])))
        elif token.type == "heading_open" and token.map:
            content = tokens[index + 1].content
            text_of = " ".join(part.strip() for part in content.split("\n"))
            start, end = lines.start(token.map[0]), lines.end(token.map[1] - 1)
            headings.append(Heading(int(token.tag[1]), text_of, start, end, token.level > 0))
        if token.type != "inline" or not token.children:
            continue
        _read_inline(token, lines, wikilinks, links, block_ids, prose)
    return MarkdownDoc(
        tuple(headings),
        tuple(wikilinks),
        tuple(links),
        tuple(block_ids),
        tuple(code),
        tuple(prose),
        tuple(callouts),
    )


def _read_inline(
    token: Token,
    lines: _Lines,
    wikilinks: list[WikiLink],
    links: list[LinkDestination],
    block_ids: list[tuple[str, int]],
    prose: list[str],
) -> None:
    """Collect what one inline token holds."""
    content = token.content
    kinds: dict[int, str] = token.meta.get("callout_kinds", {}) if token.meta else {}
    callout = token.meta.get("callout", "") if token.meta else ""
    starts: list[int] | None = None
    breaks: list[int] = []

    def place(pos: int) -> tuple[int, int]:
        """(note offset, line number within the inline text) of `pos`."""
        nonlocal starts, breaks
        if starts is None:
            starts = lines.content_starts(token)
            breaks = [i for i, ch in enumerate(content) if ch == "\n"]
        line = bisect_right(breaks, pos - 1)
        line_begin = breaks[line - 1] + 1 if line else 0
        return starts[line] + pos - line_begin, line

    words: list[str] = []
    autolinked = False
    for child in token.children or []:  # an image's alt text (its children) is no link
        kind = child.type
        if kind == "wikilink":
            start, line = place(child.meta["pos"])
            end = start + child.meta["end"] - child.meta["pos"]
            wikilinks.append(
                WikiLink(
                    child.content, child.meta["embed"], start, end, callout, kinds.get(line, "")
                )
            )
        elif kind in ("link_open", "image") and "pos" in child.meta:
            href = child.attrGet("href" if kind == "link_open" else "src")
            autolinked = child.markup == "autolink"
            links.append(
                LinkDestination(
                    str(href or ""), place(child.meta["pos"])[0], kind == "image", autolinked
                )
            )
        elif kind == "block_id":
            block_ids.append((child.content, place(child.meta["pos"])[0]))
        if kind in ("text", "softbreak", "hardbreak") and not autolinked:
            words.append(child.content if kind == "text" else "\n")
        elif kind == "link_close":
            autolinked = False
        elif kind in NOT_PROSE:
            words.append(" ")
    prose.append("".join(words))
