"""The graph view's slices read from the note index (`core/graph/index_slice.py`) and the
index panel's rows: the same as over the whole graph and every record, for every note of the
example vault, with a soft-deleted edge, a user's edge, an unresolved link, a link copied
twice and a link into another note's chunk; and the app's graph view and index panel load
neither the graph nor the records while the index is in step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.graph.index_slice import joining_of, neighbourhood_of, whole_vault_of
from mindnet_desktop.core.graph.note_index import NoteIndex
from mindnet_desktop.core.graph.slice import (
    GraphSlice,
    default_root,
    joining,
    neighbourhood,
    whole_vault,
)
from mindnet_desktop.core.graph.slice_tools import SliceFilter
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.notes.edge_actions import add_edge, delete_edge
from mindnet_desktop.core.service.search.view import keep_reader_snapshots
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import

EXTRA = """---
type: concept
aliases: [Extra]
---
# Extra links

See [[Glossar/HNSW]] and [[Glossar/HNSW]] again, [[Nowhere at all]] and
[[Wissen/Embeddings 101#Was ist ein Embedding]].
"""


def _key(graph: GraphSlice) -> tuple[object, ...]:
    edges = sorted(graph.edges, key=lambda e: (e.id, e.source, e.target))
    return graph.nodes, edges, graph.root


@pytest.fixture
def indexed(vault: Path, tmp_path: Path) -> Path:
    (vault / "Extra.md").write_text(EXTRA, encoding="utf-8")
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True, read_only_vault=True) as mn:
        run_import(mn, sync_deletes=True)
        linked = next(e for r in mn.records.values() for e in r.edges if e.provenance == "explicit")
        delete_edge(mn, linked.id)
        add_edge(mn, "Glossar/HNSW", "related_to", "Wissen/Embeddings 101")
        mn.save_snapshots()
        keep_reader_snapshots(mn)
    return data


def test_the_index_slices_are_the_whole_graphs(vault, indexed):
    """Guards every slice the graph view asks for (shown to fail by a walk that reads only
    the root's edges at depth 2, by whole-vault edges that keep a pending target or drop the
    user's edge, and by ties broken the other way)."""
    with Mindnet(vault, indexed, embedder=HashEmbedder()) as mn:
        index = NoteIndex.load(indexed, mn.snapshots.signatures()[1])
        assert index is not None
        whole, overlay = mn.queries, mn.overlay
        symmetric = whole.symmetric
        notes = sorted(mn.records)
        kinds = {"related_to", "references"}
        for root in notes:
            for depth in (1, 2, 3):
                for direction in ("out", "in", "both"):
                    for chosen in (None, kinds):
                        for deleted in (False, True):
                            args = (root, depth, direction, chosen, deleted)
                            expected = neighbourhood(whole, *args)
                            got = neighbourhood_of(index, overlay, symmetric, *args)
                            assert _key(got) == _key(expected), args
        groups = [notes[:3], notes[::4], ["Glossar/HNSW#1", "Extra", "no such note"]]
        for group in groups:
            for deleted in (False, True):
                expected = joining(whole, group, None, deleted)
                assert _key(joining_of(index, overlay, symmetric, group, None, deleted)) == _key(
                    expected
                )
        for chosen in (None, kinds):
            for deleted in (False, True):
                expected = whole_vault(whole, chosen, deleted)
                got = whole_vault_of(index, overlay, chosen, deleted)
                assert _key(got) == _key(expected), (chosen, deleted)
        everything = whole_vault_of(index, overlay, None, True)
        assert any(n.kind == "unresolved" for n in everything.nodes.values())
        assert any(e.deleted for e in everything.edges)
        assert any(e.id in overlay.user_edges for e in everything.edges)
        assert index.busiest() == default_root(whole)
        assert index.edge_total() == sum(len(r.edges) for r in mn.records.values())
        by_path = sorted(mn.records.values(), key=lambda r: r.note.path)
        assert index.listing() == [
            (r.note.note_id, r.note.path, r.note.title, r.note.type, r.indexed_at, r.chunk_count)
            for r in by_path
        ]
        index.close()


def test_the_graph_view_and_the_index_panel_read_the_index(vault, indexed, monkeypatch):
    """Guards what the index is for in the app: a vault opened as the app opens it (a
    writer standing a reader in while its store opens) shows the index panel, the graph
    view's first slice, the whole vault, a node's details and related notes, a found note
    and a note's text
    without loading the records or the graph (shown to fail by `fetch_slice` reading
    `mn.records` for the names it completes)."""
    from mindnet_desktop.ui.dialogs.ops import read_note
    from mindnet_desktop.ui.graph.ops import (
        SliceRequest,
        fetch_slice,
        find_note,
        node_details,
        related_rows,
    )
    from mindnet_desktop.ui.index.ops import index_stats

    with Mindnet(vault, indexed, embedder=HashEmbedder()) as mn:  # what the panels show
        expected_stats = index_stats(mn)
        request = SliceRequest(False, None, 2, "both", None, False, SliceFilter())
        expected_slice = fetch_slice(mn, None, request)  # type: ignore[arg-type]
        expected_related = related_rows(mn, None, "Glossar/HNSW", 8, True)  # type: ignore[arg-type]
        expected_details = node_details(mn, None, "Glossar/HNSW", "both", None, True)  # type: ignore[arg-type]

    def refuse(*_args: object) -> None:
        raise AssertionError("the app loaded a whole snapshot")

    monkeypatch.setattr(Snapshots, "load_records", refuse)
    monkeypatch.setattr(Snapshots, "load_graph", refuse)
    with Mindnet(vault, indexed, embedder=HashEmbedder(), write=True, background_store=True) as mn:
        assert read_note(mn, None, "Glossar/HNSW").note_id == "Glossar/HNSW"  # type: ignore[arg-type]
        assert mn.note_index() is not None
        assert index_stats(mn) == expected_stats
        got = fetch_slice(mn, None, request)  # type: ignore[arg-type]
        assert _key(got.graph) == _key(expected_slice.graph)
        assert (got.kinds, got.names) == (expected_slice.kinds, expected_slice.names)
        whole = SliceRequest(True, None, 1, "both", None, False, SliceFilter())
        assert len(fetch_slice(mn, None, whole).graph.nodes) >= len(expected_stats.indexed)  # type: ignore[arg-type]
        assert node_details(mn, None, "Glossar/HNSW", "both", None, True) == expected_details  # type: ignore[arg-type]
        assert related_rows(mn, None, "Glossar/HNSW", 8, True) == expected_related  # type: ignore[arg-type]
        assert expected_related
        assert find_note(mn, None, "extra") == "Extra"  # type: ignore[arg-type]
        shown = read_note(mn, None, "Extra#1")  # type: ignore[arg-type]
        assert (shown.note_id, shown.title) == ("Extra", "Extra links")
        assert mn.state._records is None and mn.state._graph is None
