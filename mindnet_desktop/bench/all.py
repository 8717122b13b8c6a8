"""`mindnet bench all`: what a user feels, measured in one run on one vault, every figure
beside a baseline measured in the same run (ratios hold on a busy machine).

The vault is a copy (of `--vault`, or a generated one): the edit figure writes into it. With
`--workdir`, a run whose figures leave out the cold import uses the vault and index an earlier
run left there (made from the same source or size, embedder and store); a changed `--vault`
is not copied again then (a fresh work dir starts over).
Figures (see issues 13 and 32): cold import vs pure embedding of the same chunk texts on all
cores (one embedding process per core) and in one process, with chunks/s per process and the
scaling from one process to all; the same cold import with one embedding worker; no-op
re-import vs cold import; edit one note -> searchable through the watcher; start -> ready
(a CLI graph query and a CLI search in a fresh process, vs the bare interpreter with the CLI
imported); search + explain vs a raw Chroma query; neighbours and RAG; the graph view's
layout and first draw of 5,000 notes (offscreen); ask (time to first
token vs the prefill of the system prompt + question alone, tokens/s vs raw llama.cpp);
peak RSS with the vault and the model loaded (a fresh process, `ask_rss.py`).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mindnet_desktop.bench import figures
from mindnet_desktop.bench.ask_figures import ask_figures
from mindnet_desktop.bench.figures import BenchRun, Figure
from mindnet_desktop.bench.machine import machine_facts, rss_bytes
from mindnet_desktop.bench.one_worker import one_worker_import
from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.core.models.embedders import make_embedder

FIGURES = ("import", "one-worker", "noop", "edit", "start", "search", "graph", "ask")
PREPARED = "prepared.json"  # in the work dir: what its vault and index were made from


def _prepared(marker: Path) -> Any:
    try:
        return json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def prepare_vault(work: Path, source: Path | None, generate: int | None, seed: int = 7) -> Path:
    """A vault to measure: a copy of `source` (never changed) or a generated one."""
    vault = work / "vault"
    if vault.exists():
        shutil.rmtree(vault)
    if source is not None:
        shutil.copytree(source, vault, ignore=shutil.ignore_patterns(".obsidian", ".trash"))
    else:
        generate_vault(vault, generate or 6500, seed)
    return vault


def run_all(
    work: Path,
    source: Path | None = None,
    generate: int | None = None,
    embedder: str | None = None,
    model: str | None = None,
    only: list[str] | None = None,
    repeat: int = 100,
    chroma_url: str | None = None,
    log: Callable[[str], None] = lambda message: None,
    embed_workers: int | None = None,
) -> dict[str, Any]:
    """Run the figures of `only` (default: all) and return the machine facts and the rows."""
    wanted = only or list(FIGURES)
    unknown = sorted(set(wanted) - set(FIGURES))
    if unknown:
        raise ValueError(f"unknown figures {unknown} (known: {', '.join(FIGURES)})")
    started = time.perf_counter()
    chosen = make_embedder(embedder)
    data, marker = work / "data", work / PREPARED
    key = {
        "source": str(source.resolve()) if source is not None else None,
        "generate": None if source is not None else generate or 6500,
        "embedder": chosen.name,
        "store": chroma_url,
    }
    # Without the cold import among the figures, the vault and index a run left in the
    # work dir are used again (the import below only catches up): no 10 minutes of import.
    reuse = "import" not in wanted and _prepared(marker) == key and (work / "vault").is_dir()
    if reuse:
        log("using the vault and index of an earlier run in the work dir …")
        vault = work / "vault"
    else:
        log("preparing the vault …")
        marker.unlink(missing_ok=True)
        vault = prepare_vault(work, source, generate)
        shutil.rmtree(data, ignore_errors=True)
    chosen.embed(["warm up"])  # the model load counts in neither a figure nor a baseline
    run = BenchRun(
        vault, data, chosen, model, repeat, log, chroma_url=chroma_url, embed_workers=embed_workers
    )
    # The import always runs: every other figure needs the index.
    figures.cold_import(run, measure="import" in wanted, force=not reuse)
    marker.write_text(json.dumps(key), encoding="utf-8")
    for name in FIGURES[1:]:
        if name in wanted:
            log(f"measuring {name} …")
            special = {"ask": ask_figures, "one-worker": one_worker_import}
            measure = special.get(name) or getattr(figures, name)
            measure(run)
    _, peak = rss_bytes()
    # The whole run's peak (with the baseline's second model, if `ask` ran): for reference.
    run.figures.append(Figure("peak RSS of the whole bench process", round(peak / 2**20), "MiB"))
    return {
        "benchmark": "all",
        "machine": machine_facts(),
        "vault": {"source": str(source) if source else f"generated {generate}", "copy": str(vault)},
        "embedder": chosen.name,
        "store": chroma_url or "embedded",
        "model": model or "default",
        "figures": [f.to_dict() for f in run.figures],
        "notes": run.notes,
        "seconds": round(time.perf_counter() - started, 1),
    }


def table(result: dict[str, Any]) -> str:
    """The figures as a Markdown table, with the machine facts above it."""
    m = result["machine"]
    lines = [
        f"machine: {m['cores']} cores, {m['cpu']}, load {m['load_average']}, "
        f"Python {m['python']}; " + ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v),
        f"vault: {result['vault']['source']}; store {result['store']}; "
        f"embedder {result['embedder']}; "
        f"model {result['model']}; {result['seconds']} s",
        "",
        "| figure | value | baseline | ratio | goal | met |",
        "|---|---|---|---|---|---|",
    ]
    for f in result["figures"]:
        base = f["baseline"] + (
            f" = {f['baseline_value']:g} {f['unit']}" if f["baseline_value"] is not None else ""
        )
        ratio = f"{f['ratio']:g}×" if f["ratio"] is not None else "–"
        met = {True: "yes", False: "no", None: "–"}[f["ok"]]
        value = f"{f['value']:g} {f['unit']}"
        lines.append(f"| {f['figure']} | {value} | {base} | {ratio} | {f['goal']} | {met} |")
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)
