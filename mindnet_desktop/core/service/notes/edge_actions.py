"""What a user does to edges: create (as a callout in the note, or in the overlay), soft
delete and restore. Creating an edge is the only place Mindnet writes a note, and only when
asked."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from mindnet_desktop.core.domain import Edge, drain
from mindnet_desktop.core.graph.neighbourhood import note_of
from mindnet_desktop.core.graph.note_index import IndexReads
from mindnet_desktop.core.graph.queries import QueryError
from mindnet_desktop.core.ingest.note_edit import (
    EDIT_JOURNAL,
    NoteEditError,
    callout_line,
    insert_callout,
    write_atomic,
)
from mindnet_desktop.core.service.notes.lookup import FindsNotes, match_note

if TYPE_CHECKING:
    from mindnet_desktop.core.config.type_registry import TypeRegistry
    from mindnet_desktop.core.config.vocabulary import Vocabulary
    from mindnet_desktop.core.domain import IndexProgress
    from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
    from mindnet_desktop.core.graph.queries import GraphQueries
    from mindnet_desktop.core.ingest.importer import ImportOptions, ImportOutcome
    from mindnet_desktop.core.models.embedders import Embedder
    from mindnet_desktop.core.store.overlay import EdgeOverlay, Tombstone
    from mindnet_desktop.core.store.protocol import NoteRecord, Store

USER_RULE = "user:overlay"


class EdgeReads(FindsNotes, Protocol):
    """What finding and checking edges reads of an open vault (`Mindnet`)."""

    @property
    def records(self) -> dict[str, NoteRecord]: ...

    @property
    def graph(self) -> KnowledgeGraph: ...

    @property
    def queries(self) -> GraphQueries: ...

    @property
    def vocabulary(self) -> Vocabulary: ...


class EdgeChanges(Protocol):
    """Where an edge change goes so that what was read stays in step (`VaultState`)."""

    def add_user_edge(self, edge: Edge) -> None: ...

    def delete_edge(self, edge_id: str, edge: Edge, occurrence: int) -> Tombstone: ...

    def restore_edge(self, edge_id: str, edge: Edge, occurrence: int) -> None: ...


class EdgeVault(EdgeReads, Protocol):
    """What changing edges needs of a vault opened for writing (`Mindnet`): the note files
    and how to import one, the overlay, the state that follows each change."""

    @property
    def vault(self) -> Path: ...

    @property
    def data_dir(self) -> Path: ...

    @property
    def registry(self) -> TypeRegistry: ...

    @property
    def embedder(self) -> Embedder: ...

    @property
    def store(self) -> Store: ...

    @property
    def overlay(self) -> EdgeOverlay: ...

    @property
    def state(self) -> EdgeChanges: ...

    @property
    def read_only_vault(self) -> bool: ...

    @property
    def writable(self) -> bool: ...

    def import_vault(
        self, options: ImportOptions | None = None, cancel: Callable[[], bool] | None = None
    ) -> Generator[IndexProgress, None, ImportOutcome]: ...


def resolve_node(mn: EdgeReads, ref: str) -> str:
    """A node id from a note id, path, title or alias, or a chunk id (`<note>#<n>`, where
    the note part may be a title or alias too)."""
    g = mn.graph.graph
    if ref in g and g.nodes[ref].get("kind") in ("note", "chunk"):
        return ref
    head, sep, seq = ref.rpartition("#")
    if sep and seq.isdigit():
        node = f"{mn.find_note(head).note.note_id}#{seq}"
        if node in g:
            return node
        raise QueryError(f"unknown chunk '{ref}': the note has no chunk {seq}")
    return mn.find_note(ref).note.note_id


def resolve_in_index(index: IndexReads, ref: str) -> str:
    """`resolve_node` over the note index, for a process that has not loaded the graph."""
    if note_of(index, ref) is not None:
        return ref
    head, sep, seq = ref.rpartition("#")
    if sep and seq.isdigit():
        node = f"{match_note(index.notes.every(), head).note_id}#{seq}"
        if note_of(index, node) is not None:
            return node
        raise QueryError(f"unknown chunk '{ref}': the note has no chunk {seq}")
    return match_note(index.notes.every(), ref).note_id


def edge_by_id(mn: EdgeReads, edge_id: str) -> Edge:
    """The edge with this id (active or deleted), or QueryError."""
    found = mn.graph.edge_index.get(edge_id)
    if found is None:
        raise QueryError(f"unknown edge id '{edge_id}' (`mindnet edges --json` lists ids)")
    u, v, key = found
    data = dict(mn.graph.graph.edges[u, v, key])
    fields = {k: data[k] for k in Edge.__dataclass_fields__ if k in data}
    return Edge.from_dict({**fields, "source_id": u})


def occurrence_of(mn: EdgeReads, edge_id: str) -> int:
    """Which copy of its link in its note an edge is (see overlay.link_key)."""
    u, v, key = mn.graph.edge_index[edge_id]
    return int(mn.graph.graph.edges[u, v, key].get("occurrence", 0))


def _link_text(mn: EdgeReads, target: str) -> str:
    """How the callout names the target: the file name when unique, else the path; a chunk
    target adds its first heading that leads to it (QueryError when none does)."""
    note_id = mn.queries.project(target, "note")
    record = mn.records[note_id]
    name = record.note.name
    same = [r for r in mn.records.values() if r.note.name.casefold() == name.casefold()]
    base = name if len(same) == 1 else record.note.path.rsplit(".", 1)[0]
    if target == note_id:
        return base
    seq = int(target.rsplit("#", 1)[1])
    first_seq: dict[str, tuple[str, int]] = {}
    for heading, at in record.headings:
        first_seq.setdefault(heading.casefold(), (heading, at))
    for heading, at in first_seq.values():
        if at == seq:
            return f"{base}#{heading}"
    raise QueryError(
        f"chunk '{target}' has no heading of its own, so a link in a note cannot point at it; "
        "target its note instead, or use --read-only-vault to keep a chunk edge in the overlay"
    )


def _states_edge(mn: EdgeVault, rel: str, data: bytes, kind: str, link: str) -> bool:
    """Whether the edited note, parsed as an import would, holds the callout edge."""
    from mindnet_desktop.core.ingest.edges import links_by_chunk
    from mindnet_desktop.core.ingest.importer import Importer

    digest = hashlib.sha256(data).hexdigest()
    note, chunks = Importer(mn.vault, mn.store, mn.registry, mn.embedder).load(rel, data, digest)
    return any(
        found.rule == "callout" and found.kind == kind and found.ref.casefold() == link.casefold()
        for _, found in links_by_chunk(note, chunks)
    )


@dataclass(frozen=True)
class EdgePlan:
    """A checked request to create an edge: kind and nodes resolved; `deleted_twin` is the
    id of the same edge, soft-deleted, which is restored instead of written again."""

    kind: str
    source: str
    target: str
    source_note: str
    target_note: str
    level: Literal["note", "chunk"]
    deleted_twin: str | None = None


def plan_edge(mn: EdgeReads, source_ref: str, kind_text: str, target_ref: str) -> EdgePlan:
    """Resolve and check an edge request without writing anything."""
    kind = mn.vocabulary.resolve(kind_text)
    source, target = resolve_node(mn, source_ref), resolve_node(mn, target_ref)
    queries = mn.queries
    source_note, target_note = queries.project(source, "note"), queries.project(target, "note")
    if source_note == target_note and source == target:
        raise QueryError("an edge needs two different nodes")
    level: Literal["note", "chunk"] = "chunk" if source != source_note else "note"
    plan = EdgePlan(kind, source, target, source_note, target_note, level)
    # The same relation read from the source (symmetric kinds either way) exists already?
    for neighbour, hop, data in queries.edges_of(source, "out", {kind}, True, level):
        if target in (hop.target, neighbour):
            if not data.get("deleted"):
                raise QueryError(f"this edge exists already ({hop.edge_id})")
            return replace(plan, deleted_twin=hop.edge_id)
    return plan


def add_edge(
    mn: EdgeVault, source_ref: str, kind_text: str, target_ref: str
) -> tuple[Edge, Literal["note", "overlay"]]:
    """Create an edge; it is in the graph at once and lasts.

    By default it is written into the source note as a callout line (atomically) and the
    note is re-imported; in read-only-vault mode, or for a `.ctxt` source, it goes to the
    edge overlay. A deleted copy of the same edge is restored instead.

    Returns:
        The edge and where it is kept.
    """
    _require_writer(mn, "Creating edges")
    plan = plan_edge(mn, source_ref, kind_text, target_ref)
    if plan.deleted_twin is not None:
        edge = restore_edge(mn, plan.deleted_twin)
        return edge, "overlay" if edge.provenance == "user" else "note"
    record = mn.records[plan.source_note]
    if mn.read_only_vault or record.note.format == "ctxt":
        return _add_to_overlay(mn, plan), "overlay"
    return _add_to_note(mn, plan), "note"


def _add_to_overlay(mn: EdgeVault, plan: EdgePlan) -> Edge:
    edge = Edge(
        plan.kind,
        plan.source,
        plan.target,
        plan.target_note,
        plan.source_note,
        "user",
        USER_RULE,
        1.0,
        plan.target,
        scope=plan.level,
    )
    mn.state.add_user_edge(edge)
    return edge


def _add_to_note(mn: EdgeVault, plan: EdgePlan) -> Edge:
    """Write the callout into the source note (only if the edited note, parsed as an import
    would, states the edge and the file did not change meanwhile), then re-import it."""
    record = mn.records[plan.source_note]
    path = mn.vault / record.note.path
    raw = path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != record.note.content_hash:
        raise NoteEditError(
            f"{record.note.path} changed on disk since it was imported; "
            "import it (or let the watcher do it) and retry"
        )
    chunk = next((c for c in mn.store.chunks(plan.source_note) if c.chunk_id == plan.source), None)
    link = _link_text(mn, plan.target)
    edited = insert_callout(raw, record.note, chunk, callout_line(plan.kind, link))
    if not _states_edge(mn, record.note.path, edited, plan.kind, link):
        raise NoteEditError(
            f"cannot add the edge to {record.note.path}: the callout would not be read as an "
            "edge there (does the note end inside a code block?). The note is unchanged; "
            "use --read-only-vault to keep the edge in the overlay instead."
        )
    if path.read_bytes() != raw:  # saved in Obsidian meanwhile: never overwrite that
        raise NoteEditError(
            f"{record.note.path} changed on disk just now; nothing was written, retry"
        )
    journal = mn.data_dir / EDIT_JOURNAL  # a kill mid-write: the next writer cleans up
    write_atomic(path, edited, mn.vault, journal)
    drain(mn.import_vault())
    made = [
        e
        for e in mn.records[plan.source_note].edges
        if e.rule_id == "callout:edge"
        and e.kind == plan.kind
        and e.target_ref.casefold() == link.casefold()
    ]
    if not made:  # should not happen after _states_edge; never leave a stray line behind
        write_atomic(path, raw, mn.vault, journal)
        drain(mn.import_vault())
        raise NoteEditError(
            f"the callout in {record.note.path} gave no edge; the note is unchanged"
        )
    edge = made[-1]
    mn.overlay.audit("create", edge, stored="note", path=record.note.path)
    return edge


def _require_writer(mn: EdgeVault, what: str) -> None:
    if not mn.writable:
        raise PermissionError(f"{what} needs a Mindnet opened for writing.")


def delete_edge(mn: EdgeVault, edge_id: str) -> Edge:
    """Soft delete: tombstone + audit; hidden everywhere by default; no note is touched."""
    _require_writer(mn, "Deleting edges")
    edge, occurrence = edge_by_id(mn, edge_id), occurrence_of(mn, edge_id)
    if mn.overlay.tombstone(edge, occurrence) is not None:
        raise QueryError(
            f"edge '{edge_id}' is deleted already (`mindnet edge restore` brings it back)"
        )
    mn.state.delete_edge(edge_id, edge, occurrence)
    return replace(edge, deleted=True)


def restore_edge(mn: EdgeVault, edge_id: str) -> Edge:
    """Undo a soft delete."""
    _require_writer(mn, "Restoring edges")
    edge, occurrence = edge_by_id(mn, edge_id), occurrence_of(mn, edge_id)
    if mn.overlay.tombstone(edge, occurrence) is None:
        raise QueryError(f"edge '{edge_id}' is not deleted")
    mn.state.restore_edge(edge_id, edge, occurrence)
    return replace(edge, deleted=False)
