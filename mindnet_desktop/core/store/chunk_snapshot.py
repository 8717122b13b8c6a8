"""Every chunk's row and vector in two files of the data dir, so that a fresh reader process
(`mindnet search`, `ask`, `rag`) answers without importing chromadb (~1.2–1.5 s of CPU) or
loading Chroma's vector index: an exact cosine search over a memory-mapped matrix.

Like the records and graph snapshots it is only a cache: it carries the signature of the
manifest it was built from, the embedder's name and the number of chunks, and is ignored
when any of them differs (the importer removes the manifest before it writes the store).
`chunks.vectors.npy` holds the float32 vectors (unit length), `chunks.notes.npy` every
note's; `chunks.snapshot` the ids, note ids and types that filter a search; `chunks.rows.sqlite`
the rows as Chroma stores them (`chroma_codec` decodes them), read only for the chunks a
search returns (loading all of them took 0.5 s of a fresh search at 50,000 notes). All are
written atomically by this program into the user's own data dir, `chunks.snapshot` last; a
broken one is just no snapshot.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mindnet_desktop.core.files import atomic_writer
from mindnet_desktop.core.store import chroma_codec as codec
from mindnet_desktop.core.store.protocol import CandidateFilter, ChunkRow
from mindnet_desktop.core.store.vector_files import (
    NoteSums,
    VectorFile,
    mean_note_vectors,
    unit_rows,
)

SCHEMA = 2  # 2: the rows in chunks.rows.sqlite
ROWS_FILE = "chunks.snapshot"
ROWS_DB = "chunks.rows.sqlite"
BATCH = 500  # row numbers per query (SQLite's bound on parameters)
VECTORS_FILE = "chunks.vectors.npy"
NOTES_FILE = "chunks.notes.npy"  # every note's vector, in the order of its sorted note ids

Page = tuple[list[str], list[Any], list[Any], Any]  # ids, metadatas, documents, embeddings
MAX_CHANGED_NOTES = 500  # more changed notes: the snapshot is read anew from the store
PAGE_ROWS = 2000  # rows of the old snapshot kept a page at a time


class RowFile(Sequence[tuple[Any, Any]]):
    """The snapshot's rows (metadata, document), read from `chunks.rows.sqlite` when asked."""

    def __init__(self, con: sqlite3.Connection, count: int) -> None:
        self._con, self._count = con, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self.many(list(range(self._count))[i])
        return self.many([i])[0]

    def many(self, rows: list[int]) -> list[tuple[Any, Any]]:
        """The rows at these positions, in this order."""
        found: dict[int, tuple[Any, Any]] = {}
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            marks = ",".join("?" * len(part))
            query = f"SELECT i, meta, document FROM rows WHERE i IN ({marks})"
            for i, meta, document in self._con.execute(query, part):
                found[i] = (pickle.loads(meta), document)
        return [found[i] for i in rows]


class ChunkSnapshot:
    """The chunks of one index, read from the snapshot files."""

    def __init__(
        self,
        ids: list[str],
        rows: Sequence[tuple[Any, Any]],
        matrix: np.ndarray,
        note_ids: list[str] | None = None,
        types: list[str] | None = None,
    ) -> None:
        self.ids = ids
        self.rows = rows  # (metadata, document) as Chroma returned them: a list or `RowFile`
        self.matrix = matrix
        self.index = {chunk_id: i for i, chunk_id in enumerate(ids)}
        self.note_ids = note_ids if note_ids is not None else [m["note_id"] for m, _ in rows]
        self._types = types if types is not None else [m.get("type", "") for m, _ in rows]
        self.notes_matrix: np.ndarray | None = None  # `note_vectors`, as saved beside

    def rows_at(self, positions: list[int]) -> list[tuple[Any, Any]]:
        """The rows at these positions (one query per 500 from the file)."""
        if isinstance(self.rows, RowFile):
            return self.rows.many(positions)
        return [self.rows[i] for i in positions]

    @classmethod
    def load(cls, data_dir: Path, signature: str | None, embedder: str) -> ChunkSnapshot | None:
        """The snapshot if it was built from this manifest with this embedder, else None."""
        if signature is None:
            return None
        try:
            with open(data_dir / ROWS_FILE, "rb") as handle:
                header = pickle.load(handle)
                if header[:3] != (SCHEMA, signature, embedder):
                    return None
                ids, note_ids, types = pickle.load(handle)
            matrix = np.load(data_dir / VECTORS_FILE, mmap_mode="r")
            # Immutable: replaced whole, never written in place; any thread may read it.
            uri = f"{(data_dir / ROWS_DB).as_uri()}?mode=ro&immutable=1"
            con = sqlite3.connect(uri, uri=True, check_same_thread=False)
            stamp = con.execute("SELECT value FROM meta WHERE key = 'signature'").fetchone()
        except Exception:  # noqa: BLE001 - any broken or foreign file is just no snapshot
            return None
        if stamp is None or stamp[0] != signature:
            con.close()  # rows of another snapshot (a write broken off before its last file)
            return None
        if matrix.ndim != 2 or matrix.shape[0] != len(ids) or header[3] != len(ids):
            con.close()
            return None
        snapshot = cls(ids, RowFile(con, len(ids)), matrix, note_ids, types)
        try:
            notes = np.load(data_dir / NOTES_FILE, mmap_mode="r")
            if notes.ndim == 2 and notes.shape[1] == matrix.shape[1]:
                snapshot.notes_matrix = notes  # (its length is checked when it is read)
        except Exception:  # noqa: BLE001 - missing or broken: summed when asked
            pass
        return snapshot

    def __len__(self) -> int:
        return len(self.ids)

    def note_count(self) -> int:
        return len(set(self.note_ids))

    def nearest(
        self, vector: np.ndarray, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[ChunkRow, float]]:
        """The k chunks nearest to `vector` by cosine (exact), with their similarity."""
        if not self.ids or k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        scores = self.matrix @ (query / (np.linalg.norm(query) or 1.0))
        if only is not None:
            allowed = np.fromiter(
                (
                    (only.types is None or t in only.types)
                    and (only.note_ids is None or n in only.note_ids)
                    for t, n in zip(self._types, self.note_ids)
                ),
                dtype=bool,
                count=len(self.ids),
            )
            scores = np.where(allowed, scores, -np.inf)
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        kept = [int(i) for i in top if scores[i] != -np.inf]
        return [
            (codec.chunk_row(*row), float(scores[i]))
            for i, row in zip(kept, self.rows_at(kept), strict=True)
        ]

    def note_vectors(self) -> tuple[list[str], np.ndarray]:
        """Every note's vector as the store keeps it: the mean of its chunks', unit length;
        from the file saved with the snapshot (summing 167,588 rows took ~1 s of a fresh
        DECISION question at 50,000 notes), else summed here."""
        notes = sorted(set(self.note_ids))
        if self.notes_matrix is not None and len(self.notes_matrix) == len(notes):
            return notes, np.asarray(self.notes_matrix, dtype=np.float32)
        return mean_note_vectors(self.note_ids, self.matrix)

    def chunk_vectors(self, ids: list[str]) -> tuple[list[str], np.ndarray]:
        """The vectors of `ids`, one row each (unknown ids left out)."""
        found = [(chunk_id, self.index[chunk_id]) for chunk_id in ids if chunk_id in self.index]
        rows = [i for _, i in found]
        return [chunk_id for chunk_id, _ in found], np.asarray(self.matrix[rows], np.float32)

    def chunk_rows(self, ids: list[str], vectors: bool = False) -> dict[str, ChunkRow]:
        """The chunks of `ids` (with their vectors when asked; unknown ids left out)."""
        found = [(chunk_id, self.index[chunk_id]) for chunk_id in ids if chunk_id in self.index]
        rows = self.rows_at([i for _, i in found])
        return {
            chunk_id: codec.chunk_row(*row, np.array(self.matrix[i]) if vectors else None)
            for (chunk_id, i), row in zip(found, rows, strict=True)
        }


def snapshot_embedder(data_dir: Path) -> str | None:
    """The embedder the snapshot on disk was built with (None: no snapshot, or a broken
    one); its header alone is read."""
    try:
        with open(data_dir / ROWS_FILE, "rb") as handle:
            header = pickle.load(handle)
    except Exception:  # noqa: BLE001 - missing or broken: nothing known
        return None
    return str(header[2]) if isinstance(header, tuple) and len(header) > 2 else None


def in_step(data_dir: Path, signature: str | None, embedder: str) -> bool:
    """The snapshot on disk was built from this manifest with this embedder (its header
    alone is read)."""
    try:
        with open(data_dir / ROWS_FILE, "rb") as handle:
            return bool(pickle.load(handle)[:3] == (SCHEMA, signature, embedder))
    except Exception:  # noqa: BLE001 - missing or broken: not in step
        return False


def keep_chunk_snapshot(
    data_dir: Path,
    store: Any,
    signature: str | None,
    embedder: str,
    read: Callable[[], None] | None = None,
) -> bool:
    """Write the snapshot from `store` (a `ChromaStore`) unless it is in step already or the
    store is on a server; whether one in step is there now. `read` is called once the store
    is no longer needed (every page read), if it was read at all."""
    if store.server is not None or signature is None:
        return False
    if in_step(data_dir, signature, embedder):
        return True
    return save_chunk_snapshot(data_dir, store.chunk_pages(), signature, embedder, read)


def update_chunk_snapshot(
    data_dir: Path,
    store: Any,
    before: str | None,
    signature: str | None,
    embedder: str,
    changed: set[str],
    read: Callable[[], None] | None = None,
) -> bool:
    """After an import: when the snapshot was in step with the manifest `before` it, only
    the chunks of the `changed` notes are read from `store` (a one-note edit at 6,500 notes
    reads ~5 chunks instead of ~24,000); otherwise as `keep_chunk_snapshot` (`read` too)."""
    if store.server is not None or signature is None:
        return False
    old = ChunkSnapshot.load(data_dir, before, embedder) if changed else None
    if old is None or len(changed) > MAX_CHANGED_NOTES:
        return keep_chunk_snapshot(data_dir, store, signature, embedder, read)
    kept = [i for i, note_id in enumerate(old.note_ids) if note_id not in changed]

    def pages() -> Iterator[Page]:  # the old rows a page at a time, then the changed notes'
        for start in range(0, len(kept), PAGE_ROWS):
            part = kept[start : start + PAGE_ROWS]
            rows = old.rows_at(part)
            vectors = old.matrix[part]
            yield [old.ids[i] for i in part], [m for m, _ in rows], [d for _, d in rows], vectors
        yield store.chunks_of_notes(sorted(changed))

    return save_chunk_snapshot(data_dir, pages(), signature, embedder, read)


def save_chunk_snapshot(
    data_dir: Path,
    pages: Iterable[Page],
    signature: str | None,
    embedder: str,
    read: Callable[[], None] | None = None,
) -> bool:
    """Write the snapshot from the store's chunks, page by page; whether it was written (a
    read-only or full data dir leaves none: the readers then open Chroma). `read` is called
    once the last page is read, before the notes' vectors are written (the store can let go
    of its index there).

    Each page goes to the files as it comes: its rows, its vectors scaled to unit length,
    and its rows' sums per note. Holding every page, the matrix and its normalized copy at
    once took 2.8 GB at 50,000 notes; the matrix alone (343 MB), held while the pages were
    read beside Chroma's loaded index, put a cold import's peak over 2 GB (`bench all`)."""
    if signature is None:
        return False
    ids: list[str] = []
    owners: list[str] = []
    types: list[str] = []
    sums = NoteSums()
    try:
        with atomic_writer(data_dir / VECTORS_FILE) as handle:
            vectors = VectorFile(handle)

            def rows() -> Iterator[tuple[Any, Any]]:
                for page_ids, metas, documents, embeddings in pages:
                    page_owners = [meta["note_id"] for meta in metas]
                    ids.extend(page_ids)
                    owners.extend(page_owners)
                    types.extend(meta.get("type", "") for meta in metas)
                    if len(page_ids):
                        block = unit_rows(np.array(embeddings, dtype=np.float32))
                        vectors.write(block)
                        sums.add(page_owners, block)
                    yield from zip(metas, documents)
                if read is not None:
                    read()

            _write_rows(data_dir / ROWS_DB, rows(), signature)
            vectors.close()
        with atomic_writer(data_dir / NOTES_FILE) as handle:
            np.save(handle, sums.matrix())
        with atomic_writer(data_dir / ROWS_FILE) as handle:  # last: it names the others
            pickle.dump((SCHEMA, signature, embedder, len(ids)), handle, pickle.HIGHEST_PROTOCOL)
            pickle.dump((ids, owners, types), handle, pickle.HIGHEST_PROTOCOL)
    except (OSError, sqlite3.Error):
        return False
    return True


def _write_rows(path: Path, rows: Iterable[tuple[Any, Any]], signature: str) -> None:
    """The rows in an SQLite file (row number, pickled metadata, document), written whole
    into a temporary file moved into place."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(tmp)) as con:
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
            con.execute("CREATE TABLE rows (i INTEGER PRIMARY KEY, meta BLOB, document TEXT)")
            con.executemany(
                "INSERT INTO rows VALUES (?, ?, ?)",
                (
                    (i, pickle.dumps(meta, pickle.HIGHEST_PROTOCOL), document)
                    for i, (meta, document) in enumerate(rows)
                ),
            )
            con.execute("INSERT INTO meta VALUES ('signature', ?)", (signature,))
            con.commit()
        os.chmod(tmp, 0o600)  # the notes' text: private, as the other snapshots
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
