"""Finding a note by what a person types (id, path, title, alias, file name), and the
notes as a read-only mapping over the records."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.store.protocol import NoteRecord

if TYPE_CHECKING:
    from mindnet_desktop.core.domain import Edge
    from mindnet_desktop.core.store.protocol import Store


class FindsNotes(Protocol):
    """A vault (`Mindnet`) that finds a note by what a person types (`find_note`, or only
    its id: `find_note_id`)."""

    def find_note(self, ref: str) -> NoteRecord: ...

    def find_note_id(self, ref: str) -> str: ...


class ShownVault(FindsNotes, Protocol):
    """What showing a note reads of an open vault (`Mindnet`): its edges and chunks."""

    @property
    def store(self) -> Store: ...

    def edges(self, include_deleted: bool = False) -> list[Edge]: ...


class NotesView(Mapping[str, Note]):
    """note id -> Note, read from the records on demand (no copy per query)."""

    def __init__(self, records: dict[str, NoteRecord]) -> None:
        self._records = records

    def __getitem__(self, note_id: str) -> Note:
        return self._records[note_id].note

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)


class NoteNotFoundError(MindnetError, LookupError):
    """No note matches the given id, title, alias or path."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip().casefold()  # macOS names: decomposed


def find_note(records: Mapping[str, NoteRecord], ref: str) -> NoteRecord:
    """A note by id, vault path, title, alias or file name (case-insensitive); the first
    by path when several match the same way."""
    if ref in records:
        return records[ref]
    return records[match_note([r.note for r in records.values()], ref).note_id]


def match_note(notes: list[Note], ref: str) -> Note:
    """`find_note` over notes (the note index's rows, say) when none has `ref` as its id."""
    wanted = _fold(ref)
    for match in (
        lambda n: _fold(n.path) == wanted,
        lambda n: _fold(n.note_id) == wanted,
        lambda n: _fold(n.title) == wanted,
        lambda n: _fold(n.name) == wanted,
        lambda n: wanted in (_fold(a) for a in n.aliases),
    ):
        hits = sorted((n for n in notes if match(n)), key=lambda n: n.path)
        if hits:
            return hits[0]
    raise NoteNotFoundError(f"No note matches '{ref}' (by id, path, title, alias or name).")


def show_note(mn: ShownVault, ref: str) -> dict[str, Any]:
    """A note with its chunks, the edges it owns and the edges pointing at it."""
    record = mn.find_note(ref)
    note_id = record.note.note_id
    edges = mn.edges(include_deleted=True)  # with `deleted` set from the overlay
    own = [e for e in edges if e.note_id == note_id]
    incoming = [
        e
        for e in edges
        if e.target_note_id == note_id and e.note_id != note_id and e.provenance != "structure"
    ]
    return {
        "record": record,
        "chunks": mn.store.chunks(note_id),
        "edges": own,
        "incoming": incoming,
    }
