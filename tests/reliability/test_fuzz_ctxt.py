"""Fuzzing the `.ctxt` parser: headers, chunks, chunk metadata, any bytes.

Properties: `parse_ctxt` returns or raises `CtxtError` (nothing else), within a hang guard;
a well-formed file comes back chunk for chunk (no text lost, none over the limit); the edges
derived from it satisfy the invariants.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mindnet_desktop.core.config.type_registry import load_types
from mindnet_desktop.core.ingest.ctxt import MAX_CHUNK_CHARS, CtxtError, parse_ctxt
from mindnet_desktop.core.ingest.edges import derive_edges
from mindnet_desktop.core.ingest.links import NoteKey, Resolver
from tests.reliability.support import check_edges, count_example, hang_guard

pytestmark = pytest.mark.fuzz
REGISTRY = load_types(None)

PIECES = [
    "`version: 1`", "`title: T`", "`tags: [a, b]`", "`url: http://x`", "`type: concept`",
    "`aliases: X, Y`", "`k: v`", "`", ":", "\n", "\n\n", "\r\n", " ", "\t", "[[A]]",
    "[[rel:depends_on A]]", "> [!edge] causes: [[A]]", "# H", "\ufeff", "ü", "x" * 2100,
]  # fmt: skip
noise = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=10)), max_size=40)


@given(st.one_of(noise.map(lambda p: "".join(p).encode("utf-8")), st.binary(max_size=300)))
@example(b"`version: 1`\n\n" + b"a\n\n" * 1001)
@example(b"\xef\xbb\xbf`version: 1`\r\n\r\nText\r\n`k: v`")
@example(b"`version: 1`\n\n\xff\xfe")
def test_ctxt_parser_returns_or_raises_a_ctxt_error(raw: bytes) -> None:
    """Guards: any bytes give a note or a CtxtError naming the problem, never another
    exception. Shown to fail by making `_decode` call `raw.decode()` without catching
    UnicodeDecodeError (the third example then escapes as UnicodeDecodeError)."""
    count_example("ctxt any bytes")
    with hang_guard(20, repr(raw[:200])):
        try:
            note, chunks = parse_ctxt("k/f.ctxt", raw, "h", "k/f")
        except CtxtError as exc:
            assert str(exc).startswith("k/f.ctxt")
            return
    assert chunks and all(0 < len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    assert [c.seq for c in chunks] == list(range(1, len(chunks) + 1))


line_text = st.text(
    st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=40
).filter(lambda s: s.strip() and not s.strip().startswith("`"))
chunk_lines = st.lists(line_text, min_size=1, max_size=4)
metas = st.lists(
    st.tuples(
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True), st.text("abc 1", max_size=8)
    ),
    max_size=3,
)


@given(st.lists(st.tuples(chunk_lines, metas), min_size=1, max_size=8), st.booleans())
def test_well_formed_ctxt_comes_back_chunk_for_chunk(chunks_in: list, crlf: bool) -> None:
    """Guards: a valid file loses no text: each chunk's lines and metadata come back as
    written, in order, and its edges satisfy the invariants. Shown to fail by making
    `_parse_chunk` strip one metadata line too many (`end -= 1` once more): the text of a
    chunk then loses its last line."""
    count_example("ctxt well-formed")
    blocks = []
    for lines, meta in chunks_in:
        blocks.append("\n".join(lines + [f"`{k}: {v}`" for k, v in meta]))
    text = "`version: 1`\n`title: Fuzz`\n\n" + "\n\n".join(blocks)
    if crlf:
        text = text.replace("\n", "\r\n")
    with hang_guard(20, text):
        note, chunks = parse_ctxt("k/f.ctxt", text.encode("utf-8"), "h", "k/f")
        resolver = Resolver([NoteKey("A", "A.md"), NoteKey("k/f", "k/f.ctxt")])
        edges = derive_edges(note, chunks, REGISTRY, resolver)
    assert [c.text for c in chunks] == ["\n".join(lines).strip() for lines, _ in chunks_in]
    assert [c.meta for c in chunks] == [{k: v.strip() for k, v in meta} for _, meta in chunks_in]
    check_edges(edges, note, {c.chunk_id for c in chunks}, {"A", "k/f"})
