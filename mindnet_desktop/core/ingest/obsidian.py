"""Obsidian's extensions of CommonMark as markdown-it plugins.

Each plugin adds tokens and nothing else; what they mean for edges is decided in `links.py`.

- `wikilink_plugin`: `[[T]]`, `[[T|alias]]`, `[[T#heading]]`, `[[T#^block]]`, the project's
  `[[rel:kind T]]`, and embeds `![[T]]` -> one `wikilink` token (`content` = the text between
  the brackets, `meta["embed"]`).
- `comment_plugin`: `%%comments%%`, inline or as a block from a line opening with `%%` to the
  line closing it -> `comment` / `comment_block` tokens whose text is never parsed, so links
  inside a comment do not count (what Obsidian's metadata cache does; see docs/notes.md).
- `block_id_plugin`: `^block-id` closing a paragraph, list item or heading -> `block_id`.
- `callout_plugin`: `> [!type]` (`> [!edge]` among them) -> `meta["callout"]` on the
  `blockquote_open` token, lower case, and for each line of the callout the kind a
  `kind:` prefix names (`meta["callout_kinds"]` of its inline tokens: line -> kind).

Inline tokens made here carry `meta["pos"]` and `meta["end"]`: their place in the inline
token's `content`, which `markdown.py` maps back to the note.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

WIKILINK = re.compile(r"!?\[\[([^\[\]\n]+?)\]\]")
BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*$")
CALLOUT_HEAD = re.compile(r"\[!([^\]\s]+)\][+-]?[ \t]*")
KIND_PREFIX = re.compile(r"^[ \t]*([A-Za-z][\w-]*)[ \t]*:")
COMMENT_OPEN = re.compile(r"^[ \t]{0,3}%%")


def wikilink_plugin(md: MarkdownIt) -> None:
    """`[[...]]` and `![[...]]` before CommonMark links and images claim the brackets."""
    md.inline.ruler.before("link", "wikilink", _wikilink)


def _wikilink(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] not in "![" or not src.startswith("[[", pos + (src[pos] == "!")):
        return False
    match = WIKILINK.match(src, pos, state.posMax)
    if not match:
        return False
    if not silent:
        token = state.push("wikilink", "", 0)
        token.content = match.group(1)
        token.markup = match.group(0)
        token.meta = {"embed": src[pos] == "!", "pos": pos, "end": match.end()}
    state.pos = match.end()
    return True


def comment_plugin(md: MarkdownIt) -> None:
    """`%%...%%` inline and `%%` blocks; an unclosed `%%` stays text."""
    md.block.ruler.before(
        "code", "comment_block", _comment_block, {"alt": ["paragraph", "blockquote", "list"]}
    )
    md.inline.ruler.before("text", "comment", _comment)


def _comment(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if not src.startswith("%%", pos):
        return False
    close = src.find("%%", pos + 2, state.posMax)
    if close < 0:
        return False
    if not silent:
        token = state.push("comment", "", 0)
        token.content = src[pos + 2 : close]
        token.meta = {"pos": pos, "end": close + 2}
    state.pos = close + 2
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _comment_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    first = _line(state, start)
    if not first.startswith("%%"):
        return False
    if "%%" in first[2:]:
        return False  # closed on its own line: an inline comment, text may follow it
    line, closed = start, False
    while not closed and line + 1 < end:
        line += 1
        closed = "%%" in _line(state, line)
    if not closed:
        return False  # `%%` never closed: text, as Obsidian shows it
    if silent:
        return True
    token = state.push("comment_block", "", 0)
    token.map = [start, line + 1]
    token.content = state.getLines(start, line + 1, state.blkIndent, True)
    state.line = line + 1
    return True


def block_id_plugin(md: MarkdownIt) -> None:
    """`^id` at the very end of a block's inline text."""
    md.inline.ruler.before("text", "block_id", _block_id)


def _block_id(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "^" or (pos > 0 and src[pos - 1] not in " \t\n"):
        return False
    match = BLOCK_ID.match(src, pos, state.posMax)
    if not match or match.end() != len(src):
        return False
    if not silent:
        token = state.push("block_id", "", 0)
        token.content = match.group(1)
        token.meta = {"pos": pos, "end": match.end()}
    state.pos = match.end()
    return True


def callout_plugin(md: MarkdownIt) -> None:
    """Mark callouts (`> [!type]`) and the `kind:` of each line of one."""
    md.core.ruler.after("inline", "callout", _callouts)


def _callouts(state: StateCore) -> None:
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "blockquote_open" or index + 2 >= len(tokens):
            continue
        first = tokens[index + 2]
        head = CALLOUT_HEAD.match(first.content) if first.type == "inline" else None
        if head is None:
            continue
        callout = head.group(1).lower()
        token.meta = {**(token.meta or {}), "callout": callout}
        kind = ""
        depth = 0
        for inner_index in range(index + 1, len(tokens)):
            inner = tokens[inner_index]
            depth += inner.nesting if inner.type.startswith("blockquote") else 0
            if depth < 0:
                break
            if inner.type != "inline":
                continue
            kinds: dict[int, str] = {}
            for number, text in enumerate(inner.content.split("\n")):
                if inner is first and number == 0:
                    text = text[head.end() :]
                prefixed = KIND_PREFIX.match(text)
                kind = prefixed.group(1) if prefixed else kind
                kinds[number] = kind
            inner.meta = {**(inner.meta or {}), "callout_kinds": kinds, "callout": callout}


PLUGINS: tuple[Callable[[MarkdownIt], None], ...] = (
    wikilink_plugin,
    comment_plugin,
    block_id_plugin,
    callout_plugin,
)
