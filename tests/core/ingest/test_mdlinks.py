"""Markdown links, property links and block references: extraction and resolution."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.ingest.links import NoteKey, Resolver, block_ids, extract_links, slug
from mindnet_desktop.core.ingest.mdlinks import note_target
from mindnet_desktop.core.ingest.parse import parse_markdown, property_links

Row = tuple[str, str, str]  # rule, target, heading


def rows(body: str, source: str = "A/N.md") -> list[Row]:
    return [(link.rule, link.target, link.heading) for link in extract_links(body, source)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("[t](Note.md)", [("mdlink", "Note.md", "")], id="with-md"),
        pytest.param("[t](Note)", [("mdlink", "Note", "")], id="without-md"),
        pytest.param(
            "[t](Folder/My%20Note.md#Part%20Two)",
            [("mdlink", "Folder/My Note.md", "Part Two")],
            id="url-encoded-heading",
        ),
        pytest.param("[t](<My Note.md>)", [("mdlink", "My Note.md", "")], id="angle-brackets"),
        pytest.param('[t](Note.md "Title")', [("mdlink", "Note.md", "")], id="title"),
        pytest.param("[t](/B/Note.md)", [("mdlink", "B/Note.md", "")], id="vault-absolute"),
        pytest.param("[t](../B/Note.md)", [("mdlink", "B/Note.md", "")], id="relative-up"),
        pytest.param("[t](./Note.md)", [("mdlink", "A/Note.md", "")], id="relative-dot"),
        pytest.param("[t](../../x.md)", [("mdlink", "/../x.md", "")], id="outside-vault"),
        pytest.param("[t](#Local)", [("mdlink", "", "Local")], id="own-heading"),
        pytest.param("[t](Note.md#^b1)", [("mdlink", "Note.md", "^b1")], id="block"),
        pytest.param(
            "[t](ch04-01-ownership.html#the-stack)",
            [("mdlink", "ch04-01-ownership", "the-stack")],
            id="html-stem",
        ),
        pytest.param(
            "See [the `Vec` type][vec] and [Chapter\n8][ch8].\n\n"
            "[vec]: ch08-01-vectors.html\n[CH8]: <ch08 strings.md>\n",
            [("mdlink", "ch08-01-vectors", ""), ("mdlink", "ch08 strings.md", "")],
            id="reference-style-wrapped-text-and-label-case",
        ),
        pytest.param(
            "[ch8][] and [ch8]\n\n[ch8]: ch08.md",
            [("mdlink", "ch08.md", ""), ("mdlink", "ch08.md", "")],
            id="collapsed-and-shortcut",
        ),
        pytest.param("[undefined] [x][nope] - [ ] task", [], id="no-definition"),
        pytest.param("Text[^1].\n\n[^1]: Note.md", [], id="footnote"),
        pytest.param(
            "[a](https://example.org/x.md) [b](mailto:a@b.c) [c](obsidian://open?x) "
            "[d](//host/x) [e](file:///x.md)",
            [],
            id="urls",
        ),
        pytest.param("![pic](Note.md) ![alt](image.png)", [], id="images"),
        pytest.param("[pdf](paper.pdf) [code](main.rs) [pic](a.png)", [], id="attachments"),
        pytest.param("[v](Release 1.2)", [], id="space-in-bare-target-is-no-link"),
        pytest.param("[v](<Release 1.2>)", [("mdlink", "Release 1.2", "")], id="numeric-suffix"),
        pytest.param("`[t](Note.md)`\n```\n[t](Other.md)\n```", [], id="code"),
        pytest.param(
            "[[Wiki]] and [t](Md.md)",
            [("wikilink", "Wiki", ""), ("mdlink", "Md.md", "")],
            id="mixed-in-document-order",
        ),
        pytest.param("[[A]][[B]]\n\n[b]: X.md", [("wikilink", "A", ""), ("wikilink", "B", "")]),
    ],
)
def test_markdown_link_forms(body: str, expected: list[Row]) -> None:
    assert rows(body) == expected


def test_markdown_links_are_references_with_offsets() -> None:
    body = "one [a](A.md) two [b][x]\n\n[x]: B.md"
    links = extract_links(body)
    assert [(link.kind, link.offset) for link in links] == [
        ("references", body.index("[a]")),
        ("references", body.index("[b]")),
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Note.md", ("Note.md", "")),
        ("%C3%9Cbersicht.md", ("Übersicht.md", "")),
        ("Note.md?plain=1#H", ("Note.md", "H")),
        ("", None),
        ("http://x", None),
        ("C:/x.md", None),
    ],
)
def test_note_target(raw: str, expected: tuple[str, str] | None) -> None:
    assert note_target(raw, "N.md") == expected


NOTES = [
    NoteKey("A/Note", "A/Note.md", (), (("Part Two", 2), ("^b1", 3))),
    NoteKey("Note", "Note.md"),
    NoteKey("A/sub/Deep", "A/sub/Deep.md"),
    NoteKey("sub/Deep", "sub/Deep.md"),
    NoteKey("B/Other", "B/Other.md"),
    NoteKey("ch05", "ch05.md", (), (("Defining an Enum", 4), ("The `Option` Enum", 5))),
]


@pytest.mark.parametrize(
    ("ref", "source", "expected"),
    [
        ("Note.md", "Note", "Note"),
        ("Note.md", "B/Other", "Note"),  # a bare name: the shortest path when not in B/
        ("Note.md", "A/sub/Deep", "Note"),
        ("Note.md", "A/Note", "A/Note"),  # the linking note's folder wins
        ("A/Note.md#Part Two", "Note", "A/Note#2"),
        ("A/Note.md#^b1", "Note", "A/Note#3"),
        ("A/Note.md#^nope", "Note", "A/Note"),
        ("sub/Deep.md", "Note", "sub/Deep"),  # vault path first
        ("sub/Deep.md", "A/Note", "sub/Deep"),
        ("B/Other.md", "A/Note", "B/Other"),
        ("ch05#defining-an-enum", "Note", "ch05#4"),
        ("ch05#the-option-enum", "Note", "ch05#5"),
        ("ch05#---", "Note", "ch05"),
        ("/../x.md", "A/Note", None),
    ],
)
def test_resolution(ref: str, source: str, expected: str | None) -> None:
    note_id, target_id = Resolver(NOTES).resolve(ref, source)
    assert (target_id if note_id else None) == expected


def test_relative_path_resolves_against_the_linking_notes_folder() -> None:
    resolver = Resolver(
        [NoteKey("A/sub/Deep", "A/sub/Deep.md"), NoteKey("X/sub/Deep", "X/sub/Deep.md")]
    )
    assert resolver.resolve_note("sub/Deep.md", "A/Note.md") == "A/sub/Deep"
    assert resolver.resolve_note("sub/Deep.md", "X/Note.md") == "X/sub/Deep"


def test_slug() -> None:
    assert slug("Hello, World!") == "hello-world"
    assert slug("Über Größen") == "über-größen"
    assert slug("?!") == ""


def test_block_ids_close_a_line_outside_code() -> None:
    text = "A paragraph. ^para-1\n\n- item ^li\n\n^own-line\n\n`code ^no`\nx^nope\n"
    assert block_ids(text) == ["^para-1", "^li", "^own-line"]


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ('related: "[[A]]"', [("related", "[[A]]")]),
        ("related: [[A]]", [("related", "[[A]]")]),  # unquoted: YAML reads [["A"]]
        ('up:\n  - "[[A]]"\n  - "[[B|b]]"', [("up", "[[A]]"), ("up", "[[B|b]]")]),
        ("up:\n  - [[A]]\n  - [[B]]", [("up", "[[A]]"), ("up", "[[B]]")]),
        ('source: "[text](Folder/Note.md)"', [("source", "[text](Folder/Note.md)")]),
        ("tags: [a, b]\naliases: [[X]]\ncount: 3\ntitle: plain", []),
    ],
)
def test_property_links(yaml_text: str, expected: list[tuple[str, str]]) -> None:
    note = parse_markdown("N.md", f"---\n{yaml_text}\n---\nBody\n", "h")
    assert list(note.property_links) == expected


def test_property_links_of_a_plain_mapping() -> None:
    assert property_links({"related": ["[[A]]", 3, None, {"x": "[[B]]"}]}) == (
        ("related", "[[A]]"),
    )
