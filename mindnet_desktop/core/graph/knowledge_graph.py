"""The in-memory knowledge graph: a NetworkX MultiDiGraph of notes, chunks and unresolved
link targets, built from stored records (no parsing, no embedding) and updated per note."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from mindnet_desktop.core.domain import Edge, Note, chunk_id
from mindnet_desktop.core.store.overlay import EdgeOverlay, occurrences
from mindnet_desktop.core.store.protocol import NoteRecord

if TYPE_CHECKING:
    import networkx as nx

UNRESOLVED_PREFIX = "unresolved:"


class NoteLink(NamedTuple):
    """An active edge between two notes as a search reads it (chunks projected to notes)."""

    source: str
    target: str
    kind: str
    confidence: float
    provenance: str


def graph_node(edge: Edge) -> str:
    """The graph node an edge points to (unresolved link text gets its own namespace)."""
    return (
        edge.target_id
        if edge.resolved or edge.provenance == "structure"
        else UNRESOLVED_PREFIX + edge.target_id
    )


def note_attrs(note: Note) -> dict[str, Any]:
    """A note node's attributes."""
    return {
        "kind": "note",
        "title": note.title,
        "type": note.type,
        "path": note.path,
        "status": note.status,
        "tags": list(note.tags),
        "aliases": list(note.aliases),
    }


class KnowledgeGraph:
    """Keeps `graph` in step with the store, one note at a time.

    With an overlay, soft-deleted edges carry `deleted=True` (and `deleted_at`) and the user's
    own edges are part of the graph; queries decide whether to show deleted edges.
    """

    def __init__(self, overlay: EdgeOverlay | None = None) -> None:
        import networkx as nx  # ~0.15 s: not for a search that reads the note index

        self.graph: nx.MultiDiGraph = nx.MultiDiGraph()
        self.overlay = overlay
        self._owned: dict[str, list[tuple[str, str, str]]] = {}  # note id -> its edges
        self._chunks: dict[str, list[str]] = {}  # note id -> its chunk nodes
        self.edge_index: dict[str, tuple[str, str, str]] = {}  # edge id -> (u, v, key)

    @classmethod
    def from_records(
        cls, records: Iterable[NoteRecord], overlay: EdgeOverlay | None = None
    ) -> KnowledgeGraph:
        kg = cls(overlay)
        for record in records:
            kg.upsert_note(record)
        kg.sync_user_edges()
        return kg

    def state(self) -> tuple[Any, ...]:
        """What `from_state` needs to rebuild this graph without its records (a snapshot)."""
        return (self.graph, self._owned, self._chunks, self.edge_index)

    @classmethod
    def from_state(cls, state: tuple[Any, ...], overlay: EdgeOverlay | None) -> KnowledgeGraph:
        """The graph of `state()`; `overlay` must be the one it was built with."""
        kg = cls(overlay)
        kg.graph, kg._owned, kg._chunks, kg.edge_index = state
        return kg

    def set_chunks(self, note_id: str, chunks: list[str]) -> None:
        """The note's chunk nodes, for a part of the graph built edge by edge
        (`neighbourhood.py`): at note level the note stands for them."""
        self._chunks[note_id] = list(chunks)

    def chunks_of(self, note_id: str) -> list[str]:
        return list(self._chunks.get(note_id, []))

    def degree_of(self, note_id: str) -> int:
        """The edges of a note and its chunks, in and out, deleted ones too (the graph view
        starts at the note with the most)."""
        degree = self.graph.degree
        nodes = (note_id, *self._chunks.get(note_id, ()))
        return sum(degree(n) for n in nodes if n in self.graph)

    def links_among(self, notes: set[str]) -> list[NoteLink]:
        """Every active edge from one of `notes` (or its chunks) to another of them, projected
        to notes (a search's candidate notes; `search_graph.SearchGraph`)."""
        succ, attrs = self.graph.succ, self.graph.nodes  # the edge views are slow here
        links = []
        for note in notes:
            for seed in (note, *self._chunks.get(note, ())):
                if seed not in succ:
                    continue  # not a note of this graph
                for target, keyed in succ[seed].items():
                    node = attrs[target]
                    other = node.get("note_id", target) if node.get("kind") == "chunk" else target
                    if other == note or other not in notes:
                        continue
                    for data in keyed.values():
                        if not data.get("deleted"):
                            link = (data["kind"], float(data["confidence"]), data["provenance"])
                            links.append(NoteLink(note, other, *link))
        return links

    def note_neighbours(self, note_id: str) -> list[str]:
        """The notes one active edge away from the note (or its chunks), either way, sorted."""
        found: set[str] = set()
        for seed in (note_id, *self._chunks.get(note_id, ())):
            if seed not in self.graph:
                continue
            for ends in (self.graph.succ[seed], self.graph.pred[seed]):
                for other, keyed in ends.items():
                    if all(d.get("deleted") for d in keyed.values()):
                        continue
                    node = self.graph.nodes[other]
                    if node.get("kind") == "chunk":
                        found.add(node["note_id"])
                    elif node.get("kind") == "note":
                        found.add(other)
        found.discard(note_id)
        return sorted(found)

    def add_edge(self, edge: Edge, occurrence: int = 0) -> None:
        """Add one edge (creating an unresolved or pending target node when needed);
        `occurrence` tells copies of one link in a note apart (see overlay.link_key)."""
        target = graph_node(edge)
        if target not in self.graph:
            kind = "unresolved" if target.startswith(UNRESOLVED_PREFIX) else "pending"
            self.graph.add_node(target, kind=kind, title=edge.target_id)
        attrs = self._attrs(edge)
        attrs["occurrence"] = occurrence
        stone = self.overlay.tombstone(edge, occurrence) if self.overlay else None
        if stone is not None:
            attrs.update(deleted=True, deleted_at=stone.deleted_at)
        self.graph.add_edge(edge.source_id, target, key=edge.id, **attrs)
        self.edge_index[edge.id] = (edge.source_id, target, edge.id)

    def sync_user_edges(self) -> None:
        """(Re)add the overlay's user edges whose source node exists."""
        if self.overlay is None:
            return
        for edge in self.overlay.user_edges.values():
            if edge.source_id in self.graph and edge.id not in self.edge_index:
                self.add_edge(edge)

    def set_deleted(self, edge_id: str, deleted_at: str | None) -> None:
        """Mark an edge deleted (with the time) or active again (`deleted_at` None)."""
        u, v, key = self.edge_index[edge_id]
        data = self.graph.edges[u, v, key]
        data["deleted"] = deleted_at is not None
        data["deleted_at"] = deleted_at

    def upsert_note(self, record: NoteRecord) -> None:
        """Replace the note's node, its chunks and all edges it owns.

        Chunk nodes that still exist are kept, so edges of other notes into them survive.
        """
        note = record.note
        chunks = [chunk_id(note.note_id, seq) for seq in range(1, record.chunk_count + 1)]
        self.remove_note(note.note_id, keep_node=True, keep_chunks=set(chunks))
        self._set_node(note.note_id, **note_attrs(note))
        for seq, node in enumerate(chunks, start=1):
            self._set_node(node, kind="chunk", note_id=note.note_id, seq=seq)
        self._chunks[note.note_id] = chunks
        seen = occurrences(record.edges)
        for edge in record.edges:
            self.add_edge(edge, seen[edge.id])
        self._owned[note.note_id] = [self.edge_index[e.id] for e in record.edges]

    def _set_node(self, node: str, **attrs: Any) -> None:
        """The node with exactly these attributes: a node first made as the pending target
        of a link (titled with the link's text) keeps no title once it is a chunk."""
        if node in self.graph:
            data = self.graph.nodes[node]
            data.clear()
            data.update(attrs)
        else:
            self.graph.add_node(node, **attrs)

    @staticmethod
    def _attrs(edge: Edge) -> dict[str, Any]:
        # Interned: the same kinds, rules and note ids recur on 100k edges; one string
        # object each makes the graph smaller in memory and its snapshot ~35 % faster to load.
        data = {k: sys.intern(v) if isinstance(v, str) else v for k, v in edge.to_dict().items()}
        data.pop("source_id")
        data["deleted_at"] = None
        return data

    def remove_note(
        self, note_id: str, keep_node: bool = False, keep_chunks: set[str] | None = None
    ) -> None:
        """Remove the note's owned edges and chunks (but `keep_chunks`), and its node unless
        `keep_node`. Edges of other notes pointing at it stay until their owners are
        re-resolved by the importer."""
        owned = self._owned.pop(note_id, [])
        self.graph.remove_edges_from(owned)
        for _, _, key in owned:
            self.edge_index.pop(key, None)
        keep_chunks = keep_chunks or set()
        gone = [c for c in self._chunks.pop(note_id, []) if c not in keep_chunks]
        if not keep_node and note_id in self.graph:
            gone_edges = list(self.graph.out_edges(note_id, keys=True))
            self.graph.remove_edges_from(gone_edges)  # the user's edges from the note
            for _, _, key in gone_edges:
                self.edge_index.pop(key, None)
        for node in gone:  # edges into or out of removed chunks leave the index too
            for _, _, key in self.graph.in_edges(node, keys=True):
                self.edge_index.pop(key, None)
            for _, _, key in self.graph.out_edges(node, keys=True):
                self.edge_index.pop(key, None)
        self.graph.remove_nodes_from(gone)
        if not keep_node and note_id in self.graph:
            if self.graph.in_degree(note_id) == 0:
                self.graph.remove_node(note_id)
            else:
                self.graph.nodes[note_id].clear()
                self.graph.nodes[note_id]["kind"] = "pending"
        targets = {v for _, v, _ in owned}
        self.graph.remove_nodes_from(
            [
                n
                for n in targets
                if n in self.graph
                and self.graph.nodes[n].get("kind") in ("unresolved", "pending")
                and self.graph.degree(n) == 0
            ]
        )

    def signature(self) -> tuple[set[tuple[str, str]], set[tuple[str, str, str]]]:
        """Nodes (id, kind) and edges (source, target, key): to compare two graphs."""
        nodes = {(n, str(kind)) for n, kind in self.graph.nodes(data="kind")}
        edges = {(u, v, k) for u, v, k in self.graph.edges(keys=True)}
        return nodes, edges
