"""Tests for link extraction and Obsidian-style link resolution."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.ingest.links import Link, NoteKey, Resolver, extract_links, normalize_kind

Row = tuple[str, str, str, str]  # rule, kind, target, heading


def rows(body: str) -> list[Row]:
    return [(link.rule, link.kind, link.target, link.heading) for link in extract_links(body)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("See [[Note]].", [("wikilink", "references", "Note", "")], id="plain"),
        pytest.param("[[Note|shown]]", [("wikilink", "references", "Note", "")], id="alias"),
        pytest.param(
            "[[Note#Part Two|x]]", [("wikilink", "references", "Note", "Part Two")], id="heading"
        ),
        pytest.param(
            "[[Note#^block1]]", [("wikilink", "references", "Note", "^block1")], id="block"
        ),
        pytest.param("[[#Local]]", [("wikilink", "references", "", "Local")], id="own-heading"),
        pytest.param(
            "[[rel:depends_on Qdrant Vektordatenbank]]",
            [("inline", "depends_on", "Qdrant Vektordatenbank", "")],
            id="rel",
        ),
        pytest.param(
            "[[rel:DependsOn Qdrant|Q]]", [("inline", "depends_on", "Qdrant", "")], id="rel-pascal"
        ),
        pytest.param(
            "[[rel:beeinflusst-von Ziel#Kapitel]]",
            [("inline", "beeinflusst_von", "Ziel", "Kapitel")],
            id="rel-custom",
        ),
        pytest.param(
            "> [!edge] related_to: [[A]] [[B]]",
            [("callout", "related_to", "A", ""), ("callout", "related_to", "B", "")],
            id="callout",
        ),
        pytest.param(
            "> [!edge] related_to: [[A]]\n> [[B]]\n> DependsOn: [[C]]\n\n[[D]]",
            [
                ("callout", "related_to", "A", ""),
                ("callout", "related_to", "B", ""),
                ("callout", "depends_on", "C", ""),
                ("wikilink", "references", "D", ""),
            ],
            id="callout-multiline",
        ),
        pytest.param(
            "> [!EDGE]-\n> causes: [[X]]\n\nafter [[Y]]",
            [("callout", "causes", "X", ""), ("wikilink", "references", "Y", "")],
            id="callout-folded-then-text",
        ),
        # CommonMark: a line without `>` right after a quoted paragraph continues it (a lazy
        # continuation line), so it is in the callout, as Obsidian shows it.
        pytest.param(
            "> [!EDGE]-\n> causes: [[X]]\nafter [[Y]]",
            [("callout", "causes", "X", ""), ("callout", "causes", "Y", "")],
            id="callout-lazy-continuation",
        ),
        pytest.param(
            "> [!note] related_to: [[Q]]", [("wikilink", "references", "Q", "")], id="other-callout"
        ),
        pytest.param("![[x.png]] ![[Other Note]]", [], id="embeds"),
        pytest.param("```\n[[Fenced]]\n```\n~~~\n[[Tilde]]\n~~~", [], id="fenced"),
        pytest.param("`[[Inline]]` and ``[[Double]]``", [], id="inline-code"),
        pytest.param("[[]] [[|x]] [[ ]]", [], id="empty"),
    ],
)
def test_extract_links(body: str, expected: list[Row]) -> None:
    assert rows(body) == expected


def test_links_are_in_document_order_with_offsets() -> None:
    body = "x ![[img.png]] [[rel:causes B]]\n\n> [!edge] related_to: [[C]]\n`[[no]]` [[A]]"
    links = extract_links(body)
    assert [link.target for link in links] == ["B", "C", "A"]
    expected = [body.index(text) for text in ("[[rel:causes B]]", "[[C]]", "[[A]]")]
    assert [link.offset for link in links] == expected == [15, 55, 70]


def test_code_block_does_not_hide_later_links() -> None:
    body = "```\n[[Hidden]]\n```\n\n[[Visible]] `x` [[Also]]"
    assert [link.target for link in extract_links(body)] == ["Visible", "Also"]


def test_crlf_fenced_block_closes() -> None:
    assert rows("```\r\ncode\r\n```\r\nSee [[Target]]\r\n") == [
        ("wikilink", "references", "Target", "")
    ]


@pytest.mark.parametrize(
    ("link", "ref"),
    [
        (Link("wikilink", "references", "Note", "Part", 0), "Note#Part"),
        (Link("wikilink", "references", "Note", "", 0), "Note"),
        (Link("wikilink", "references", "", "Local", 0), "#Local"),
    ],
)
def test_link_ref(link: Link, ref: str) -> None:
    assert link.ref == ref


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("DependsOn", "depends_on"),
        ("depends-on", "depends_on"),
        ("depends_on", "depends_on"),
        ("BelongsTo", "belongs_to"),
        ("References", "references"),
        ("  caused_by ", "caused_by"),
        ("beeinflusst_von", "beeinflusst_von"),
    ],
)
def test_normalize_kind(raw: str, kind: str) -> None:
    assert normalize_kind(raw) == kind


def test_relates_to_alias_maps_to_related_to() -> None:
    assert normalize_kind("RelatesTo") == "related_to"


NOTES = [
    NoteKey(
        "Wissen/Embeddings 101",
        "Wissen/Embeddings 101.md",
        ("Emb", "Einbettungen"),
        (("Intro", 1), ("Cosine Similarity", 2)),
    ),
    NoteKey("A/Same", "A/Same.md"),
    NoteKey("B/Same", "B/Same.md"),
    NoteKey("Tief/er/Same", "Tief/er/Same.md"),
    NoteKey("deep-dup", "X/Y/Dup.md"),
    NoteKey("root-dup", "Dup.md"),
    NoteKey("z-dup", "Z/Dup.md"),
    NoteKey("custom-id", "Q/Custom Note.md", ("Zweiter Name",)),
    NoteKey("Alias Clash", "Alias Clash.md"),
    NoteKey("owner", "Other/Owner.md", ("Alias Clash",)),
    NoteKey("faq", "Support/faq.ctxt"),
]


@pytest.fixture(scope="module")
def resolver() -> Resolver:
    return Resolver(NOTES)


@pytest.mark.parametrize(
    ("target", "source_path", "note_id"),
    [
        pytest.param("Embeddings 101", "", "Wissen/Embeddings 101", id="name"),
        pytest.param("eMBEDDINGS 101", "", "Wissen/Embeddings 101", id="name-case"),
        pytest.param("Embeddings 101.md", "", "Wissen/Embeddings 101", id="md-ext"),
        pytest.param("Wissen/Embeddings 101", "", "Wissen/Embeddings 101", id="path"),
        pytest.param("wissen/embeddings 101.MD", "", "Wissen/Embeddings 101", id="path-case-ext"),
        pytest.param("einbettungen", "", "Wissen/Embeddings 101", id="alias"),
        pytest.param("Custom Note", "", "custom-id", id="name-frontmatter-id"),
        pytest.param("Zweiter Name", "", "custom-id", id="alias-frontmatter-id"),
        pytest.param("Alias Clash", "", "Alias Clash", id="name-beats-alias"),
        pytest.param("faq", "", "faq", id="ctxt"),
        pytest.param("Same", "B/Notiz.md", "B/Same", id="same-folder-b"),
        pytest.param("Same", "A/Notiz.md", "A/Same", id="same-folder-a"),
        pytest.param("Same", "Tief/er/N.md", "Tief/er/Same", id="same-folder-deep"),
        pytest.param("Same", "C/Notiz.md", "A/Same", id="shortest-then-alpha"),
        pytest.param("Dup", "C/Notiz.md", "root-dup", id="shortest-path"),
        pytest.param("Y/Dup", "", "deep-dup", id="partial-path"),
        pytest.param("Nirgends", "", None, id="unknown"),
        pytest.param("Other/Dup", "", None, id="unknown-path"),
        pytest.param("  ", "", None, id="blank"),
    ],
)
def test_resolve_note(resolver: Resolver, target: str, source_path: str, note_id: str) -> None:
    assert resolver.resolve_note(target, source_path) == note_id


def test_same_folder_beats_root_note_of_same_name(resolver: Resolver) -> None:
    assert resolver.resolve_note("Dup", "Z/Notiz.md") == "z-dup"


@pytest.mark.parametrize(
    ("ref", "source", "expected"),
    [
        ("Embeddings 101", "x", ("Wissen/Embeddings 101", "Wissen/Embeddings 101")),
        (
            "Embeddings 101#Cosine Similarity",
            "x",
            ("Wissen/Embeddings 101", "Wissen/Embeddings 101#2"),
        ),
        ("Emb#intro", "x", ("Wissen/Embeddings 101", "Wissen/Embeddings 101#1")),
        ("Embeddings 101#No Such", "x", ("Wissen/Embeddings 101", "Wissen/Embeddings 101")),
        ("#Intro", "Wissen/Embeddings 101", ("Wissen/Embeddings 101", "Wissen/Embeddings 101#1")),
        ("Same", "B/Same", ("B/Same", "B/Same")),
        ("Nirgends", "x", (None, "Nirgends")),
        ("Nirgends#Kapitel", "x", (None, "Nirgends#Kapitel")),
        ("#Intro", "unknown-source", (None, "#Intro")),
    ],
)
def test_resolve_ref(
    resolver: Resolver, ref: str, source: str, expected: tuple[str | None, str]
) -> None:
    assert resolver.resolve(ref, source) == expected


def test_resolver_contains_note_ids(resolver: Resolver) -> None:
    assert "custom-id" in resolver
    assert "Q/Custom Note" not in resolver


def test_partial_paths_resolve_from_an_index_built_once() -> None:
    """Guards vaults linking by partial paths (`[[b/Note]]` for `a/b/Note`): each such link
    looked through every path of the vault (n² in all); now an index of path ends, built on
    the first one (shown to fail by the scan: `items()` once per link)."""

    class Counting(dict):
        calls = 0

        def items(self):  # type: ignore[override]
            Counting.calls += 1
            return super().items()

    keys = [NoteKey(f"a{i}/b/Note {i}", f"a{i}/b/Note {i}.md") for i in range(50)]
    keys.append(NoteKey("x/b/Note 7", "x/b/Note 7.md"))
    resolver = Resolver(keys)
    resolver._by_path = Counting(resolver._by_path)  # noqa: SLF001
    for i in range(50):
        assert resolver.resolve_note(f"b/Note {i}", "elsewhere/Src.md") is not None
    assert resolver.resolve_note("b/Note 7", "x/b/Src.md") == "x/b/Note 7"  # same folder first
    assert resolver.resolve_note("b/Note 7", "elsewhere/Src.md") == "a7/b/Note 7"  # then path
    assert resolver.resolve_note("c/Note 7", "elsewhere/Src.md") is None
    assert Counting.calls == 1
