"""Graph slices (what the graph view draws) agree with the graph queries."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.graph.slice import default_root, neighbourhood, whole_vault
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import


def test_neighbourhood_matches_neighbors_and_traverse(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    queries = mn.queries
    for note_id in mn.records:
        for direction in ("out", "in", "both"):
            piece = neighbourhood(queries, note_id, 1, direction)
            page = queries.neighbors(note_id, direction, page_size=10_000)
            assert set(piece.nodes) == {note_id} | {i.node["id"] for i in page.items}
            assert {e.id for e in piece.edges} == {e["id"] for i in page.items for e in i.edges}
        deep = neighbourhood(queries, note_id, 2, "out")
        assert set(deep.nodes) == {n for n, _, _ in queries.traverse(note_id, 2, "out")}
    root = default_root(queries)
    assert root in mn.records


def test_deleted_edges_only_when_asked(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    root = default_root(mn.queries)
    assert root is not None
    edge = neighbourhood(mn.queries, root).edges[0]
    edge_actions.delete_edge(mn, edge.id)
    assert edge.id not in {e.id for e in neighbourhood(mn.queries, root).edges}
    shown = {e.id: e for e in neighbourhood(mn.queries, root, include_deleted=True).edges}
    assert shown[edge.id].deleted
    assert edge.id not in {e.id for e in whole_vault(mn.queries).edges}
    assert whole_vault(mn.queries, include_deleted=True).nodes.keys() >= set(mn.records)


def test_whole_vault_kind_filter(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    piece = whole_vault(mn.queries, {"references"})
    assert piece.edges and {e.kind for e in piece.edges} == {"references"}
    assert all(e.source != e.target for e in piece.edges)
