"""A small file beside the store with what a no-op import needs to know of each note.

With it, an import that finds nothing changed reads one JSON file and stats the vault; it
never loads the notes (and their edges) from Chroma. The manifest is removed before the store
is written and saved after, so a crash in between only costs one rebuild from the store.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from mindnet_desktop.core.config.type_registry import TypeRegistry
from mindnet_desktop.core.files import atomic_writer, file_stamp
from mindnet_desktop.core.gcpause import paused_gc
from mindnet_desktop.core.ingest.links import NoteKey
from mindnet_desktop.core.store.protocol import NoteRecord

MANIFEST_SCHEMA = 1
# Version of what is embedded per chunk (ingest/embedding.py): a new recipe re-imports.
EMBED_RECIPE = 2
# Bumped when the edge rules find more links (2: Markdown, property and block links; 3: the
# CommonMark reader, docs/markdown.md), so that notes imported before are derived again
# (chunks whose text did not change keep their vectors).
EDGE_RULES = 3
SAVE_SLICE = 1000  # entries encoded in one call (~4 ms)


@dataclass(frozen=True)
class ManifestEntry:
    note_id: str
    path: str
    mtime_ns: int
    size: int
    content_hash: str
    type: str
    fingerprint: str
    chunk_count: int
    edge_count: int
    aliases: tuple[str, ...]
    headings: tuple[tuple[str, int], ...]
    warnings: tuple[str, ...]


_FIELDS = frozenset(f.name for f in fields(ManifestEntry))


def _entry(raw: dict[str, Any]) -> ManifestEntry:
    """An entry from its JSON object (which it takes over). Filled without the frozen
    dataclass's `__init__`, which sets each field through `object.__setattr__`: 0.29 s
    against 0.09 s for 50,000 entries, a third of a fresh no-op import's reading. A missing
    or unknown field is a KeyError, as a broken manifest."""
    if raw.keys() != _FIELDS:
        raise KeyError(f"manifest entry fields {sorted(raw.keys() ^ _FIELDS)}")
    raw["aliases"] = tuple(raw["aliases"])
    raw["headings"] = tuple((h, s) for h, s in raw["headings"])
    raw["warnings"] = tuple(raw["warnings"])
    entry = object.__new__(ManifestEntry)
    entry.__dict__.update(raw)
    return entry


def entry_of(record: NoteRecord) -> ManifestEntry:
    note = record.note
    return ManifestEntry(
        note.note_id,
        note.path,
        record.mtime_ns,
        record.size,
        note.content_hash,
        note.type,
        record.fingerprint,
        record.chunk_count,
        len(record.edges),
        note.aliases,
        tuple(record.headings),
        note.warnings,
    )


def entry_key(entry: ManifestEntry) -> NoteKey:
    """What the link resolver knows of a note, from its entry (no store access)."""
    return NoteKey(entry.note_id, entry.path, entry.aliases, tuple(entry.headings))


def type_fingerprint(registry: TypeRegistry, type_name: str) -> str:
    """Changes when what shapes a note of this type (profile, edge defaults, the embedding
    recipe) changes, so that its notes are imported again."""
    spec = registry.spec(type_name)
    profile = registry.chunk_profiles[spec.chunk_profile]
    raw = json.dumps([asdict(spec), asdict(profile), EMBED_RECIPE, EDGE_RULES], sort_keys=True)
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:12]


class Manifest:
    """The manifest file of one data dir. The entries last read or written are kept with the
    file's stamp (`file_stamp`): a process that imports again (a watcher, the app) does not parse
    the file again while nobody else changed it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._kept: tuple[tuple[int, ...], dict[str, ManifestEntry]] | None = None

    def load(self, expected_notes: int) -> dict[str, ManifestEntry] | None:
        """Entries by vault path, or None when missing, unreadable or not matching the store."""
        stamp = file_stamp(self.path)
        if stamp is not None and self._kept is not None and self._kept[0] == stamp:
            entries = self._kept[1]
            return dict(entries) if len(entries) == expected_notes else None
        try:
            with paused_gc():  # none of the entries is garbage (gcpause.py)
                read = self._read(expected_notes)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if read is None:
            return None
        if stamp is not None:
            self._kept = (stamp, read)
        return dict(read)

    def _read(self, expected_notes: int) -> dict[str, ManifestEntry] | None:
        data = json.loads(self.path.read_text(encoding="utf-8"))
        if data.get("schema") != MANIFEST_SCHEMA or len(data["notes"]) != expected_notes:
            return None
        return {raw["path"]: _entry(raw) for raw in data["notes"]}

    def save(self, entries: list[ManifestEntry]) -> None:
        """Write atomically (temp file + rename)."""
        # vars(), not asdict(): no deep copy of every tuple (2.5 s -> ~0.2 s at 6,500 notes);
        # dumps(), not dump(): the C encoder writes one string instead of many small pieces;
        # in slices: one call holds the GIL throughout (0.2 s at 50,000 notes, a pause of
        # the window's thread and of a search waiting for the edit just written).
        with atomic_writer(self.path, text=True) as handle:
            handle.write(f'{{"schema": {MANIFEST_SCHEMA}, "notes": [')
            for start in range(0, len(entries), SAVE_SLICE):
                part = [vars(e) for e in entries[start : start + SAVE_SLICE]]
                handle.write(("," if start else "") + json.dumps(part, ensure_ascii=False)[1:-1])
            handle.write("]}")
        stamp = file_stamp(self.path)
        self._kept = (stamp, {e.path: e for e in entries}) if stamp is not None else None

    def invalidate(self) -> None:
        self._kept = None
        self.path.unlink(missing_ok=True)
