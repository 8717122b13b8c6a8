"""What the graph view runs in the background, one function an operation.

Operations that take `(mn, job, …)` run on the `ServiceHost`'s core thread
(`JobGroup.submit`); those that take `(job, …)` only compute on copied data and run on the
global pool (`JobGroup.run_pure`). The widgets bind the arguments with `functools.partial`
and show the result in their `on_done` slot.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mindnet_desktop.core.domain import note_id_of_chunk
from mindnet_desktop.core.gcpause import paused_gc
from mindnet_desktop.core.graph.index_slice import joining_of, neighbourhood_of, whole_vault_of
from mindnet_desktop.core.graph.layout_cache import LAYOUT_FILE, load_layout, save_layout
from mindnet_desktop.core.graph.note_index import IndexReads
from mindnet_desktop.core.graph.queries import Direction
from mindnet_desktop.core.graph.slice import (
    GraphSlice,
    default_root,
    joining,
    neighbourhood,
    whole_vault,
)
from mindnet_desktop.core.graph.slice_tools import SliceFilter, choices, communities, filter_slice
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.notes.related import related
from mindnet_desktop.core.service.notes.text import note_markdown
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.graph.layout import Positions, compute_layout
from mindnet_desktop.ui.support.workers import Job


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
    notes: tuple[str, ...] | None = None  # these notes and how they link (an answer's)


@dataclass
class Fetched:
    graph: GraphSlice
    kinds: list[str]
    folders: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # titles and aliases
    layout_file: Path | None = None  # the whole vault's saved positions (`layout_cache`)
    unchanged: bool = False  # the graph is the one the view shows (`fetch_slice`'s `drawn`)


def fetch_slice(
    mn: Mindnet, job: Job, request: SliceRequest, drawn: GraphSlice | None = None
) -> Fetched:
    """The filtered slice, the kinds of the vocabulary, the folders and tags the filters
    offer and the names the search completes, for one request. With `drawn` (the slice the
    view shows), says whether the new one is the same: an edit of a note's text leaves the
    graph as it was, and the view then keeps its scene (compared here, off the GUI
    thread)."""
    with paused_gc():  # a whole vault's rows, none of them garbage: the cyclic collections
        fetched = _fetch(mn, request)  # would hold the GIL, and the window, for up to 0.8 s
    fetched.unchanged = drawn is not None and same_picture(fetched.graph, drawn)
    return fetched


def same_picture(a: GraphSlice, b: GraphSlice) -> bool:
    """The same root, notes and edges (ids included: the menus act on them), in any order
    (an edited note's edges may come back in another place)."""
    if a.root != b.root or len(a.edges) != len(b.edges) or a.nodes != b.nodes:
        return False
    return a.edges == b.edges or Counter(a.edges) == Counter(b.edges)


def _fetch(mn: Mindnet, request: SliceRequest) -> Fetched:
    index = mn.note_index()
    if index is not None:
        return _fetch_from_index(mn, index, request)
    queries = mn.queries
    names = {x for r in mn.records.values() for x in (r.note.title, *r.note.aliases)}
    note = note_id_of_chunk(request.root) if request.root else None  # a citation: a chunk
    start = note if note and mn.has_note(note) else default_root(queries)
    if request.notes is not None:
        graph = joining(queries, request.notes, request.kinds, request.deleted)
    elif request.whole:
        graph = whole_vault(queries, request.kinds, request.deleted)
    elif start is None:
        graph = GraphSlice()
    else:
        graph = neighbourhood(
            queries, start, request.depth, request.direction, request.kinds, request.deleted
        )
    folders, tags = choices(graph)  # of the unfiltered slice: a filter can be undone
    shown = filter_slice(graph, request.rules)
    cache = mn.data_dir / LAYOUT_FILE if request.whole and request.notes is None else None
    return Fetched(shown, sorted(mn.vocabulary.kinds), folders, tags, sorted(names), cache)


def _fetch_from_index(mn: Mindnet, index: IndexReads, request: SliceRequest) -> Fetched:
    """`fetch_slice` from the note index (`core/graph/index_slice.py`): the graph and the
    records stay unloaded."""
    symmetric, overlay = mn.vocabulary.symmetric, mn.overlay
    names = {x for n in index.notes.every() for x in (n.title, *n.aliases)}
    note = note_id_of_chunk(request.root) if request.root else None
    start = note if note and note in index.notes else index.busiest()
    if request.notes is not None:
        graph = joining_of(index, overlay, symmetric, request.notes, request.kinds, request.deleted)
    elif request.whole:
        graph = whole_vault_of(index, overlay, request.kinds, request.deleted)
    elif start is None:
        graph = GraphSlice()
    else:
        graph = neighbourhood_of(
            index,
            overlay,
            symmetric,
            start,
            request.depth,
            request.direction,
            request.kinds,
            request.deleted,
        )
    folders, tags = choices(graph)
    shown = filter_slice(graph, request.rules)
    cache = mn.data_dir / LAYOUT_FILE if request.whole and request.notes is None else None
    return Fetched(shown, sorted(mn.vocabulary.kinds), folders, tags, sorted(names), cache)


def lay_out(
    job: Job,
    ids: list[str],
    pairs: list[tuple[str, str]],
    previous: Positions,
    cache: Path | None = None,
) -> tuple[Positions, float]:
    """Node positions (pure, on copied ids) and the seconds they took; stops when cancelled.
    With `cache` (the whole vault), a first layout starts from the positions saved there by
    an earlier start, and a layout that moved anything is saved there."""
    start = time.perf_counter()
    if cache is not None and not previous:
        previous = load_layout(cache) or {}
    positions = compute_layout(ids, pairs, cancelled=job.cancelled, previous=previous)
    if cache is not None and not job.cancelled() and positions != previous:
        save_layout(cache, positions)
    return positions, time.perf_counter() - start


def find_communities(job: Job, graph: GraphSlice) -> dict[str, int]:
    """The community of each node of a drawn slice (pure)."""
    return communities(graph)


def find_note(mn: Mindnet, job: Job, text: str) -> str:
    """The id of the note a person means by `text` (title, alias, path, id)."""
    return mn.find_note_id(text.strip())


Details = tuple[dict[str, Any], list[dict[str, Any]], str]


def node_details(
    mn: Mindnet,
    job: Job,
    node_id: str,
    direction: Direction,
    kinds: set[str] | None,
    deleted: bool,
) -> Details:
    """A note's facts, its neighbours (by the view's filters) and its text."""
    node_id, queries = mn.neighbour_queries(node_id)  # a part of the graph, when it can
    page = queries.neighbors(node_id, direction, kinds, 500, None, deleted)
    text = note_markdown(mn, node_id)
    return queries.node_info(node_id), [item.node for item in page.items], text


def related_rows(
    mn: Mindnet, job: Job, note_id: str, n: int, unlinked: bool
) -> list[dict[str, Any]]:
    """The `n` notes most related to one note (only those not linked yet: `unlinked`)."""
    return [r.to_dict() for r in related(mn, note_id, n, unlinked)]


def create_edge(mn: Mindnet, job: Job, source: str, kind: str, target: str) -> str:
    """`source -[kind]-> target` (a callout in the note, or the overlay in read-only-vault
    mode); the new edge's id."""
    edge, _stored = edge_actions.add_edge(mn, source, kind, target)
    return edge.id


def delete_edge(mn: Mindnet, job: Job, edge_id: str) -> object:
    """Soft-delete an edge (it can be restored)."""
    return edge_actions.delete_edge(mn, edge_id)


def restore_edge(mn: Mindnet, job: Job, edge_id: str) -> object:
    """Undo a soft delete."""
    return edge_actions.restore_edge(mn, edge_id)
