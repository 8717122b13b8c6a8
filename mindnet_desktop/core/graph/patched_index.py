"""The note index with the notes an import changed since it was written, for a writer that
holds neither the records nor the graph (the app).

An edit changes a few notes; the note index on disk is brought in step by another process
later (`snapshot_child.py`). Until then the writer reads the index it had open, with the
changed notes' records laid over it: a changed note's rows come from its record, a removed
note's are gone, and every row an unchanged note holds stays. This answers what the index
answers (`NoteIndex`'s methods), so a search, the graph view's slices and the panels read it
as they read the index, and no edit loads every record and the whole graph (50,000 notes:
~1.2 GiB and ~3 s).

Two answers are near, not exact: the edge kinds in use (a kind an edit removed is still
listed until the index is written again) and the note the graph view starts at (the
degrees of the notes next to a changed one are the index's).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from mindnet_desktop.core.domain import Edge, Note, chunk_id
from mindnet_desktop.core.graph.knowledge_graph import UNRESOLVED_PREFIX, NoteLink, graph_node
from mindnet_desktop.core.graph.note_index import (
    NoteIndex,
    NoteTable,
    VaultEdge,
    active_edges,
    note_names,
)
from mindnet_desktop.core.store.overlay import EdgeOverlay, occurrences

if TYPE_CHECKING:
    from mindnet_desktop.core.store.protocol import NoteRecord


class PatchedNotes(NoteTable):
    """note id -> Note: the changed notes' records over the index's rows."""

    def __init__(self, index: NoteIndex, changed: Mapping[str, NoteRecord | None]) -> None:
        self._base, self._changed = index.notes, changed
        self._every: list[Note] | None = None

    def __getitem__(self, note_id: str) -> Note:
        if note_id in self._changed:
            record = self._changed[note_id]
            if record is None:
                raise KeyError(note_id)
            return record.note
        return self._base[note_id]

    def __contains__(self, note_id: object) -> bool:
        if isinstance(note_id, str) and note_id in self._changed:
            return self._changed[note_id] is not None
        return note_id in self._base

    def __iter__(self) -> Iterator[str]:
        return (n.note_id for n in self.every())

    def __len__(self) -> int:
        return len(self.every())

    def every(self) -> list[Note]:
        """Every note: the index's in its order, then the notes it does not hold yet."""
        if self._every is None:
            kept = [n for n in self._base.every() if n.note_id not in self._changed]
            added = [r.note for r in self._changed.values() if r is not None]
            self._every = kept + added
        return self._every


class PatchedNames(Mapping[str, list[str]]):
    """Normalised name -> note ids (`note_names`), the changed notes' from their records."""

    def __init__(self, index: NoteIndex, changed: Mapping[str, NoteRecord | None]) -> None:
        self._base, self._changed = index.names, changed
        live = {n: r for n, r in changed.items() if r is not None}
        self._added = note_names(live)

    def __getitem__(self, name: str) -> list[str]:
        try:
            base = [n for n in self._base[name] if n not in self._changed]
        except KeyError:
            base = []
        ids = base + self._added.get(name, [])
        if not ids:
            raise KeyError(name)
        return ids

    def __iter__(self) -> Iterator[str]:
        return (n for n in dict.fromkeys([*self._base, *self._added]) if n in self)

    def __contains__(self, name: object) -> bool:
        try:
            self[str(name)]
        except KeyError:
            return False
        return isinstance(name, str)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class PatchedIndex:
    """`index` (open on the file it was written to, even once that file is replaced) with
    the records of the notes changed since (`None`: removed), and the overlay of the edges'
    tombstones and the user's edges."""

    def __init__(
        self,
        index: NoteIndex,
        changed: Mapping[str, NoteRecord | None],
        overlay: EdgeOverlay,
    ) -> None:
        self.base, self.changed, self.overlay = index, dict(changed), overlay
        self.notes = PatchedNotes(index, self.changed)
        self.names = PatchedNames(index, self.changed)
        self._live = {n: r for n, r in self.changed.items() if r is not None}
        self._links: dict[str, list[NoteLink]] = {}

    def close(self) -> None:
        """The base index stays open: its owner (`VaultState`) closes it."""

    # What a search reads (`SearchGraph`)
    def chunks_of(self, note_id: str) -> list[str]:
        if note_id in self.changed:
            record = self.changed[note_id]
            count = record.chunk_count if record is not None else 0
            return [chunk_id(note_id, seq) for seq in range(1, count + 1)]
        return self.base.chunks_of(note_id)

    def stamp(self, note_id: str) -> tuple[int, int]:
        if note_id in self.changed:
            record = self.changed[note_id]
            if record is None:
                raise KeyError(note_id)
            return record.mtime_ns, record.size
        return self.base.stamp(note_id)

    def links_among(self, notes: set[str]) -> list[NoteLink]:
        kept = [link for link in self.base.links_among(notes) if link.source not in self.changed]
        kept = [link for link in kept if link.target in self.notes]
        for note_id in sorted(notes & set(self._live)):
            kept += [link for link in self._links_of(note_id) if link.target in notes]
        return kept

    def note_neighbours(self, note_id: str) -> list[str]:
        if note_id in self.changed:  # its own links are its record's
            outgoing = {link.target for link in self._links_of(note_id)}
        else:
            outgoing = self.base.targets_of(note_id)
        incoming = {n for n in self.base.sources_of(note_id) if n not in self.changed}
        incoming |= {n for n in self._live if self._links_to(n, note_id)}
        found = (outgoing | incoming) - {note_id}
        return sorted(n for n in found if n in self.notes)

    def kinds(self) -> set[str]:
        return self.base.kinds() | {e.kind for r in self._live.values() for e in r.edges}

    # What the graph view and the panels read
    def edges_touching(self, nodes: list[str]) -> list[tuple[Edge, int]]:
        found = [
            (edge, occurrence)
            for edge, occurrence in self.base.edges_touching(nodes)
            if edge.note_id not in self.changed
        ]
        inside = set(nodes)
        for edge, occurrence in self._changed_edges():
            if edge.source_id in inside or graph_node(edge) in inside:
                found.append((edge, occurrence))
        return found

    def every_edge(self) -> Iterator[tuple[Edge, int]]:
        for edge, occurrence in self.base.every_edge():
            if edge.note_id not in self.changed:
                yield edge, occurrence
        yield from self._changed_edges()

    def vault_edges(self) -> Iterator[VaultEdge]:
        for row in self.base.vault_edges():
            source, target = row[2], row[3]
            if source in self.changed or (target in self.changed and target not in self.notes):
                continue  # a changed note's own, or into a removed note (pending now)
            yield row
        seen: set[str] = set()
        for note_id in self._live:
            yield from self._vault_edges_of(note_id, seen)

    def chunk_counts(self) -> dict[str, int]:
        counts = self.base.chunk_counts()
        for note_id, record in self.changed.items():
            if record is None:
                counts.pop(note_id, None)
            else:
                counts[note_id] = record.chunk_count
        return counts

    def listing(self) -> list[tuple[str, str, str, str, float, int]]:
        rows = [row for row in self.base.listing() if row[0] not in self.changed]
        for r in self._live.values():
            n = r.note
            rows.append((n.note_id, n.path, n.title, n.type, r.indexed_at, r.chunk_count))
        return sorted(rows, key=lambda row: row[1])

    def edge_total(self) -> int:
        before, _ = self.base.counts_of(sorted(self.changed))
        return self.base.edge_total() - before + sum(len(r.edges) for r in self._live.values())

    def active_edges(self) -> int:
        _, before = self.base.counts_of(sorted(self.changed))
        now = sum(active_edges(r.edges, self.overlay) for r in self._live.values())
        return self.base.active_edges() - before + now

    def busiest(self) -> str | None:
        best = self.base.busiest()
        if best is not None and best in self.notes:
            return best
        return min(self.notes.every(), key=lambda n: n.note_id).note_id if self.notes else None

    # The changed notes' edges and links
    def _changed_edges(self) -> Iterator[tuple[Edge, int]]:
        for record in self._live.values():
            seen = occurrences(record.edges)
            for edge in record.edges:
                if edge.provenance != "structure":
                    yield edge, seen[edge.id]

    def _vault_edges_of(self, note_id: str, seen: set[str]) -> Iterator[VaultEdge]:
        """A changed note's edges (and the user's from it) as the whole-vault view draws
        them: both ends projected to notes, none inside the note or to a pending target."""
        record = self._live[note_id]
        inside = {note_id, *self.chunks_of(note_id)}
        occurrence = occurrences(record.edges)
        edges = {e.id: (e, occurrence[e.id]) for e in record.edges}  # the last copy
        for e in self.overlay.user_edges.values():
            if e.source_id in inside:
                edges.setdefault(e.id, (e, 0))
        for edge, copy in edges.values():
            end = graph_node(edge)
            unresolved = end.startswith(UNRESOLVED_PREFIX)
            target = end if unresolved else self._note_at(end)
            if edge.id in seen or edge.provenance == "structure" or target in (None, note_id):
                continue
            seen.add(edge.id)
            deleted = self.overlay.tombstone(edge, copy) is not None
            title = (edge.target_id or end) if unresolved else None
            yield (
                edge.id,
                edge.kind,
                note_id,
                str(target),
                edge.provenance,
                edge.rule_id,
                float(edge.confidence),
                deleted,
                title,
            )

    def _note_at(self, node: str) -> str | None:
        """The live note a note or chunk node stands for (None: no such node)."""
        if node in self.notes:
            return node
        owner, sep, seq = node.rpartition("#")
        if sep and seq.isdigit() and node in self.chunks_of(owner):
            return owner
        return None

    def _links_of(self, note_id: str) -> list[NoteLink]:
        """The changed note's active links to other live notes, one per edge id (as
        `KnowledgeGraph.links_among` reads them)."""
        if note_id not in self._links:
            self._links[note_id] = self._read_links(note_id)
        return self._links[note_id]

    def _read_links(self, note_id: str) -> list[NoteLink]:
        record = self._live[note_id]
        inside = {note_id, *self.chunks_of(note_id)}
        seen = occurrences(record.edges)
        edges = {e.id: (e, seen[e.id]) for e in record.edges}
        for e in self.overlay.user_edges.values():
            if e.source_id in inside:
                edges.setdefault(e.id, (e, 0))
        links = []
        for edge, occurrence in edges.values():
            if self.overlay.tombstone(edge, occurrence) is not None:
                continue
            other = self._note_at(graph_node(edge))
            if other is not None and other != note_id:
                links.append(
                    NoteLink(note_id, other, edge.kind, float(edge.confidence), edge.provenance)
                )
        return links

    def _links_to(self, source: str, target: str) -> bool:
        return any(link.target == target for link in self._links_of(source))
