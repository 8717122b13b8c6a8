"""How the graph view's layout was chosen: `python -m mindnet_desktop.ui.bench.layout
[--sizes 200,1000,5000] [--json]`.

Lays out the synthetic vault graph of `bench_graph` with every candidate that is installed and
reports seconds and a quality figure: the median length of an edge divided by the median
distance of two random notes (lower: linked notes sit closer together than unrelated ones).
A candidate slower than `--budget` seconds at one size is not run at the larger sizes.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np

from mindnet_desktop.ui.bench.graph import synthetic_slice
from mindnet_desktop.ui.graph.layout import compute_layout

Layout = Callable[[list[str], list[tuple[str, str]]], dict[str, Any]]


def _nx_graph(ids: list[str], pairs: list[tuple[str, str]]) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(pairs)
    return graph


def candidates() -> dict[str, Layout]:
    found: dict[str, Layout] = {"igraph fruchterman_reingold (chosen)": compute_layout}
    if hasattr(nx, "forceatlas2_layout"):
        found["networkx forceatlas2_layout"] = lambda ids, pairs: nx.forceatlas2_layout(
            _nx_graph(ids, pairs), seed=7, max_iter=100
        )
    # spring_layout needs SciPy beyond 500 nodes; without it those sizes are skipped.
    found["networkx spring_layout"] = lambda ids, pairs: nx.spring_layout(
        _nx_graph(ids, pairs), seed=7, iterations=50
    )
    return found


def quality(positions: dict[str, Any], pairs: list[tuple[str, str]]) -> float:
    ids = list(positions)
    points = np.array([positions[node] for node in ids], dtype=float)
    index = {node: i for i, node in enumerate(ids)}
    ends = np.array([(index[u], index[v]) for u, v in pairs])
    edge = np.hypot(*(points[ends[:, 0]] - points[ends[:, 1]]).T)
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, len(ids), 20000), rng.integers(0, len(ids), 20000)
    spread = np.hypot(*(points[a] - points[b]).T)
    return round(float(np.median(edge) / np.median(spread)), 3)


def run(sizes: list[int], budget: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name, layout in candidates().items():
        for size in sizes:
            graph = synthetic_slice(size, 3.0)
            ids, pairs = list(graph.nodes), [(e.source, e.target) for e in graph.edges]
            start = time.perf_counter()
            try:
                positions = layout(ids, pairs)
            except ImportError as error:  # spring_layout without SciPy
                rows.append({"layout": name, "nodes": size, "skipped": str(error)})
                break
            seconds = time.perf_counter() - start
            rows.append(
                {
                    "layout": name,
                    "nodes": size,
                    "seconds": round(seconds, 2),
                    "edge_to_random": quality(positions, pairs),
                }
            )
            if seconds > budget:
                break
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindnet_desktop.ui.bench.layout")
    parser.add_argument("--sizes", default="200,1000,5000")
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = run([int(s) for s in args.sizes.split(",")], args.budget)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        if "skipped" in row:
            print(f"{row['layout']:40s} {row['nodes']:5d}  skipped: {row['skipped']}")
        else:
            print(
                f"{row['layout']:40s} {row['nodes']:5d}  {row['seconds']:6.2f} s"
                f"  edge/random {row['edge_to_random']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
