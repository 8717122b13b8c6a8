"""Tests for the Cognigy `.ctxt` parser."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.ingest.ctxt import (
    MAX_CHUNK_CHARS,
    MAX_CHUNKS,
    MAX_FILE_BYTES,
    MAX_META_CHARS,
    MAX_META_PAIRS,
    MAX_TAGS,
    CtxtError,
    parse_ctxt,
)

PATH = "Projekte/faq.ctxt"
HEADER = "`version: 1`\n`title: FAQ`\n\n"

GOOD = """\
`version: 1`
`title: Drucker FAQ`
`url: https://example.com/faq`
`tags: [drucker, support_2]`
`type: Knowledge`
`aliases: Printer FAQ, Drucker-Hilfe`
`owner: IT-Team`

# Drucker neu starten
Den Drucker aus- und wieder einschalten.
`url: https://example.com/faq#restart`
`image: https://example.com/restart.png`

Papierstau beheben:
Klappe öffnen und Papier entfernen.


Toner wechseln.
`url: https://example.com/faq#toner`
"""


def parse(text: str, path: str = PATH) -> tuple[Note, list[Chunk]]:
    return parse_ctxt(path, text.encode("utf-8"), "hash123", "faq")


def fail(text: str | bytes, path: str = PATH) -> CtxtError:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(CtxtError) as info:
        parse_ctxt(path, raw, "h", "faq")
    return info.value


def chunks_text(n: int) -> str:
    return "\n\n".join(f"Chunk {i}." for i in range(1, n + 1)) + "\n"


def test_good_file_note() -> None:
    note, chunks = parse(GOOD)
    assert note.note_id == "faq"
    assert note.path == PATH
    assert note.title == "Drucker FAQ"
    assert note.type == "knowledge"
    assert note.format == "ctxt"
    assert note.content_hash == "hash123"
    assert note.status == ""
    assert note.tags == ("drucker", "support_2")
    assert note.aliases == ("Printer FAQ", "Drucker-Hilfe")
    assert note.source_meta == {"url": "https://example.com/faq", "owner": "IT-Team"}
    assert note.body == "\n\n".join(c.text for c in chunks)


def test_good_file_chunks() -> None:
    _, chunks = parse(GOOD)
    assert [c.seq for c in chunks] == [1, 2, 3]
    assert all(c.note_id == "faq" and c.heading_path == () and c.headings == () for c in chunks)
    assert chunks[0].text == "# Drucker neu starten\nDen Drucker aus- und wieder einschalten."
    assert chunks[0].meta == {
        "url": "https://example.com/faq#restart",
        "image": "https://example.com/restart.png",
    }
    assert chunks[1].text == "Papierstau beheben:\nKlappe öffnen und Papier entfernen."
    assert chunks[1].meta == {}
    assert chunks[2].text == "Toner wechseln."
    assert chunks[2].meta == {"url": "https://example.com/faq#toner"}
    assert chunks[0].chunk_id == "faq#1"


def test_defaults_title_from_file_name_and_type_source() -> None:
    note, chunks = parse("`version: 1`\n\nHallo Welt.\n", path="Support/drucker.ctxt")
    assert note.title == "drucker"
    assert note.type == "source"
    assert note.tags == ()
    assert note.aliases == ()
    assert note.source_meta == {}
    assert [c.text for c in chunks] == ["Hallo Welt."]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("[a, b]", ("a", "b")),
        ("a, b", ("a", "b")),
        ("single", ("single",)),
        ("[one]", ("one",)),
        ("[]", ()),
        ("", ()),
        ("[x-1,y_2 , 3]", ("x-1", "y_2", "3")),
    ],
)
def test_tags_variants(value: str, expected: tuple[str, ...]) -> None:
    note, _ = parse(f"`version: 1`\n`tags: {value}`\n\nText.\n")
    assert note.tags == expected


def test_aliases_list() -> None:
    note, _ = parse("`version: 1`\n`aliases: [Eins, Zwei Drei]`\n\nText.\n")
    assert note.aliases == ("Eins", "Zwei Drei")


def test_tags_at_limit_pass_and_over_fail() -> None:
    tags = [f"t{i}" for i in range(MAX_TAGS + 1)]
    note, _ = parse(f"`version: 1`\n`tags: {', '.join(tags[:MAX_TAGS])}`\n\nText.\n")
    assert len(note.tags) == MAX_TAGS
    err = fail(f"`version: 1`\n`tags: {', '.join(tags)}`\n\nText.\n")
    assert "too many tags" in str(err)
    assert f"t{MAX_TAGS}" in str(err)
    assert str(err).startswith(PATH)


@pytest.mark.parametrize("bad", ["Drucker", "a b", "ümlaut", "a.b"])
def test_invalid_tag_named(bad: str) -> None:
    err = fail(f"`version: 1`\n`tags: [ok, {bad}]`\n\nText.\n")
    assert bad in str(err)
    assert str(err).startswith(PATH)


def test_missing_version() -> None:
    err = fail("`title: X`\n\nText.\n")
    assert str(err) == f"{PATH}: missing version"
    assert err.chunk is None
    assert err.reason == "missing version"


def test_no_header_is_missing_version() -> None:
    assert "missing version" in str(fail("Just text.\n\nMore.\n"))


def test_unsupported_version() -> None:
    err = fail("`version: 2`\n\nText.\n")
    assert str(err) == f"{PATH}: unsupported version 2 (supported: 1)"


def test_header_needs_blank_line() -> None:
    assert "blank line" in str(fail("`version: 1`\nText right after header.\n"))


def test_hash_lines_are_not_chunk_breaks() -> None:
    _, chunks = parse(HEADER + "# Eins\nText eins.\n# Zwei\nText zwei.\n## Drei\n")
    assert len(chunks) == 1
    assert chunks[0].text == "# Eins\nText eins.\n# Zwei\nText zwei.\n## Drei"


def test_crlf_and_bom() -> None:
    text = GOOD.replace("\n", "\r\n")
    note, chunks = parse_ctxt(PATH, b"\xef\xbb\xbf" + text.encode("utf-8"), "h", "faq")
    assert note.title == "Drucker FAQ"
    assert len(chunks) == 3
    assert all("\r" not in c.text for c in chunks)
    assert chunks[0].meta["image"] == "https://example.com/restart.png"
    assert "\r" not in note.body


def test_whitespace_only_lines_separate_chunks() -> None:
    _, chunks = parse(HEADER + "Eins.\n   \t\nZwei.\n")
    assert [c.text for c in chunks] == ["Eins.", "Zwei."]


def test_meta_line_in_middle_of_chunk_stays_text() -> None:
    _, chunks = parse(HEADER + "Erste Zeile.\n`url: https://x.example`\nWeiter im Text.\n`k: v`\n")
    assert chunks[0].text == "Erste Zeile.\n`url: https://x.example`\nWeiter im Text."
    assert chunks[0].meta == {"k": "v"}


def test_invalid_utf8() -> None:
    err = fail(b"`version: 1`\n\nText \xff\xfe.\n")
    assert "not valid UTF-8" in str(err)
    assert str(err).startswith(PATH)


def test_file_size_at_limit_passes() -> None:
    base = (HEADER + "Text.\n").encode("utf-8")
    raw = base + b"\n" * (MAX_FILE_BYTES - len(base))
    assert len(raw) == MAX_FILE_BYTES
    _, chunks = parse_ctxt(PATH, raw, "h", "faq")
    assert len(chunks) == 1


def test_file_size_over_limit_fails() -> None:
    base = (HEADER + "Text.\n").encode("utf-8")
    raw = base + b"\n" * (MAX_FILE_BYTES + 1 - len(base))
    err = fail(raw)
    assert (
        str(err) == f"{PATH}: file too large ({MAX_FILE_BYTES + 1} bytes, limit {MAX_FILE_BYTES})"
    )


def test_chunk_length_at_limit_passes() -> None:
    _, chunks = parse(HEADER + "Eins.\n\n" + "x" * MAX_CHUNK_CHARS + "\n")
    assert len(chunks[1].text) == MAX_CHUNK_CHARS


def test_chunk_length_over_limit_fails() -> None:
    err = fail(HEADER + "Eins.\n\nZwei.\n\n" + "x" * (MAX_CHUNK_CHARS + 1) + "\n")
    assert "Chunk too long" in str(err)
    assert str(err).startswith(f"{PATH}: chunk 3: ")
    assert err.chunk == 3


def test_chunk_count_at_limit_passes() -> None:
    _, chunks = parse(HEADER + chunks_text(MAX_CHUNKS))
    assert len(chunks) == MAX_CHUNKS
    assert chunks[-1].seq == MAX_CHUNKS


def test_chunk_count_over_limit_fails() -> None:
    err = fail(HEADER + chunks_text(MAX_CHUNKS + 1))
    assert f"too many chunks ({MAX_CHUNKS + 1}, limit {MAX_CHUNKS})" in str(err)
    assert str(err).startswith(f"{PATH}: chunk {MAX_CHUNKS + 1}: ")


def _pairs(n: int) -> str:
    return "".join(f"`k{i}: v`\n" for i in range(n))


def test_chunk_meta_pairs_at_limit_passes() -> None:
    _, chunks = parse(HEADER + "Eins.\n\nZwei.\n" + _pairs(MAX_META_PAIRS))
    assert len(chunks[1].meta) == MAX_META_PAIRS


def test_chunk_meta_pairs_over_limit_fails() -> None:
    err = fail(HEADER + "Eins.\n\nZwei.\n" + _pairs(MAX_META_PAIRS + 1))
    assert "too many metadata pairs" in str(err)
    assert str(err).startswith(f"{PATH}: chunk 2: ")


def test_header_meta_pairs_limit() -> None:
    # version + (MAX_META_PAIRS - 1) custom keys = exactly the limit.
    note, _ = parse("`version: 1`\n" + _pairs(MAX_META_PAIRS - 1) + "\nText.\n")
    assert len(note.source_meta) == MAX_META_PAIRS - 1
    err = fail("`version: 1`\n" + _pairs(MAX_META_PAIRS) + "\nText.\n")
    assert "too many metadata pairs" in str(err)
    assert str(err).startswith(f"{PATH}: ")
    assert err.chunk is None


def test_chunk_meta_chars_limit() -> None:
    # len("url") + value length == MAX_META_CHARS exactly.
    value = "u" * (MAX_META_CHARS - 3)
    _, chunks = parse(HEADER + f"Eins.\n`url: {value}`\n")
    assert len(chunks[0].meta["url"]) == MAX_META_CHARS - 3
    err = fail(HEADER + f"Eins.\n`url: {value}u`\n")
    assert "metadata too long" in str(err)
    assert str(err).startswith(f"{PATH}: chunk 1: ")


def test_header_meta_chars_limit() -> None:
    # "version"+"1" = 8 chars, "owner" = 5 chars.
    value = "o" * (MAX_META_CHARS - 8 - 5)
    note, _ = parse(f"`version: 1`\n`owner: {value}`\n\nText.\n")
    assert note.source_meta["owner"] == value
    err = fail(f"`version: 1`\n`owner: {value}o`\n\nText.\n")
    assert "metadata too long" in str(err)
    assert err.chunk is None


def test_empty_chunk_text() -> None:
    err = fail(HEADER + "Eins.\n\n`url: https://x.example`\n`image: y`\n\nDrei.\n")
    assert "empty chunk text" in str(err)
    assert str(err).startswith(f"{PATH}: chunk 2: ")


@pytest.mark.parametrize("rest", ["", "\n\n  \n"])
def test_no_chunks(rest: str) -> None:
    err = fail("`version: 1`\n" + rest)
    assert "no chunks" in str(err)
    assert str(err).startswith(PATH)


def test_error_is_value_error() -> None:
    err = fail("`version: 3`\n\nText.\n")
    assert isinstance(err, ValueError)
    assert err.path == PATH
    assert err.reason == "unsupported version 3 (supported: 1)"
