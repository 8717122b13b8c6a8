"""How the figures of `mindnet bench all` grow with the vault: one row per run, read from the
runs' `--json` outputs (the plot itself is `tools/bench/plot_growth.py`, outside the app).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The figures drawn, by their `bench all` names: (panel, label, figure).
SERIES = [
    ("import", "cold import", "cold import (s)"),
    ("search", "search + explain p95", "search + explain p95"),
    ("search", "neighbourhood RAG p95", "neighbourhood RAG p95"),
    ("start", "fresh `search`", "start → ready: `search` in a fresh process"),
    ("start", "fresh `neighbors`", "start → ready: `neighbors` in a fresh process"),
    ("start", "app usable", "start → ready: app window usable"),
    (
        "start",
        "app: vault checked",
        "start → ready: app window with the vault open and checked",
    ),
    ("memory", "import peak RSS", "cold import: peak RSS of the importing process"),
    ("memory", "vault + model (fresh process)", "peak RSS with vault and model loaded"),
    ("memory", "whole bench process", "peak RSS of the whole bench process"),
]
# Issue 32's goals at 50,000 notes, drawn as dashed lines: (panel, value, label).
GOALS = [
    ("search", 100.0, "search p95 goal"),
    ("start", 1.5, "fresh search / neighbors goal"),
    ("start", 2.0, "app start → first search goal"),
    ("memory", 2048.0, "import goal"),
    ("memory", 3072.0, "app with model goal"),
]
SIZES = [1000, 6500, 20000, 50000]  # the sizes the issue asks for
PANELS = {
    "import": "cold import (s)",
    "search": "p95 (ms)",
    "start": "start → ready (s)",
    "memory": "peak RSS (MiB)",
}


@dataclass(frozen=True)
class GrowthRow:
    """One run: its vault size, embedder, load and the figures it measured."""

    notes: int
    chunks: int
    embedder: str
    load: float
    values: dict[str, float]  # series label -> value (only the figures the run measured)
    source: str


def growth_row(result: dict[str, Any], source: str = "") -> GrowthRow:
    """The row of one `bench all --json` result."""
    figures = {f["figure"]: f for f in result["figures"]}
    cold = figures.get("cold import (s)")
    notes = int(cold["detail"]["notes"]) if cold else _generated(result)
    chunks = int(cold["detail"]["chunks"]) if cold else 0
    values = {label: figures[name]["value"] for _, label, name in SERIES if name in figures}
    load = result["machine"].get("load_average") or [0.0]
    return GrowthRow(notes, chunks, result["embedder"], float(load[0]), values, source)


def _generated(result: dict[str, Any]) -> int:
    source = str(result["vault"]["source"])
    return int(source.split()[-1]) if source.startswith("generated ") else 0


def load_rows(paths: list[Path]) -> list[GrowthRow]:
    """The rows of the given `--json` files, smallest vault first (unreadable files name
    themselves in the error)."""
    rows = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        result = json.loads(text[text.index("{") :])  # a progress line may come first
        rows.append(growth_row(result, str(path)))
    return sorted(rows, key=lambda r: (r.embedder, r.notes))
