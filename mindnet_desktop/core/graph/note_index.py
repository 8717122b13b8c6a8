"""What a search reads of the notes and the graph, kept for a fresh reader process.

A search needs the notes' titles, types and names, their chunk ids, and the edges among its
few hundred candidate notes, not every record and the whole graph: at 6,500 notes loading
those two snapshots costs ~1 s of a fresh `mindnet search`. The note index holds just that in
an SQLite file (`notes.index.sqlite`) read row by row, so its cost does not grow with the
vault. It is written beside the other snapshots by `mindnet import` and `mindnet watch`, and
by a fresh search that found none in step (whole, from the records and the graph in memory,
into a temporary file moved into place), carries the graph
snapshot's signature (the manifest's and the edge overlay's bytes) and is not used when that
differs, so a search never reads it out of step. `SearchGraph` is what the retriever asks of
either.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from abc import abstractmethod
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Protocol

from mindnet_desktop.core.domain import Edge, Note, chunk_id, name_words
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph, NoteLink, graph_node
from mindnet_desktop.core.store.overlay import EdgeOverlay, occurrences
from mindnet_desktop.core.store.protocol import NoteRecord

INDEX_FILE = "notes.index.sqlite"
VERSION = "6"  # 2: the edges a `neighbors` query reads; 6: what the app reads of it
BATCH = 500  # note ids per query (SQLite's bound on parameters)

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE notes (note_id TEXT PRIMARY KEY, path TEXT, title TEXT, type TEXT, status TEXT,
    aliases TEXT, tags TEXT, chunk_count INTEGER, mtime_ns INTEGER, size INTEGER,
    indexed_at REAL, edges INTEGER, active INTEGER, degree INTEGER);
CREATE TABLE names (name TEXT, note_id TEXT);
CREATE TABLE links (source TEXT, target TEXT, kind TEXT, confidence REAL, provenance TEXT);
CREATE TABLE edges (source TEXT, target TEXT, occurrence INTEGER, kind TEXT, target_id TEXT,
    target_note_id TEXT, note_id TEXT, provenance TEXT, rule_id TEXT, confidence REAL,
    target_ref TEXT, scope TEXT);
CREATE TABLE vault_edges (id TEXT, kind TEXT, source TEXT, target TEXT, provenance TEXT,
    rule_id TEXT, confidence REAL, deleted INTEGER, title TEXT);
"""
INDEXES = """
CREATE INDEX names_name ON names (name);
CREATE INDEX links_source ON links (source);
CREATE INDEX links_target ON links (target);
CREATE INDEX edges_source ON edges (source);
CREATE INDEX edges_target ON edges (target);
"""
EDGE_COLUMNS = (
    "kind, source, target_id, target_note_id, note_id, provenance, rule_id, confidence, "
    "target_ref, scope, occurrence"
)


# An edge of the whole-vault view: id, kind, source and target (notes, or an unresolved
# target), provenance, rule, confidence, deleted, the unresolved target's title.
VaultEdge = tuple[str, str, str, str, str, str, float, bool, str | None]


class SearchGraph(Protocol):
    """What a search reads of the graph: `KnowledgeGraph` or a `NoteIndex`."""

    def chunks_of(self, note_id: str) -> list[str]: ...

    def links_among(self, notes: set[str]) -> list[NoteLink]: ...

    def note_neighbours(self, note_id: str) -> list[str]: ...


class NoteTable(Mapping[str, Note]):
    """note id -> Note, and every note at once (`NoteRows`, `PatchedNotes`)."""

    @abstractmethod
    def every(self) -> list[Note]: ...


class IndexReads(SearchGraph, Protocol):
    """What is read of a note index: `NoteIndex`, or one with the notes changed since laid
    over it (`patched_index.PatchedIndex`)."""

    @property
    def notes(self) -> NoteTable: ...

    @property
    def names(self) -> Mapping[str, list[str]]: ...

    def stamp(self, note_id: str) -> tuple[int, int]: ...

    def kinds(self) -> set[str]: ...

    def edges_touching(self, nodes: list[str]) -> list[tuple[Edge, int]]: ...

    def every_edge(self) -> Iterator[tuple[Edge, int]]: ...

    def vault_edges(self) -> Iterator[VaultEdge]: ...

    def chunk_counts(self) -> dict[str, int]: ...

    def listing(self) -> list[tuple[str, str, str, str, float, int]]: ...

    def edge_total(self) -> int: ...

    def active_edges(self) -> int: ...

    def busiest(self) -> str | None: ...

    def close(self) -> None: ...


def note_names(records: Mapping[str, NoteRecord]) -> dict[str, list[str]]:
    """Note names (title, file name, aliases) as normalised words -> note ids."""
    names: dict[str, list[str]] = {}
    for note_id, record in records.items():
        n = record.note
        for name in {" ".join(name_words(x)) for x in (n.title, n.name, *n.aliases)}:
            if name:
                names.setdefault(name, []).append(note_id)
    return names


def write_note_index(
    data_dir: Path,
    records: Mapping[str, NoteRecord],
    graph: KnowledgeGraph,
    signature: str | None,
) -> bool:
    """Write the index of `records` and `graph` (taken at `signature`); whether it was
    written (a full disk leaves none: it is a cache, a search then loads the snapshots)."""
    if signature is None:
        return False
    path = data_dir / INDEX_FILE
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # readers may write it too
    tmp.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(tmp)) as con:
            con.executescript(SCHEMA)
            con.executemany(
                "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (
                        n.note_id,
                        n.path,
                        n.title,
                        n.type,
                        n.status,
                        json.dumps(n.aliases),
                        json.dumps(n.tags),
                        r.chunk_count,
                        r.mtime_ns,
                        r.size,
                        r.indexed_at,
                        len(r.edges),
                        active_edges(r.edges, graph.overlay),
                        graph.degree_of(n.note_id),
                    )
                    for r in records.values()
                    for n in (r.note,)
                ),
            )
            con.executemany(
                "INSERT INTO names VALUES (?, ?)",
                ((name, i) for name, ids in note_names(records).items() for i in ids),
            )
            con.executemany(
                "INSERT INTO links VALUES (?, ?, ?, ?, ?)", graph.links_among(set(records))
            )
            con.executemany(
                "INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _edge_rows(records),
            )
            con.executemany(
                "INSERT INTO vault_edges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", _vault_rows(graph)
            )
            con.executescript(INDEXES)
            kinds = json.dumps(sorted({e.kind for r in records.values() for e in r.edges}))
            meta = {"version": VERSION, "signature": signature, "kinds": kinds}
            meta["user_edges"] = str(_active_user_edges(graph.overlay))
            con.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            con.commit()
        os.chmod(tmp, 0o600)  # like the other snapshots: the notes' titles are private
        os.replace(tmp, path)
        return True
    except (OSError, sqlite3.Error):
        tmp.unlink(missing_ok=True)
        return False


def active_edges(edges: list[Edge], overlay: EdgeOverlay | None) -> int:
    """How many of a note's `edges` are not soft-deleted."""
    if overlay is None or not overlay.tombstones:
        return len(edges)
    seen = occurrences(edges)
    return sum(1 for e in edges if overlay.tombstone(e, seen[e.id]) is None)


def _active_user_edges(overlay: EdgeOverlay | None) -> int:
    if overlay is None:
        return 0
    return sum(1 for e in overlay.user_edges.values() if overlay.tombstone(e) is None)


def _edge_rows(records: Mapping[str, NoteRecord]) -> Iterator[tuple[object, ...]]:
    """The notes' edges but their structure edges (70 % of all, derived again from a note's
    chunk count: `ingest.edges.structure_of`), with the graph node they point to and which
    copy of their link they are (`overlay.occurrences`)."""
    for record in records.values():
        seen = occurrences(record.edges)
        for e in record.edges:
            if e.provenance == "structure":
                continue
            yield (
                e.source_id,
                graph_node(e),
                seen[e.id],
                e.kind,
                e.target_id,
                e.target_note_id,
                e.note_id,
                e.provenance,
                e.rule_id,
                e.confidence,
                e.target_ref,
                e.scope,
            )


def _vault_rows(graph: KnowledgeGraph) -> Iterator[VaultEdge]:
    """The whole vault's edges as the graph view draws them (`slice.whole_vault`, deleted
    ones too), each with the title of an unresolved target."""
    from mindnet_desktop.core.graph.queries import GraphQueries
    from mindnet_desktop.core.graph.slice import whole_vault

    whole = whole_vault(GraphQueries(graph, frozenset()), None, True)
    for e in whole.edges:
        end = whole.nodes[e.target]
        title = end.title if end.kind == "unresolved" else None
        yield (
            e.id,
            e.kind,
            e.source,
            e.target,
            e.provenance,
            e.rule_id,
            e.confidence,
            e.deleted,
            title,
        )


def _note(note_id: str, row: tuple[str, str, str, str, str, str]) -> Note:
    """A Note of a `notes` row's (path, title, type, status, aliases, tags), without its
    body."""
    path, title, type_, status, aliases, tags = row
    return Note(
        note_id,
        path,
        title,
        type_,
        "",
        "",
        tags=_strings(tags),
        aliases=_strings(aliases),
        status=status,
        format="ctxt" if path.lower().endswith(".ctxt") else "markdown",  # as the importer
    )


def _strings(text: str) -> tuple[str, ...]:
    """A JSON list of strings as a tuple ("[]", most notes' aliases, without parsing)."""
    return () if text == "[]" else tuple(json.loads(text))


NOTE_COLUMNS = "path, title, type, status, aliases, tags"


class NoteRows(NoteTable):
    """note id -> Note (title, path, type, status, aliases, tags; no body, no hash), read
    when asked for."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con
        self._cache: dict[str, Note | None] = {}
        self._every: list[Note] | None = None

    def _row(self, note_id: str) -> Note | None:
        if note_id not in self._cache:
            row = self._con.execute(
                f"SELECT {NOTE_COLUMNS} FROM notes WHERE note_id = ?", (note_id,)
            ).fetchone()
            self._cache[note_id] = None if row is None else _note(note_id, row)
        return self._cache[note_id]

    def every(self) -> list[Note]:
        """Every note, in one query (finding a note by what a person typed), read once: a
        note's links are each found among them."""
        if self._every is None:
            query = f"SELECT note_id, {NOTE_COLUMNS} FROM notes ORDER BY rowid"
            self._every = [_note(row[0], row[1:]) for row in self._con.execute(query)]
        return self._every

    def __getitem__(self, note_id: str) -> Note:
        note = self._row(note_id)
        if note is None:
            raise KeyError(note_id)
        return note

    def __contains__(self, note_id: object) -> bool:
        return isinstance(note_id, str) and self._row(note_id) is not None

    def __iter__(self) -> Iterator[str]:
        return (r[0] for r in self._con.execute("SELECT note_id FROM notes ORDER BY rowid"))

    def __len__(self) -> int:
        return int(self._con.execute("SELECT count(*) FROM notes").fetchone()[0])


class NameRows(Mapping[str, list[str]]):
    """Normalised name -> note ids (as `note_names`), read when asked for."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con

    def __getitem__(self, name: str) -> list[str]:
        rows = self._con.execute(
            "SELECT note_id FROM names WHERE name = ? ORDER BY rowid", (name,)
        ).fetchall()
        if not rows:
            raise KeyError(name)
        return [r[0] for r in rows]

    def __iter__(self) -> Iterator[str]:
        return (r[0] for r in self._con.execute("SELECT DISTINCT name FROM names"))

    def __len__(self) -> int:
        return int(self._con.execute("SELECT count(DISTINCT name) FROM names").fetchone()[0])


class NoteIndex:
    """The note index of a data dir, open read-only (`load`)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con
        self.notes = NoteRows(con)
        self.names = NameRows(con)

    @classmethod
    def load(cls, data_dir: Path, signature: str | None) -> NoteIndex | None:
        """The index when it was written at `signature`, else None."""
        path = data_dir / INDEX_FILE
        if signature is None or not path.is_file():
            return None
        try:
            # Immutable: the file is only ever replaced whole, never written in place.
            # Any thread may read it (a reader opened on one thread, used on a worker).
            con = sqlite3.connect(
                f"{path.as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error:
            return None
        if meta.get("version") != VERSION or meta.get("signature") != signature:
            con.close()
            return None
        return cls(con)

    def close(self) -> None:
        self._con.close()

    def chunks_of(self, note_id: str) -> list[str]:
        row = self._con.execute(
            "SELECT chunk_count FROM notes WHERE note_id = ?", (note_id,)
        ).fetchone()
        return [chunk_id(note_id, seq) for seq in range(1, row[0] + 1)] if row else []

    def stamp(self, note_id: str) -> tuple[int, int]:
        """The note file's (mtime_ns, size) when it was imported."""
        row = self._con.execute(
            "SELECT mtime_ns, size FROM notes WHERE note_id = ?", (note_id,)
        ).fetchone()
        if row is None:
            raise KeyError(note_id)
        return int(row[0]), int(row[1])

    def links_among(self, notes: set[str]) -> list[NoteLink]:
        ids = sorted(notes)
        links: list[NoteLink] = []
        for start in range(0, len(ids), BATCH):
            part = ids[start : start + BATCH]
            marks = ",".join("?" * len(part))
            links += [
                NoteLink(*row)
                for row in self._con.execute(
                    f"SELECT source, target, kind, confidence, provenance FROM links "
                    f"WHERE source IN ({marks}) ORDER BY rowid",
                    part,
                )
                if row[1] in notes
            ]
        return links

    def kinds(self) -> set[str]:
        """Every kind an edge of the notes uses (the user's edges are in the overlay)."""
        row = self._con.execute("SELECT value FROM meta WHERE key = 'kinds'").fetchone()
        return set(json.loads(row[0])) if row else set()

    def edges_touching(self, nodes: list[str]) -> list[tuple[Edge, int]]:
        """The notes' edges (no structure edges) out of or into `nodes`, each once, with its
        occurrence."""
        found: dict[int, tuple[Edge, int]] = {}  # by rowid: an edge between two of them once
        for start in range(0, len(nodes), BATCH):
            part = nodes[start : start + BATCH]
            marks = ",".join("?" * len(part))
            for column in ("source", "target"):
                query = f"SELECT rowid, {EDGE_COLUMNS} FROM edges WHERE {column} IN ({marks})"
                for rowid, *fields, occurrence in self._con.execute(query, part):
                    found[rowid] = (Edge(*fields), occurrence)
        return list(found.values())

    def listing(self) -> list[tuple[str, str, str, str, float, int]]:
        """(note id, path, title, type, indexed at, chunk count) of every note, by path."""
        query = "SELECT note_id, path, title, type, indexed_at, chunk_count FROM notes"
        return sorted(self._con.execute(query).fetchall(), key=lambda row: row[1])

    def edge_total(self) -> int:
        """How many edges the notes hold (structure edges too; not the user's)."""
        return int(self._con.execute("SELECT total(edges) FROM notes").fetchone()[0])

    def active_edges(self) -> int:
        """How many edges the notes and the user hold, soft-deleted ones not counted (the
        overlay as it was when the index was written: its bytes are in the signature)."""
        row = self._con.execute("SELECT value FROM meta WHERE key = 'user_edges'").fetchone()
        notes = self._con.execute("SELECT total(active) FROM notes").fetchone()[0]
        return int(notes) + int(row[0])

    def counts_of(self, notes: list[str]) -> tuple[int, int]:
        """(edges, active edges) of these notes together."""
        edges = active = 0
        for start in range(0, len(notes), BATCH):
            part = notes[start : start + BATCH]
            marks = ",".join("?" * len(part))
            query = f"SELECT total(edges), total(active) FROM notes WHERE note_id IN ({marks})"
            row = self._con.execute(query, part).fetchone()
            edges, active = edges + int(row[0]), active + int(row[1])
        return edges, active

    def busiest(self) -> str | None:
        """The note with the most edges (`KnowledgeGraph.degree_of`), ties by id."""
        row = self._con.execute(
            "SELECT note_id FROM notes ORDER BY degree DESC, note_id LIMIT 1"
        ).fetchone()
        return row[0] if row else None

    def chunk_counts(self) -> dict[str, int]:
        """Note id -> how many chunks it has, for every note."""
        return dict(self._con.execute("SELECT note_id, chunk_count FROM notes").fetchall())

    def every_edge(self) -> Iterator[tuple[Edge, int]]:
        """Every edge of the notes but their structure edges, with its occurrence."""
        query = f"SELECT {EDGE_COLUMNS} FROM edges ORDER BY rowid"
        for *fields, occurrence in self._con.execute(query):
            yield Edge(*fields), occurrence

    def vault_edges(self) -> Iterator[VaultEdge]:
        """The whole vault's edges as the graph view draws them (`_vault_rows`)."""
        return iter(self._con.execute("SELECT * FROM vault_edges ORDER BY rowid"))

    def targets_of(self, note_id: str) -> set[str]:
        """The notes the note's active links reach."""
        rows = self._con.execute("SELECT target FROM links WHERE source = ?", (note_id,))
        return {r[0] for r in rows}

    def sources_of(self, note_id: str) -> set[str]:
        """The notes whose active links reach the note."""
        rows = self._con.execute("SELECT source FROM links WHERE target = ?", (note_id,))
        return {r[0] for r in rows}

    def note_neighbours(self, note_id: str) -> list[str]:
        rows = self._con.execute(
            "SELECT target FROM links WHERE source = ? UNION SELECT source FROM links "
            "WHERE target = ?",
            (note_id, note_id),
        ).fetchall()
        return sorted({r[0] for r in rows} - {note_id})
