"""`IndexPatch`: the note index a writer read before it imported changes, kept open, and the
notes changed since, so that the writer (the app) reads the index with them
(`graph/patched_index.py`) instead of loading every record and the whole graph to patch
them. The snapshots on disk are brought in step by another process (`snapshot_child.py`);
when it has written them, the patch starts again from the index it wrote."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.note_index import NoteIndex
from mindnet_desktop.core.graph.patched_index import PatchedIndex
from mindnet_desktop.core.ingest.importer import ImportOutcome
from mindnet_desktop.core.store.overlay import EdgeOverlay
from mindnet_desktop.core.store.protocol import NoteRecord

# Changed notes a patch holds at most: more (a big sync) and the writer loads the records and
# the graph, as an import of many notes reads them anyway.
MAX_PATCHED_NOTES = 500


@dataclass
class IndexPatch:
    """The note index at `signatures` (the records' and the graph's of the snapshots on
    disk it follows), open, and the notes changed since (None: removed).

    Attributes:
        after_take: The changes since the snapshots were taken to be written (None: none
            taken), which remain once they are written.
    """

    index: NoteIndex
    signatures: tuple[str | None, str | None]
    changed: dict[str, NoteRecord | None] = field(default_factory=dict)
    after_take: dict[str, NoteRecord | None] | None = None

    @classmethod
    def open(cls, data_dir: Path, signatures: tuple[str | None, str | None]) -> IndexPatch | None:
        """A patch of the index written at `signatures`; None when there is none in step."""
        index = NoteIndex.load(data_dir, signatures[1])
        return cls(index, signatures) if index is not None else None

    @property
    def full(self) -> bool:
        return len(self.changed) > MAX_PATCHED_NOTES

    def add(self, outcome: ImportOutcome) -> None:
        """The notes one import wrote, re-linked and removed."""
        changes: dict[str, NoteRecord | None] = dict.fromkeys(outcome.deleted)
        changes.update((r.note.note_id, r) for r in outcome.written + outcome.relinked)
        self.changed.update(changes)
        if self.after_take is not None:
            self.after_take.update(changes)

    def taken(self) -> None:
        """The snapshots were taken to be written at the current signatures."""
        self.after_take = {}

    def written(self, data_dir: Path, signatures: tuple[str | None, str | None]) -> bool:
        """The snapshots taken were written at `signatures`: the patch follows the index
        written there, with the changes since; whether it could (else it stays as it is)."""
        index = NoteIndex.load(data_dir, signatures[1]) if self.after_take is not None else None
        if index is None or self.after_take is None:
            return False
        self.index.close()
        self.index, self.signatures = index, signatures
        self.changed, self.after_take = self.after_take, None
        return True

    def view(self, overlay: EdgeOverlay) -> PatchedIndex:
        return PatchedIndex(self.index, self.changed, overlay)

    def apply(self, records: dict[str, NoteRecord], graph: KnowledgeGraph) -> None:
        """The changes on the records and the graph read at `signatures`."""
        for note_id, record in self.changed.items():
            if record is None:
                records.pop(note_id, None)
                graph.remove_note(note_id)
            else:
                records[note_id] = record
                graph.upsert_note(record)
        graph.sync_user_edges()

    def close(self) -> None:
        self.index.close()
