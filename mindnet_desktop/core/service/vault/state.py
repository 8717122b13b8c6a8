"""`VaultState`: what a process has read of a vault's index, and the one place that keeps it
in step when the index changes.

What is held, each read when first needed: the notes' records, the knowledge graph, the edge
kinds in use, the search view (`search/view.py`), every note's vector; beside them the data
dir's manifest, edge overlay, records and graph snapshots and the ratings' index.

What follows a change:

- an import (`imported`): records and graph patched with what was written, deleted and
  renamed (or the snapshots of before the import patched, so that the next start finds
  snapshots in step), the overlay told of renames, the note vectors patched, the kinds and
  the search view forgotten; the snapshots are then stale, the changed notes listed
  (`unsaved.py`): `save_snapshots` writes them here (with the chunk snapshot and the note
  index when asked), or another process does (`take_unsaved`, `written`; the app's);
- a user edge (`add_user_edge`, `delete_edge`, `restore_edge`): overlay and graph together,
  the kinds and the search view forgotten when a kind may have joined;
- another process writing the index (`forget`, then `reread`): everything read is dropped,
  the manifest and overlay read anew, the ratings' index forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mindnet_desktop.core.config.vocabulary import Vocabulary
from mindnet_desktop.core.domain import Edge
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.note_index import IndexReads, NoteIndex, write_note_index
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.importer import ImportOutcome
from mindnet_desktop.core.ingest.links import ResolverCache
from mindnet_desktop.core.ingest.manifest import Manifest
from mindnet_desktop.core.service.quality.feedback import FeedbackIndex
from mindnet_desktop.core.service.search.view import SearchView, open_search_view
from mindnet_desktop.core.service.vault.index_patch import IndexPatch
from mindnet_desktop.core.service.vault.note_vectors import nearest_notes, refreshed_vectors
from mindnet_desktop.core.service.vault.unsaved import Unsaved
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chunk_snapshot import (
    ChunkSnapshot,
    in_step,
    update_chunk_snapshot,
)
from mindnet_desktop.core.store.overlay import EdgeOverlay, Tombstone
from mindnet_desktop.core.store.protocol import NoteRecord


class VaultState:
    """What this process holds of a vault's index, kept in step with its changes.

    Args:
        data_dir: The vault's data dir.
        config_dir: The vault's config dir (custom edge kinds).
        open_store: The index's store (opened on the first call); called only when needed.
        embedder: The name of the index's embedder (of the chunk snapshot).
        fresh_reader: A lazy reader: its first search may read the note index instead of
            loading the records and the graph.
        feedback: The ratings' index (forgotten when another process wrote the index).
        keep_caches: Save the records and graph snapshots and the note index when what was
            read was not in step with them (False: a reader that leaves the data dir as it
            is, `mindnet mcp`).
    """

    def __init__(
        self,
        data_dir: Path,
        config_dir: Path,
        open_store: Callable[[], ChromaStore],
        embedder: str,
        fresh_reader: bool,
        feedback: FeedbackIndex,
        keep_caches: bool = True,
    ) -> None:
        self.data_dir = data_dir
        self.config_dir = config_dir
        self.open_store = open_store
        self.embedder = embedder
        self.fresh_reader = fresh_reader
        self.feedback = feedback
        self.keep_caches = keep_caches
        self.manifest = Manifest(data_dir / "manifest.json")  # kept between imports
        self.resolvers = ResolverCache()  # so is the last link resolver
        self.overlay = EdgeOverlay(data_dir)
        self.snapshots = Snapshots(data_dir)
        self.stale = False  # an import changed the records or graph since they were saved
        self.unsaved: Unsaved | None = None  # those changes, note by note
        self._sent: Unsaved | None = None  # taken by `take_unsaved`, being written
        self._records: dict[str, NoteRecord] | None = None
        self._graph: KnowledgeGraph | None = None
        self._vocabulary: Vocabulary | None = None
        self._search_view: SearchView | None = None
        self._note_vectors: tuple[list[str], Any] | None = None
        # The chunk snapshot the vectors are read from (None: not looked up; False: none in
        # step, or this process changed a note since).
        self._vector_snapshot: ChunkSnapshot | bool | None = None
        self._patch: IndexPatch | None = None  # the note index and the notes changed since
        self._sent_signatures: tuple[str | None, str | None] | None = None

    @property
    def records(self) -> dict[str, NoteRecord]:
        """Every note's record: from the snapshot when it is in step, else from the store."""
        if self._records is None and self._patch is not None:
            self._unpatch()
        if self._records is None:
            signature = self.snapshots.signatures()[0]  # before reading: a race only misses
            records = self.snapshots.load_records(signature)
            if records is None:
                records = self.open_store().note_records()
                if self.keep_caches:
                    self.snapshots.save_records(records, signature)
            self._records = records
        return self._records

    @property
    def graph(self) -> KnowledgeGraph:
        """The knowledge graph: from the snapshot when it is in step, else rebuilt from the
        records (no parsing, no embedding)."""
        if self._graph is None and self._patch is not None:
            self._unpatch()
        if self._graph is None:
            signature = self.snapshots.signatures()[1]
            graph = self.snapshots.load_graph(signature, self.overlay)
            if graph is None:
                graph = KnowledgeGraph.from_records(self.records.values(), self.overlay)
                if self.keep_caches:
                    self.snapshots.save_graph(graph, signature)
            self._graph = graph
        return self._graph

    @property
    def vocabulary(self) -> Vocabulary:
        """Built-in kinds, the vault's custom kinds and every kind used by an edge."""
        if self._vocabulary is None:
            index = None if self._graph is not None else self.fresh_index()
            if self._graph is not None:  # a graph query need not load every record
                used = {str(k) for _, _, k in self._graph.graph.edges(data="kind") if k}
            elif index is not None:  # nor a fresh reader's, which reads the note index
                used = index.kinds()
            else:
                used = {e.kind for r in self.records.values() for e in r.edges}
            used |= {e.kind for e in self.overlay.user_edges.values()}
            self._vocabulary = Vocabulary(self.config_dir, used)
        return self._vocabulary

    @property
    def search_view(self) -> SearchView:
        """What a search reads of the notes and the graph (`search/view.py`): a fresh
        reader's note index, else the records and the graph."""
        if self._search_view is None and self._patch is not None:
            symmetric = Vocabulary(self.config_dir).symmetric
            self._search_view = SearchView.of_index(self._patch.view(self.overlay), symmetric)
        if self._search_view is None:
            fresh = self.fresh_reader and self._records is None and self._graph is None
            self._search_view = open_search_view(self, fresh, self.keep_caches)
        return self._search_view

    def fresh_index(self) -> IndexReads | None:
        """The note index when this is a lazy reader that has loaded neither the records nor
        the graph and one in step is there (`search_view`); else None."""
        if not self.fresh_reader:
            return None
        if self._search_view is None and (self._records is not None or self._graph is not None):
            return None  # (a view over them would load the rest)
        return self.search_view.index

    def has_note(self, note_id: str) -> bool:
        view = self._search_view  # a fresh search's note index; else no graph need be loaded
        if view is None and self.fresh_reader and self._records is None and self._graph is None:
            view = self.search_view  # the note index (patched), when one is in step
        return note_id in (view.notes if view is not None else self.records)

    def note_vectors(self) -> tuple[list[str], Any]:
        """Every note's vector, kept in memory (a filtered vector query in Chroma is slower),
        read at the first DECISION question or by the app's preload (~1.2 s at 6,500 notes)."""
        if self._note_vectors is None:
            # The chunk snapshot's file when it is in step (memory-mapped: no copy of 50,000
            # vectors read through Chroma, ~380 MiB at its peak), else the store's.
            snapshot = self._chunk_snapshot()
            if snapshot is not None:
                self._note_vectors = snapshot.note_vectors()
            else:
                self._note_vectors = self.open_store().note_vectors()
        return self._note_vectors

    def chunk_vectors(self, ids: list[str]) -> tuple[list[str], Any]:
        """The vectors of the chunks `ids` (neighbourhood RAG): from the chunk snapshot when
        it is in step (memory-mapped; a root beside a hub reaches ~19,000 chunks at 50,000
        notes, 0.44 s through Chroma), else the store's."""
        snapshot = self._chunk_snapshot()
        if snapshot is not None:
            return snapshot.chunk_vectors(ids)
        return self.open_store().chunk_vectors(ids)

    def _chunk_snapshot(self) -> ChunkSnapshot | None:
        """The chunk snapshot while it is in step and this process changed nothing since
        (looked up once: the signature reads the whole manifest)."""
        if self._vector_snapshot is None:
            signature = self.snapshots.signatures()[0]
            found = ChunkSnapshot.load(self.data_dir, signature, self.embedder)
            self._vector_snapshot = found if found is not None else False
        return self._vector_snapshot if isinstance(self._vector_snapshot, ChunkSnapshot) else None

    def top_notes(self, vector: Any, types: set[str], n: int, exclude: set[str]) -> list[str]:
        """The `n` notes of `types` most similar to `vector`."""
        ids, matrix = self.note_vectors()
        return nearest_notes(ids, matrix, self.search_view.notes, vector, types, n, exclude)

    def imported(self, outcome: ImportOutcome, before: tuple[str | None, str | None]) -> bool:
        """Bring what this process holds, or else the snapshots taken at the signatures
        `before` the import, in step with its outcome, so that the next start finds
        snapshots that match the new manifest; whether anything changed (the snapshots are
        then stale)."""
        changed = outcome.written or outcome.deleted or outcome.relinked
        if not changed and outcome.records is None:
            return False
        patched = self._patched(outcome, before)
        if not patched and self._records is None and outcome.records is None:
            self._records = self.snapshots.load_records(before[0])
        if not patched and self._graph is None:
            self._graph = self.snapshots.load_graph(before[1], self.overlay)
        for old, new in outcome.renamed.items():
            self.overlay.rename_note(old, new)
        if patched:
            pass  # the records stay unloaded (an import that relinked read them: let go)
        elif outcome.records is not None:
            self._records = outcome.records
        elif self._records is not None:  # the importer worked from the manifest: catch up
            for note_id in outcome.deleted:
                self._records.pop(note_id, None)
            for record in outcome.written + outcome.relinked:
                self._records[record.note.note_id] = record
        self._vocabulary = None
        self._vector_snapshot = False  # behind the store now
        self.forget_search_view()
        self._note_vectors = refreshed_vectors(self._note_vectors, self.open_store(), outcome)
        if self._graph is not None:
            for note_id in outcome.deleted:
                self._graph.remove_note(note_id)
            for record in outcome.written + outcome.relinked:
                self._graph.upsert_note(record)
            self._graph.sync_user_edges()
        if self.unsaved is None:  # the first change: the snapshots on disk were in step?
            in_step = self.snapshots.records_in_step(before[0])
            self.unsaved = Unsaved(before[0] if in_step else None)
        self.unsaved.add(outcome)
        self.stale = True
        return True

    def _patched(self, outcome: ImportOutcome, before: tuple[str | None, str | None]) -> bool:
        """Lay the import's changes over the note index read before it (`index_patch.py`)
        when this process holds neither the records nor the graph; whether it did."""
        if not self.fresh_reader or self._records is not None or self._graph is not None:
            return False
        if self._patch is None:
            self._patch = IndexPatch.open(self.data_dir, before)
            if self._patch is None:
                return False
            if self._sent is not None:  # a write is under way: these changes follow it
                self._patch.taken()
        self._patch.add(outcome)
        if self._patch.full:
            self._unpatch()
            return False
        return True

    def _unpatch(self) -> None:
        """Load the records and the graph the patch follows, with its changes (None left
        where they are not on disk: they are read anew when asked for)."""
        patch, self._patch = self._patch, None
        if patch is None:
            return
        self.forget_search_view()
        records = self.snapshots.load_records(patch.signatures[0])
        graph = self.snapshots.load_graph(patch.signatures[1], self.overlay)
        patch.close()
        if records is not None and graph is not None:
            patch.apply(records, graph)
            self._records, self._graph = records, graph

    def take_unsaved(self) -> tuple[tuple[str | None, str | None], Unsaved] | None:
        """What the snapshots owe (None: nothing), with the signatures to write them at, for
        another process to write (`snapshot_child`); they are no longer stale here unless
        `written(False)` says the write failed. Later changes follow those signatures."""
        if self._sent is not None:
            return None
        if not self.stale:
            if not self.readers_behind():
                return None
            current = self.snapshots.signatures()[0]  # owed whole, unless records follow
            self.unsaved = Unsaved(current if self.snapshots.records_in_step(current) else None)
        signatures = self.snapshots.signatures()
        sent = self.unsaved or Unsaved(None)
        self._sent, self.unsaved, self.stale = sent, Unsaved(signatures[0]), False
        self._sent_signatures = signatures
        if self._patch is not None:
            self._patch.taken()
        return signatures, sent

    def readers_behind(self) -> bool:
        """The snapshots a fresh reader reads (the chunk snapshot, the note index) are out
        of step with the index while nothing is owed: a writer closed or killed before they
        were written. Then nothing would bring them in step before the next change, and
        every start would wait for the store and load every record and the whole graph."""
        if not self.keep_caches:
            return False
        records_signature, graph_signature = self.snapshots.signatures()
        if records_signature is None:
            return False  # nothing imported yet
        local = self.open_store().server is None
        if local and not in_step(self.data_dir, records_signature, self.embedder):
            return True
        index = NoteIndex.load(self.data_dir, graph_signature)
        if index is None:
            return True
        index.close()
        return False

    def written(self, ok: bool) -> None:
        """The snapshots taken by `take_unsaved` were written (or not: owed again)."""
        sent, self._sent = self._sent, None
        signatures, self._sent_signatures = self._sent_signatures, None
        if ok and not self.stale:  # nothing changed since they were taken
            self._vector_snapshot = None  # the chunk snapshot may be in step again: look
        patch = self._patch if ok else None
        if (
            patch is not None
            and signatures is not None
            and patch.written(self.data_dir, signatures)
        ):
            self.forget_search_view()
        if not ok and sent is not None:
            self.unsaved = sent.then(self.unsaved or Unsaved(None))
            self.stale = True

    def save_snapshots(self, chunk_snapshot: bool = False) -> bool:
        """Save the records and graph snapshots if an import changed them since they were
        last saved (with `chunk_snapshot` also the chunk snapshot and the note index of a
        fresh search); whether it did (a full disk only leaves them unsaved: they are a
        cache, the next start reads the store instead)."""
        if not self.stale:
            return False
        if self._patch is not None:  # saved here: what the patch follows is read
            self._unpatch()
        self.stale = False
        unsaved, self.unsaved = self.unsaved or Unsaved(None), None
        records_signature, graph_signature = self.snapshots.signatures()
        if chunk_snapshot:  # by the changed notes when it followed the records snapshot
            changed = set(unsaved.changed)
            store, since = self.open_store(), unsaved.since
            update_chunk_snapshot(
                self.data_dir, store, since, records_signature, self.embedder, changed
            )
        if self._records is None or len(self._records) != self.open_store().counts()["notes"]:
            self._records, self._graph = None, None  # out of step: load anew when asked
            self.forget_search_view()
            return True
        self.snapshots.save_records(self._records, records_signature)
        if self._graph is not None:
            self.snapshots.save_graph(self._graph, graph_signature)
        if chunk_snapshot:  # the note index beside it, for a fresh search
            write_note_index(self.data_dir, self._records, self.graph, graph_signature)
        return True

    def add_user_edge(self, edge: Edge) -> None:
        """A user's edge in the overlay: in the graph at once, its kind counted."""
        self.overlay.add_user_edge(edge)
        self.graph.add_edge(edge)
        self.kinds_changed()

    def delete_edge(self, edge_id: str, edge: Edge, occurrence: int) -> Tombstone:
        """Soft delete: the overlay's tombstone, and the graph's edge marked deleted."""
        stone = self.overlay.delete(edge, occurrence)
        self.graph.set_deleted(edge_id, stone.deleted_at)
        return stone

    def restore_edge(self, edge_id: str, edge: Edge, occurrence: int) -> None:
        """Undo a soft delete, in the overlay and the graph."""
        self.overlay.restore(edge, occurrence)
        self.graph.set_deleted(edge_id, None)

    def kinds_changed(self) -> None:
        """The edge kinds in use changed (a user edge): count them again when next asked."""
        self._vocabulary = None
        self.forget_search_view()  # its symmetric kinds

    def forget(self) -> None:
        """Drop everything read from the index (another process writes it now)."""
        self._records = self._graph = self._vocabulary = self._note_vectors = None
        self._vector_snapshot = None
        self.unsaved, self._sent, self.stale = None, None, False  # saved, or the other's
        self._sent_signatures = None
        if self._patch is not None:
            self._patch.close()
            self._patch = None
        self.forget_search_view()

    def reread(self) -> None:
        """After another process wrote the index: the manifest and the overlay read anew,
        the ratings' index forgotten (the rest is read when next used)."""
        self.forget()
        self.manifest = Manifest(self.data_dir / "manifest.json")
        self.resolvers = ResolverCache()
        self.overlay = EdgeOverlay(self.data_dir)
        self.feedback.forget()

    def forget_search_view(self) -> None:
        view, self._search_view = self._search_view, None
        if view is not None:
            view.close()
