"""Derive a note's edges by the edge rules (docs/notes.md, "Edges").

Priority inline > callout > wikilink > Markdown link > property > type defaults >
structure: when two rules give the same (source chunk, target, kind), only the higher one
is kept.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection

from mindnet_desktop.core.config.type_registry import TypeRegistry
from mindnet_desktop.core.config.vocabulary import builtin_kinds
from mindnet_desktop.core.domain import Chunk, Edge, Note, Provenance, normalize_kind
from mindnet_desktop.core.ingest.links import Link, Resolver, extract_links

RULES: dict[str, tuple[Provenance, str, float]] = {
    "inline": ("explicit", "inline:rel", 0.95),
    "callout": ("explicit", "callout:edge", 0.90),
    "wikilink": ("explicit", "explicit:wikilink", 1.0),
    "mdlink": ("explicit", "explicit:mdlink", 1.0),
}
PROPERTY_CONFIDENCE = 0.95
DEFAULT_CONFIDENCE = 0.7
STRUCTURE_CONFIDENCE = 1.0


def links_by_chunk(note: Note, chunks: list[Chunk]) -> list[tuple[Chunk, Link]]:
    """Each link of the note with the chunk that holds it."""
    if note.format == "ctxt":
        return [(chunk, link) for chunk in chunks for link in extract_links(chunk.text, note.path)]
    starts = [chunk.start for chunk in chunks]
    return [
        (chunks[max(bisect_right(starts, link.offset) - 1, 0)], link)
        for link in extract_links(note.body, note.path)
    ]


def property_edge_links(note: Note, kinds: Collection[str]) -> list[tuple[str, Link]]:
    """(property name, link) for each link in the note's properties.

    The property name is the kind when it names one (`depends_on: "[[X]]"`), else the
    link is a plain `references`.
    """
    found = []
    for name, text in note.property_links:
        kind = normalize_kind(name)
        kind = kind if kind in kinds else "references"
        for link in extract_links(text, note.path):
            if link.rule in ("wikilink", "mdlink"):
                found.append((name, Link("property", kind, link.target, link.heading, 0)))
    return found


def structure_edges(note: Note, chunks: list[Chunk]) -> list[Edge]:
    """belongs_to (chunk -> note), next (n -> n+1) and prev (n+1 -> n)."""
    return structure_of(note.note_id, [chunk.chunk_id for chunk in chunks])


def structure_of(note_id: str, chunk_ids: list[str]) -> list[Edge]:
    """The structure edges of a note with these chunks (in order), as `structure_edges`."""
    edges = []

    def add(kind: str, source: str, target: str) -> None:
        edges.append(
            Edge(
                kind,
                source,
                target,
                note_id,
                note_id,
                "structure",
                f"structure:{kind}",
                STRUCTURE_CONFIDENCE,
                target,
            )
        )

    for chunk in chunk_ids:
        add("belongs_to", chunk, note_id)
    for first, second in zip(chunk_ids, chunk_ids[1:]):
        add("next", first, second)
        add("prev", second, first)
    return edges


def derive_edges(
    note: Note,
    chunks: list[Chunk],
    registry: TypeRegistry,
    resolver: Resolver,
    kinds: Collection[str] | None = None,
    links: list[tuple[Chunk, Link]] | None = None,
) -> list[Edge]:
    """All edges owned by `note`, deduplicated by priority.

    Args:
        note: The parsed note.
        chunks: Its chunks.
        registry: Types (for `edge_defaults`).
        resolver: Resolves link targets against the notes currently known.
        kinds: The kinds a property name may stand for (default: the built-in ones).
        links: Its links placed in their chunks (`links_by_chunk`), when they were read
            already (an import reads them with the note: the body is parsed once).

    Returns:
        Explicit, rule and structure edges; unresolved targets keep the link text.
    """
    seen: set[tuple[str, str, str]] = set()
    edges: list[Edge] = []

    def add(
        chunk: Chunk,
        ref: str,
        kind: str,
        provenance: Provenance,
        rule_id: str,
        confidence: float,
    ) -> None:
        target_note_id, target_id = resolver.resolve(ref, note.note_id)
        # Two spellings of one target (name, path, alias) are one edge.
        key = (chunk.chunk_id, target_id if target_note_id else ref.casefold(), kind)
        if key in seen:
            return
        seen.add(key)
        edges.append(
            Edge(
                kind,
                chunk.chunk_id,
                target_id,
                target_note_id,
                note.note_id,
                provenance,
                rule_id,
                confidence,
                ref,
            )  # type: ignore[arg-type]
        )

    placed = list(links) if links is not None else links_by_chunk(note, chunks)
    for rule in ("inline", "callout", "wikilink", "mdlink"):
        provenance, rule_id, confidence = RULES[rule]
        for chunk, link in placed:
            if link.rule == rule:
                add(chunk, link.ref, link.kind, provenance, rule_id, confidence)
    # Properties belong to the whole note; their edges leave from its first chunk.
    for name, link in property_edge_links(note, builtin_kinds() if kinds is None else kinds):
        placed.append((chunks[0], link))
        add(chunks[0], link.ref, link.kind, "explicit", f"property:{name}", PROPERTY_CONFIDENCE)
    spec = registry.spec(note.type)
    explicit_targets = [(chunk, link.ref) for chunk, link in placed]
    for kind in spec.edge_defaults:
        for chunk, ref in explicit_targets:
            add(chunk, ref, kind, "rule", f"edge_defaults:{spec.name}:{kind}", DEFAULT_CONFIDENCE)
    return edges + structure_edges(note, chunks)


def reresolve(edge: Edge, resolver: Resolver) -> Edge:
    """The edge with its target resolved against the current notes (same edge if unchanged)."""
    if edge.provenance not in ("explicit", "rule") or not edge.target_ref:
        return edge
    target_note_id, target_id = resolver.resolve(edge.target_ref, edge.note_id)
    if (target_note_id, target_id) == (edge.target_note_id, edge.target_id):
        return edge
    data = edge.to_dict()
    data.update(target_note_id=target_note_id, target_id=target_id)
    return Edge.from_dict(data)
