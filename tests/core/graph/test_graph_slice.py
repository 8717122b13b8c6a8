"""Graph slices (what the graph view draws) agree with the graph queries."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.graph.slice import default_root, joining, neighbourhood, whole_vault
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


def test_joining_shows_the_notes_their_edges_and_the_notes_that_join_them(
    vault: Path, open_mindnet
) -> None:
    """An answer's sources: the notes, every edge among them, and each note one edge away
    from two or more of them (with those edges), as `neighbors` sees them."""
    mn = open_mindnet(vault)
    run_import(mn)
    queries = mn.queries
    notes = [
        "Projekte/KI-Projekt Alpha",
        "Wissen/Qdrant Vektordatenbank",
        "Support/Papierstau beheben",
    ]
    around = {
        n: {
            i.node["id"]: {e["id"] for e in i.edges}
            for i in queries.neighbors(n, "both", page_size=10_000).items
        }
        for n in notes
    }
    among = {
        e for n in notes for other, edges in around[n].items() if other in notes for e in edges
    }
    touched: dict[str, set[str]] = {}
    for n in notes:
        for other in around[n]:
            if other not in notes:
                touched.setdefault(other, set()).add(n)
    bridges = {b for b, of in touched.items() if len(of) > 1}
    assert among and bridges  # the example vault links these, directly and through others

    piece = joining(queries, [f"{notes[0]}#1", *notes, "no such note"], bridges=100)
    assert set(piece.nodes) == set(notes) | bridges and piece.root is None
    through = {e for b in bridges for n in notes for e in around[n].get(b, ())}
    assert {e.id for e in piece.edges} == among | through
    assert len(piece.edges) == len({e.id for e in piece.edges})

    few = joining(queries, notes, bridges=1)
    (kept,) = set(few.nodes) - set(notes)
    assert len(touched[kept]) == max(len(of) for of in touched.values())
    assert set(joining(queries, notes, bridges=0).nodes) == set(notes)
