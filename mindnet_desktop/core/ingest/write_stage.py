"""Stage 2 of an import: embed and write the prepared notes in batches, the next batch
embedding while the last one is written.

A batch holds whole notes, EMBED_BATCH_CHUNKS chunks or a little more. For a large import
the embedding runs in child processes (`open_embedding`), so parsing, deriving and the
Chroma and lexical writes of one batch overlap the embedding of the next ones: the import
takes about as long as its embedding alone. Progress is reported per note once it is embedded.
Cancelling writes what was embedded and drops the batches still in the embedding; what was
written is consistent.
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
# Where no GUI shares the process (`short_writes` off), the embedded batches are written in
# groups of this many chunks or a little more: each store call costs Chroma ~50 ms of CPU
# beside its rows, which the embedding processes wait for on 2 cores (a cold import of 6,500
# notes wrote 21,746 chunks in 85 calls and 6,500 notes in 85 more). The last ones are
# written batch by batch, beside the embedding of the next: after the last there is nothing
# left to overlap a long write with.
WRITE_GROUP_CHUNKS = 2048


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
    items: list[tuple[NoteRecord, list[Chunk], np.ndarray]] = field(default_factory=list)


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
        self.embedded_notes = 0  # notes whose vectors are in hand (written or in `_group`)
        self._group: list[_Batch] = []
        self._to_take = 0  # chunks not yet taken from the embedding
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
        self._to_take = chunk_total
        in_flight: deque[_Batch] = deque()
        try:
            for batch in self._batches(notes, cancel):
                self._submit(batch, embedding)
                in_flight.append(batch)
                # Each child process embeds one batch ahead (it never idles while the
                # last one is written); in-process, each batch is embedded as it is
                # submitted.
                if len(in_flight) > embedding.lookahead and self._go_on(cancel):
                    yield from self._take(in_flight.popleft(), embedding, total)
            while in_flight and self._go_on(cancel):
                yield from self._take(in_flight.popleft(), embedding, total)
            self._flush()  # what was embedded is written, cancelled or not
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

    def _take(
        self, batch: _Batch, embedding: Embedding, total: int
    ) -> Generator[IndexProgress, None, None]:
        """Take the batch's vectors; write it, or keep it for the group's write."""
        fresh = embedding.take() if batch.embedded else np.zeros((0, self.embedder.dim), np.float32)
        vectors, row = merge_vectors(batch.keys, batch.known, fresh), 0
        for record, chunks in batch.notes:
            batch.items.append((record, chunks, vectors[row : row + len(chunks)]))
            row += len(chunks)
        self._group.append(batch)
        self._to_take -= len(batch.keys)
        grouped = sum(len(b.keys) for b in self._group)
        last = self._to_take < WRITE_GROUP_CHUNKS  # the last ones: each written alone
        if self.short_writes or last or grouped >= WRITE_GROUP_CHUNKS:
            self._flush()
        for record, _ in batch.notes:
            self.embedded_notes += 1
            yield IndexProgress(self.embedded_notes, total, record.note.path, "embed")

    def _flush(self) -> None:
        """Write the batches taken and not yet written, in one call per collection."""
        group, self._group = self._group, []
        if not group:
            return
        items = [item for batch in group for item in batch.items]
        old_counts = {
            r.note.note_id: self.before[r.note.note_id]
            for r, _, _ in items
            if r.note.note_id in self.before
        }
        keys = {
            chunk.chunk_id: key
            for batch in group
            for chunk, key in zip((c for _, cs in batch.notes for c in cs), batch.keys)
        }
        self.store.write_notes(items, old_counts, self.purge, keys, self.short_writes)
        self.written += [record for batch in group for record, _ in batch.notes]
