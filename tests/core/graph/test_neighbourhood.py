"""A fresh reader's `neighbors` (`core/graph/neighbourhood.py`): the part of the graph
around one node, read from the note index, answers every neighbour query exactly as the
whole graph does, and the CLI reads no graph snapshot for it."""

from __future__ import annotations

import json
from pathlib import Path

from mindnet_desktop.core.graph.neighbourhood import neighbourhood
from mindnet_desktop.core.graph.note_index import NoteIndex
from mindnet_desktop.core.graph.queries import GraphQueries
from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.notes.edge_actions import add_edge, delete_edge
from mindnet_desktop.core.service.search.view import keep_note_index
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import


def _answers(queries: GraphQueries, node: str) -> list[str]:
    """Every neighbour page of `node`, each way and level, deleted edges or not, as JSON."""
    pages = [json.dumps(queries.node_info(node), sort_keys=True)]
    for direction in ("out", "in", "both"):
        for level in ("note", "chunk"):
            for deleted in (False, True):
                page = queries.neighbors(node, direction, None, 1000, None, deleted, level)
                items = [(item.node, item.edges) for item in page.items]
                pages.append(json.dumps([page.total, items], sort_keys=True, default=str))
    return pages


def test_the_neighbourhood_answers_as_the_whole_graph(vault, tmp_path):
    """Guards every note and chunk of the example vault, with an edge soft-deleted and a
    user's edge in the overlay (shown to fail by leaving out the notes of chunks at the other
    end, the structure edges, or the overlay)."""
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True, read_only_vault=True) as mn:
        run_import(mn, sync_deletes=True)
        linked = next(e for r in mn.records.values() for e in r.edges if e.provenance == "explicit")
        delete_edge(mn, linked.id)
        add_edge(mn, "Glossar/HNSW", "related_to", "Wissen/Embeddings 101")
        mn.save_snapshots()
        assert keep_note_index(mn)
    with Mindnet(vault, data, embedder=HashEmbedder()) as mn:
        index = NoteIndex.load(data, mn.snapshots.signatures()[1])
        assert index is not None
        whole = mn.queries
        nodes = [n for n, kind in mn.graph.graph.nodes(data="kind") if kind in ("note", "chunk")]
        assert len(nodes) > 100
        for node in nodes:
            part = GraphQueries(neighbourhood(index, node, mn.overlay), whole.symmetric)
            assert _answers(part, node) == _answers(whole, node), node
        assert neighbourhood(index, "no such note", mn.overlay).graph.number_of_nodes() == 0
        index.close()


def test_a_fresh_neighbors_reads_no_snapshot(vault, tmp_path, monkeypatch, capsys):
    """Guards what the index is for: `mindnet neighbors` in a fresh process finds the note by
    its title and answers without loading the graph or the records (shown to fail by
    `resolve_node` over the whole graph)."""
    from mindnet_desktop.cli.main import main

    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn, sync_deletes=True)
        assert keep_note_index(mn)
    args = ["--vault", str(vault), "--data-dir", str(data), "--embedder", "hash"]
    assert main([*args, "neighbors", "HNSW", "--json", "--direction", "both"]) == 0
    expected = json.loads(capsys.readouterr().out)

    def refuse(*_args: object) -> None:
        raise AssertionError("a fresh neighbors read a whole snapshot")

    monkeypatch.setattr(Snapshots, "load_records", refuse)
    monkeypatch.setattr(Snapshots, "load_graph", refuse)
    assert main([*args, "neighbors", "HNSW", "--json", "--direction", "both"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == expected and got["node"]["id"] == "Glossar/HNSW" and got["total"] > 0
    assert main([*args, "neighbors", "HNSW#1", "--json", "--level", "chunk"]) == 0
    assert json.loads(capsys.readouterr().out)["node"]["id"] == "Glossar/HNSW#1"
    assert main([*args, "neighbors", "HNSW#99", "--json"]) != 0
    assert "no chunk 99" in capsys.readouterr().out
    assert Path(data, "notes.index.sqlite").is_file()
