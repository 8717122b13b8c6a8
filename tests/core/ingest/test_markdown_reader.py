"""The Markdown reader (core/ingest/markdown.py) and Obsidian's extensions (obsidian.py)."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.ingest.links import block_ids, extract_links
from mindnet_desktop.core.ingest.markdown import read_markdown
from mindnet_desktop.core.ingest.parse import inline_tags, parse_markdown


def wikilinks(text: str) -> list[tuple[str, bool]]:
    return [(w.inner, w.embed) for w in read_markdown(text).wikilinks]


def headings(text: str) -> list[tuple[int, str]]:
    return [(h.level, h.text) for h in read_markdown(text).headings]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[[T]]", [("T", False)]),
        ("[[T|alias]] [[T#Heading]]", [("T|alias", False), ("T#Heading", False)]),
        ("[[T#^block-1]]", [("T#^block-1", False)]),
        ("![[T]] and ![[pic.png]]", [("T", True), ("pic.png", True)]),
        ("[[rel:depends_on T]]", [("rel:depends_on T", False)]),
        ("*[[T]]* and **see [[U]]**", [("T", False), ("U", False)]),
        # A table cell unescapes `\\|`: the alias bar Obsidian writes in tables.
        ("| a | [[T\\|x]] |\n|---|---|\n| [[U]] | b |", [("T|x", False), ("U", False)]),
    ],
)  # fmt: skip
def test_wikilinks_and_embeds(text: str, expected: list[tuple[str, bool]]) -> None:
    assert wikilinks(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "```\n[[fenced]]\n```",
        "~~~md\n[[tilde]]\n~~~",
        "para\n\n    [[indented]] [no](d.md)\n",
        "`[[inline]]` and ``[[double]]``",
        "\\[[escaped]]",
        "<!-- [[html comment]] -->",
        "<!--\n[[html comment block]]\n-->",
        "%% [[comment]] %%",
        "%%\n[[comment block]]\n\n[x](block.md)\n%%",
        "> %% [[quoted comment]] %%",
    ],
)
def test_nothing_counts_in_code_escapes_html_or_comments(text: str) -> None:
    assert read_markdown(text).wikilinks == ()
    assert [link for link in read_markdown(text).links if not link.image] == []
    assert extract_links(text) == []


def test_an_unclosed_comment_is_text() -> None:
    assert wikilinks("%% [[open]]") == [("open", False)]
    assert wikilinks("%%\n[[open block]]") == [("open block", False)]


def test_text_after_a_comment_on_its_line_is_read() -> None:
    assert wikilinks("%%note to self%% see [[L]]") == [("L", False)]


def test_a_comment_between_links_hides_only_its_own() -> None:
    assert wikilinks("[[a]] %%[[b]]%% [[c]]\n%%\n[[d]]\n%%\n[[e]]") == [
        ("a", False),
        ("c", False),
        ("e", False),
    ]


def test_offsets_point_at_the_link_in_the_note() -> None:
    text = "# H\n\n- item [[A]]\n  > quoted [[B]] and [m](M.md)\n\ntext\nline [[C]]"
    doc = read_markdown(text)
    assert [text[w.start : w.end] for w in doc.wikilinks] == ["[[A]]", "[[B]]", "[[C]]"]
    assert [text[link.start : link.start + 3] for link in doc.links] == ["[m]"]


def test_headings_are_atx_or_setext_as_commonmark_says() -> None:
    text = "# One #\n\nTwo\n===\n\n#NoSpace\n\n    # code\n\nThree\n---\n\n> # Quoted\n\n## Four\n"
    assert headings(text) == [(1, "One"), (1, "Two"), (2, "Three"), (1, "Quoted"), (2, "Four")]
    nested = [h.text for h in read_markdown(text).headings if h.nested]
    assert nested == ["Quoted"]


def test_a_thematic_break_after_a_blank_line_is_no_heading() -> None:
    assert headings("text\n\n---\n") == []


def test_front_matter_is_read_as_properties_not_as_markdown() -> None:
    text = "---\ntitle: [[Not a link]]\n---\n# Body\n"
    assert headings(text) == [(1, "Body")]
    assert wikilinks(text) == []


def test_block_ids_close_a_block() -> None:
    text = "para ^p1\n\n- item ^li-2\n\nmiddle ^no more\n\n`code ^c`\n\n## Heading ^h3"
    assert block_ids(text) == ["^p1", "^li-2", "^h3"]


def test_callouts_and_their_kinds() -> None:
    text = (
        "> [!note] Title\n> [[N]]\n\n"
        "> [!edge] related_to: [[A]] [[B]]\n> depends_on: [[C]]\n>\n> [[D]]\n\n"
        "> [!EDGE]+\n> [[E]]\n> causes: [[F]]\n\n[[G]]"
    )
    doc = read_markdown(text)
    assert [kind for kind, _ in doc.callouts] == ["note", "edge", "edge"]
    got = [(w.inner, w.callout, w.callout_kind) for w in doc.wikilinks]
    assert got == [
        ("N", "note", ""),
        ("A", "edge", "related_to"),
        ("B", "edge", "related_to"),
        ("C", "edge", "depends_on"),
        ("D", "edge", "depends_on"),
        ("E", "edge", ""),
        ("F", "edge", "causes"),
        ("G", "", ""),
    ]
    rules = [(link.rule, link.kind, link.target) for link in extract_links(text)]
    assert rules == [
        ("wikilink", "references", "N"),
        ("callout", "related_to", "A"),
        ("callout", "related_to", "B"),
        ("callout", "depends_on", "C"),
        ("callout", "depends_on", "D"),
        ("wikilink", "references", "E"),
        ("callout", "causes", "F"),
        ("wikilink", "references", "G"),
    ]


def test_markdown_links_as_commonmark_reads_them() -> None:
    text = (
        "[a](/bar\\*) \\[not](/foo) [b](foo(and(bar))) [c][r1] [d][] [e]\n\n"
        "[r1]:\n  /multi\n[d]: /collapsed\n> [e]: /in-quote\n\n    [i]: /indented-code\n[i]\n\n"
        "[f][g][h]\n\n[g]: /g\n[h]: /h\n\n[^1] and ![img](pic.png)\n\n[^1]: a footnote\n"
    )
    hrefs = [(link.href, link.image) for link in read_markdown(text).links]
    assert hrefs == [
        ("/bar*", False),
        ("foo(and(bar))", False),
        ("/multi", False),
        ("/collapsed", False),
        ("/in-quote", False),
        ("/g", False),  # `[f][g]` a full reference link, `[h]` a shortcut one
        ("/h", False),
        ("pic.png", True),
    ]


def test_tags_come_from_prose_only() -> None:
    body = "#one `#code` [[#two]] %% #hidden %% <!-- #html -->\n\n    #indented\n\n# Heading #three"
    assert inline_tags(body) == ["one", "three"]


def test_a_note_reads_its_title_from_the_first_h1_heading_of_either_style() -> None:
    note = parse_markdown("n.md", "Intro\n\nThe Title\n=========\n\n# Later\n", "h")
    assert note.title == "The Title"
