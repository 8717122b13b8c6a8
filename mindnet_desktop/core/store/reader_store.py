"""The store of a reader process that found a chunk snapshot in step (`chunk_snapshot.py`):
vector queries, chunk rows and note vectors from the snapshot, lexical queries from the
lexical index, and Chroma opened only for what neither holds (a note's chunks for `show`,
the note records when no records snapshot is in step, ...)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np

from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chroma_server import ChromaServer
from mindnet_desktop.core.store.chunk_snapshot import ChunkSnapshot
from mindnet_desktop.core.store.lexical import LexicalIndex, LexicalQueries
from mindnet_desktop.core.store.protocol import CandidateFilter, ChunkRow


class ReaderStore(LexicalQueries):
    """Answers a search without chromadb; anything else goes to the store `open_store`
    opens (once, when first needed)."""

    server = None  # embedded: a Chroma server needs no snapshot

    def __init__(
        self, data_dir: Path, snapshot: ChunkSnapshot, open_store: Callable[[], Any]
    ) -> None:
        self._open_store = open_store  # first: `__getattr__` must find both
        self._store: Any = None
        self.snapshot = snapshot
        self.lexical = LexicalIndex(data_dir / "lexical", False)

    def __getattr__(self, name: str) -> Any:
        # Only for attributes not defined here: the full store, opened on first use.
        if name.startswith("__"):
            raise AttributeError(name)
        if self._store is None:
            self._store = self._open_store()
        return getattr(self._store, name)

    def counts(self) -> dict[str, int]:
        return {"notes": self.snapshot.note_count(), "chunks": len(self.snapshot)}

    def nearest_chunks(
        self, vector: np.ndarray, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[ChunkRow, float]]:
        return self.snapshot.nearest(vector, k, only)

    def chunk_rows(self, ids: list[str], vectors: bool = False) -> dict[str, ChunkRow]:
        return self.snapshot.chunk_rows(ids, vectors)

    def note_vectors(self, ids: list[str] | None = None) -> tuple[list[str], np.ndarray]:
        every, matrix = self.snapshot.note_vectors()
        if ids is None:
            return every, matrix
        wanted = set(ids)
        rows = [i for i, note_id in enumerate(every) if note_id in wanted]
        return [every[i] for i in rows], matrix[rows]

    def close(self) -> None:
        self.lexical.close()
        if self._store is not None:
            self._store.close()

    def release(self) -> None:
        self.lexical.close()
        if self._store is not None:
            self._store.release()  # closes it too


def open_store(
    data_dir: Path,
    embedder: Embedder,
    write: bool,
    replace_embedder: bool,
    server: ChromaServer | None,
    vault: Path,
    snapshot_signature: str | None = None,
) -> ChromaStore:
    """The vault's store; with `snapshot_signature` (a lazy reader), the chunk snapshot of
    that manifest when there is one, with Chroma behind it."""

    def full() -> ChromaStore:
        return ChromaStore(data_dir, embedder, write, replace_embedder, server, vault)

    if snapshot_signature is not None and not write and server is None:
        snapshot = ChunkSnapshot.load(data_dir, snapshot_signature, embedder.name)
        if snapshot is not None:
            # It answers what a search asks and hands the rest to Chroma: one type for callers.
            return cast(ChromaStore, ReaderStore(data_dir, snapshot, full))
    return full()
