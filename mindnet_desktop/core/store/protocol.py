"""The store contract: what the importer, the graph, retrieval and the UI may ask of a store.

Any implementation (`ChromaStore` here; a Chroma server later) passes the contract suite in
`tests/core/store/test_store_contract.py`. How a store encodes its records (Chroma keeps
lists as JSON text in scalar metadata) stays private to it: callers get domain objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from mindnet_desktop.core.domain import Chunk, Edge, Note
from mindnet_desktop.core.errors import MindnetError


class StoreError(MindnetError, RuntimeError):
    """The data dir cannot be used (corrupted, unreadable, or built with another embedder)."""


@dataclass
class NoteRecord:
    """A stored note: its fields, file stat, headings (text, chunk seq) and edges."""

    note: Note
    mtime_ns: int
    size: int
    chunk_count: int
    retriever_weight: float = 1.0
    chunk_profile: str = ""
    fingerprint: str = ""
    headings: list[tuple[str, int]] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    indexed_at: float = 0.0


@dataclass(frozen=True)
class ChunkRow:
    """A stored chunk with the fields of its note that ranking and hits need, and its
    vector when asked for."""

    chunk: Chunk
    title: str
    path: str
    type: str
    status: str = ""
    retriever_weight: float = 1.0
    vector: np.ndarray | None = field(default=None, compare=False)

    @property
    def chunk_id(self) -> str:
        return self.chunk.chunk_id

    @property
    def note_id(self) -> str:
        return self.chunk.note_id


@dataclass(frozen=True)
class CandidateFilter:
    """Which chunks may be candidates: of these note types and / or these notes (None:
    any). The vector store gets it as a Chroma `where`, the lexical index as term sets."""

    types: frozenset[str] | None = None
    note_ids: frozenset[str] | None = None


class Store(Protocol):
    """One vault's notes, chunks (with vectors) and lexical postings, written note by note."""

    @property
    def embedder_name(self) -> str:
        """The embedder whose vectors the store holds."""
        ...

    def note_records(self) -> dict[str, NoteRecord]: ...

    def write_notes(
        self,
        items: list[tuple[NoteRecord, list[Chunk], np.ndarray]],
        old_chunk_counts: dict[str, int] | None = None,
        purge: bool = False,
        text_keys: Mapping[str, str] | None = None,
        short_calls: bool = False,
    ) -> None:
        """Replace each note's record and chunks; `text_keys` (chunk id -> a key of the
        text that was embedded) lets `known_vectors` find the vectors again; `short_calls`:
        a GUI thread shares this process (no call may hold it long)."""
        ...

    def known_vectors(self, note_ids: list[str]) -> dict[str, np.ndarray]:
        """Text key -> stored vector, of the chunks of `note_ids` written with a key (an edit
        re-embeds only the chunks whose embedded text changed)."""
        ...

    def update_edges(self, records: Iterable[NoteRecord]) -> None: ...

    def delete_notes(self, note_ids: Iterable[str]) -> None: ...

    def delete_chunks_of(self, note_ids: list[str]) -> None: ...

    def chunks(self, note_id: str) -> list[Chunk]: ...

    def chunk_ids(self) -> list[str]: ...

    def counts(self) -> dict[str, int]: ...

    def nearest_chunks(
        self, vector: np.ndarray, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[ChunkRow, float]]:
        """The k chunks nearest to `vector` (cosine similarity), best first."""
        ...

    def chunk_rows(self, ids: list[str], vectors: bool = False) -> dict[str, ChunkRow]:
        """The stored chunks of `ids` (unknown ids are left out)."""
        ...

    def chunk_vectors(self, ids: list[str]) -> tuple[list[str], np.ndarray]:
        """The vectors of `ids` alone, one row each (unknown ids left out): ranking many
        chunks needs no text, and decoding thousands of rows cost most of a search."""
        ...

    def note_vectors(self, ids: list[str] | None = None) -> tuple[list[str], np.ndarray]: ...

    def lexical_search(
        self, query: str, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[str, float]]:
        """(chunk_id, BM25 score) of the k best lexical matches."""
        ...

    def term_coverage(self, query: str, chunk_ids: Iterable[str]) -> dict[str, float]:
        """chunk_id -> the share of the query's words (stop words left out) the chunk holds
        in any field; chunks holding none are left out."""
        ...

    def matched_terms(self, query: str, fields: Mapping[str, str]) -> dict[str, list[str]]:
        """Which of the query's terms each field holds (for the reasons)."""
        ...

    def close(self) -> None: ...


def note_fields(record: NoteRecord) -> dict[str, Any]:
    """A stored note's fields as plain values (the CLI's note schema builds on them)."""
    note = record.note
    return {
        "note_id": note.note_id,
        "path": note.path,
        "title": note.title,
        "type": note.type,
        "status": note.status,
        "format": note.format,
        "content_hash": note.content_hash,
        "tags": list(note.tags),
        "aliases": list(note.aliases),
        "warnings": list(note.warnings),
        "source_meta": note.source_meta,
        "retriever_weight": record.retriever_weight,
        "chunk_profile": record.chunk_profile,
        "indexed_at": record.indexed_at,
    }
