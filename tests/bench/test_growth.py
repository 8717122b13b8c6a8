"""The growth rows read from `bench all --json` outputs (the plot draws them)."""

from __future__ import annotations

import json

from mindnet_desktop.bench.growth import (
    SERIES,
    drawn,
    growth_row,
    growth_table,
    load_results,
    load_rows,
)


def result(notes: int, cold: float, embedder: str = "hash") -> dict:
    figures = [
        {
            "figure": "cold import (s)",
            "value": cold,
            "detail": {"notes": notes, "chunks": 3 * notes},
        },
        {"figure": "search + explain p95", "value": 40.0, "detail": {}},
        {"figure": "peak RSS of the whole bench process", "value": 900, "detail": {}},
        {"figure": "something new", "value": 1.0, "detail": {}},
    ]
    return {
        "machine": {"load_average": [2.5, 2.0, 1.0]},
        "vault": {"source": f"generated {notes}"},
        "embedder": embedder,
        "figures": figures,
    }


def test_a_row_holds_the_drawn_figures_of_its_run():
    row = growth_row(result(1000, 12.5))
    assert (row.notes, row.chunks, row.embedder, row.load) == (1000, 3000, "hash", 2.5)
    assert row.values == {
        "cold import": 12.5,
        "search + explain p95": 40.0,
        "whole bench process": 900,
    }
    assert set(row.values) <= {label for _, label, _ in SERIES}


def test_runs_without_an_import_take_their_size_from_the_vault(tmp_path):
    partial = result(20000, 1.0)
    partial["figures"] = partial["figures"][1:]
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text("progress …\n" + json.dumps(partial), encoding="utf-8")
    second.write_text(json.dumps(result(1000, 12.5, "usem3")), encoding="utf-8")
    rows = load_rows([first, second])
    assert [(r.embedder, r.notes) for r in rows] == [("hash", 20000), ("usem3", 1000)]
    assert "cold import" not in rows[0].values and rows[0].chunks == 0

    table = growth_table(rows, load_results([first, second]))
    assert table.splitlines()[0] == "| figure | 20,000 (hash) | 1,000 (usem3) |"
    assert "| cold import per note (ms) | – | 12.5 |" in table
    assert "| load average (1 min) | 2.5 | 2.5 |" in table


def test_the_app_start_to_first_search_is_drawn_as_the_sum_of_its_two_figures():
    run = result(50000, 800.0)
    run["figures"] += [
        {"figure": "start → ready: app window usable", "value": 0.72, "detail": {}},
        {
            "figure": "start → ready: app window answers its first search (after usable)",
            "value": 0.37,
            "detail": {},
        },
    ]
    row = growth_row(run)
    assert row.values["app: start → first search"] == 1.09
    assert row.values["app usable"] == 0.72
    assert "app: start → first search" in drawn("start")
    assert "app: start → first search" not in growth_row(result(1000, 1.0)).values
