"""What the window's indexing runs on the service thread: an import (in this process or a
child), saving the snapshots, and the counts the status bar and the index panel show."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mindnet_desktop.core.domain import drain, throttled
from mindnet_desktop.core.ingest.importer import ImportOptions, ImportOutcome
from mindnet_desktop.core.service.vault.import_child import (
    CHILD_MIN_FILES,
    files_to_import,
    import_in_child,
)
from mindnet_desktop.core.service.vault.mindnet import Mindnet
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
    """Counts and per-note index times (runs on the host thread)."""
    records = mn.records
    rows = [
        IndexedNote(nid, r.note.path, r.note.title, r.note.type, r.indexed_at)
        for nid, r in sorted(records.items(), key=lambda item: item[1].note.path)
    ]
    return IndexStats(len(records), mn.chunk_count(), len(mn.edges()), rows)


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


def save_snapshots(mn: Mindnet, job: Job) -> None:
    """Save the records and graph snapshots (the next start reads them, not the store)."""
    mn.save_snapshots()
