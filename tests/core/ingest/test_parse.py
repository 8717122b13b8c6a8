"""Tests for the Markdown note parser."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.ingest.parse import default_note_id, parse_markdown

PATH = "Projekte/KI-Projekt Alpha.md"


def parse(text: str, path: str = PATH) -> Note:
    return parse_markdown(path, text, "hash-1")


def with_frontmatter(yaml_text: str, body: str = "Body text.\n") -> str:
    return f"---\n{yaml_text}\n---\n{body}"


def test_full_note() -> None:
    note = parse(
        with_frontmatter(
            "title: Alpha\ntype: Project\nstatus: Active\ntags: [ki, vektor]\n"
            "aliases: [Alpha, Projekt A]",
            "# Heading\n\nText with #ki and #neu.\n",
        )
    )
    assert note.note_id == "Projekte/KI-Projekt Alpha"
    assert note.path == PATH
    assert note.title == "Alpha"
    assert note.type == "project"
    assert note.status == "active"
    assert note.tags == ("ki", "vektor", "neu")
    assert note.aliases == ("Alpha", "Projekt A")
    assert note.body == "# Heading\n\nText with #ki and #neu."  # python-frontmatter strips
    assert note.content_hash == "hash-1"
    assert note.format == "markdown"
    assert note.warnings == ()
    assert note.name == "KI-Projekt Alpha"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        pytest.param(
            with_frontmatter("title: From FM", "# From H1\n"), "From FM", id="frontmatter"
        ),
        pytest.param(with_frontmatter("title: '  '", "# From H1\n"), "From H1", id="blank-fm"),
        pytest.param("Intro\n\n## Second level\n\n# First H1\n\n# Later H1\n", "First H1", id="h1"),
        pytest.param("```\n# not a heading\n```\n\n## Only H2\n", "KI-Projekt Alpha", id="name"),
        pytest.param("", "KI-Projekt Alpha", id="empty"),
    ],
)
def test_title_precedence(text: str, title: str) -> None:
    assert parse(text).title == title


@pytest.mark.parametrize(
    ("yaml_text", "type_"),
    [
        ("type: Project", "project"),
        ("type: '  DECISION '", "decision"),
        ("type: banana", "banana"),
        ("title: no type", "default"),
        ("type:", "default"),
        ("type: ''", "default"),
    ],
)
def test_type(yaml_text: str, type_: str) -> None:
    assert parse(with_frontmatter(yaml_text)).type == type_


def test_no_frontmatter_gives_default_type() -> None:
    assert parse("Just text.\n").type == "default"


@pytest.mark.parametrize(
    ("yaml_text", "body", "tags"),
    [
        pytest.param("tags: [a, b]", "", ("a", "b"), id="list"),
        pytest.param("tags: 'a, b ,#c'", "", ("a", "b", "c"), id="comma-string"),
        pytest.param("tags: single", "", ("single",), id="scalar"),
        pytest.param("tags: [a, b]", "Text #b #c #a #c\n", ("a", "b", "c"), id="deduplicated"),
        pytest.param(
            "title: x",
            "#x, #y. (#z) #ns/sub #end-\n",
            ("x", "y", "z", "ns/sub", "end"),
            id="inline",
        ),
        pytest.param("title: x", "Numbers #123 and #2024 but #v2\n", ("v2",), id="numbers"),
        pytest.param("title: x", "# Heading\n## Sub heading\n", (), id="headings"),
        pytest.param("title: x", "```\n#fenced\n```\n~~~\n#tilde\n~~~\n", (), id="fenced"),
        pytest.param("title: x", "Use `#inline` code and ``a #b``\n", (), id="inline-code"),
        pytest.param("title: x", "[[Note#Section]] [[#Local]] [[Ä#Ü|x]]\n", (), id="links"),
        pytest.param("title: x", "https://x.org/page#frag and a&#39;b\n", (), id="url-entity"),
    ],
)
def test_tags(yaml_text: str, body: str, tags: tuple[str, ...]) -> None:
    assert parse(with_frontmatter(yaml_text, body)).tags == tags


def test_heading_link_after_punctuation_is_not_a_tag() -> None:
    assert parse("See [[Meeting (2024)#Agenda]] and [[C++#Usage]].\n").tags == ()


@pytest.mark.parametrize(
    ("yaml_text", "aliases"),
    [
        ("aliases: [Alpha, 'Projekt A']", ("Alpha", "Projekt A")),
        ("aliases: Alpha", ("Alpha",)),
        ("aliases: 'Alpha, Beta'", ("Alpha", "Beta")),
        ("alias: Solo", ("Solo",)),
        ("title: none", ()),
    ],
)
def test_aliases(yaml_text: str, aliases: tuple[str, ...]) -> None:
    assert parse(with_frontmatter(yaml_text)).aliases == aliases


@pytest.mark.parametrize(
    ("yaml_text", "path", "note_id"),
    [
        ("id: alpha-001", PATH, "alpha-001"),
        ("id: 42", PATH, "42"),
        ("id: ''", PATH, "Projekte/KI-Projekt Alpha"),
        ("title: x", PATH, "Projekte/KI-Projekt Alpha"),
        ("title: x", "Top.md", "Top"),
        ("title: x", "v1.2/notes.v3.md", "v1.2/notes.v3"),
    ],
)
def test_note_id(yaml_text: str, path: str, note_id: str) -> None:
    assert parse(with_frontmatter(yaml_text), path).note_id == note_id


@pytest.mark.parametrize(
    ("path", "note_id"),
    [("a/b.md", "a/b"), ("a.b/c", "a.b/c"), ("x.ctxt", "x"), ("noext", "noext")],
)
def test_default_note_id(path: str, note_id: str) -> None:
    assert default_note_id(path) == note_id


BROKEN = "---\ntitle: [unclosed\ntype: project\n---\n# Body Title\n\nText #kept [[Link]].\n"


def test_broken_yaml_still_parses_the_body() -> None:
    note = parse(BROKEN)
    assert note.type == "default"
    assert note.title == "Body Title"
    assert note.body == "# Body Title\n\nText #kept [[Link]]."  # stripped like valid notes
    assert note.tags == ("kept",)
    assert note.note_id == "Projekte/KI-Projekt Alpha"
    assert len(note.warnings) == 1
    assert "broken YAML" in note.warnings[0]
    assert note.warnings[0].startswith(f"{PATH}: ")


def test_broken_yaml_with_crlf_line_endings_is_cut_from_body() -> None:
    note = parse(BROKEN.replace("\n", "\r\n"))
    assert len(note.warnings) == 1
    assert "unclosed" not in note.body
    assert note.title == "Body Title"


def test_non_mapping_frontmatter_gives_a_warning() -> None:
    note = parse("---\n- one\n- two\n---\nBody\n")
    assert note.body == "Body"
    assert len(note.warnings) == 1
    assert "not a mapping" in note.warnings[0]
