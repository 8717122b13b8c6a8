"""The store of a reader process that found a chunk snapshot in step (`chunk_snapshot.py`):
vector queries, chunk rows and note vectors from the snapshot, lexical queries from the
lexical index, and Chroma opened only for what neither holds (a note's chunks for `show`,
the note records when no records snapshot is in step, ...).

The app's writer starts the same way (`behind_snapshot`): its store opens on a thread of its
own while the reader store answers, and replaces it once open (`Mindnet.wait_for_store`)."""

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
from mindnet_desktop.core.store.opening import StoreOpening
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

    @property
    def delegated(self) -> bool:
        """Something was asked of the full store (opened for it): it may have been written."""
        return self._store is not None

    def counts(self) -> dict[str, int]:
        return {"notes": self.snapshot.note_count(), "chunks": len(self.snapshot)}

    def nearest_chunks(
        self, vector: np.ndarray, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[ChunkRow, float]]:
        return self.snapshot.nearest(vector, k, only)

    def chunk_rows(self, ids: list[str], vectors: bool = False) -> dict[str, ChunkRow]:
        return self.snapshot.chunk_rows(ids, vectors)

    def chunk_vectors(self, ids: list[str]) -> tuple[list[str], np.ndarray]:
        return self.snapshot.chunk_vectors(ids)

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

    def detach(self) -> None:
        """Close what this store opened itself (the lexical reader), not the full store:
        another takes it over (`Mindnet.wait_for_store`)."""
        self.lexical.close()


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


def behind_snapshot(
    data_dir: Path, embedder: Embedder, vault: Path, signature: str | None
) -> tuple[ChromaStore, StoreOpening] | None:
    """A writer's store opening on a thread of its own, and the reader store that answers
    searches from the chunk snapshot of the manifest `signature` meanwhile (anything else it
    hands to the opening store, waiting for it); None when no snapshot is in step (the
    caller opens the store at once)."""
    snapshot = ChunkSnapshot.load(data_dir, signature, embedder.name)
    if snapshot is None:
        return None
    openings: list[StoreOpening] = []
    try:
        reader = ReaderStore(data_dir, snapshot, lambda: openings[0].result())
    except Exception:  # noqa: BLE001 - e.g. a lexical index of another version: the writer mends it
        return None

    def open_warm() -> ChromaStore:
        store = ChromaStore(data_dir, embedder, True, False, None, vault)
        try:
            store.counts()  # Chroma loads each collection at its first call, holding the GIL
        except BaseException:
            store.close()
            raise
        return store

    openings.append(StoreOpening(open_warm))
    return cast(ChromaStore, reader), openings[0]
