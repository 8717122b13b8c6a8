"""What the graph view reads from the core for one request (run on the core thread): the
filtered slice, the kinds of the vocabulary, the folders and tags the filters offer, the
names the search completes."""

from __future__ import annotations

from dataclasses import dataclass, field

from mindnet_desktop.core.domain import note_id_of_chunk
from mindnet_desktop.core.graph.queries import Direction
from mindnet_desktop.core.graph.slice import GraphSlice, default_root, neighbourhood, whole_vault
from mindnet_desktop.core.graph.slice_tools import SliceFilter, choices, filter_slice
from mindnet_desktop.core.service.vault.mindnet import Mindnet


@dataclass(frozen=True)
class SliceRequest:
    """The view's choices when the request was made (copied: the job runs later)."""

    whole: bool
    root: str | None
    depth: int
    direction: Direction
    kinds: set[str] | None
    deleted: bool
    rules: SliceFilter


@dataclass
class Fetched:
    graph: GraphSlice
    kinds: list[str]
    folders: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # titles and aliases


def fetch(mn: Mindnet, request: SliceRequest) -> Fetched:
    queries = mn.queries
    names = {x for r in mn.records.values() for x in (r.note.title, *r.note.aliases)}
    note = note_id_of_chunk(request.root) if request.root else None  # a citation: a chunk
    start = note if note and mn.has_note(note) else default_root(queries)
    if request.whole:
        graph = whole_vault(queries, request.kinds, request.deleted)
    elif start is None:
        graph = GraphSlice()
    else:
        graph = neighbourhood(
            queries, start, request.depth, request.direction, request.kinds, request.deleted
        )
    folders, tags = choices(graph)  # of the unfiltered slice: a filter can be undone
    shown = filter_slice(graph, request.rules)
    return Fetched(shown, sorted(mn.vocabulary.kinds), folders, tags, sorted(names))
