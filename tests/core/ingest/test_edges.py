"""Tests for edge derivation (the edge rules table of docs/notes.md)."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.config.type_registry import ChunkProfile, load_types
from mindnet_desktop.core.domain import Chunk, Edge, Note
from mindnet_desktop.core.ingest.chunk import chunk_note
from mindnet_desktop.core.ingest.edges import derive_edges, reresolve
from mindnet_desktop.core.ingest.links import NoteKey, Resolver
from mindnet_desktop.core.ingest.parse import parse_markdown

REGISTRY = load_types()
SEED_PATH = "Projekte/KI-Projekt Alpha.md"
SEED_ID = "Projekte/KI-Projekt Alpha"
QDRANT = "Wissen/Qdrant Vektordatenbank"
EMB = "Wissen/Embeddings 101"
VDB = "Wissen/Vector DB Basics"
SEED_TEXT = """---
type: project
---
# KI-Projekt Alpha

Wir bauen auf [[rel:depends_on Qdrant Vektordatenbank]] und lesen [[Embeddings 101]].
Ein Bild: ![[architektur.png]]

> [!edge] related_to: [[Vector DB Basics]]
"""
KNOWN = [
    NoteKey(QDRANT, f"{QDRANT}.md"),
    NoteKey(EMB, f"{EMB}.md", (), (("Cosine", 2),)),
    NoteKey(VDB, f"{VDB}.md"),
]

Row = tuple[str, str, str, str, float]  # kind, target_id, provenance, rule_id, confidence


def derive(
    note: Note, resolver: Resolver | None = None, profile: ChunkProfile | None = None
) -> tuple[list[Chunk], list[Edge]]:
    chunks = chunk_note(note, profile or REGISTRY.profile(note.type))
    return chunks, derive_edges(note, chunks, REGISTRY, resolver or Resolver(KNOWN))


def note_of(body: str, type_: str = "project", path: str = "Notizen/N.md") -> Note:
    return parse_markdown(path, f"---\ntype: {type_}\n---\n{body}", "h")


def rows(edges: list[Edge], provenance: tuple[str, ...] = ("explicit", "rule")) -> list[Row]:
    return sorted(
        (e.kind, e.target_id, e.provenance, e.rule_id, e.confidence)
        for e in edges
        if e.provenance in provenance
    )


@pytest.fixture(scope="module")
def seed() -> tuple[Note, list[Chunk], list[Edge]]:
    note = parse_markdown(SEED_PATH, SEED_TEXT, "h")
    chunks, edges = derive(note)
    return note, chunks, edges


def test_seed_example_edge_by_edge(seed: tuple[Note, list[Chunk], list[Edge]]) -> None:
    note, chunks, edges = seed
    assert (note.note_id, note.type, len(chunks)) == (SEED_ID, "project", 1)
    assert rows(edges) == sorted(
        [
            ("depends_on", QDRANT, "explicit", "inline:rel", 0.95),
            ("references", EMB, "explicit", "explicit:wikilink", 1.0),
            ("related_to", VDB, "explicit", "callout:edge", 0.90),
            ("depends_on", EMB, "rule", "edge_defaults:project:depends_on", 0.7),
            ("depends_on", VDB, "rule", "edge_defaults:project:depends_on", 0.7),
            ("references", QDRANT, "rule", "edge_defaults:project:references", 0.7),
            ("references", VDB, "rule", "edge_defaults:project:references", 0.7),
        ]
    )
    assert rows(edges, ("structure",)) == [
        ("belongs_to", SEED_ID, "structure", "structure:belongs_to", 1.0)
    ]
    assert len(edges) == 8
    for edge in edges:
        assert edge.source_id == f"{SEED_ID}#1"
        assert edge.target_note_id == edge.target_id
        assert (edge.note_id, edge.scope, edge.deleted) == (SEED_ID, "chunk", False)


def test_seed_target_refs(seed: tuple[Note, list[Chunk], list[Edge]]) -> None:
    refs = {(e.kind, e.target_id): e.target_ref for e in seed[2]}
    assert refs[("depends_on", QDRANT)] == "Qdrant Vektordatenbank"
    assert refs[("related_to", VDB)] == "Vector DB Basics"
    assert refs[("belongs_to", SEED_ID)] == SEED_ID


def test_seed_has_no_duplicate_source_target_kind(
    seed: tuple[Note, list[Chunk], list[Edge]],
) -> None:
    keys = [(e.source_id, e.target_id, e.kind) for e in seed[2]]
    assert len(keys) == len(set(keys))


def test_edge_ids_are_unique_and_stable(seed: tuple[Note, list[Chunk], list[Edge]]) -> None:
    note, _, edges = seed
    again = derive(note)[1]
    ids = [edge.id for edge in edges]
    assert len(set(ids)) == len(ids)
    assert [edge.id for edge in again] == ids
    assert all(i.startswith("e_") and len(i) == 18 for i in ids)
    assert again == edges


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            "[[rel:related_to X]]\n> [!edge] related_to: [[X]]",
            ("related_to", "explicit", "inline:rel", 0.95),
            id="inline-beats-callout",
        ),
        pytest.param(
            "[[X]]\n> [!edge] references: [[X]]",
            ("references", "explicit", "callout:edge", 0.90),
            id="callout-beats-wikilink",
        ),
        pytest.param(
            "[[x]] [[rel:references X]]",
            ("references", "explicit", "inline:rel", 0.95),
            id="inline-beats-wikilink-case-insensitive",
        ),
    ],
)
def test_priority_keeps_one_edge(body: str, expected: tuple[str, str, str, float]) -> None:
    _, edges = derive(note_of(body, "default"), Resolver([NoteKey("X", "X.md")]))
    explicit = [
        (e.kind, e.provenance, e.rule_id, e.confidence) for e in edges if e.kind == expected[0]
    ]
    assert explicit == [expected]


def test_rule_edges_never_duplicate_explicit_ones() -> None:
    _, edges = derive(
        note_of("[[rel:depends_on X]] [[X]]", "task"), Resolver([NoteKey("X", "X.md")])
    )
    assert rows(edges) == [
        ("depends_on", "X", "explicit", "inline:rel", 0.95),
        ("references", "X", "explicit", "explicit:wikilink", 1.0),
    ]


@pytest.mark.parametrize("type_", ["default", "banana"])
def test_default_type_gets_no_rule_edges(type_: str) -> None:
    _, edges = derive(note_of("[[Embeddings 101]] [[rel:causes Vector DB Basics]]", type_))
    assert rows(edges) == [
        ("causes", VDB, "explicit", "inline:rel", 0.95),
        ("references", EMB, "explicit", "explicit:wikilink", 1.0),
    ]


def test_rule_id_names_the_type() -> None:
    _, edges = derive(note_of("[[Embeddings 101]]", "Decision"))
    assert rows(edges, ("rule",)) == [
        ("caused_by", EMB, "rule", "edge_defaults:decision:caused_by", 0.7)
    ]


def test_embeds_make_no_edge() -> None:
    _, edges = derive(note_of("![[Embeddings 101]] ![[bild.png]] `[[Qdrant Vektordatenbank]]`"))
    assert [e.kind for e in edges] == ["belongs_to"]


def test_heading_link_targets_the_chunk() -> None:
    _, edges = derive(note_of("[[Embeddings 101#cosine]]", "default"))
    (edge,) = [e for e in edges if e.provenance == "explicit"]
    assert (edge.target_id, edge.target_note_id, edge.target_ref) == (
        f"{EMB}#2",
        EMB,
        "Embeddings 101#cosine",
    )


def test_structure_edges_of_a_multi_chunk_note() -> None:
    body = "\n\n".join(f"Absatz {i} " + "wort " * 10 for i in range(1, 4))
    note = note_of(body + " [[Embeddings 101]]", "default", "Notizen/Lang.md")
    chunks, edges = derive(note, profile=ChunkProfile("tiny", 50, 100))
    assert len(chunks) == 3
    ids = ["Notizen/Lang#1", "Notizen/Lang#2", "Notizen/Lang#3"]
    structure = sorted(
        (e.kind, e.source_id, e.target_id, e.rule_id, e.confidence, e.target_note_id)
        for e in edges
        if e.provenance == "structure"
    )
    note_id = "Notizen/Lang"
    assert structure == sorted(
        [("belongs_to", i, note_id, "structure:belongs_to", 1.0, note_id) for i in ids]
        + [("next", a, b, "structure:next", 1.0, note_id) for a, b in zip(ids, ids[1:])]
        + [("prev", b, a, "structure:prev", 1.0, note_id) for a, b in zip(ids, ids[1:])]
    )
    (link_edge,) = [e for e in edges if e.provenance == "explicit"]
    assert link_edge.source_id == ids[2]  # the chunk holding the link
    assert all((e.note_id, e.scope) == (note_id, "chunk") for e in edges)


def test_unresolved_target_keeps_link_text_and_reresolves() -> None:
    note = note_of("[[Neue Notiz#Teil]] [[Embeddings 101]]", "default")
    _, edges = derive(note)
    edge = next(e for e in edges if e.target_ref == "Neue Notiz#Teil")
    assert (edge.target_id, edge.target_note_id, edge.resolved) == ("Neue Notiz#Teil", None, False)

    later = Resolver(
        [*KNOWN, NoteKey("Inbox/Neue Notiz", "Inbox/Neue Notiz.md", (), (("Teil", 3),))]
    )
    resolved = reresolve(edge, later)
    assert (resolved.target_id, resolved.target_note_id) == (
        "Inbox/Neue Notiz#3",
        "Inbox/Neue Notiz",
    )
    assert resolved.id == edge.id
    assert resolved.resolved

    gone = reresolve(resolved, Resolver(KNOWN))
    assert gone == edge
    assert gone.id == edge.id


def test_reresolve_returns_the_same_edge_when_unchanged(
    seed: tuple[Note, list[Chunk], list[Edge]],
) -> None:
    resolver = Resolver(KNOWN)
    for edge in seed[2]:
        assert reresolve(edge, resolver) is edge


def test_reresolve_leaves_structure_edges_alone() -> None:
    edge = Edge("belongs_to", "N#1", "N", "N", "N", "structure", "structure:belongs_to", 1.0, "N")
    assert reresolve(edge, Resolver([])) is edge


def test_two_spellings_of_one_target_give_one_edge() -> None:
    _, edges = derive(
        note_of("[[Embeddings 101]] [[Wissen/Embeddings 101]] [[emb.md]]", "default"),
        Resolver([NoteKey(EMB, f"{EMB}.md", ("emb",))]),
    )
    keys = [e.dedup_key for e in edges]
    assert len(keys) == len(set(keys))
