"""Tests for heading-aware chunking."""

from __future__ import annotations

import re

import pytest

from mindnet_desktop.core.config.type_registry import ChunkProfile, load_types
from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.ingest.chunk import chunk_note

REGISTRY = load_types()
PROFILES = sorted(REGISTRY.chunk_profiles)
SMALL = ChunkProfile("small", target_chars=60, max_chars=120)


def make_note(body: str, title: str = "Title", note_id: str = "Ordner/Notiz") -> Note:
    return Note(note_id, f"{note_id}.md", title, "default", body, "h")


def check_invariants(note: Note, chunks: list[Chunk], profile: ChunkProfile) -> None:
    """Size limit, body slices, order, and no text lost between chunks."""
    assert [c.seq for c in chunks] == list(range(1, len(chunks) + 1))
    assert [c.chunk_id for c in chunks] == [f"{note.note_id}#{c.seq}" for c in chunks]
    for chunk in chunks:
        assert len(chunk.text) <= profile.max_chars
        assert chunk.end - chunk.start <= profile.max_chars
        assert chunk.text == note.body[chunk.start : chunk.end].strip()
        assert chunk.text
        assert chunk.note_id == note.note_id
    assert all(a.end <= b.start for a, b in zip(chunks, chunks[1:]))
    no_space = re.compile(r"\s")
    joined = "".join(chunk.text for chunk in chunks)
    assert no_space.sub("", joined) == no_space.sub("", note.body)


def words(n_chars: int) -> str:
    vocabulary = ["Vektor", "Graph", "Notiz", "Ein", "langes", "Wort", "x", "Datenbank"]
    out, i = [], 0
    while sum(len(w) + 1 for w in out) < n_chars:
        out.append(vocabulary[i % len(vocabulary)])
        i += 1
    return " ".join(out)[:n_chars]


BIG_BODIES = {
    "no-whitespace": "x" * 70_000,
    "words": words(70_000),
    "long-sentences": ("This sentence goes on " + "and on " * 400 + "until it ends. ") * 25,
    "short-sentences": "Kurz. Noch kürzer! Wirklich? " * 2500,
    "lines": "\n".join(f"Zeile {i} ohne Leerzeile" for i in range(3000)),
}


@pytest.mark.parametrize("profile_name", PROFILES)
@pytest.mark.parametrize("kind", sorted(BIG_BODIES))
def test_big_notes_never_exceed_max_chars(kind: str, profile_name: str) -> None:
    profile = REGISTRY.chunk_profiles[profile_name]
    note = make_note(BIG_BODIES[kind])
    assert len(note.body) >= 70_000
    chunks = chunk_note(note, profile)
    assert len(chunks) >= len(note.body) // profile.max_chars
    check_invariants(note, chunks, profile)


def test_no_whitespace_is_split_hard_at_max_chars() -> None:
    profile = REGISTRY.chunk_profiles["short"]
    chunks = chunk_note(make_note("y" * 2000), profile)
    assert [len(c.text) for c in chunks] == [900, 900, 200]


def test_long_paragraph_is_split_at_sentence_ends() -> None:
    sentence = "Satz " + "wort " * 8 + "Ende. "  # 51 characters, paragraph of 510
    note = make_note(sentence * 10)
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert len(chunks) == 5
    assert all(c.text == (sentence * 2).strip() for c in chunks)


def test_paragraphs_are_packed_up_to_target() -> None:
    note = make_note("\n\n".join(f"Absatz {i}." for i in range(1, 13)))  # 10-11 chars each
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert len(chunks) == 3
    assert chunks[0].text.startswith("Absatz 1.\n\nAbsatz 2.")
    assert all(len(c.text) <= SMALL.target_chars for c in chunks)


def para(word: str) -> str:
    return " ".join([word] * 8)


NESTED = f"""Einleitung, lang genug für einen eigenen Abschnitt hier.

# A
{para("alpha")}

## B
{para("bravo")}

### C
{para("charl")}

## D
{para("delta")}

# E
{para("echoo")}
"""


def test_heading_path_of_nested_headings() -> None:
    note = make_note(NESTED)
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert [(c.heading_path, c.headings) for c in chunks] == [
        ((), ()),
        (("A",), ("A",)),
        (("A", "B"), ("B",)),
        (("A", "B", "C"), ("C",)),
        (("A", "D"), ("D",)),
        (("E",), ("E",)),
    ]
    assert chunks[3].text == "### C\n" + para("charl")


def test_small_section_absorbs_its_subsection() -> None:
    note = make_note("# Titel\nkurz\n## Unter\nauch kurz\n### Tiefer\nx\n## Nachbar\ny\n")
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert [(c.heading_path, c.headings) for c in chunks] == [
        (("Titel",), ("Titel", "Unter")),
        (("Titel", "Unter", "Tiefer"), ("Tiefer",)),
        (("Titel", "Nachbar"), ("Nachbar",)),
    ]


def test_long_section_keeps_heading_path_in_every_piece() -> None:
    note = make_note("# Kapitel\n\n" + "\n\n".join(para(f"w{i}") for i in range(6)))
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert len(chunks) > 2
    assert all(c.heading_path == ("Kapitel",) for c in chunks)
    assert [c.headings for c in chunks] == [("Kapitel",)] + [()] * (len(chunks) - 1)


def test_code_block_comment_is_not_a_heading() -> None:
    body = (
        "# Setup\n\n"
        + para("install")
        + "\n\n```bash\n# comment line\npip install x\n```\n\n"
        + "~~~\n# tilde comment\n~~~\n"
    )
    note = make_note(body)
    chunks = chunk_note(note, SMALL)
    check_invariants(note, chunks, SMALL)
    assert len(chunks) >= 2
    assert all(c.heading_path == ("Setup",) for c in chunks)
    assert [h for c in chunks for h in c.headings] == ["Setup"]
    assert any("# comment line" in c.text for c in chunks)


@pytest.mark.parametrize("body", ["", "   \n\n\t\n"])
def test_empty_body_gives_one_chunk_with_the_title(body: str) -> None:
    chunks = chunk_note(make_note(body, title="Leere Notiz"), SMALL)
    assert len(chunks) == 1
    chunk = chunks[0]
    assert (chunk.seq, chunk.chunk_id, chunk.text) == (1, "Ordner/Notiz#1", "Leere Notiz")
    assert (chunk.heading_path, chunk.headings) == ((), ())


def test_short_note_is_one_chunk_with_the_whole_body() -> None:
    note = make_note("\n\n# Kurz\n\nNur ein Satz mit [[Link]].\n\n")
    chunks = chunk_note(note, REGISTRY.profile("default"))
    assert len(chunks) == 1
    assert chunks[0].text == "# Kurz\n\nNur ein Satz mit [[Link]]."
    assert chunks[0].heading_path == ("Kurz",)
