"""`Mindnet`: the one object the CLI (and later the GUI) talks to for a vault."""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

from mindnet_desktop.core.chat.intent import DecisionEngine, load_decision_engine
from mindnet_desktop.core.config.paths import resolve_data_dir
from mindnet_desktop.core.config.retriever import (
    RetrieverConfig,
    load_retriever_config,
    save_retriever_weights,
)
from mindnet_desktop.core.config.type_registry import TypeRegistry, load_types, resolve_config_dir
from mindnet_desktop.core.config.vocabulary import Vocabulary
from mindnet_desktop.core.domain import Chunk, Edge, IndexProgress
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.note_index import write_note_index
from mindnet_desktop.core.graph.queries import GraphQueries
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.importer import Importer, ImportOptions, ImportOutcome
from mindnet_desktop.core.ingest.manifest import Manifest
from mindnet_desktop.core.ingest.note_edit import EDIT_JOURNAL, clean_interrupted_edit
from mindnet_desktop.core.models.embedders import Embedder, make_embedder
from mindnet_desktop.core.retrieval.rag import Searcher
from mindnet_desktop.core.retrieval.retriever import HybridRetriever
from mindnet_desktop.core.service.notes import lookup as note_lookup
from mindnet_desktop.core.service.quality.feedback import FeedbackIndex
from mindnet_desktop.core.service.search.view import SearchView, open_search_view
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chroma_server import ChromaServer
from mindnet_desktop.core.store.chunk_snapshot import keep_chunk_snapshot
from mindnet_desktop.core.store.lock import WriterLock
from mindnet_desktop.core.store.overlay import EdgeOverlay, Tombstone
from mindnet_desktop.core.store.protocol import NoteRecord
from mindnet_desktop.core.store.query_log import QueryLog
from mindnet_desktop.core.store.reader_store import open_store


class Mindnet:
    """A vault opened with its data dir, config and embedder.

    Args:
        vault: The vault folder.
        data_dir: Override of the per-vault data dir (`--data-dir` / `MINDNET_DATA_DIR`).
        config_dir: Override of the config dir (`--config` / `MINDNET_CONFIG_DIR`).
        embedder: The embedder (default: the product default, loaded lazily).
        write: Take the data dir's writer lock (import, watch, edge changes); readers share.
        read_only_vault: Never write notes: edges the user creates go to the edge overlay.
        replace_embedder: The index was built with another embedder: drop its vectors so
            the next import embeds every note once with this one (needs `write`).
        chroma_url: Keep the vectors on this Chroma server (default: `MINDNET_CHROMA_URL`,
            else embedded in the data dir); see `core/store/chroma_server.py`.
        lazy_store: A reader opens the store only when first used: a graph query answered
            from the snapshots then never imports chromadb (~1.5 s of CPU at start); the
            store's checks (corruption, embedder) run only when it is opened.
        writer_lock: A writer lock held already (a child importing for its parent, see
            `import_child`); implies `write`.

    After an import the records and graph snapshots are saved at once, unless
    `defer_snapshots` is set (a watcher, the app): then `save_snapshots` saves them when the
    vault has been quiet for a while, and `close` at the latest, so that a note edited every
    few seconds is not followed each time by seconds of pickling a large vault.
    """

    def __init__(
        self,
        vault: Path,
        data_dir: Path | str | None = None,
        config_dir: Path | str | None = None,
        embedder: Embedder | None = None,
        write: bool = False,
        read_only_vault: bool = False,
        replace_embedder: bool = False,
        chroma_url: str | None = None,
        lazy_store: bool = False,
        writer_lock: WriterLock | None = None,
    ) -> None:
        if not vault.is_dir():
            raise FileNotFoundError(f"The vault folder {vault} does not exist.")
        self.vault = vault.resolve()
        self.data_dir = resolve_data_dir(data_dir, self.vault)
        explicit = resolve_config_dir(config_dir)
        # The vault's own config: the override dir, else a folder in its data dir.
        self.config_override = explicit
        self.config_dir = explicit or self.data_dir / "config"
        # Config files are looked up there first, then in the bundled config.
        self.config_lookup = explicit or (self.config_dir if self.config_dir.is_dir() else None)
        self.registry: TypeRegistry = load_types(self.config_lookup)
        self.read_only_vault = read_only_vault
        self._retriever_config: RetrieverConfig | None = None
        self._decision_engine: DecisionEngine | None = None
        self.query_log = QueryLog(self.data_dir)
        self.embedder = embedder or make_embedder()
        self._lock = writer_lock or (WriterLock(self.data_dir) if write else None)
        write = write or writer_lock is not None
        if self._lock:
            if not self._lock.held:
                self._lock.acquire()
            # A note write killed halfway (an edge being created) left its temp file.
            clean_interrupted_edit(self.data_dir / EDIT_JOURNAL, self.vault)
        self._store: ChromaStore | None = None
        self.manifest = Manifest(self.data_dir / "manifest.json")  # kept between imports
        try:
            self._store_options = (write, replace_embedder, ChromaServer.from_env(chroma_url))
            # The store is opened (checked, mended) at once unless a reader asks for lazy;
            # after a reset the manifest describes vectors that are gone.
            eager = write or replace_embedder or not lazy_store
            self._reader_snapshot = not eager  # a lazy reader may search the chunk snapshot
            if eager and self.store.reset:
                self.manifest.invalidate()
        except Exception:
            self.close()
            raise
        self.overlay = EdgeOverlay(self.data_dir)
        self.snapshots = Snapshots(self.data_dir)
        self._graph: KnowledgeGraph | None = None
        self._records: dict[str, NoteRecord] | None = None
        self._vocabulary: Vocabulary | None = None
        self._search_view: SearchView | None = None
        self._note_vectors: tuple[list[str], Any] | None = None
        self.feedback = FeedbackIndex(self)  # the user's ratings, for the feedback term
        self.defer_snapshots = False
        self.chunk_snapshot = False  # save_snapshots keeps it too (`mindnet watch`)
        self._snapshots_stale = False

    @property
    def store(self) -> ChromaStore:
        """The index's store (opened in the constructor unless `lazy_store`)."""
        if self._store is None:
            write, replace_embedder, server = self._store_options
            self._store = open_store(
                self.data_dir, self.embedder, write, replace_embedder, server, self.vault,
                self._signatures()[0] if self._reader_snapshot else None,
            )  # fmt: skip
        return self._store

    def close(self) -> None:
        store = getattr(self, "_store", None)
        try:
            try:
                if getattr(self, "_snapshots_stale", False) and self._lock:
                    self.save_snapshots()  # deferred by a watcher: saved at the latest now
            finally:
                if store is not None:
                    store.close()  # commits the lexical index: can fail (a full disk)
                self._forget_search_view()
        finally:
            # Released whatever happened, or this process could never write again.
            if self._lock:
                self._lock.release()
                self._lock = None
            gc.unfreeze()  # the snapshots' objects (frozen when loaded) can be collected again

    def release_index(self) -> WriterLock:
        """Close the store and forget what was read from the index, keeping the writer lock
        (returned, to hand down): another process writes the index for this one now
        (`import_child`); everything is read anew when next used."""
        if self._lock is None:
            raise PermissionError("This Mindnet was opened read-only; open it with write=True.")
        self.save_snapshots()
        store, self._store = self._store, None
        self._records = self._graph = self._vocabulary = self._note_vectors = None
        self._forget_search_view()
        if store is not None:
            store.release()
        return self._lock

    def reread_index(self) -> None:
        """After another process wrote the index (`release_index`): read it anew."""
        self.release_index()
        self.manifest = Manifest(self.data_dir / "manifest.json")
        self.overlay = EdgeOverlay(self.data_dir)
        self.feedback = FeedbackIndex(self)
        gc.unfreeze()  # the old snapshots' objects can go

    def __enter__(self) -> Mindnet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def records(self) -> dict[str, NoteRecord]:
        """Every note's record: from the snapshot when it is in step, else from the store."""
        if self._records is None:
            signature = self._signatures()[0]  # before reading: a race only misses
            records = self.snapshots.load_records(signature)
            if records is None:
                records = self.store.note_records()
                self.snapshots.save_records(records, signature)
            self._records = records
        return self._records

    @property
    def graph(self) -> KnowledgeGraph:
        """The knowledge graph: from the snapshot when it is in step, else rebuilt from the
        records (no parsing, no embedding)."""
        if self._graph is None:
            signature = self._signatures()[1]
            graph = self.snapshots.load_graph(signature, self.overlay)
            if graph is None:
                graph = KnowledgeGraph.from_records(self.records.values(), self.overlay)
                self.snapshots.save_graph(graph, signature)
            self._graph = graph
        return self._graph

    @property
    def vocabulary(self) -> Vocabulary:
        """Built-in kinds, the vault's custom kinds and every kind used by an edge."""
        if self._vocabulary is None:
            if self._graph is not None:  # a graph query need not load every record
                used = {str(k) for _, _, k in self._graph.graph.edges(data="kind") if k}
            else:
                used = {e.kind for r in self.records.values() for e in r.edges}
            used |= {e.kind for e in self.overlay.user_edges.values()}
            self._vocabulary = Vocabulary(self.config_dir, used)
        return self._vocabulary

    @property
    def queries(self) -> GraphQueries:
        return GraphQueries(self.graph, self.vocabulary.symmetric)

    @property
    def searcher(self) -> Searcher:
        return Searcher(self.store, self.embedder, self.queries)

    @property
    def retriever_config(self) -> RetrieverConfig:
        """The weights and pools of `retriever.yaml` in effect (read once, cached)."""
        if self._retriever_config is None:
            self._retriever_config = load_retriever_config(self.config_lookup)
        return self._retriever_config

    def use_retriever_config(self, config: RetrieverConfig) -> None:
        """Rank with `config` from now on, in this process only (nothing is written): for
        benchmarks that compare configurations on one index."""
        self._retriever_config = config

    @property
    def retriever(self) -> HybridRetriever:
        view = self.search_view
        return HybridRetriever(
            self.store, self.embedder, view.graph, self.retriever_config, view.symmetric, view.notes
        )

    def has_note(self, note_id: str) -> bool:
        view = self._search_view  # a fresh search's note index; else no graph need be loaded
        return note_id in (view.notes if view is not None else self.records)

    def chunks(self, note_id: str) -> list[Chunk]:
        """The stored chunks of a note, in order (empty for an unknown id)."""
        return self.store.chunks(note_id)

    def chunk_count(self) -> int:
        return self.store.counts()["chunks"]

    @property
    def search_view(self) -> SearchView:
        """What a search reads of the notes and the graph (`search_view.py`): a fresh
        reader's note index, else the records and the graph."""
        if self._search_view is None:
            fresh = self._reader_snapshot and self._records is None and self._graph is None
            self._search_view = open_search_view(self, fresh)
        return self._search_view

    def note_vectors(self) -> tuple[list[str], Any]:
        """Every note's vector, kept in memory (a filtered vector query in Chroma is slower),
        read at the first DECISION question or by the app's preload (~1.2 s at 6,500 notes)."""
        if self._note_vectors is None:
            self._note_vectors = self.store.note_vectors()
        return self._note_vectors

    def top_notes(self, vector: Any, types: set[str], n: int, exclude: set[str]) -> list[str]:
        """The `n` notes of `types` most similar to `vector`."""
        ids, matrix = self.note_vectors()
        return note_lookup.nearest_notes(
            ids, matrix, self.search_view.notes, vector, types, n, exclude
        )

    @property
    def decision_engine(self) -> DecisionEngine:
        if self._decision_engine is None:
            self._decision_engine = load_decision_engine(self.config_lookup)
        return self._decision_engine

    @property
    def writable(self) -> bool:
        """This process holds the data dir's writer lock (opened with `write=True`)."""
        return self._lock is not None

    def forget_vocabulary(self) -> None:
        """The edge kinds in use changed (a user edge): count them again when next asked."""
        self._vocabulary = None
        self._forget_search_view()  # its symmetric kinds

    def import_vault(
        self, options: ImportOptions | None = None, cancel: Callable[[], bool] | None = None
    ) -> Generator[IndexProgress, None, ImportOutcome]:
        """Import the vault (see `Importer.run`), then bring the graph in step."""
        if self._lock is None:
            raise PermissionError("This Mindnet was opened read-only; open it with write=True.")
        # Built-in and the user's kinds, not those met in the vault: a property's kind must not
        # depend on which notes were imported before it.
        kinds = frozenset(Vocabulary(self.config_dir).kinds)
        importer = Importer(
            self.vault, self.store, self.registry, self.embedder, self.manifest, kinds
        )
        before = self._signatures()
        outcome = yield from importer.run(options, cancel)
        changed = outcome.written or outcome.deleted or outcome.relinked
        if not changed and outcome.records is None:
            return outcome
        # Bring what this process holds, or else the snapshots of before, in step with the
        # change, so that the next start finds snapshots that match the new manifest.
        if self._records is None and outcome.records is None:
            self._records = self.snapshots.load_records(before[0])
        if self._graph is None:
            self._graph = self.snapshots.load_graph(before[1], self.overlay)
        for old, new in outcome.renamed.items():
            self.overlay.rename_note(old, new)
        if outcome.records is not None:
            self._records = outcome.records
        elif self._records is not None:  # the importer worked from the manifest: catch up
            for note_id in outcome.deleted:
                self._records.pop(note_id, None)
            for record in outcome.written + outcome.relinked:
                self._records[record.note.note_id] = record
        self._vocabulary = None
        self._forget_search_view()
        self._note_vectors = note_lookup.refreshed_vectors(self._note_vectors, self.store, outcome)
        if self._graph is not None:
            for note_id in outcome.deleted:
                self._graph.remove_note(note_id)
            for record in outcome.written + outcome.relinked:
                self._graph.upsert_note(record)
            self._graph.sync_user_edges()
        self._snapshots_stale = True
        if not self.defer_snapshots:
            self.save_snapshots()
        return outcome

    def save_snapshots(self) -> bool:
        """Save the records and graph snapshots if an import changed them since they were
        last saved; whether it did (a full disk only leaves them unsaved: they are a cache,
        the next start reads the store instead)."""
        if not self._snapshots_stale:
            return False
        self._snapshots_stale = False
        records_signature, graph_signature = self._signatures()
        if self.chunk_snapshot:
            keep_chunk_snapshot(self.data_dir, self.store, records_signature, self.embedder.name)
        if self._records is None or len(self._records) != self.store.counts()["notes"]:
            self._records, self._graph = None, None  # out of step: load anew when asked
            self._forget_search_view()
            return True
        self.snapshots.save_records(self._records, records_signature)
        if self._graph is not None:
            self.snapshots.save_graph(self._graph, graph_signature)
        if self.chunk_snapshot:  # the note index beside it, for a fresh search
            write_note_index(self.data_dir, self._records, self.graph, graph_signature)
        return True

    def _forget_search_view(self) -> None:
        view, self._search_view = getattr(self, "_search_view", None), None
        if view is not None:
            view.close()

    def _signatures(self) -> tuple[str | None, str | None]:
        return self.snapshots.signatures()

    def set_retriever_weights(self, weights: dict[str, float]) -> Path:
        """Write the hybrid score's term weights into the vault's config dir
        (`retriever.yaml`); the retriever uses them from the next query on."""
        path = save_retriever_weights(self.config_dir, weights, self.config_lookup)
        self.config_lookup = self.config_dir
        self._retriever_config = None
        return path

    def find_note(self, ref: str) -> NoteRecord:
        """A note by id, vault path, title, alias or file name (case-insensitive)."""
        return note_lookup.find_note(self.records, ref)

    def edges(self, include_deleted: bool = False) -> list[Edge]:
        """Every edge (the notes' and the user's), with `deleted` set from the overlay."""
        pairs = self.edges_with_tombstones()
        kept = [(e, stone) for e, stone in pairs if include_deleted or stone is None]
        return [replace(e, deleted=True) if stone else e for e, stone in kept]

    def edges_with_tombstones(self) -> list[tuple[Edge, Tombstone | None]]:
        """Every edge with the tombstone that deletes it (None while active)."""
        return self.overlay.with_tombstones(r.edges for r in self.records.values())

    def show(self, ref: str) -> dict[str, Any]:
        """A note with its chunks, the edges it owns and the edges pointing at it."""
        return note_lookup.show_note(self, ref)
