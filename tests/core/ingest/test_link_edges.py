"""Edges from Markdown links, property links and block references (the edge rules of
docs/notes.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.config.type_registry import load_types
from mindnet_desktop.core.domain import Edge
from mindnet_desktop.core.ingest.chunk import chunk_note
from mindnet_desktop.core.ingest.edges import derive_edges
from mindnet_desktop.core.ingest.links import NoteKey, Resolver
from mindnet_desktop.core.ingest.parse import parse_markdown
from tests.conftest import run_import

REGISTRY = load_types()
KNOWN = [
    NoteKey("Folder/My Note", "Folder/My Note.md", (), (("Heading", 2), ("^blk", 3))),
    NoteKey("Other", "Other.md"),
    NoteKey("ch04-01-ownership", "ch04-01-ownership.md", (), (("The Stack and the Heap", 2),)),
]
Row = tuple[str, str, str, str, float, str | None]  # kind, rule_id, provenance, target, conf, ref


def explicit(text: str, kinds: frozenset[str] | None = None, path: str = "A/N.md") -> list[Row]:
    note = parse_markdown(path, text, "h")
    chunks = chunk_note(note, REGISTRY.profile(note.type))
    edges = derive_edges(note, chunks, REGISTRY, Resolver(KNOWN), kinds)
    return sorted(
        (e.kind, e.rule_id, e.provenance, e.target_id, e.confidence, e.target_note_id)
        for e in edges
        if e.provenance == "explicit"
    )


def mdlink(target: str, note: str | None) -> Row:
    return ("references", "explicit:mdlink", "explicit", target, 1.0, note)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[a](Other.md)", [mdlink("Other", "Other")]),
        ("[a](Other)", [mdlink("Other", "Other")]),
        ("[a](/Other.md)", [mdlink("Other", "Other")]),
        ("[a](../Other.md)", [mdlink("Other", "Other")]),
        ("[a](../Folder/My%20Note.md)", [mdlink("Folder/My Note", "Folder/My Note")]),
        ("[a](Folder/My%20Note.md#Heading)", [mdlink("Folder/My Note#2", "Folder/My Note")]),
        ("[a](<My Note.md#heading>)", [mdlink("Folder/My Note#2", "Folder/My Note")]),
        ("[a](My%20Note.md#%5Eblk)", [mdlink("Folder/My Note#3", "Folder/My Note")]),
        (
            "[a][own]\n\n[own]: ch04-01-ownership.html#the-stack-and-the-heap",
            [mdlink("ch04-01-ownership#2", "ch04-01-ownership")],
        ),
        ("[a](Missing.md#Part)", [mdlink("Missing.md#Part", None)]),
        ("[a](https://example.org/Other.md) ![i](Other.md) `[c](Other.md)`", []),
        (
            "[a](Other.md) and [b](./../Other.md) [[Other]]",
            [
                ("references", "explicit:wikilink", "explicit", "Other", 1.0, "Other"),
            ],
        ),  # one target, one edge: the wikilink comes first
    ],
)
def test_markdown_link_edges(body: str, expected: list[Row]) -> None:
    assert explicit(body) == expected


def test_block_reference_wikilink_targets_the_chunk_holding_the_block() -> None:
    assert explicit("[[My Note#^blk]] [[My Note#^gone]]") == [
        ("references", "explicit:wikilink", "explicit", "Folder/My Note", 1.0, "Folder/My Note"),
        ("references", "explicit:wikilink", "explicit", "Folder/My Note#3", 1.0, "Folder/My Note"),
    ]


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ('related: "[[Other]]"', [("references", "property:related", "Other")]),
        ("depends_on: [[Other]]", [("depends_on", "property:depends_on", "Other")]),
        ("DependsOn: [[Other]]", [("depends_on", "property:DependsOn", "Other")]),
        (
            'up:\n  - "[[Other]]"\n  - "[[My Note#Heading|x]]"',
            [
                ("references", "property:up", "Folder/My Note#2"),
                ("references", "property:up", "Other"),
            ],
        ),
        (
            'source: "[text](Folder/My%20Note.md)"',
            [("references", "property:source", "Folder/My Note")],
        ),
        ("mentor: [[Other]]", [("mentor", "property:mentor", "Other")]),  # a custom kind
        ('tags: ["[[Other]]"]\nnote: "no link"', []),
    ],
)
def test_property_link_edges(front: str, expected: list[tuple[str, str, str]]) -> None:
    kinds = frozenset({"references", "depends_on", "related_to", "mentor"})
    note = parse_markdown("A/N.md", f"---\n{front}\n---\nBody text.\n\n## Two\n\nMore.\n", "h")
    chunks = chunk_note(note, REGISTRY.profile(note.type))
    edges = [e for e in derive_edges(note, chunks, REGISTRY, Resolver(KNOWN), kinds)]
    found = sorted((e.kind, e.rule_id, e.target_id) for e in edges if e.provenance == "explicit")
    assert found == sorted(expected)
    for edge in edges:
        if edge.provenance == "explicit":
            assert (edge.confidence, edge.source_id) == (0.95, "A/N#1")


def test_property_kind_needs_the_kind_to_be_known() -> None:
    rows = explicit("---\nmentor: '[[Other]]'\n---\nBody\n")  # built-in kinds only
    assert [(r[0], r[1]) for r in rows] == [("references", "property:mentor")]


def test_property_links_get_the_type_defaults() -> None:
    note = parse_markdown("A/N.md", "---\ntype: project\nrelated: '[[Other]]'\n---\nB\n", "h")
    chunks = chunk_note(note, REGISTRY.profile(note.type))
    edges = derive_edges(note, chunks, REGISTRY, Resolver(KNOWN))
    assert ("depends_on", "Other", "rule") in {(e.kind, e.target_id, e.provenance) for e in edges}


# --- through the importer, on real Chroma ---------------------------------------------------


def write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def edges_of(mn, note_id: str) -> list[Edge]:
    return [e for e in mn.records[note_id].edges if e.provenance == "explicit"]


FORMS = {  # linking note -> (its text, the rule of its one explicit edge, the link as written)
    "By name": ("[a](My%20Note.md)", "explicit:mdlink", "My Note.md"),
    "Sub/By path": (
        "[b](/Folder/My%20Note.md#Later)",
        "explicit:mdlink",
        "Folder/My Note.md#Later",
    ),
    "Folder/Relative": ("[c](./My%20Note.md)", "explicit:mdlink", "Folder/My Note.md"),
    "Reference": ("[d][n]\n\n[n]: My%20Note.html", "explicit:mdlink", "My Note"),
    "Block": ("[[My Note#^fact]]", "explicit:wikilink", "My Note#^fact"),
    "Property": ("---\nrelated: '[[My Note]]'\n---\nText", "property:related", "My Note"),
    "Property block": (
        "---\ncauses: ['[[My Note#^fact]]']\n---\nT",
        "property:causes",
        "My Note#^fact",
    ),
}


def test_each_link_form_resolves_and_follows_a_rename(tmp_path, open_mindnet):
    vault = tmp_path / "v"
    write(vault, "Folder/My Note.md", "# My Note\n\nFirst.\n\n## Later\n\nA fact. ^fact\n")
    for name, (text, _, _) in FORMS.items():
        write(vault, f"{name}.md", text + "\n")
    mn = open_mindnet(vault)
    run_import(mn)
    later = next(s for h, s in mn.records["Folder/My Note"].headings if h == "Later")
    assert ("^fact", later) in mn.records["Folder/My Note"].headings

    def state() -> dict[str, tuple[str, str, str, str, str | None]]:
        out = {}
        for name in FORMS:
            (edge,) = edges_of(mn, name)
            out[name] = (
                edge.kind,
                edge.rule_id,
                edge.target_ref,
                edge.target_id,
                edge.target_note_id,
            )
            assert edge.confidence == (0.95 if edge.rule_id.startswith("property:") else 1.0)
        return out

    def expect(folder: str, gone: set[str]) -> dict[str, tuple[str, str, str, str, str | None]]:
        out = {}
        for name, (_, rule, ref) in FORMS.items():
            kind = "causes" if name == "Property block" else "references"
            chunk = "#" in ref  # a heading or block: the chunk holding it
            target = f"{folder}/My Note" + (f"#{later}" if chunk else "")
            out[name] = (
                (kind, rule, ref, ref, None)
                if name in gone
                else (kind, rule, ref, target, f"{folder}/My Note")
            )
        return out

    assert state() == expect("Folder", set())
    (vault / "Moved").mkdir()
    (vault / "Folder" / "My Note.md").rename(vault / "Moved" / "My Note.md")
    run_import(mn)
    # Links by name follow the note; links by path point at a file that is gone.
    assert state() == expect("Moved", {"Sub/By path", "Folder/Relative"})
