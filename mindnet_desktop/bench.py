"""`mindnet bench`: speed measured on a generated vault (never inside the test suite).

`bench import`: cold import vs no-op re-import (goal: the no-op costs <= 2 % of the cold one).
`bench graph`: neighbours and neighborhood RAG latency (goals: < 10 ms and < 200 ms without
the query embedding).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mindnet_desktop.cli import _print_json, drive
from mindnet_desktop.core.benchvault import generate_vault
from mindnet_desktop.core.embed import make_embedder
from mindnet_desktop.core.indexer import ImportOptions
from mindnet_desktop.core.service import Mindnet


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    bench = sub.add_parser("bench", parents=[common], help="benchmarks on a generated vault")
    bench.add_argument("which", choices=["import", "graph"])
    bench.add_argument("--notes", type=int, default=6500, help="size of the generated vault")
    bench.add_argument("--workdir", help="keep the generated vault and index here (reused)")
    bench.add_argument("--repeat", type=int, default=200, help="queries per measurement")


def _bar(args: argparse.Namespace) -> bool:
    return not args.json and sys.stderr.isatty()


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def _setup(args: argparse.Namespace, work: Path) -> tuple[Path, Path]:
    vault, data = work / "vault", work / "data"
    if not vault.is_dir():
        print(f"generating {args.notes} notes in {vault} …", flush=True)
        generate_vault(vault, args.notes)
    return vault, data


def bench_import(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    vault, data = _setup(args, work)
    embedder = make_embedder(args.embedder)
    with Mindnet(vault, data / "cold", None, embedder, write=True) as mn:
        started = time.perf_counter()
        cold = drive(mn.import_vault(ImportOptions(force=True)), _bar(args)).summary
        cold_s = time.perf_counter() - started
    started = time.perf_counter()
    with Mindnet(vault, data / "cold", None, embedder, write=True) as mn:  # a fresh process's view
        noop = drive(mn.import_vault(), False).summary
    noop_s = time.perf_counter() - started
    ratio = noop_s / cold_s
    return {
        "benchmark": "import",
        "embedder": embedder.name,
        "notes": cold.notes,
        "chunks": cold.chunks,
        "edges": cold.edges,
        "cold_seconds": round(cold_s, 2),
        "noop_seconds": round(noop_s, 3),
        "noop_changed": noop.changed + noop.added,
        "noop_ratio": round(ratio, 5),
        "goal_noop_ratio": 0.02,
        "ok": ratio <= 0.02,
    }


def bench_graph(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    vault, data = _setup(args, work)
    embedder = make_embedder(args.embedder)
    with Mindnet(vault, data / "graph", None, embedder, write=True) as mn:
        drive(mn.import_vault(), _bar(args))
        started = time.perf_counter()
        queries = mn.queries
        build_s = time.perf_counter() - started
        rng = random.Random(3)
        notes = sorted(mn.records)
        vectors = embedder.embed(["Wie hängen Daten und Modell zusammen?", "release plan risk"])
        neighbour_times, rag_times = [], []
        for _ in range(args.repeat):
            node = rng.choice(notes)
            started = time.perf_counter()
            queries.neighbors(node, "both", None, 50)
            neighbour_times.append(time.perf_counter() - started)
        searcher = mn.searcher
        for i in range(max(args.repeat // 4, 10)):
            node = rng.choice(notes)
            started = time.perf_counter()
            searcher.rag(node, "-", depth=2, k=5, vector=vectors[i % 2])
            rag_times.append(time.perf_counter() - started)
    neighbours, rag = _ms(neighbour_times), _ms(rag_times)
    return {
        "benchmark": "graph",
        "embedder": embedder.name,
        "notes": len(notes),
        "graph_build_seconds": round(build_s, 3),
        "neighbors": {**neighbours, "goal_ms": 10, "ok": neighbours["p50_ms"] < 10},
        "rag_without_query_embedding": {**rag, "goal_ms": 200, "ok": rag["p50_ms"] < 200},
    }


def run(args: argparse.Namespace) -> int:
    if args.workdir:
        work = Path(args.workdir).expanduser()
        work.mkdir(parents=True, exist_ok=True)
        result = (bench_import if args.which == "import" else bench_graph)(args, work)
    else:
        with tempfile.TemporaryDirectory(prefix="mindnet-bench-") as tmp:
            result = (bench_import if args.which == "import" else bench_graph)(args, Path(tmp))
    if args.json:
        _print_json(result)
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    return 0
