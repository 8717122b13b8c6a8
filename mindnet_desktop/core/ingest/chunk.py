"""Heading-aware chunking by the type's chunk profile.

Chunks are contiguous windows of the note body (so link offsets map to chunks), start at
headings (the note's own, not one inside a list item or quote), pack paragraphs up to the
profile's target size and never exceed its maximum: an over-long paragraph is split at
sentence ends, then at whitespace, then hard. Headings and code blocks come from the
Markdown reader; a blank line inside a code block does not end a paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mindnet_desktop.core.config.type_registry import ChunkProfile
from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.ingest.markdown import Heading, read_markdown

BLANK_LINES = re.compile(r"\n[ \t]*\n")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _paragraphs(
    body: str, start: int, end: int, code: tuple[tuple[int, int], ...]
) -> Iterator[tuple[int, int]]:
    """Spans of blank-line separated blocks of `body` in [start, end); the blank lines of
    a code block (its [start, end) in `code`) separate nothing."""
    pos = start
    for match in BLANK_LINES.finditer(body, start, end):
        if any(first <= match.start() < last for first, last in code):
            continue
        if body[pos : match.start()].strip():
            yield pos, match.start()
        pos = match.end()
    if body[pos:end].strip():
        yield pos, end


def _split_long(text: str, start: int, end: int, limit: int) -> Iterator[tuple[int, int]]:
    """Split [start, end) into pieces of at most `limit` characters (stripped)."""
    while end - start > limit:
        window = text[start : start + limit]
        cut = -1
        for match in SENTENCE_END.finditer(window):
            if match.start() > limit // 3:
                cut = match.end()
        if cut < 0:
            space = max(window.rfind(" "), window.rfind("\n"))
            cut = space + 1 if space > limit // 3 else limit
        yield start, start + cut
        start += cut
    if text[start:end].strip():
        yield start, end


def _sections(
    size: int, marks: list[Heading]
) -> Iterator[tuple[int, int, Heading | None, tuple[str, ...]]]:
    """(start, end, heading, heading_path) of each heading section, plus the preamble."""
    stack: list[Heading] = []
    bounds = [h.start for h in marks] + [size]
    if not marks or marks[0].start > 0:
        yield 0, bounds[0], None, ()
    for heading, end in zip(marks, bounds[1:]):
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        stack.append(heading)
        yield heading.start, end, heading, tuple(h.text for h in stack)


def chunk_note(note: Note, profile: ChunkProfile) -> list[Chunk]:
    """Split a Markdown note into chunks (seq 1..N), each at most `profile.max_chars`.

    Args:
        note: The parsed note.
        profile: Its type's chunk profile.

    Returns:
        At least one chunk; a note without body text gets one chunk holding its title.
    """
    body = note.body
    doc = read_markdown(body)
    marks = [h for h in doc.headings if not h.nested]
    spans: list[tuple[int, int, tuple[str, ...], int]] = []  # start, end, path, level
    current: list[int] | None = None  # [start, end]
    current_path: tuple[str, ...] = ()
    current_level = 0

    def flush() -> None:
        nonlocal current
        if current is not None and body[current[0] : current[1]].strip():
            spans.append((current[0], current[1], current_path, current_level))
        current = None

    for sec_start, sec_end, heading, path in _sections(len(body), marks):
        level = heading.level if heading else 0
        small = current is not None and (current[1] - current[0]) < profile.target_chars // 4
        if not (small and level > current_level):
            flush()
        for para_start, para_end in _paragraphs(body, sec_start, sec_end, doc.code_blocks):
            for piece_start, piece_end in _split_long(
                body, para_start, para_end, profile.max_chars
            ):
                if current is not None and piece_end - current[0] <= profile.target_chars:
                    current[1] = piece_end
                    continue
                flush()
                current, current_path, current_level = [piece_start, piece_end], path, level
    flush()
    if not spans:
        return [Chunk(note.note_id, 1, note.title, (), (), {}, 0, 0)]
    chunks = []
    for seq, (start, end, path, _level) in enumerate(spans, start=1):
        inside = tuple(h.text for h in doc.headings if start <= h.start < end)
        text = body[start:end].strip()
        chunks.append(Chunk(note.note_id, seq, text, path, inside, {}, start, end))
    return chunks
