"""What the window's indexing runs off the GUI thread: on the service thread an import (in
this process or a child), what the snapshots owe, and the counts the status bar and the
index panel show; beside it the start of the watcher and the wait for the snapshot child."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mindnet_desktop.core.domain import drain, throttled
from mindnet_desktop.core.ingest.importer import ImportOptions, ImportOutcome
from mindnet_desktop.core.ingest.watcher import VaultWatcher
from mindnet_desktop.core.service.vault.import_child import (
    CHILD_MIN_FILES,
    files_to_import,
    import_in_child,
)
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.service.vault.snapshot_child import (
    SnapshotRequest,
    write_in_child,
)
from mindnet_desktop.core.service.vault.snapshot_child import (
    snapshot_request as request_snapshots,
)
from mindnet_desktop.ui.support.workers import Job

PROGRESS_INTERVAL = 0.05  # seconds between progress reports to the GUI


@dataclass(frozen=True)
class IndexedNote:
    note_id: str
    path: str
    title: str
    type: str
    indexed_at: float  # seconds since the epoch; 0 when the store does not know


@dataclass(frozen=True)
class IndexStats:
    """What the status bar and the index panel show, copied off the service."""

    notes: int
    chunks: int
    edges: int  # active edges (soft-deleted ones not counted), user edges included
    indexed: list[IndexedNote] = field(default_factory=list)


def index_stats(mn: Mindnet, job: Job | None = None) -> IndexStats:
    """Counts and per-note index times (runs on the host thread), from the note index
    while the app holds no record (`Mindnet.note_index`)."""
    index = mn.note_index()
    if index is not None:
        listing = index.listing()
        rows = [
            IndexedNote(i, path, title, type_, at or 0.0)
            for i, path, title, type_, at, _ in listing
        ]
        return IndexStats(len(rows), sum(row[5] for row in listing), mn.edge_count(), rows)
    records = mn.records
    rows = [
        IndexedNote(nid, r.note.path, r.note.title, r.note.type, r.indexed_at)
        for nid, r in sorted(records.items(), key=lambda item: item[1].note.path)
    ]
    chunks = sum(r.chunk_count for r in records.values())  # as the store's, without asking it
    return IndexStats(len(records), chunks, mn.edge_count(), rows)


def import_vault(
    mn: Mindnet,
    job: Job,
    options: ImportOptions,
    small: bool,
    outcome: list[ImportOutcome],
) -> ImportOutcome | None:
    """Import the vault, reporting progress through `job`; the outcome is also appended to
    `outcome` (read when the job finished, cancelled or not). An import of
    `CHILD_MIN_FILES` files or more runs in a child process, unless `small` (the watcher's).
    """
    # Driven here (not by Job) so a cancel stops the importer cleanly between files;
    # at most ~20 updates a second (each one costs the GUI thread the GIL).
    report = throttled(job.report, PROGRESS_INTERVAL)
    mn.defer_snapshots = True  # the indexer saves them when imports are quiet
    if not small and files_to_import(mn, options) >= CHILD_MIN_FILES:
        run = import_in_child(mn, options, job.cancelled)
    else:  # beside the GUI thread: no store call may hold the GIL long
        run = mn.import_vault(replace(options, short_writes=True), cancel=job.cancelled)
    result = drain(run, report)
    outcome.append(result)
    return result


def start_watcher(job: Job, watcher: VaultWatcher) -> None:
    """Start watching (off the GUI thread: a watch is added to every folder)."""
    watcher.start(reconcile=False)


def snapshot_request(mn: Mindnet, job: Job) -> SnapshotRequest | None:
    """What the snapshots owe the index (None: nothing): the changed notes and their chunks."""
    return request_snapshots(mn)


def write_snapshots(job: Job, request: SnapshotRequest) -> bool:
    """Write the snapshots in a child process (off the service thread: it only waits)."""
    return write_in_child(request)


def snapshots_written(mn: Mindnet, job: Job, ok: bool) -> None:
    """The child wrote them, or they are owed again."""
    mn.state.written(ok)
