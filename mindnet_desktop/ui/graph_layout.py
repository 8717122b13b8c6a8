"""Node positions for the graph view: a pure computation on copied ids (no Qt, no service),
run off the GUI thread with `run_pure`.

Small graphs use networkx's `spring_layout` (Fruchterman-Reingold, seeded). For large graphs
networkx switches to a SciPy solver, which is not a dependency; there a Fruchterman-Reingold
with grid-approximated repulsion (each node is pushed by the centroids of occupied grid cells,
not by every other node) runs in O(n · cells) per step with NumPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import networkx as nx
import numpy as np

SPACING = 70.0  # scene units between neighbouring nodes
SMALL = 400  # up to this many nodes: networkx spring_layout

Positions = dict[str, tuple[float, float]]


def compute_layout(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str]],
    seed: int = 7,
    cancelled: Callable[[], bool] = lambda: False,
) -> Positions:
    """Positions in scene units for `nodes`, centred on (0, 0); deterministic for a seed."""
    n = len(nodes)
    if n == 0:
        return {}
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    if n <= SMALL:
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_edges_from((u, v) for u, v in edges if u != v)
        pos = nx.spring_layout(graph, seed=seed, iterations=60, method="force")
        array = np.array([pos[node] for node in nodes], dtype=float)
    else:
        index = {node: i for i, node in enumerate(nodes)}
        pairs = np.array(
            [(index[u], index[v]) for u, v in edges if u != v] or np.empty((0, 2)), dtype=np.int64
        ).reshape(-1, 2)
        array = grid_fruchterman_reingold(n, pairs, seed=seed, cancelled=cancelled)
    array = array - array.mean(axis=0)
    radius = float(np.abs(array).max()) or 1.0
    array *= SPACING * math.sqrt(n) / 2.0 / radius
    return {node: (float(x), float(y)) for node, (x, y) in zip(nodes, array)}


def grid_fruchterman_reingold(
    n: int,
    pairs: np.ndarray,
    seed: int = 7,
    iterations: int = 30,
    cells: int = 16,
    cancelled: Callable[[], bool] = lambda: False,
) -> np.ndarray:
    """Fruchterman-Reingold on `n` nodes joined by `pairs` (m x 2 indices), ideal edge
    length 1; repulsion approximated by a `cells` x `cells` grid of centroids."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(n)
    pos = (rng.random((n, 2)) * side).astype(np.float32)
    src, dst = pairs[:, 0], pairs[:, 1]
    temperature = side / 8.0
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        if cancelled():
            break
        disp = _repulsion(pos, cells)
        delta = pos[dst] - pos[src]
        dist = np.sqrt((delta**2).sum(axis=1)) + 1e-6
        pull = delta * dist[:, None]  # attraction d^2 / k along the edge (k = 1)
        for axis in (0, 1):
            disp[:, axis] += np.bincount(src, weights=pull[:, axis], minlength=n)
            disp[:, axis] -= np.bincount(dst, weights=pull[:, axis], minlength=n)
        disp -= 0.02 * (pos - pos.mean(axis=0))  # gravity keeps loose parts near
        length = np.sqrt((disp**2).sum(axis=1)) + 1e-6
        pos += (disp / length[:, None] * np.minimum(length, temperature)[:, None]).astype(
            np.float32
        )
        temperature -= cooling
    return pos.astype(float)


def _repulsion(pos: np.ndarray, cells: int) -> np.ndarray:
    """k^2 / d pushes from every occupied cell's centroid, weighted by its node count."""
    low = pos.min(axis=0)
    span = pos.max(axis=0) - low + 1e-6
    grid = np.minimum(((pos - low) / span * cells).astype(np.int64), cells - 1)
    cell = grid[:, 0] * cells + grid[:, 1]
    mass = np.bincount(cell, minlength=cells * cells).astype(np.float32)
    occupied = mass > 0
    cx = np.bincount(cell, weights=pos[:, 0], minlength=cells * cells)[occupied]
    cy = np.bincount(cell, weights=pos[:, 1], minlength=cells * cells)[occupied]
    weight = mass[occupied]
    centroids = np.stack([cx, cy], axis=1).astype(np.float32) / weight[:, None]
    delta = pos[:, None, :] - centroids[None, :, :]
    d2 = (delta**2).sum(axis=2) + 0.05
    return (delta * (weight / d2)[:, :, None]).sum(axis=1)
