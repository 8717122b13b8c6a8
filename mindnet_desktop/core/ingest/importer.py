"""Idempotent import of a vault into the store, as a generator of `IndexProgress`.

Stage 1 reads, hashes, parses and chunks what changed (nothing is written); stage 2 derives
edges against every note known after this import, embeds in batches and writes; stage 3
re-resolves the links of untouched notes when the set of link targets changed (late-resolving
and unresolving links), writing only edges whose target moved.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Collection, Generator
from dataclasses import dataclass, field
from pathlib import Path

from mindnet_desktop.core.config.type_registry import TypeRegistry
from mindnet_desktop.core.domain import Chunk, Edge, FileProblem, ImportSummary, IndexProgress, Note
from mindnet_desktop.core.ingest.chunk import chunk_note
from mindnet_desktop.core.ingest.ctxt import CtxtError, parse_ctxt
from mindnet_desktop.core.ingest.edges import derive_edges, links_by_chunk, reresolve
from mindnet_desktop.core.ingest.links import NoteKey, Resolver, ResolverCache, block_ids
from mindnet_desktop.core.ingest.manifest import (
    Manifest,
    ManifestEntry,
    entry_key,
    entry_of,
    type_fingerprint,
)
from mindnet_desktop.core.ingest.parse import default_note_id, parse_markdown
from mindnet_desktop.core.ingest.vault import (  # noqa: F401 - scan_vault is part of this module's API
    VaultUnavailableError,
    is_note_path,
    scan_vault,
    stat_paths,
)
from mindnet_desktop.core.ingest.write_stage import BatchWriter, Pending
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.store.protocol import NoteRecord, Store


def headings_of(chunks: list[Chunk]) -> list[tuple[str, int]]:
    """What `#Heading` and `#^block` links can point at: (heading or `^block-id`, chunk seq)."""
    return [(h, chunk.seq) for chunk in chunks for h in (*chunk.headings, *block_ids(chunk.text))]


SCAN_REPORT_EVERY = 256  # unchanged files between two progress reports


@dataclass
class ImportOptions:
    sync_deletes: bool = False
    force: bool = False
    purge_before_upsert: bool = False
    # Embedding processes of a large import at most (None: `default_workers()`; 0: embed
    # in-process); one per WORKER_MIN_TEXTS texts to embed, and none for fewer.
    embed_workers: int | None = None
    # A GUI thread shares this process: the store writes in short calls (each holds the GIL).
    short_writes: bool = False
    # The vault-relative paths known to have changed (created, changed, moved, deleted), as
    # a watcher knows them: only those are looked at, every other note is taken as the
    # index holds it (None: scan the whole vault).
    paths: frozenset[str] | None = None


@dataclass
class ImportOutcome:
    """The summary plus what changed, for callers that keep a graph in step."""

    summary: ImportSummary
    written: list[NoteRecord] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    relinked: list[NoteRecord] = field(default_factory=list)
    # All records after the import if it loaded them (None: apply written/deleted/relinked).
    records: dict[str, NoteRecord] | None = None
    renamed: dict[str, str] = field(default_factory=dict)  # old note id -> new note id


def stat_changed(
    old: ManifestEntry | None, stat: tuple[int, int], fingerprint: Callable[[str], str]
) -> bool:
    """Whether an import must read a file: it is new, its size or time changed, or the
    settings of its type did (`fingerprint(type)` is the type's fingerprint now)."""
    if old is None or (old.mtime_ns, old.size) != stat:
        return True
    return old.fingerprint != fingerprint(old.type)


def plan_removals(
    entries: dict[str, ManifestEntry],
    pending: dict[str, Pending],
    files: Collection[str],
    unreadable: list[str],
    sync_deletes: bool,
    cancelled: bool,
) -> tuple[list[str], list[str], dict[str, str]]:
    """Which stored notes go (pure: no store access).

    Returns:
        (replaced: their file now carries another note id; vanished: their file is gone and
        they are removed; renamed: old note id -> new one, for a vanished note whose content
        reappeared under one other path).
    """
    pending_paths = {p.note.path for p in pending.values()}
    new_hashes = {p.note.content_hash for p in pending.values()}
    replaced, vanished, renamed = [], [], {}
    for entry in entries.values():
        if entry.note_id in pending:
            continue  # overwritten
        if entry.path in pending_paths:
            replaced.append(entry.note_id)
        elif (
            # A vanished file goes with --sync-deletes, or when it was renamed (its content
            # reappears under another path), so a rename leaves nothing stale.
            entry.path not in files
            and not cancelled
            and not any(entry.path.startswith(f"{f}/") or f == "." for f in unreadable)
            and (sync_deletes or entry.content_hash in new_hashes)
        ):
            vanished.append(entry.note_id)
            moved = [
                p.note.note_id
                for p in pending.values()
                if p.note.content_hash == entry.content_hash
            ]
            if len(moved) == 1:
                renamed[entry.note_id] = moved[0]
    return replaced, vanished, renamed


class Importer:
    """Imports one vault into one store.

    Args:
        vault: The vault folder.
        store: Where notes, chunks and edges go.
        registry: Types and chunk profiles.
        embedder: Embeds chunk texts (only of changed notes).
        manifest: Lets a no-op import skip loading the notes from the store.
        kinds: The kinds a property name may stand for (default: the built-in ones).
        resolvers: Keeps the last link resolver between imports (default: none kept).
    """

    def __init__(
        self,
        vault: Path,
        store: Store,
        registry: TypeRegistry,
        embedder: Embedder,
        manifest: Manifest | None = None,
        kinds: Collection[str] | None = None,
        resolvers: ResolverCache | None = None,
    ) -> None:
        self.vault, self.store, self.registry, self.embedder = vault, store, registry, embedder
        self.manifest, self.kinds = manifest, kinds
        self.resolvers = resolvers or ResolverCache()
        self._fingerprints: dict[str, str] = {}

    def load(self, rel: str, raw: bytes, content_hash: str) -> tuple[Note, list[Chunk]]:
        """Parse and chunk one file (raises CtxtError / UnicodeDecodeError on bad input)."""
        if rel.lower().endswith(".ctxt"):
            return parse_ctxt(rel, raw, content_hash, default_note_id(rel))
        note = parse_markdown(rel, raw.decode("utf-8-sig"), content_hash)
        return note, chunk_note(note, self.registry.profile(note.type))

    def run(
        self, options: ImportOptions | None = None, cancel: Callable[[], bool] | None = None
    ) -> Generator[IndexProgress, None, ImportOutcome]:
        """Import the vault; yields progress after each file, returns the outcome.

        Cancelling (the `cancel` callable returns True) stops between files or batches;
        what was written so far is consistent, deletes are skipped.
        """
        options = options or ImportOptions()
        cancel = cancel or (lambda: False)
        started = time.perf_counter()
        summary = ImportSummary()
        outcome = ImportOutcome(summary)
        # All records are loaded only without a manifest or when link targets changed (to
        # relink): an edit of a note's body works from the manifest alone.
        records: dict[str, NoteRecord] | None = None
        entries = self.manifest.load(self.store.counts()["notes"]) if self.manifest else None
        if entries is None:
            records = self.store.note_records()
            entries = {r.note.path: entry_of(r) for r in records.values()}
        unreadable: list[str] = []
        if options.paths is None:
            indexed = len(entries) if options.sync_deletes else 0  # an empty vault wipes nothing
            files = scan_vault(self.vault, unreadable, summary.warnings, indexed)
            look_at = sorted(files)
        else:
            files, look_at = self._stat_paths(entries, options.paths, summary)
        summary.scanned = len(files)
        summary.errors += [
            FileProblem(f, f"{f}: folder cannot be read; its notes are kept") for f in unreadable
        ]
        pending = yield from self._read_changed(look_at, files, entries, options, cancel, summary)
        summary.unchanged += len(files) - len(look_at)

        replaced, vanished, outcome.renamed = plan_removals(
            entries, pending, files, unreadable, options.sync_deletes, summary.cancelled
        )
        if not pending and not replaced and not vanished:
            # Nothing to write: the manifest alone answers (the common case while watching).
            if self.manifest and records is not None:
                self.manifest.save(list(entries.values()))
            self._finish(summary, list(entries.values()), started)
            return outcome

        if self.manifest:
            self.manifest.invalidate()
        before = {e.note_id: e for e in entries.values()}
        known = dict(before)  # note id -> entry, in step with the store as it is written
        final = dict(records) if records is not None else None
        if replaced or vanished:
            self.store.delete_notes(replaced + vanished)
            for note_id in replaced + vanished:
                del known[note_id]
                if final is not None:
                    del final[note_id]
            summary.deleted = len(vanished)
            outcome.deleted = replaced + vanished

        new_keys = {
            nid: NoteKey(nid, p.note.path, p.note.aliases, tuple(headings_of(p.chunks)))
            for nid, p in pending.items()
        }
        # Whether the link targets changed: a note came or went, or a name, alias or heading
        # of a written one (an edit of a body changes none). Looked at for those notes only.
        keys_changed = bool(replaced or vanished) or any(
            nid not in before or entry_key(before[nid]) != key for nid, key in new_keys.items()
        )
        resolver = None if keys_changed else self.resolvers.settled(before)
        if resolver is None:
            resolver_keys = [entry_key(e) for nid, e in known.items() if nid not in pending]
            resolver = self.resolvers.get(resolver_keys + list(new_keys.values()))

        yield from self._write(pending, before, resolver, options, cancel, outcome)
        for record in outcome.written:
            known[record.note.note_id] = entry_of(record)
            if final is not None:
                final[record.note.note_id] = record
        fresh = set(pending)
        if summary.cancelled:
            # Notes left unwritten must not be link targets: resolve everything against
            # what the store now holds (the next import resolves them again).
            resolver, fresh = Resolver([entry_key(e) for e in known.values()]), set()
            keys_changed = {entry_key(e) for e in known.values()} != {
                entry_key(e) for e in before.values()
            }

        if keys_changed:
            # The store now holds exactly `known`: its records are what relinking needs.
            final = final if final is not None else self.store.note_records()
            relinked = self._relink(final, fresh, resolver)
            self.store.update_edges(relinked)
            outcome.relinked = relinked
            for record in relinked:
                known[record.note.note_id] = entry_of(record)
            summary.resolved_edges_updated = sum(
                1 for r in relinked for e in r.edges if e.provenance in ("explicit", "rule")
            )

        manifest_entries = list(known.values())
        if not summary.cancelled:
            self.resolvers.settle(known, resolver)
        if self.manifest:
            self.manifest.save(manifest_entries)
        self._finish(summary, manifest_entries, started)
        outcome.records = final
        return outcome

    def _stat_paths(
        self, entries: dict[str, ManifestEntry], paths: frozenset[str], summary: ImportSummary
    ) -> tuple[dict[str, tuple[int, int]], list[str]]:
        """The vault's note files as an import of `paths` alone sees them: the index's stat of
        every other note, the file system's of those (a path that is gone is left out). And
        the paths to look at: those of `paths` that are note files now."""
        found = stat_paths(self.vault, paths, summary.warnings)
        files = {path: (entry.mtime_ns, entry.size) for path, entry in entries.items()}
        for rel in paths:
            if rel in found:
                files[rel] = found[rel]
            else:
                files.pop(rel, None)
        return files, sorted(found)

    def _relink(
        self, final: dict[str, NoteRecord], fresh: set[str], resolver: Resolver
    ) -> list[NoteRecord]:
        """The notes (not just written) whose links now resolve differently, with their
        edges derived again."""
        relinked = []
        for note_id, record in final.items():
            if note_id in fresh:
                continue
            edges = [reresolve(edge, resolver) for edge in record.edges]
            if any(new is not old for new, old in zip(edges, record.edges)):
                # Derive again from the file when it is unchanged, so that links which now
                # meet at one target are deduplicated exactly as a fresh import would.
                record.edges = self._rederive(record, resolver) or edges
                relinked.append(record)
        return relinked

    @staticmethod
    def _finish(summary: ImportSummary, entries: list[ManifestEntry], started: float) -> None:
        summary.notes = len(entries)
        summary.chunks = sum(e.chunk_count for e in entries)
        summary.edges = sum(e.edge_count for e in entries)
        # Warnings describe the index as it stands, so they are reported on every import.
        summary.warnings += [
            FileProblem(e.path, w, "warning")
            for e in sorted((e for e in entries if e.warnings), key=lambda e: e.path)
            for w in e.warnings
        ]
        summary.seconds = time.perf_counter() - started

    def _read_changed(
        self,
        look_at: list[str],
        files: dict[str, tuple[int, int]],
        entries: dict[str, ManifestEntry],
        options: ImportOptions,
        cancel: Callable[[], bool],
        summary: ImportSummary,
    ) -> Generator[IndexProgress, None, dict[str, Pending]]:
        """Stage 1: read, hash, parse and chunk the files of `look_at` (of `files`) that changed
        (nothing is written)."""
        pending: dict[str, Pending] = {}
        claimed = {e.note_id: e.path for e in entries.values() if e.path in files}
        for done, rel in enumerate(look_at, start=1):
            if cancel():
                summary.cancelled = True
                break
            stat = files[rel]
            old = entries.get(rel)
            if not options.force and not stat_changed(old, stat, self._fingerprint):
                summary.unchanged += 1
                # Unchanged files report now and then: a report per file cost an edit's
                # import ~0.1 s of generator hops at 20,000 notes.
                if done % SCAN_REPORT_EVERY == 0 or done == len(look_at):
                    yield IndexProgress(done, len(look_at), rel, "scan")
                continue
            yield IndexProgress(done, len(look_at), rel, "scan")
            try:
                raw = (self.vault / rel).read_bytes()
            except OSError as exc:
                summary.errors.append(FileProblem(rel, f"{rel}: unreadable: {exc.strerror or exc}"))
                continue
            digest = hashlib.sha256(raw).hexdigest()
            same_settings = old is not None and old.fingerprint == self._fingerprint(old.type)
            if old and same_settings and not options.force and old.content_hash == digest:
                summary.unchanged += 1
                continue
            try:
                note, chunks = self.load(rel, raw, digest)
            except CtxtError as exc:
                summary.errors.append(FileProblem(rel, str(exc)))
                continue
            except UnicodeDecodeError as exc:
                reason = f"not valid UTF-8 ({exc.reason} at byte {exc.start})"
                summary.errors.append(FileProblem(rel, f"{rel}: {reason}"))
                continue
            owner = claimed.get(note.note_id)
            if owner is not None and owner != rel:
                message = f"{rel}: note id '{note.note_id}' is already used by {owner}"
                summary.errors.append(FileProblem(rel, message))
                continue
            claimed[note.note_id] = rel
            pending[note.note_id] = Pending(note, chunks, stat, links_by_chunk(note, chunks))
        return pending

    def _rederive(self, record: NoteRecord, resolver: Resolver) -> list[Edge] | None:
        """The note's edges derived anew from its file, or None if the file changed."""
        try:
            raw = (self.vault / record.note.path).read_bytes()
            if hashlib.sha256(raw).hexdigest() != record.note.content_hash:
                return None
            note, chunks = self.load(record.note.path, raw, record.note.content_hash)
        except (OSError, CtxtError, UnicodeDecodeError):
            return None
        return derive_edges(note, chunks, self.registry, resolver, self.kinds)

    def _fingerprint(self, type_name: str) -> str:
        if type_name not in self._fingerprints:
            self._fingerprints[type_name] = type_fingerprint(self.registry, type_name)
        return self._fingerprints[type_name]

    def _write(
        self,
        pending: dict[str, Pending],
        before: dict[str, ManifestEntry],
        resolver: Resolver,
        options: ImportOptions,
        cancel: Callable[[], bool],
        outcome: ImportOutcome,
    ) -> Generator[IndexProgress, None, None]:
        """Stage 2: derive the pending notes' edges, embed and write them (`BatchWriter`)."""
        writer = BatchWriter(
            self.store,
            self.embedder,
            {note_id: entry.chunk_count for note_id, entry in before.items()},
            reuse=not options.force,
            purge=options.purge_before_upsert,
            workers=options.embed_workers,
            short_writes=options.short_writes,
        )
        records = ((self._record(item, resolver), item.chunks) for item in pending.values())
        chunks = sum(len(item.chunks) for item in pending.values())
        try:
            yield from writer.run(records, len(pending), chunks, cancel)
        finally:
            summary = outcome.summary
            summary.cancelled = summary.cancelled or writer.cancelled
            summary.reused_vectors += writer.reused_vectors
            summary.embed_workers = writer.processes
            outcome.written += writer.written
            summary.changed += sum(1 for r in writer.written if r.note.note_id in before)
            summary.added += sum(1 for r in writer.written if r.note.note_id not in before)

    def _record(self, item: Pending, resolver: Resolver) -> NoteRecord:
        """The note's record as it is written, with its edges derived."""
        spec = self.registry.spec(item.note.type)
        return NoteRecord(
            note=item.note,
            mtime_ns=item.stat[0],
            size=item.stat[1],
            chunk_count=len(item.chunks),
            retriever_weight=spec.retriever_weight,
            chunk_profile=spec.chunk_profile,
            fingerprint=self._fingerprint(item.note.type),
            headings=headings_of(item.chunks),
            edges=derive_edges(
                item.note, item.chunks, self.registry, resolver, self.kinds, item.links
            ),
            indexed_at=time.time(),
        )
