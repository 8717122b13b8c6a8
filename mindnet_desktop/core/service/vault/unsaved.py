"""What the snapshots on disk owe the index: the notes an import changed since they were
last in step, so that they can be brought in step by those notes alone (by the app's
snapshot child, `snapshot_child.py`, or in the writer's process at its end).

The snapshots a fresh reader reads (records, graph, chunk snapshot, note index) carry the
manifest's signature (`graph/snapshot.py`): `since` names the records snapshot the changes
follow. Written whole instead (`since` None): when more notes changed than are worth
patching, or when the records snapshot on disk was not in step before the first change (an
import without a manifest, which reads every record from the store, is such a one). A patch
that does not come to the number of notes the import counted is not used either.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mindnet_desktop.core.ingest.importer import ImportOutcome
from mindnet_desktop.core.store.chunk_snapshot import MAX_CHANGED_NOTES
from mindnet_desktop.core.store.protocol import NoteRecord


@dataclass
class Unsaved:
    """Changes not in the snapshots on disk yet.

    Attributes:
        since: The records signature of the snapshots the changes follow (None: write whole).
        changed: Note id -> its record now (None: removed), in the order they came.
        notes: How many notes the index holds after the last change (None: not known).
    """

    since: str | None
    changed: dict[str, NoteRecord | None] = field(default_factory=dict)
    notes: int | None = None

    def add(self, outcome: ImportOutcome) -> None:
        """The changes of one import."""
        for note_id in outcome.deleted:
            self.changed[note_id] = None
        for record in outcome.written + outcome.relinked:
            self.changed[record.note.note_id] = record
        self.notes = outcome.summary.notes
        if len(self.changed) > MAX_CHANGED_NOTES:
            self.since, self.changed = None, {}  # too many: written whole

    def then(self, later: Unsaved) -> Unsaved:
        """These changes followed by `later`'s (a write of these failed meanwhile)."""
        whole = self.since is None or later.since is None
        if whole:
            return Unsaved(None, {}, later.notes)
        return Unsaved(self.since, {**self.changed, **later.changed}, later.notes)

    def patch(self, records: dict[str, NoteRecord]) -> dict[str, NoteRecord] | None:
        """`records` (the snapshot's at `since`) with the changes, in the order an import
        keeps them; None when the result does not hold `notes` notes (out of step)."""
        for note_id, record in self.changed.items():
            if record is None:
                records.pop(note_id, None)
            else:
                records[note_id] = record
        return records if self.notes is None or len(records) == self.notes else None
