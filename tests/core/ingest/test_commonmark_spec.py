"""The Markdown reader against the CommonMark spec's own examples (spec 0.31.2, vendored).

Every example is read as a note: the Markdown links recorded must be the link destinations the
spec renders (`<a href>`, raw-HTML anchors aside), and no wikilink may be read where
CommonMark reads code, HTML or an escape.
"""

from __future__ import annotations

import hashlib

import pytest
from markdown_it import MarkdownIt

from mindnet_desktop.core.ingest.markdown import read_markdown
from tests.core.ingest.commonmark_examples import SPEC, Example, examples

EXAMPLES = examples()
# Where Obsidian's syntax claims the text before CommonMark does: example -> the wikilink read.
OBSIDIAN_FIRST = {559: "*foo* bar"}  # `[[*foo* bar]]`: a wikilink in Obsidian, not `[...]`


def recorded_links(example: Example) -> list[str]:
    return [link.href for link in read_markdown(example.markdown).links if not link.image]


def test_the_vendored_spec_is_0_31_2_unchanged() -> None:
    digest = hashlib.sha256(SPEC.read_bytes()).hexdigest()
    assert digest == "257c41ad946f7a1414a499aca402a1aa8fdac3678532266611348c1cf54f4b80"
    assert len(EXAMPLES) == 652


WITH_LINKS = [e for e in EXAMPLES if e.link_destinations() or recorded_links(e)]
SPEC_FIRST = [e for e in WITH_LINKS if e.number not in OBSIDIAN_FIRST]


def test_the_examples_with_links_are_many() -> None:
    assert len(WITH_LINKS) == 111 and len(SPEC_FIRST) == 110


@pytest.mark.parametrize("example", SPEC_FIRST, ids=lambda e: f"{e.number}-{e.section}")
def test_links_recorded_are_the_destinations_the_spec_renders(example: Example) -> None:
    assert recorded_links(example) == example.link_destinations()


@pytest.mark.parametrize("number", sorted(OBSIDIAN_FIRST))
def test_where_obsidian_syntax_comes_first_a_wikilink_is_read(number: int) -> None:
    example = EXAMPLES[number - 1]
    wikilinks = [w.inner for w in read_markdown(example.markdown).wikilinks]
    assert wikilinks == [OBSIDIAN_FIRST[number]]
    assert recorded_links(example) != example.link_destinations()


# The probe below puts `[[foo]]` where an example says `foo`. In 497 CommonMark then reads
# `[[foo]](and(bar))` as a link with the text `[foo]`; Obsidian reads the wikilink first.
PROBE_OBSIDIAN_FIRST = {497}
REFERENCE = MarkdownIt("commonmark")  # passes the spec; no Obsidian syntax
PROBE = "[[foo]]"


def _probe_counts(text: str) -> tuple[int, int]:
    """(in prose, in code or HTML): where CommonMark alone puts each `[[foo]]` of `text`.

    Prose is the text of inline runs outside autolinks and images; code is fenced and
    indented code, code spans and HTML.
    """
    prose = code = 0
    for token in REFERENCE.parse(text):
        if token.type in ("fence", "code_block", "html_block"):
            code += token.content.count(PROBE)
        if token.type != "inline" or not token.children:
            continue
        run: list[str] = []
        autolink = False
        for child in token.children:
            autolink = (autolink or child.markup == "autolink") and child.type != "link_close"
            if child.type == "text" and not autolink:
                run.append(child.content)
                continue
            prose += "".join(run).count(PROBE)
            run = []
            if child.type in ("code_inline", "html_inline"):
                code += child.content.count(PROBE)
        prose += "".join(run).count(PROBE)
    return prose, code


WITH_FOO = [e for e in EXAMPLES if "foo" in e.markdown]


def test_the_probe_lands_in_code_and_html_often() -> None:
    in_code = sum(_probe_counts(e.markdown.replace("foo", PROBE))[1] for e in WITH_FOO)
    assert len(WITH_FOO) > 300
    assert in_code > 30


@pytest.mark.parametrize("example", WITH_FOO, ids=lambda e: str(e.number))
def test_no_wikilink_is_read_in_code_html_or_escapes(example: Example) -> None:
    """`foo` made `[[foo]]`: read exactly where CommonMark shows it as text; made `\\[[foo]]`
    (escaped, as a user writes to avoid a link): never read."""
    probe = example.markdown.replace("foo", PROBE)
    read = [w for w in read_markdown(probe).wikilinks if w.inner == "foo"]
    if example.number not in PROBE_OBSIDIAN_FIRST:
        assert len(read) == _probe_counts(probe)[0]
    escaped = example.markdown.replace("foo", "\\" + PROBE)
    assert not [w for w in read_markdown(escaped).wikilinks if w.inner == "foo"]
