"""What a search reads of the notes and the graph, from wherever it is cheapest: the records
and the graph when this process holds them, else a fresh reader's note index
(`graph/note_index.py`), which answers without loading either."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mindnet_desktop.core.config.vocabulary import Vocabulary
from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.graph.note_index import (
    IndexReads,
    NoteIndex,
    SearchGraph,
    note_names,
    write_note_index,
)
from mindnet_desktop.core.service.notes.lookup import NotesView
from mindnet_desktop.core.store.chunk_snapshot import keep_chunk_snapshot, update_chunk_snapshot
from mindnet_desktop.core.store.protocol import NoteRecord

if TYPE_CHECKING:
    from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
    from mindnet_desktop.core.graph.snapshot import Snapshots
    from mindnet_desktop.core.models.embedders import Embedder
    from mindnet_desktop.core.store.chroma import ChromaStore


class ViewSource(Protocol):
    """What a search view is read from (`VaultState`, or the `Mindnet` that holds one): the
    data dir with its snapshots, the config dir, and the records, graph and kinds."""

    @property
    def data_dir(self) -> Path: ...

    @property
    def config_dir(self) -> Path: ...

    @property
    def snapshots(self) -> Snapshots: ...

    @property
    def records(self) -> dict[str, NoteRecord]: ...

    @property
    def graph(self) -> KnowledgeGraph: ...

    @property
    def vocabulary(self) -> Vocabulary: ...


class SnapshotSource(ViewSource, Protocol):
    """A `ViewSource` with the store and embedder that the chunk snapshot is taken from."""

    @property
    def store(self) -> ChromaStore: ...

    @property
    def embedder(self) -> Embedder: ...

    def release_store(self) -> None: ...


@dataclass
class SearchView:
    """The graph (chunks, links among candidates, neighbours), the notes (title, type,
    names), each note file's stamp at import (mtime_ns, size) and the symmetric kinds."""

    graph: SearchGraph
    notes: Mapping[str, Note]
    names: Mapping[str, list[str]]
    stamp: Callable[[str], tuple[int, int]]
    symmetric: frozenset[str]
    index: IndexReads | None = None

    @classmethod
    def over(
        cls, records: dict[str, NoteRecord], graph: KnowledgeGraph, symmetric: frozenset[str]
    ) -> SearchView:
        def stamp(note_id: str) -> tuple[int, int]:
            return records[note_id].mtime_ns, records[note_id].size

        return cls(graph, NotesView(records), note_names(records), stamp, symmetric)

    @classmethod
    def of_index(cls, index: IndexReads, symmetric: frozenset[str]) -> SearchView:
        return cls(index, index.notes, index.names, index.stamp, symmetric, index)

    def close(self) -> None:
        if self.index is not None:
            self.index.close()


def open_search_view(mn: ViewSource, fresh: bool, keep: bool = True) -> SearchView:
    """The view a search of `mn` reads. `fresh` (a lazy reader that has loaded nothing yet):
    the note index when one is in step; when none is, the records and the graph, and (with
    `keep`) an index of them is written for the next fresh search (as the records and graph
    snapshots are when missing)."""
    if not fresh:
        return SearchView.over(mn.records, mn.graph, mn.vocabulary.symmetric)
    signature = mn.snapshots.signatures()[1]  # before reading: a race only misses
    index = NoteIndex.load(mn.data_dir, signature)
    if index is not None:
        return SearchView.of_index(index, Vocabulary(mn.config_dir).symmetric)
    view = SearchView.over(mn.records, mn.graph, mn.vocabulary.symmetric)
    if keep:
        write_note_index(mn.data_dir, mn.records, mn.graph, signature)
    return view


def keep_reader_snapshots(mn: SnapshotSource, release_store: bool = False) -> None:
    """What `mindnet import` leaves for a fresh search, each written unless one in step is
    there: the chunk snapshot and the note index (`release_store`: as
    `update_reader_snapshots`)."""
    read = mn.release_store if release_store else None
    keep_chunk_snapshot(mn.data_dir, mn.store, mn.snapshots.signatures()[0], mn.embedder.name, read)
    keep_note_index(mn)


def update_reader_snapshots(
    mn: SnapshotSource,
    before: str | None,
    written: list[str],
    deleted: list[str],
    release_store: bool = False,
) -> None:
    """After an import of `mn` (its records signature `before` it; the notes it wrote and
    deleted): the chunk snapshot updated by those notes alone when it followed `before`, and
    the note index, each unless in step. `release_store`: let go of the store once the
    chunk snapshot's pages are read (Chroma's index in memory; the rest needs only the
    records and the graph)."""
    after = mn.snapshots.signatures()[0]
    changed = set(written) | set(deleted)
    read = mn.release_store if release_store else None
    update_chunk_snapshot(mn.data_dir, mn.store, before, after, mn.embedder.name, changed, read)
    keep_note_index(mn)


def keep_note_index(mn: ViewSource) -> bool:
    """Write the vault's note index unless one in step is there (`mindnet import`); whether
    one is there now."""
    signature = mn.snapshots.signatures()[1]
    index = NoteIndex.load(mn.data_dir, signature)
    if index is not None:
        index.close()
        return True
    return write_note_index(mn.data_dir, mn.records, mn.graph, signature)
