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
    ("memory", "app with the model", "app with the vault open and the chat model loaded: peak RSS"),
]
# Drawn sums of two figures (the goal is on their sum): (panel, label, figures).
SUMS = [
    (
        "start",
        "app: start → first search",
        (
            "start → ready: app window usable",
            "start → ready: app window answers its first search (after usable)",
        ),
    ),
]
# Further figures of the growth table (not drawn): (label, figure).
TABLED = [
    ("no-op re-import (s)", "no-op re-import"),
    ("edit → searchable (s)", "edit one note → searchable (watcher, median)"),
    (
        "app: first search after usable (s)",
        "start → ready: app window answers its first search (after usable)",
    ),
    ("neighbours p95 (ms)", "neighbours p95"),
    (
        "whole-vault graph view, saved layout (s)",
        "graph view: whole vault, saved layout + first draw (offscreen)",
    ),
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


def drawn(panel: str) -> list[str]:
    """The labels of the lines drawn in `panel`: its figures, then its sums."""
    figures = [label for p, label, _ in SERIES if p == panel]
    return figures + [label for p, label, _ in SUMS if p == panel]


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


def growth_row(result: dict[str, Any]) -> GrowthRow:
    """The row of one `bench all --json` result."""
    figures = {f["figure"]: f for f in result["figures"]}
    cold = figures.get("cold import (s)")
    notes = int(cold["detail"]["notes"]) if cold else _generated(result)
    chunks = int(cold["detail"]["chunks"]) if cold else 0
    values = {label: figures[name]["value"] for _, label, name in SERIES if name in figures}
    for _, label, parts in SUMS:
        if all(part in figures for part in parts):
            values[label] = round(sum(figures[part]["value"] for part in parts), 3)
    load = result["machine"].get("load_average") or [0.0]
    return GrowthRow(notes, chunks, result["embedder"], float(load[0]), values)


def _generated(result: dict[str, Any]) -> int:
    source = str(result["vault"]["source"])
    return int(source.split()[-1]) if source.startswith("generated ") else 0


def load_results(paths: list[Path]) -> list[dict[str, Any]]:
    """The `--json` results in the given files, ordered as their rows (`load_rows`)."""
    results = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        results.append(json.loads(text[text.index("{") :]))  # a progress line may come first
    keys = [growth_row(r) for r in results]
    order = sorted(range(len(results)), key=lambda i: (keys[i].embedder, keys[i].notes))
    return [results[i] for i in order]


def load_rows(paths: list[Path]) -> list[GrowthRow]:
    """The rows of the given `--json` files, ordered by embedder, then vault size."""
    return [growth_row(result) for result in load_results(paths)]


def growth_table(rows: list[GrowthRow], results: list[dict[str, Any]]) -> str:
    """The runs side by side as a Markdown table (`plot_growth.py --table`): the drawn
    figures, a few more, the cold import per note and each run's load."""
    head = [f"{r.notes:,} ({r.embedder})" for r in rows]
    lines = ["| figure | " + " | ".join(head) + " |", "|---" * (len(rows) + 1) + "|"]

    def line(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    by_run = [{f["figure"]: f["value"] for f in result["figures"]} for result in results]
    units = {f["figure"]: f.get("unit", "") for result in results for f in result["figures"]}
    line("chunks", [f"{r.chunks:,}" if r.chunks else "–" for r in rows])
    for _, label, name in SERIES:
        cells = [f"{r.values[label]:g}" if label in r.values else "–" for r in rows]
        unit = units.get(name, "")
        line(f"{label} ({unit})" if unit else label, cells)
    for _, label, _ in SUMS:
        line(f"{label} (s)", [f"{r.values[label]:g}" if label in r.values else "–" for r in rows])
    cold = [r.values.get("cold import") for r in rows]
    line(
        "cold import per note (ms)",
        [f"{1000 * c / r.notes:.1f}" if c else "–" for c, r in zip(cold, rows)],
    )
    for label, name in TABLED:
        line(label, [f"{values[name]:g}" if name in values else "–" for values in by_run])
    line("load average (1 min)", [f"{r.load:.1f}" for r in rows])
    return "\n".join(lines)
