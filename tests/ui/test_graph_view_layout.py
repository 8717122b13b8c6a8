"""The graph layout: every node placed, finite, deterministic, fast path for large graphs."""

from __future__ import annotations

import math

from mindnet_desktop.ui.bench_graph import synthetic_slice
from mindnet_desktop.ui.graph_layout import SMALL, compute_layout


def test_small_and_large_graphs_get_distinct_finite_positions() -> None:
    for size in (12, SMALL + 200):
        graph = synthetic_slice(size, 2.0)
        ids = list(graph.nodes)
        pairs = [(e.source, e.target) for e in graph.edges]
        first = compute_layout(ids, pairs)
        assert set(first) == set(ids)
        assert all(math.isfinite(x) and math.isfinite(y) for x, y in first.values())
        assert len({(round(x), round(y)) for x, y in first.values()}) > size * 0.9
        assert compute_layout(ids, pairs) == first


def test_linked_nodes_end_up_closer_than_average() -> None:
    graph = synthetic_slice(SMALL + 300, 2.0)
    pos = compute_layout(list(graph.nodes), [(e.source, e.target) for e in graph.edges])

    def dist(a: str, b: str) -> float:
        return math.dist(pos[a], pos[b])

    linked = sum(dist(e.source, e.target) for e in graph.edges) / len(graph.edges)
    ids = list(graph.nodes)
    anywhere = sum(dist(ids[i], ids[(i * 7919) % len(ids)]) for i in range(len(ids))) / len(ids)
    assert linked < anywhere * 0.8


def test_no_nodes_and_one_node() -> None:
    assert compute_layout([], []) == {}
    assert compute_layout(["a"], []) == {"a": (0.0, 0.0)}
