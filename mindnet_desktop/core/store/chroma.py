"""The Chroma implementation of the `Store` protocol (`protocol.py`).

Collections: `mindnet_notes` (one record per note; its vector is the mean of its chunks'; its
metadata carries the note's edges and headings, so a restart rebuilds the graph without
parsing or embedding anything) and `mindnet_chunks` (the embedded chunks).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mindnet_desktop.core.domain import Chunk
from mindnet_desktop.core.models.embedders import Embedder, chroma_embedding_function
from mindnet_desktop.core.store import chroma_codec as codec
from mindnet_desktop.core.store.chroma_server import ChromaServer, RetryingCollection
from mindnet_desktop.core.store.lexical import LexicalIndex, LexicalQueries
from mindnet_desktop.core.store.protocol import (
    CandidateFilter,
    ChunkRow,
    NoteRecord,
    StoreError,
)
from mindnet_desktop.core.store.rebuild import REBUILD_HINT

log = logging.getLogger(__name__)

NOTES = "mindnet_notes"
CHUNKS = "mindnet_chunks"
STORE_SCHEMA = 1
# Chroma holds the GIL for a whole call (~50 ms a call plus ~1 ms per chunk here, more per
# note: its metadata carries the edges): small batches let other threads (the GUI's) run
# between calls, so no write stalls them for long. Where no GUI shares the process (the
# CLI, the app's import child), an import writes in long calls: the calls' own cost was
# half the importer's CPU, which a pool of embedding processes then waits for. (Chroma takes
# at most 5,461 rows a call here.)
WRITE_BATCH = 32
NOTE_BATCH = 16
LONG_WRITE_BATCH = 4096
LONG_NOTE_BATCH = 2048
# Ids (or `$in` values) in one read: Chroma binds each as an SQL variable, and SQLite refuses
# a statement with more than 32,766 (a whole-vault read at 20,000 notes has ~90,000 chunks).
READ_BATCH = 5000
# How many candidates Chroma's vector index visits for a query (its default is 100). The app
# searches this index, the CLI the exact chunk snapshot. With 100, the app's semantic top 50
# held 73 % of the exact top 50 at 50,000 generated notes (87 % at 6,500), and its top note
# differed from the CLI's for 17 sentence queries in 100; with 1,000, 98 % (99.6 %) and 1 in
# 100, for ~2-4 ms more a query (tools/research/hnsw/recall.py, docs/retrieval-quality.md).
# Chroma reads it when it loads an index.
EF_SEARCH = 1000
WIDEN_WAITS = (0.1, 0.3, 1.0)  # seconds between tries while the database is locked


class ChromaStore(LexicalQueries):
    """The Chroma-backed store of one vault, in `data_dir/chroma`.

    The lexical index (`data_dir/lexical`) is written with the chunks, note by note.

    Args:
        data_dir: The vault's data dir.
        embedder: The embedder whose vectors this store holds; a store built with another
            embedder refuses to open (vectors of two models never mix).
        writable: This process is the data dir's writer (it may repair the lexical index).
        replace_embedder: When the index was built with another embedder, drop its vectors
            (the notes are then imported again, embedded once with the new model) instead of
            refusing to open. `reset` tells whether that happened.
        server: Keep the collections on this Chroma server (`chroma_server.py`) instead of
            in `data_dir/chroma`; `vault` names them.
        vault: The vault whose collections these are (needed with `server`).
    """

    def __init__(
        self,
        data_dir: Path,
        embedder: Embedder,
        writable: bool = True,
        replace_embedder: bool = False,
        server: ChromaServer | None = None,
        vault: Path | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.embedder = embedder
        self.server = server
        if server is not None:
            prefix = server.prefix(vault or data_dir)
            self._names = (f"{prefix}-notes", f"{prefix}-chunks")
            path: Any = server.url
            self._client = server.connect()  # StoreError with the reason when it cannot
            try:
                self._open_collections(writable)
            except StoreError:
                raise
            except Exception as exc:
                raise StoreError(f"The Chroma server at {path} refused the index: {exc}") from exc
        else:
            self._names = (NOTES, CHUNKS)
            path = data_dir / "chroma"
            try:
                import chromadb
                from chromadb.config import Settings

                path.mkdir(parents=True, exist_ok=True)
                self._client = chromadb.PersistentClient(
                    path=str(path), settings=Settings(anonymized_telemetry=False, allow_reset=True)
                )
                self._open_collections(writable)
                self._load_indexes()
            except Exception as exc:  # chromadb raises many types for a broken directory
                raise StoreError(
                    f"Cannot open the index in {path}: {exc}. If it is corrupted: {REBUILD_HINT}"
                ) from exc
        self.reset = False
        stored = (self._chunks.metadata or {}).get("mindnet_embedder")
        if stored != embedder.name and replace_embedder and writable:
            # Never two models' vectors in one collection: drop them, embed everything anew.
            for name in self._names:
                self._client.delete_collection(name)
            self._open_collections(writable)
            self.reset = True
        elif stored != embedder.name:
            # A GGUF embedder's name identifies its file; `spec` is what --embedder takes.
            spec = getattr(embedder, "spec", embedder.name)
            raise StoreError(
                f"The index in {path} was built with the embedder '{stored}', not "
                f"'{embedder.name}'. Re-embed it once with `mindnet --embedder "
                f"{spec} import --reembed` (or choose the embedder it was built with)."
            )
        self.lexical = LexicalIndex(data_dir / "lexical", writable)
        pending = self.lexical.pending_marker
        if writable and (pending.exists() or self.lexical.count() != self._chunks.count()):
            self.rebuild_lexical()
            pending.unlink(missing_ok=True)

    def _load_indexes(self) -> None:
        """Load each collection's vector index by a `get`, which lets other threads run while
        Chroma reads it. A first `count` holds the GIL instead: ~1 s at 167,588 chunks, in
        which the app's window froze while its store opened in the background (Chroma frees
        the GIL in `get` and `query`, not yet in every call: chroma-core/chroma#7692)."""
        for collection in (self._notes, self._chunks):
            collection.get(limit=1, include=[])

    def _open_collections(self, writable: bool) -> None:
        """Open (or make) the two collections; a writer widens an older index's search."""
        ef = chroma_embedding_function(self.embedder)
        meta = {"mindnet_embedder": self.embedder.name, "mindnet_schema": STORE_SCHEMA}
        config: Any = {"hnsw": {"space": "cosine", "ef_search": EF_SEARCH}}
        notes, chunks = (
            self._client.get_or_create_collection(
                name, embedding_function=ef, metadata=meta, configuration=config
            )
            for name in self._names
        )
        if self.server is not None:  # over the network: transient failures are retried
            notes = RetryingCollection(notes, self.server.url)
            chunks = RetryingCollection(chunks, self.server.url)
        self._notes, self._chunks = notes, chunks
        if writable and (chunks.metadata or {}).get("mindnet_embedder") == self.embedder.name:
            for collection in (notes, chunks):
                _search_widely(collection)

    @property
    def embedder_name(self) -> str:
        return str((self._chunks.metadata or {}).get("mindnet_embedder", ""))

    def rebuild_lexical(self) -> None:
        """Rebuild the lexical index from the stored chunks (an index that is missing, or
        out of step after a crash): no parsing, no embedding."""
        records = self.note_records()
        self.lexical.clear()
        docs = [
            codec.lexical_doc(records[meta["note_id"]], codec.chunk(meta, text))
            for got in _pages(self._chunks, ["metadatas", "documents"])
            for meta, text in zip(got["metadatas"] or [], got["documents"] or [])
            if meta["note_id"] in records  # a chunk without its note is never searched
        ]
        self.lexical.replace([], docs)
        self.lexical.commit()

    def note_records(self) -> dict[str, NoteRecord]:
        return {
            meta["note_id"]: codec.record(meta, doc)
            for got in _pages(self._notes, ["metadatas", "documents"])
            for meta, doc in zip(got["metadatas"] or [], got["documents"] or [])
        }

    def write_notes(
        self,
        items: list[tuple[NoteRecord, list[Chunk], np.ndarray]],
        old_chunk_counts: dict[str, int] | None = None,
        purge: bool = False,
        text_keys: Mapping[str, str] | None = None,
        short_calls: bool = False,
    ) -> None:
        """Replace each note's record and chunks (vectors given, one row per chunk).

        Args:
            items: (record, chunks, vectors) per note.
            old_chunk_counts: Chunk count stored before, per note id; chunks beyond the new
                count are deleted after the upsert.
            purge: Delete all of each note's chunks before writing instead.
            text_keys: Chunk id -> key of the embedded text, kept with the chunk for
                `known_vectors`.
            short_calls: Write in calls of WRITE_BATCH chunks and NOTE_BATCH notes (a GUI
                thread shares the process), else of LONG_WRITE_BATCH and LONG_NOTE_BATCH.
        """
        if not items:
            return
        self.lexical.pending_marker.touch()
        old_chunk_counts = old_chunk_counts or {}
        if purge:
            self.delete_chunks_of([record.note.note_id for record, _, _ in items])
        else:
            stale = [
                f"{record.note.note_id}#{seq}"
                for record, chunks, _ in items
                for seq in range(len(chunks) + 1, old_chunk_counts.get(record.note.note_id, 0) + 1)
            ]
            if stale:
                self._chunks.delete(ids=stale)
        ids, metas, vecs = [], [], []
        text_keys = text_keys or {}
        for record, chunks, vectors in items:
            for chunk, vector in zip(chunks, vectors):
                ids.append(chunk.chunk_id)
                metas.append(codec.chunk_metadata(record, chunk, text_keys.get(chunk.chunk_id)))
                vecs.append(vector)
        rows, notes = (
            (WRITE_BATCH, NOTE_BATCH) if short_calls else (LONG_WRITE_BATCH, LONG_NOTE_BATCH)
        )
        for start in range(0, len(ids), rows):
            end = start + rows
            self._chunks.upsert(
                ids=ids[start:end],
                metadatas=metas[start:end],
                embeddings=np.asarray(vecs[start:end]),
            )
        note_vecs = []
        for _, _, vectors in items:
            mean = vectors.mean(axis=0)
            note_vecs.append(mean / (np.linalg.norm(mean) or 1.0))
        for start in range(0, len(items), notes):
            batch = items[start : start + notes]
            self._notes.upsert(
                ids=[record.note.note_id for record, _, _ in batch],
                metadatas=[codec.note_metadata(record) for record, _, _ in batch],
                embeddings=np.asarray(note_vecs[start : start + notes]),
            )
        self.lexical.replace(
            [record.note.note_id for record, _, _ in items],
            [codec.lexical_doc(record, chunk) for record, chunks, _ in items for chunk in chunks],
        )
        self.lexical.commit()
        self.lexical.pending_marker.unlink(missing_ok=True)

    def known_vectors(self, note_ids: list[str]) -> dict[str, np.ndarray]:
        """Text key -> stored vector of the chunks of `note_ids` that were written with one."""
        if not note_ids:
            return {}
        known: dict[str, np.ndarray] = {}
        for start in range(0, len(note_ids), WRITE_BATCH):
            got = self._chunks.get(
                where={"note_id": {"$in": note_ids[start : start + WRITE_BATCH]}},
                include=["metadatas", "embeddings"],
            )
            embeddings = got.get("embeddings")
            if embeddings is None:
                continue
            for meta, vector in zip(got["metadatas"] or [], embeddings):
                key = codec.text_key_of(meta)
                if key:
                    known[key] = np.asarray(vector, dtype=np.float32)
        return known

    def update_edges(self, records: Iterable[NoteRecord]) -> None:
        """Rewrite only the stored metadata (edges) of existing notes; nothing is embedded."""
        records = list(records)
        for start in range(0, len(records), NOTE_BATCH):
            batch = records[start : start + NOTE_BATCH]
            self._notes.update(
                ids=[r.note.note_id for r in batch],
                metadatas=[codec.note_metadata(r) for r in batch],
            )

    def delete_chunks_of(self, note_ids: list[str]) -> None:
        for start in range(0, len(note_ids), WRITE_BATCH):
            self._chunks.delete(where={"note_id": {"$in": note_ids[start : start + WRITE_BATCH]}})

    def delete_notes(self, note_ids: Iterable[str]) -> None:
        note_ids = list(note_ids)
        if not note_ids:
            return
        self.lexical.pending_marker.touch()
        self.delete_chunks_of(note_ids)
        self._notes.delete(ids=note_ids)
        self.lexical.delete(note_ids)
        self.lexical.commit()
        self.lexical.pending_marker.unlink(missing_ok=True)

    def close(self) -> None:
        self.lexical.close()

    def release(self) -> None:
        """Close, and let go of the embedded Chroma client: it keeps the index in memory, so
        a store opened again after another process wrote it must not reuse it."""
        self.close()
        if self.server is None:
            self._client.close()  # stops Chroma's shared system once no client uses it

    def chunks(self, note_id: str) -> list[Chunk]:
        got = self._chunks.get(where={"note_id": note_id}, include=["metadatas", "documents"])
        chunks = [
            codec.chunk(meta, doc)
            for meta, doc in zip(got["metadatas"] or [], got["documents"] or [])
        ]
        return sorted(chunks, key=lambda c: c.seq)

    def chunk_ids(self) -> list[str]:
        return [i for got in _pages(self._chunks, []) for i in got["ids"]]

    def counts(self) -> dict[str, int]:
        return {"notes": self._notes.count(), "chunks": self._chunks.count()}

    def nearest_chunks(
        self, vector: np.ndarray, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[ChunkRow, float]]:
        """The k chunks nearest to `vector` with their cosine similarity, in one round trip."""
        got = self._chunks.query(
            query_embeddings=[vector],
            n_results=k,
            where=codec.where(only),
            include=["distances", "documents", "metadatas"],
        )
        if not got["ids"] or not got["ids"][0]:
            return []
        return [
            (codec.chunk_row(meta, doc), 1.0 - float(d))
            for d, doc, meta in zip(got["distances"][0], got["documents"][0], got["metadatas"][0])
        ]

    def chunk_pages(self, size: int = 2000) -> Iterator[tuple[list[str], Any, Any, Any]]:
        """Every chunk (ids, metadatas, documents, vectors), `size` at a time: for the chunk
        snapshot (`chunk_snapshot.py`); small pages let other threads run between calls."""
        for got in _pages(self._chunks, ["metadatas", "documents", "embeddings"], size):
            yield list(got["ids"]), got["metadatas"], got["documents"], got["embeddings"]

    def chunks_of_notes(self, note_ids: list[str]) -> tuple[list[str], Any, Any, Any]:
        """The chunks of `note_ids` (ids, metadatas, documents, vectors), as `chunk_pages`."""
        include: Any = ["metadatas", "documents", "embeddings"]
        ids: list[str] = []
        metas: list[Any] = []
        docs: list[Any] = []
        vectors: list[Any] = []
        for start in range(0, len(note_ids), READ_BATCH):
            part = note_ids[start : start + READ_BATCH]
            got = self._chunks.get(where={"note_id": {"$in": part}}, include=include)
            ids += got["ids"]
            metas += got["metadatas"] or []
            docs += got["documents"] or []
            if got["embeddings"] is not None:
                vectors += list(got["embeddings"])
        return ids, metas, docs, vectors

    def baseline_query(self, vector: np.ndarray, k: int) -> None:
        """A plain Chroma query of k chunks, nothing decoded: the baseline of `bench search`."""
        self._chunks.query(query_embeddings=[vector], n_results=k)

    @property
    def embedding_function_name(self) -> str:
        """The name of the embedding function Chroma persisted with the collection."""
        return str(self._chunks.configuration["embedding_function"].name())

    def note_vectors(self, ids: list[str] | None = None) -> tuple[list[str], np.ndarray]:
        """Every note's vector (the mean of its chunks'), for in-memory ranking of notes; with
        `ids`, those notes' (unknown ids left out)."""
        if ids is not None and not ids:
            return [], np.zeros((0, self.embedder.dim), np.float32)
        if ids is None:
            pages = list(_pages(self._notes, ["embeddings"]))
        else:
            pages = [
                self._notes.get(ids=ids[start : start + READ_BATCH], include=["embeddings"])
                for start in range(0, len(ids), READ_BATCH)
            ]
        found = [(i, v) for got in pages for i, v in zip(got["ids"], _vectors(got))]
        if not found:
            return [], np.zeros((0, self.embedder.dim), np.float32)
        return [i for i, _ in found], np.asarray([v for _, v in found], dtype=np.float32)

    def chunk_vectors(self, ids: list[str]) -> tuple[list[str], np.ndarray]:
        found: list[str] = []
        vectors: list[Any] = []
        for start in range(0, len(ids), READ_BATCH):
            got = self._chunks.get(ids=ids[start : start + READ_BATCH], include=["embeddings"])
            found += got["ids"]
            vectors += _vectors(got)
        place = {chunk_id: i for i, chunk_id in enumerate(ids)}
        order = sorted(range(len(found)), key=lambda i: place[found[i]])  # as asked
        if not found:
            return [], np.zeros((0, self.embedder.dim), np.float32)
        matrix = np.asarray(vectors, dtype=np.float32)
        return [found[i] for i in order], matrix[order]

    def chunk_rows(self, ids: list[str], vectors: bool = False) -> dict[str, ChunkRow]:
        """The stored chunks of `ids` (with their vectors when asked; unknown ids left out)."""
        if not ids:
            return {}
        include: Any = ["documents", "metadatas"] + (["embeddings"] if vectors else [])
        rows: dict[str, ChunkRow] = {}
        for start in range(0, len(ids), READ_BATCH):
            got = self._chunks.get(ids=ids[start : start + READ_BATCH], include=include)
            embeddings = got.get("embeddings") if vectors else None
            for i, (cid, doc, meta) in enumerate(
                zip(got["ids"], got["documents"], got["metadatas"])
            ):
                vector = None if embeddings is None else np.asarray(embeddings[i])
                rows[cid] = codec.chunk_row(meta, doc, vector)
        return rows


def _vectors(got: Any) -> list[Any]:
    """The embeddings of a `get` answer (none when it holds no row)."""
    embeddings = got.get("embeddings")
    return [] if embeddings is None else list(embeddings)


def _search_widely(collection: Any) -> None:
    """Give an HNSW index made with another `ef_search` (Chroma's default, before
    EF_SEARCH) this one. It takes effect where the index is loaded next: in this process
    when nothing loaded it yet (a writer sets it before its first read), else after a
    restart. Only a better search is at stake, so a failure is logged, not raised; an index
    of another kind (SPANN, on a distributed Chroma) has no HNSW settings to change."""
    hnsw = (collection.configuration_json or {}).get("hnsw")
    if not isinstance(hnsw, dict) or hnsw.get("ef_search") == EF_SEARCH:
        return
    for wait in (*WIDEN_WAITS, None):
        try:
            collection.modify(configuration={"hnsw": {"ef_search": EF_SEARCH}})
            return
        except Exception as exc:  # noqa: BLE001 - the index works as it is
            # Another process (a reader, a store closed a moment ago) may hold the database
            # for a moment: tried again, then left for the next start.
            if wait is None or "locked" not in str(exc):
                log.warning("Could not widen the vector search of %s: %s", collection.name, exc)
                return
            time.sleep(wait)


def _pages(collection: Any, include: Any, size: int | None = None) -> Iterator[Any]:
    """A whole collection, `size` rows a call (default `READ_BATCH`): one call for every row
    fails past ~32,000 of them (`too many SQL variables`, seen at 50,000 notes)."""
    size = size or READ_BATCH
    for offset in range(0, collection.count(), size):
        yield collection.get(limit=size, offset=offset, include=include)
