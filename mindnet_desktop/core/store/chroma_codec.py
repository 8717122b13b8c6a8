"""How `ChromaStore` keeps notes and chunks: Chroma metadata holds scalars only, so lists and
mappings are stored as JSON text. Private to the store package: callers get domain objects."""

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


def note_metadata(record: NoteRecord) -> dict[str, Any]:
    # Chroma metadata holds scalars only: lists and mappings are stored as JSON text.
    fields = {
        k: json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v
        for k, v in note_fields(record).items()
    }
    return {
        **fields,
        "mtime_ns": str(record.mtime_ns),
        "size": record.size,
        "chunk_count": record.chunk_count,
        "fingerprint": record.fingerprint,
        "headings": json.dumps(record.headings, ensure_ascii=False),
        "edges": json.dumps([e.to_dict() for e in record.edges], ensure_ascii=False),
    }


def record(meta: dict[str, Any], document: str) -> NoteRecord:
    note = Note(
        note_id=meta["note_id"],
        path=meta["path"],
        title=meta["title"],
        type=meta["type"],
        body=document or "",
        content_hash=meta["content_hash"],
        tags=tuple(json.loads(meta["tags"])),
        aliases=tuple(json.loads(meta["aliases"])),
        status=meta["status"],
        format=meta["format"],
        warnings=tuple(json.loads(meta["warnings"])),
        source_meta=json.loads(meta["source_meta"]),
    )
    return NoteRecord(
        note=note,
        mtime_ns=int(meta["mtime_ns"]),
        size=int(meta["size"]),
        chunk_count=int(meta["chunk_count"]),
        retriever_weight=float(meta["retriever_weight"]),
        chunk_profile=str(meta["chunk_profile"]),
        fingerprint=str(meta.get("fingerprint", "")),
        headings=[(str(h), int(s)) for h, s in json.loads(meta["headings"])],
        edges=[Edge.from_dict(e) for e in json.loads(meta["edges"])],
        indexed_at=float(meta["indexed_at"]),
    )


TEXT_KEY = "text_key"  # chunk metadata: a key of the text that was embedded (see known_vectors)


def chunk_metadata(record: NoteRecord, chunk: Chunk) -> dict[str, Any]:
    note = record.note
    return {
        "note_id": note.note_id,
        "seq": chunk.seq,
        "title": note.title,
        "path": note.path,
        "type": note.type,
        "status": note.status,
        "retriever_weight": record.retriever_weight,
        "chunk_profile": record.chunk_profile,
        "heading_path": json.dumps(list(chunk.heading_path), ensure_ascii=False),
        "headings": json.dumps(list(chunk.headings), ensure_ascii=False),
        "meta": json.dumps(chunk.meta, ensure_ascii=False),
        "start": chunk.start,
        "end": chunk.end,
    }


def chunk(meta: dict[str, Any], text: str | None) -> Chunk:
    return Chunk(
        note_id=meta["note_id"],
        seq=int(meta["seq"]),
        text=text or "",
        heading_path=tuple(json.loads(meta["heading_path"])),
        headings=tuple(json.loads(meta["headings"])),
        meta=json.loads(meta["meta"]),
        start=int(meta["start"]),
        end=int(meta["end"]),
    )


def chunk_row(meta: dict[str, Any], text: str | None, vector: Any = None) -> ChunkRow:
    return ChunkRow(
        chunk=chunk(meta, text),
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
