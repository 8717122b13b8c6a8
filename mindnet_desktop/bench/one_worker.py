"""The cold import's scaling measured as issue 32 words it: the same cold import again, with
one embedding worker, as a fresh `mindnet import --embed-workers 1` into a scratch data dir
beside the run's (removed afterwards). A fresh process, as users run it: in the bench's own
process, after the cold import and the baselines, an import runs slower (its heap), which
would flatter the ratio.

The row "cold import vs one embedding process" compares with pure embedding in one process;
it stays as a stricter check, and is judged only when this figure was not measured.
"""

from __future__ import annotations

import json
import shutil

from mindnet_desktop.bench.figures import AGAINST_ONE_PROCESS, BenchRun, Figure
from mindnet_desktop.bench.machine import cli_command, measured_output
from mindnet_desktop.core.store.chroma_server import ChromaServer

FIGURE = "cold import vs the same import with one embedding worker (s)"
GOAL = 0.6  # of the one-worker import's time, on 2 cores or more


def one_worker_import(run: BenchRun) -> None:
    """Time a cold import of the run's vault with one embedding worker in a fresh process and
    judge the run's cold import against it.

    Args:
        run: A run whose cold import was measured with two embedding workers or more. Not
            measured (a note says why) without that figure, or against a Chroma server (from
            `--chroma-url` or `MINDNET_CHROMA_URL`), whose collections the second import
            would share with the first.
    """
    workers = next(
        (f.detail.get("embed_workers") for f in run.figures if f.figure == AGAINST_ONE_PROCESS),
        None,
    )
    if run.cold_seconds is None or workers is None:
        run.notes.append("one-worker import: not measured (it needs the cold import's figure)")
        return
    if ChromaServer.from_env(run.chroma_url) is not None:
        run.notes.append("one-worker import: not measured against a Chroma server")
        return
    if workers < 2:
        run.notes.append(
            f"one-worker import: not measured (the cold import used {workers} embedding "
            "processes: it embedded in-process or in one)"
        )
        return
    scratch = run.data.with_name(run.data.name + "-one-worker")
    shutil.rmtree(scratch, ignore_errors=True)
    run.log("the same cold import with one embedding worker, in a fresh process …")
    try:
        command = cli_command(run.vault, scratch, run.embedder.name, "import", "--json")
        process_s, out, peak = measured_output([*command, "--no-progress", "--embed-workers", "1"])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary = json.loads(out)
    seconds = float(summary["seconds"])  # the import's own time, as the cold import's
    for figure in run.figures:
        if figure.figure == AGAINST_ONE_PROCESS:
            figure.goal = "– (judged against the one-worker import)"
            figure.ok = None
    run.figures.append(
        Figure(
            FIGURE,
            round(run.cold_seconds, 2),
            "s",
            "the same cold import, 1 embedding worker, in a fresh process",
            round(seconds, 2),
            f"≤ {GOAL:g}× baseline",
            run.cold_seconds <= GOAL * seconds,
            {
                "workers": workers,
                "one_worker_embed_workers": summary["embed_workers"],
                "one_worker_process_s": round(process_s, 2),
                "one_worker_chunks_per_s": round(summary["chunks"] / seconds, 1),
                "one_worker_peak_rss_mib": round(peak / 2**20),
            },
        )
    )
