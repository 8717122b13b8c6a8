"""Stage 2 of an import: embed and write the prepared notes in batches, the next batch
embedding while the last one is written.

A batch holds whole notes, EMBED_BATCH_CHUNKS chunks or a little more. For a large import
the embedding runs in child processes (`open_embedding`), so parsing, deriving and the
Chroma and lexical writes of one batch overlap the embedding of the next ones: the import
takes about as long as its embedding alone. Progress is reported per note once it is written.
Cancelling drops the batches not yet written; what was written is consistent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from mindnet_desktop.core.domain import Chunk, IndexProgress, Note
from mindnet_desktop.core.ingest.embedding import embedding_text, merge_vectors, text_key
from mindnet_desktop.core.ingest.links import Link
from mindnet_desktop.core.models.embed_worker import Embedding, open_embedding
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.store.protocol import NoteRecord, Store

EMBED_BATCH_CHUNKS = 256


@dataclass
class Pending:
    """A note read, parsed and chunked in stage 1, to be written in stage 2."""

    note: Note
    chunks: list[Chunk]
    stat: tuple[int, int]
    # Its links in their chunks, read with the note (stage 2 resolves them; parsing the
    # body again there cost ~1.2 ms a note, a fifth of a large import's own CPU).
    links: list[tuple[Chunk, Link]] | None = None


@dataclass
class _Batch:
    notes: list[tuple[NoteRecord, list[Chunk]]]
    keys: list[str] = field(default_factory=list)
    known: dict[str, np.ndarray] = field(default_factory=dict)
    embedded: int = 0  # how many texts went to the embedder (0: nothing to take)


class BatchWriter:
    """Writes prepared notes to `store`, embedding only chunks whose text is new.

    Args:
        store: Where they go.
        embedder: Embeds the new chunk texts.
        before: Chunk count stored per note id before this import (edited notes).
        reuse: Take unchanged chunks' vectors from the store (not on a forced import).
        purge: Delete each note's chunks before writing it.
        workers: Embedding processes at most (None: the default; 0: in-process); see
            `open_embedding`.
        short_writes: Write in short store calls (a GUI thread shares the process).
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        before: Mapping[str, int],
        reuse: bool = True,
        purge: bool = False,
        workers: int | None = None,
        short_writes: bool = False,
    ) -> None:
        self.store, self.embedder, self.before = store, embedder, before
        self.reuse, self.purge, self.workers = reuse, purge, workers
        self.short_writes = short_writes
        self.written: list[NoteRecord] = []
        self.reused_vectors = 0
        self.processes = 0  # embedding processes used
        self.cancelled = False

    def run(
        self,
        notes: Iterable[tuple[NoteRecord, list[Chunk]]],
        total: int,
        chunk_total: int,
        cancel: Callable[[], bool],
    ) -> Generator[IndexProgress, None, None]:
        """Write `notes` (`total` of them, `chunk_total` chunks); yields progress per note."""
        embedding = open_embedding(self.embedder, chunk_total, self.workers)
        self.processes = embedding.processes
        in_flight: deque[_Batch] = deque()
        try:
            for batch in self._batches(notes, cancel):
                self._submit(batch, embedding)
                in_flight.append(batch)
                # Each child process embeds one batch ahead (it never idles while the
                # last one is written); in-process, each batch is embedded as it is
                # submitted.
                if len(in_flight) > embedding.lookahead and self._go_on(cancel):
                    yield from self._write(in_flight.popleft(), embedding, total)
            while in_flight and self._go_on(cancel):
                yield from self._write(in_flight.popleft(), embedding, total)
        finally:
            embedding.close()

    def _go_on(self, cancel: Callable[[], bool]) -> bool:
        self.cancelled = self.cancelled or cancel()
        return not self.cancelled

    def _batches(
        self, notes: Iterable[tuple[NoteRecord, list[Chunk]]], cancel: Callable[[], bool]
    ) -> Generator[_Batch, None, None]:
        batch: list[tuple[NoteRecord, list[Chunk]]] = []
        size = 0
        for note in notes:
            if not self._go_on(cancel):
                return
            batch.append(note)
            size += len(note[1])
            if size >= EMBED_BATCH_CHUNKS:
                yield _Batch(batch)
                batch, size = [], 0
        if batch:
            yield _Batch(batch)

    def _submit(self, batch: _Batch, embedding: Embedding) -> None:
        texts = [embedding_text(r.note, c) for r, chunks in batch.notes for c in chunks]
        batch.keys = [text_key(self.embedder, text) for text in texts]
        edited = [r.note.note_id for r, _ in batch.notes if r.note.note_id in self.before]
        if self.reuse and edited:
            batch.known = self.store.known_vectors(edited)
        todo = [text for text, key in zip(texts, batch.keys) if key not in batch.known]
        self.reused_vectors += len(texts) - len(todo)
        if todo:
            embedding.submit(todo)
        batch.embedded = len(todo)

    def _write(
        self, batch: _Batch, embedding: Embedding, total: int
    ) -> Generator[IndexProgress, None, None]:
        fresh = embedding.take() if batch.embedded else np.zeros((0, self.embedder.dim), np.float32)
        vectors = merge_vectors(batch.keys, batch.known, fresh)
        items, row = [], 0
        for record, chunks in batch.notes:
            items.append((record, chunks, vectors[row : row + len(chunks)]))
            row += len(chunks)
        old_counts = {
            r.note.note_id: self.before[r.note.note_id]
            for r, _ in batch.notes
            if r.note.note_id in self.before
        }
        ids = [c.chunk_id for _, chunks in batch.notes for c in chunks]
        keys = dict(zip(ids, batch.keys))
        self.store.write_notes(items, old_counts, self.purge, keys, self.short_writes)
        for record, _ in batch.notes:
            self.written.append(record)
            yield IndexProgress(len(self.written), total, record.note.path, "embed")
