"""`Mindnet`: the one object the CLI and the app talk to for a vault. It opens the vault
(data dir, config, embedder, writer lock, store) and hands out its parts; what it has read
of the index, and keeping that in step with changes, is `VaultState`'s."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from mindnet_desktop.core.chat.intent import DecisionEngine, load_decision_engine
from mindnet_desktop.core.config.paths import resolve_data_dir
from mindnet_desktop.core.config.retriever import (
    RetrieverConfig,
    load_retriever_config,
    save_retriever_weights,
)
from mindnet_desktop.core.config.type_registry import TypeRegistry, load_types, resolve_config_dir
from mindnet_desktop.core.config.vocabulary import Vocabulary
from mindnet_desktop.core.domain import Chunk, Edge, IndexProgress, Note
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.neighbourhood import neighbourhood
from mindnet_desktop.core.graph.note_index import IndexReads
from mindnet_desktop.core.graph.queries import GraphQueries
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.importer import Importer, ImportOptions, ImportOutcome
from mindnet_desktop.core.ingest.manifest import Manifest
from mindnet_desktop.core.ingest.note_edit import EDIT_JOURNAL, clean_interrupted_edit
from mindnet_desktop.core.models.embedders import Embedder, make_embedder
from mindnet_desktop.core.retrieval.rag import Searcher
from mindnet_desktop.core.retrieval.retriever import HybridRetriever
from mindnet_desktop.core.service.notes import edge_actions, lookup
from mindnet_desktop.core.service.quality.feedback import FeedbackIndex
from mindnet_desktop.core.service.search.view import SearchView
from mindnet_desktop.core.service.vault.state import VaultState
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chroma_server import ChromaServer
from mindnet_desktop.core.store.lock import WriterLock
from mindnet_desktop.core.store.opening import StoreOpening
from mindnet_desktop.core.store.overlay import EdgeOverlay, Tombstone
from mindnet_desktop.core.store.protocol import NoteRecord
from mindnet_desktop.core.store.query_log import QueryLog
from mindnet_desktop.core.store.reader_store import ReaderStore, behind_snapshot, open_store


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
        keep_caches: A reader may save the snapshots and the note index it found out of
            step (False: it leaves the data dir as it is, see `VaultState`).
        background_store: A writer (the app) that, when a chunk snapshot is in step, stands
            a reader store in for its store until `open_store_in_background` has opened it
            on a thread of its own: a search meanwhile is answered as a fresh reader's is
            (the chunk snapshot and the note index), an import that finds nothing changed
            needs no store, anything else waits for it. `when_store_open` tells when it is
            open, `wait_for_store` switches to it.

    What was read of the index (records, graph, kinds, search view, note vectors) is held by
    `state` (`VaultState`), which keeps it in step with imports and edge changes; the
    properties here hand it out.

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
        keep_caches: bool = True,
        background_store: bool = False,
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
        self._opening: StoreOpening | None = None
        # The store is opened (checked, mended) at once unless a reader asks for lazy.
        eager = write or replace_embedder or not lazy_store
        self._reader_snapshot = not eager  # a lazy reader may search the chunk snapshot
        self.defer_snapshots = False
        self.chunk_snapshot = False  # save_snapshots keeps it too (`mindnet watch`)
        try:
            self._store_options = (write, replace_embedder, ChromaServer.from_env(chroma_url))
            self.state = VaultState(
                self.data_dir,
                self.config_dir,
                lambda: self.store,
                self.embedder.name,
                fresh_reader=not eager,
                feedback=FeedbackIndex(self),  # the user's ratings, for the feedback term
                keep_caches=keep_caches or write,
            )
            if background_store and write and not replace_embedder:
                self._stand_in_reader()
            if eager and self._opening is None and self.store.reset:
                self.state.manifest.invalidate()  # it describes vectors that are gone
        except Exception:
            self.close()
            raise

    def _stand_in_reader(self) -> None:
        """Stand a reader store in for the store, if a chunk snapshot is in step."""
        if self._store_options[2] is not None:
            return  # on a server: no snapshot, nothing to open here
        signature = self.state.snapshots.signatures()[0]
        behind = behind_snapshot(self.data_dir, self.embedder, self.vault, signature)
        if behind is not None:
            self._store, self._opening = behind
            self.state.fresh_reader = True  # a search reads the note index, not the records

    def open_store_in_background(self) -> None:
        """Start opening the store on a thread of its own (nothing when it opened at once or
        is opening); `when_store_open` tells when it is open."""
        if self._opening is not None:
            self._opening.start()

    def when_store_open(self, fn: Callable[[], None]) -> None:
        """Call `fn()` once the store opened in the background is open, or failed to open
        (on the opening thread; at once when there is none)."""
        if self._opening is None:
            fn()
        else:
            self._opening.when_done(fn)

    def wait_for_store(self) -> None:
        """Switch to the store opened in the background, opening it or waiting for it if need
        be (raises what opening it raised); nothing to do when it was opened at once."""
        opening = self._opening
        if opening is None:
            return
        store = opening.result()
        reader, self._store, self._opening = self._store, store, None
        if reader is not None:
            cast(ReaderStore, reader).detach()

    @property
    def store(self) -> ChromaStore:
        """The index's store (opened in the constructor unless `lazy_store`; with
        `background_store` the reader store until `wait_for_store`)."""
        if self._store is None:
            write, replace_embedder, server = self._store_options
            signature = self.state.snapshots.signatures()[0] if self._reader_snapshot else None
            self._store = open_store(
                self.data_dir, self.embedder, write, replace_embedder, server, self.vault, signature
            )
        return self._store

    def close(self) -> None:
        opening: StoreOpening | None = getattr(self, "_opening", None)
        if opening is not None and opening.started:
            with contextlib.suppress(Exception):  # it failed: there is nothing of it to close
                self.wait_for_store()
        store = getattr(self, "_store", None)
        state: VaultState | None = getattr(self, "state", None)
        try:
            try:
                if state is not None and self._lock:
                    self.save_snapshots()  # deferred by a watcher: saved at the latest now
            finally:
                if store is not None:
                    store.close()  # commits the lexical index: can fail (a full disk)
                if state is not None:
                    state.forget_search_view()
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
        self.wait_for_store()
        self.state.save_snapshots()  # records and graph: the other reads them (not the rest)
        store, self._store = self._store, None
        self.state.forget()
        if store is not None:
            store.release()
        return self._lock

    def release_store(self) -> None:
        """Close the store and let go of Chroma's index in memory (reopened when next
        used): a process about to end frees it before work that needs only the records.
        Nothing is opened for it: a store behind the chunk snapshot that never opened Chroma
        is kept."""
        opening = self._opening
        if opening is not None and not opening.started:
            return
        self.wait_for_store()
        store = self._store
        if store is None or (isinstance(store, ReaderStore) and not store.delegated):
            return
        self._store = None
        store.release()

    def reread_index(self) -> None:
        """After another process wrote the index (`release_index`): read it anew."""
        self.release_index()
        self.state.reread()
        gc.unfreeze()  # the old snapshots' objects can go

    def __enter__(self) -> Mindnet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def records(self) -> dict[str, NoteRecord]:
        """Every note's record (`VaultState.records`)."""
        return self.state.records

    @property
    def graph(self) -> KnowledgeGraph:
        """The knowledge graph (`VaultState.graph`)."""
        return self.state.graph

    @property
    def vocabulary(self) -> Vocabulary:
        """Built-in kinds, the vault's custom kinds and every kind used by an edge."""
        return self.state.vocabulary

    @property
    def search_view(self) -> SearchView:
        """What a search reads of the notes and the graph (`VaultState.search_view`)."""
        return self.state.search_view

    @property
    def manifest(self) -> Manifest:
        return self.state.manifest

    @property
    def overlay(self) -> EdgeOverlay:
        return self.state.overlay

    @property
    def snapshots(self) -> Snapshots:
        return self.state.snapshots

    @property
    def feedback(self) -> FeedbackIndex:
        """The user's ratings, for the feedback term."""
        return self.state.feedback

    @property
    def queries(self) -> GraphQueries:
        return GraphQueries(self.graph, self.vocabulary.symmetric)

    def neighbour_queries(self, ref: str) -> tuple[str, GraphQueries]:
        """The node `ref` names (`resolve_node`) and queries of its neighbours: over the whole
        graph, or in a fresh reader over its neighbourhood read from the note index
        (`graph/neighbourhood.py`; 50,000 notes: milliseconds instead of 1.6 s to load the
        graph)."""
        index = self.state.fresh_index()
        if index is None:
            return edge_actions.resolve_node(self, ref), self.queries
        node = edge_actions.resolve_in_index(index, ref)
        part = neighbourhood(index, node, self.overlay)
        return node, GraphQueries(part, self.vocabulary.symmetric)

    @property
    def searcher(self) -> Searcher:
        return Searcher(self.store, self.embedder, self.queries, self.state.chunk_vectors)

    @property
    def retriever_config(self) -> RetrieverConfig:
        """The weights and pools of `retriever.yaml` in effect (read once, cached)."""
        if self._retriever_config is None:
            config = load_retriever_config(self.config_lookup)
            self._retriever_config = config.for_embedder(self.embedder.name)
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
        return self.state.has_note(note_id)

    def chunks(self, note_id: str) -> list[Chunk]:
        """The stored chunks of a note, in order (empty for an unknown id)."""
        return self.store.chunks(note_id)

    def chunk_count(self) -> int:
        return self.store.counts()["chunks"]

    def note_vectors(self) -> tuple[list[str], Any]:
        """Every note's vector (`VaultState.note_vectors`)."""
        return self.state.note_vectors()

    def top_notes(self, vector: Any, types: set[str], n: int, exclude: set[str]) -> list[str]:
        """The `n` notes of `types` most similar to `vector`."""
        return self.state.top_notes(vector, types, n, exclude)

    @property
    def decision_engine(self) -> DecisionEngine:
        if self._decision_engine is None:
            self._decision_engine = load_decision_engine(self.config_lookup)
        return self._decision_engine

    @property
    def writable(self) -> bool:
        """This process holds the data dir's writer lock (opened with `write=True`)."""
        return self._lock is not None

    def import_vault(
        self, options: ImportOptions | None = None, cancel: Callable[[], bool] | None = None
    ) -> Generator[IndexProgress, None, ImportOutcome]:
        """Import the vault (see `Importer.run`), then bring what was read in step
        (`VaultState.imported`)."""
        if self._lock is None:
            raise PermissionError("This Mindnet was opened read-only; open it with write=True.")
        # Built-in and the user's kinds, not those met in the vault: a property's kind must not
        # depend on which notes were imported before it.
        kinds = frozenset(Vocabulary(self.config_dir).kinds)
        # A reader store standing in: an import finding nothing changed needs no store; a
        # write waits for it, and the searches switch to it.
        store = self.store
        importer = Importer(
            self.vault,
            store,
            self.registry,
            self.embedder,
            self.state.manifest,
            kinds,
            self.state.resolvers,
        )
        before = self.state.snapshots.signatures()
        try:
            outcome = yield from importer.run(options, cancel)
        finally:
            if self._opening is not None and cast(ReaderStore, store).delegated:
                self.wait_for_store()
        if self.state.imported(outcome, before) and not self.defer_snapshots:
            self.save_snapshots()
        return outcome

    def save_snapshots(self) -> bool:
        """Save the records and graph snapshots if an import changed them since they were
        last saved (`VaultState.save_snapshots`); whether it did."""
        return self.state.save_snapshots(self.chunk_snapshot)

    def set_retriever_weights(self, weights: dict[str, float]) -> Path:
        """Write the hybrid score's term weights into the vault's config dir
        (`retriever.yaml`); the retriever uses them from the next query on."""
        path = save_retriever_weights(self.config_dir, weights, self.config_lookup)
        self.config_lookup = self.config_dir
        self._retriever_config = None
        return path

    def find_note(self, ref: str) -> NoteRecord:
        """A note by id, vault path, title, alias or file name (case-insensitive)."""
        return lookup.find_note(self.records, ref)

    def note_index(self) -> IndexReads | None:
        """The note index while this process holds neither the records nor the graph (a
        fresh reader; the app until an import changes a note), else None: what reads it
        instead of them loads neither (50,000 notes: ~1.2 GiB)."""
        return self.state.fresh_index()

    def find_note_id(self, ref: str) -> str:
        """`find_note`'s note id, from the note index when there is one (`note_index`)."""
        index = self.note_index()
        if index is None:
            return self.find_note(ref).note.note_id
        return ref if ref in index.notes else lookup.match_note(index.notes.every(), ref).note_id

    def every_note(self) -> list[Note]:
        """Every note (from the note index, without bodies, when there is one)."""
        index = self.note_index()
        return index.notes.every() if index else [r.note for r in self.records.values()]

    def chunk_ids(self, note_id: str) -> list[str]:
        """The ids of the note's chunks, in order (none for an unknown note)."""
        return self.search_view.graph.chunks_of(note_id)

    def note(self, note_id: str) -> Note:
        """The note with this id (KeyError if none); from the note index when there is one,
        without its body then."""
        index = self.note_index()
        return index.notes[note_id] if index is not None else self.records[note_id].note

    def edges(self, include_deleted: bool = False) -> list[Edge]:
        """Every edge (the notes' and the user's), with `deleted` set from the overlay."""
        pairs = self.edges_with_tombstones()
        kept = [(e, stone) for e, stone in pairs if include_deleted or stone is None]
        return [replace(e, deleted=True) if stone else e for e, stone in kept]

    def edge_count(self) -> int:
        """`len(self.edges())`, without building the edges when none is deleted."""
        index = self.note_index()
        if index is not None:
            return index.active_edges()
        if self.overlay.tombstones:
            return sum(1 for _, stone in self.edges_with_tombstones() if stone is None)
        notes = sum(len(r.edges) for r in self.records.values())
        return notes + len(self.overlay.user_edges)

    def edges_with_tombstones(self) -> list[tuple[Edge, Tombstone | None]]:
        """Every edge with the tombstone that deletes it (None while active)."""
        return self.overlay.with_tombstones(r.edges for r in self.records.values())

    def show(self, ref: str) -> dict[str, Any]:
        """A note with its chunks, the edges it owns and the edges pointing at it."""
        return lookup.show_note(self, ref)
