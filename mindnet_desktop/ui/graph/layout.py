"""Node positions for the graph view: a pure computation on copied ids (no Qt, no service),
run off the GUI thread with `run_pure`.

Each connected component is laid out by python-igraph's Fruchterman-Reingold (C, with a grid
for the repulsion; chosen by measurement, see docs/graph-view.md and `ui/bench/layout.py`),
scaled so that a typical edge is `SPACING` long, and the components are packed in rings
around the largest one, so a loose note orbits the main cluster instead of defining the zoom.

When the graph changes a little (a note or an edge added or removed), the previous positions
are the layout: known notes stay exactly where they were and a new note is placed next to its
neighbours, so nothing jumps.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import igraph

SPACING = 70.0  # scene units of a typical edge
NEAREST = 32.0  # scene units from a typical note to its nearest neighbour, at least
GAP = 1.2 * SPACING  # between packed components
KEEP_UP_TO = 0.1  # a change of at most this share of the notes keeps the old positions

Positions = dict[str, tuple[float, float]]

# igraph draws its random numbers from one process-wide generator: one layout at a time, each
# from a generator seeded for it, so the result depends on the seed only.
_RNG_LOCK = threading.Lock()


def compute_layout(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str]],
    seed: int = 7,
    cancelled: Callable[[], bool] = lambda: False,
    previous: Positions | None = None,
) -> Positions:
    """Positions in scene units for `nodes`; deterministic for a seed (and `previous`).

    Args:
        nodes: Node ids.
        edges: (source, target) pairs; direction and duplicates do not matter.
        seed: Seed of the force layout.
        cancelled: Polled between components; a cancelled layout returns what it has.
        previous: The positions of the last layout; when they cover all but a few of the
            nodes they are kept and only the new nodes are placed.
    """
    if not nodes:
        return {}
    if previous and _small_change(nodes, previous):
        return place_new(nodes, edges, previous)
    index = {node: i for i, node in enumerate(nodes)}
    pairs = sorted({_pair(index[u], index[v]) for u, v in edges if u in index and v in index})
    pairs = [(a, b) for a, b in pairs if a != b]
    # Imported here, off the GUI thread (layouts run with `run_pure`): igraph imports its
    # drawing modules, and matplotlib with them where it is installed (0.1-0.5 s).
    import igraph

    graph = igraph.Graph(n=len(nodes), edges=pairs)
    components = sorted(graph.connected_components(), key=lambda c: (-len(c), min(c)))
    shapes: list[tuple[list[int], np.ndarray]] = []
    for members in components:
        if cancelled():
            break
        shapes.append((members, _component_layout(graph.subgraph(members), seed)))
    array = _pack(len(nodes), shapes)
    return {node: (float(x), float(y)) for node, (x, y) in zip(nodes, array)}


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _small_change(nodes: Sequence[str], previous: Positions) -> bool:
    known = sum(1 for node in nodes if node in previous)
    changed = (len(nodes) - known) + (len(previous) - known)
    return known > 0 and changed <= max(1, KEEP_UP_TO * len(nodes))


def _component_layout(sub: igraph.Graph, seed: int) -> np.ndarray:
    """One connected component, centred on (0, 0), a typical edge `SPACING` long."""
    n = sub.vcount()
    if n == 1:
        return np.zeros((1, 2))
    if n == 2:
        return np.array([[-SPACING / 2, 0.0], [SPACING / 2, 0.0]])
    # Fewer steps for large components: the grid keeps each step near O(n), and the first
    # hundred steps do most of the untangling (measured: bench_layout).
    steps = 500 if n <= 500 else 250 if n <= 2000 else 150
    import igraph

    with _RNG_LOCK:
        igraph.set_random_number_generator(random.Random(seed))
        try:
            coords = sub.layout_fruchterman_reingold(niter=steps, grid=n > 300)
        finally:
            igraph.set_random_number_generator(random)
    array = np.array(coords.coords, dtype=float)
    ends = np.array(sub.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    lengths = np.hypot(*(array[ends[:, 0]] - array[ends[:, 1]]).T)
    typical = float(np.median(lengths)) if len(lengths) else 1.0
    # A typical edge `SPACING` long, but a dense graph (long links pull it together) spread
    # until a typical note has room around it: nodes do not sit on each other.
    scale = max(SPACING / (typical or 1.0), NEAREST / (_nearest(array, seed) or 1.0))
    array *= scale
    return array - (array.max(axis=0) + array.min(axis=0)) / 2


def _nearest(points: np.ndarray, seed: int, sample: int = 400) -> float:
    """The median distance from a node to its nearest other node (of a sample of nodes)."""
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(points), size=min(sample, len(points)), replace=False)
    gaps = np.hypot(*(points[chosen, None, :] - points[None, :, :]).transpose(2, 0, 1))
    gaps[np.arange(len(chosen)), chosen] = np.inf
    return float(np.median(gaps.min(axis=1)))


def _pack(n: int, shapes: list[tuple[list[int], np.ndarray]]) -> np.ndarray:
    """The largest component at the centre, the others on ellipses hugging it (largest
    first, the first one to its right, where a wide screen has room), each ring as close as
    the previous one allows."""
    array = np.zeros((n, 2))
    if not shapes:
        return array
    (members, main), rest = shapes[0], shapes[1:]
    array[members] = main
    inner = np.abs(main).max(axis=0) + GAP  # half width, half height
    ring: list[tuple[list[int], np.ndarray, float]] = []
    for members, shape in rest:
        radius = max(float(np.hypot(shape[:, 0], shape[:, 1]).max()), SPACING / 4)
        ring.append((members, shape, radius))
        thickness = 2 * max(r for _, _, r in ring)
        if sum(2 * r + GAP for _, _, r in ring) > _perimeter(inner + thickness / 2):
            ring.pop()
            inner = _place_ring(array, ring, inner, main)
            ring = [(members, shape, radius)]
    if ring:
        _place_ring(array, ring, inner, main)
    return array


def _perimeter(axes: np.ndarray) -> float:
    """Of an ellipse with these half axes (Ramanujan's approximation)."""
    a, b = float(axes[0]), float(axes[1])
    return math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))


def _place_ring(
    array: np.ndarray,
    ring: list[tuple[list[int], np.ndarray, float]],
    inner: np.ndarray,
    main: np.ndarray,
) -> np.ndarray:
    """Spread `ring`'s components evenly on an ellipse outside `inner` (half axes), each
    pushed out along its ray until it keeps clear of the `main` component's nodes (an
    ellipse cuts the corners of the main box); returns where the next ring starts."""
    thickness = 2 * max(r for _, _, r in ring)
    middle = inner + thickness / 2
    spans = [2 * r + GAP for _, _, r in ring]
    total, start = sum(spans), 0.0
    for (members, shape, _), span in zip(ring, spans):
        theta = 2 * math.pi * start / total
        spot = middle * (math.cos(theta), math.sin(theta))
        for _ in range(20):
            placed = shape + spot
            clear = np.hypot(*(placed[:, None, :] - main[None, :, :]).transpose(2, 0, 1))
            if clear.min() >= GAP / 2:
                break
            spot = spot * 1.08
        array[members] = shape + spot
        start += span
    return inner + thickness + GAP


def place_new(
    nodes: Sequence[str], edges: Sequence[tuple[str, str]], previous: Positions
) -> Positions:
    """The previous positions for known nodes; each new node beside its placed neighbours
    (their centre, pushed out to a free spot), or on the outer edge when it has none. Only
    the edges of new nodes are looked at: a start that finds every note where it was saved
    (the usual one) takes 0.05 s at 50,000 notes, not 0.4."""
    placed: Positions = {node: previous[node] for node in nodes if node in previous}
    if len(placed) == len(nodes):
        return placed
    new = set(nodes).difference(placed)
    neighbours: dict[str, dict[str, None]] = {}  # in the edges' order: a repeatable mean
    for a, b in edges:
        if a != b and (a in new or b in new):
            neighbours.setdefault(a, {})[b] = None
            neighbours.setdefault(b, {})[a] = None
    points = np.array(list(placed.values()) or [(0.0, 0.0)])
    centre = points.mean(axis=0)
    outer = float(np.hypot(*(points - centre).T).max()) + GAP
    for node in nodes:
        if node in placed:
            continue
        near = [placed[other] for other in neighbours.get(node, {}) if other in placed]
        if near:
            anchor = np.mean(near, axis=0)
            spot = _free_spot(anchor, np.array(list(placed.values())))
        else:
            theta = (len(placed) * 2.399963) % (2 * math.pi)  # golden angle: spread, repeatable
            spot = centre + outer * np.array([math.cos(theta), math.sin(theta)])
        placed[node] = (float(spot[0]), float(spot[1]))
    return {node: placed[node] for node in nodes}


def _free_spot(anchor: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The first point on a spiral around `anchor` at least half an edge from every node."""
    for step in range(64):
        radius = SPACING * (0.5 + 0.12 * step)
        theta = step * 2.399963
        spot = anchor + radius * np.array([math.cos(theta), math.sin(theta)])
        if np.hypot(*(points - spot).T).min() >= SPACING / 2:
            return spot
    return anchor + SPACING
