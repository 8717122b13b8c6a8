"""How `ChromaStore` keeps notes and chunks. Private to the store package: callers get
domain objects.

A row's metadata is packed (`pack`): only the keys that filters use (`note_id`, `type`) are
keys of their own; every other field, with the note's body or the chunk's text, goes into one
JSON text (Chroma metadata holds scalars only). Chroma keeps each metadata key as a row of
its own and indexes every document with a trigram full-text index that nothing here searches
(the lexical index does); each write holds the GIL, so the app's window waits for it. Rows
written before (a key per field, lists as JSON text, the text as Chroma's document) are read
as they are (`unpack`) until their note is written again.
"""

from __future__ import annotations

import json
from typing import Any

from mindnet_desktop.core.domain import Chunk, Edge, Note
from mindnet_desktop.core.store.lexical import LexicalDoc
from mindnet_desktop.core.store.protocol import (
    CandidateFilter,
    ChunkRow,
    NoteRecord,
    note_fields,
)

FILTER_KEYS = ("note_id", "type")
PACKED = "m"
TEXT = "text"  # the note's body / the chunk's text, inside PACKED


def pack(fields: dict[str, Any]) -> dict[str, Any]:
    """A row's metadata as written: the filter keys, and the rest as one JSON text."""
    rest = {k: v for k, v in fields.items() if k not in FILTER_KEYS}
    return {**{k: fields[k] for k in FILTER_KEYS}, PACKED: json.dumps(rest, ensure_ascii=False)}


# Fields that rows written before packing keep as JSON text of their own (packed: values).
JSON_FIELDS = frozenset(
    ("tags", "aliases", "warnings", "source_meta", "headings", "edges", "heading_path", "meta")
)


def unpack(meta: dict[str, Any] | None, document: str | None) -> dict[str, Any]:
    """The fields of a row, packed or written before packing (its text: the document)."""
    meta = meta or {}
    if PACKED not in meta:
        fields = {k: json.loads(v) if k in JSON_FIELDS else v for k, v in meta.items()}
        return {**fields, TEXT: document or ""}
    return {**json.loads(meta[PACKED]), **{k: meta[k] for k in FILTER_KEYS if k in meta}}


def note_metadata(record: NoteRecord) -> dict[str, Any]:
    return pack(
        {
            **note_fields(record),
            "mtime_ns": str(record.mtime_ns),
            "size": record.size,
            "chunk_count": record.chunk_count,
            "fingerprint": record.fingerprint,
            "headings": record.headings,
            "edges": [e.to_dict() for e in record.edges],
            TEXT: record.note.body,
        }
    )


def record(row: dict[str, Any], document: str | None) -> NoteRecord:
    meta = unpack(row, document)
    note = Note(
        note_id=meta["note_id"],
        path=meta["path"],
        title=meta["title"],
        type=meta["type"],
        body=meta[TEXT],
        content_hash=meta["content_hash"],
        tags=tuple(meta["tags"]),
        aliases=tuple(meta["aliases"]),
        status=meta["status"],
        format=meta["format"],
        warnings=tuple(meta["warnings"]),
        source_meta=meta["source_meta"],
    )
    return NoteRecord(
        note=note,
        mtime_ns=int(meta["mtime_ns"]),
        size=int(meta["size"]),
        chunk_count=int(meta["chunk_count"]),
        retriever_weight=float(meta["retriever_weight"]),
        chunk_profile=str(meta["chunk_profile"]),
        fingerprint=str(meta.get("fingerprint", "")),
        headings=[(str(h), int(s)) for h, s in meta["headings"]],
        edges=[Edge.from_dict(e) for e in meta["edges"]],
        indexed_at=float(meta["indexed_at"]),
    )


TEXT_KEY = "text_key"  # chunk metadata: a key of the text that was embedded (see known_vectors)


def chunk_metadata(record: NoteRecord, chunk: Chunk, text_key: str | None = None) -> dict[str, Any]:
    note = record.note
    fields = {
        "note_id": note.note_id,
        "seq": chunk.seq,
        "title": note.title,
        "path": note.path,
        "type": note.type,
        "status": note.status,
        "retriever_weight": record.retriever_weight,
        "chunk_profile": record.chunk_profile,
        "heading_path": list(chunk.heading_path),
        "headings": list(chunk.headings),
        "meta": chunk.meta,
        "start": chunk.start,
        "end": chunk.end,
        TEXT: chunk.text,
    }
    if text_key:
        fields[TEXT_KEY] = text_key
    return pack(fields)


def text_key_of(row: dict[str, Any] | None) -> str | None:
    """The key of the text a stored chunk's vector was embedded from (None: not known)."""
    return unpack(row, None).get(TEXT_KEY)


def chunk(row: dict[str, Any], text: str | None) -> Chunk:
    return _chunk(unpack(row, text))


def _chunk(meta: dict[str, Any]) -> Chunk:
    return Chunk(
        note_id=meta["note_id"],
        seq=int(meta["seq"]),
        text=meta[TEXT],
        heading_path=tuple(meta["heading_path"]),
        headings=tuple(meta["headings"]),
        meta=meta["meta"],
        start=int(meta["start"]),
        end=int(meta["end"]),
    )


def chunk_row(row: dict[str, Any], text: str | None, vector: Any = None) -> ChunkRow:
    meta = unpack(row, text)
    return ChunkRow(
        chunk=_chunk(meta),
        title=meta["title"],
        path=meta["path"],
        type=meta["type"],
        status=meta.get("status", ""),
        retriever_weight=float(meta.get("retriever_weight", 1.0)),
        vector=vector,
    )


def where(only: CandidateFilter | None) -> dict[str, Any] | None:
    """The filter as a Chroma `where`."""
    if only is None:
        return None
    clauses: list[dict[str, Any]] = []
    if only.types is not None:
        clauses.append({"type": {"$in": sorted(only.types)}})
    if only.note_ids is not None:
        clauses.append({"note_id": {"$in": sorted(only.note_ids)}})
    return None if not clauses else clauses[0] if len(clauses) == 1 else {"$and": clauses}


def lexical_doc(record: NoteRecord, chunk: Chunk) -> LexicalDoc:
    note = record.note
    return LexicalDoc(
        chunk_id=chunk.chunk_id,
        note_id=note.note_id,
        type=note.type,
        name="\n".join((note.title, *note.aliases)),
        heading=" / ".join(chunk.heading_path),
        tags=" ".join(note.tags),
        text=chunk.text,
    )
