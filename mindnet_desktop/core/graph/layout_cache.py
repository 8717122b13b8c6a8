"""The whole-vault graph view's node positions, kept in the data dir between starts.

Laying out every note is the graph view's slowest step (igraph's Fruchterman-Reingold: ~1.4 s
at 5,000 notes, growing with the vault). A position depends only on the layout, not on the
store, so it is a cache like the snapshots: the view starts from the positions it saved last
time, and the layout keeps them when the notes are (nearly) the same, placing only the new
ones. A missing or broken file is no cache.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np

from mindnet_desktop.core.files import atomic_writer

LAYOUT_FILE = "graph.layout"
SCHEMA = 1

Positions = dict[str, tuple[float, float]]


def load_layout(path: Path) -> Positions | None:
    """The positions saved at `path` (None: none saved, or a broken or foreign file)."""
    try:
        with open(path, "rb") as handle:
            schema, ids, coords = pickle.load(handle)
        if schema != SCHEMA or len(ids) != len(coords):
            return None
        array = np.asarray(coords, dtype=np.float64).reshape(len(ids), 2)
    except Exception:  # noqa: BLE001 - any broken file is just no cache
        return None
    return {node: (float(x), float(y)) for node, (x, y) in zip(ids, array)}


def save_layout(path: Path, positions: Positions) -> None:
    """Keep `positions` at `path` (written whole, then moved into place); a read-only or
    full data dir keeps none."""
    ids = list(positions)
    coords = np.array([positions[node] for node in ids], dtype=np.float64).reshape(-1, 2)
    try:
        with atomic_writer(path) as handle:
            pickle.dump((SCHEMA, ids, coords), handle, pickle.HIGHEST_PROTOCOL)
    except OSError:
        pass
