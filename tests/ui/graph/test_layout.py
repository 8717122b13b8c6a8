"""The graph layout: every node placed, finite, deterministic; components packed around the
main one; old positions kept when one note is added."""

from __future__ import annotations

import math

import networkx as nx

from mindnet_desktop.ui.bench.graph import synthetic_slice
from mindnet_desktop.ui.graph.layout import SPACING, compute_layout


def _pairs(graph) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(e.source, e.target) for e in graph.edges]


def test_small_and_large_graphs_get_distinct_finite_positions() -> None:
    for size in (12, 700):
        graph = synthetic_slice(size, 2.0)
        ids = list(graph.nodes)
        first = compute_layout(ids, _pairs(graph))
        assert set(first) == set(ids)
        assert all(math.isfinite(x) and math.isfinite(y) for x, y in first.values())
        assert len({(round(x), round(y)) for x, y in first.values()}) > size * 0.9
        assert compute_layout(ids, _pairs(graph)) == first
        assert compute_layout(ids, _pairs(graph), seed=8) != first


def test_linked_nodes_end_up_closer_than_average() -> None:
    graph = synthetic_slice(700, 2.0)
    pos = compute_layout(list(graph.nodes), _pairs(graph))

    def dist(a: str, b: str) -> float:
        return math.dist(pos[a], pos[b])

    linked = sum(dist(e.source, e.target) for e in graph.edges) / len(graph.edges)
    ids = list(graph.nodes)
    anywhere = sum(dist(ids[i], ids[(i * 7919) % len(ids)]) for i in range(len(ids))) / len(ids)
    assert linked < anywhere * 0.8


def test_loose_notes_orbit_the_main_component_closely() -> None:
    graph = synthetic_slice(300, 3.0)
    ids = list(graph.nodes) + [f"loose {i}" for i in range(12)] + ["pair a", "pair b"]
    pos = compute_layout(ids, [*_pairs(graph), ("pair a", "pair b")])
    linked = nx.Graph(_pairs(graph))
    main = [pos[n] for n in max(nx.connected_components(linked), key=len)]
    left, right = min(x for x, _ in main), max(x for x, _ in main)
    top, bottom = min(y for _, y in main), max(y for _, y in main)
    loose = [pos[f"loose {i}"] for i in range(12)] + [pos["pair a"], pos["pair b"]]
    # Clear of the main cluster, but close to it: nothing far away defines the zoom.
    for x, y in loose:
        assert min(math.dist((x, y), p) for p in main) >= SPACING / 2
        assert left - 4 * SPACING < x < right + 4 * SPACING
        assert top - 4 * SPACING < y < bottom + 4 * SPACING


def test_adding_one_note_keeps_the_others_and_places_it_by_its_neighbours() -> None:
    graph = synthetic_slice(400, 3.0)
    ids, pairs = list(graph.nodes), _pairs(graph)
    before = compute_layout(ids, pairs)
    friends = ids[10:13]
    after = compute_layout([*ids, "new"], [*pairs, *(("new", f) for f in friends)], previous=before)
    assert all(after[n] == before[n] for n in ids)
    centre = [sum(before[f][k] for f in friends) / 3 for k in (0, 1)]
    assert math.dist(after["new"], centre) < 3 * SPACING
    assert min(math.dist(after["new"], before[n]) for n in ids) >= SPACING / 2 - 1e-6


def test_a_large_change_lays_out_anew() -> None:
    graph = synthetic_slice(100, 3.0)
    ids, pairs = list(graph.nodes), _pairs(graph)
    before = compute_layout(ids[:50], [p for p in pairs if p[0] in ids[:50] and p[1] in ids[:50]])
    after = compute_layout(ids, pairs, previous=before)
    assert after == compute_layout(ids, pairs)


def test_no_nodes_and_one_node() -> None:
    assert compute_layout([], []) == {}
    assert compute_layout(["a"], []) == {"a": (0.0, 0.0)}
