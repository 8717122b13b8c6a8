"""The cold import's scaling measured as issue 32 words it: the same cold import again, with
one embedding worker, into a scratch data dir beside the run's (removed afterwards).

The row "cold import vs one embedding process" compares with pure embedding in one process,
which is faster than an import with one worker (the importer's own work, the tail); it stays
as a stricter check, and is judged only when this figure was not measured.
"""

from __future__ import annotations

import shutil
import time

from mindnet_desktop.bench.figures import BenchRun, Figure
from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.service.vault.mindnet import Mindnet

STRICTER = "cold import vs one embedding process (s)"  # the row this one takes the verdict of


def one_worker_import(run: BenchRun) -> None:
    """Time a cold import of the run's vault with one embedding worker and judge the run's
    cold import against it (goal ≤ 0.6×). Needs the run's cold import; not against a Chroma
    server, whose collections the second import would share."""
    workers = next(
        (f.detail.get("embed_workers") for f in run.figures if f.figure == STRICTER), None
    )
    if run.cold_seconds is None or workers is None:
        run.notes.append("one-worker import: not measured (it needs the cold import's figure)")
        return
    if run.chroma_url:
        run.notes.append("one-worker import: not measured against a Chroma server")
        return
    if workers < 2:
        run.notes.append("one-worker import: not measured (the cold import used one worker)")
        return
    scratch = run.data.with_name(run.data.name + "-one-worker")
    shutil.rmtree(scratch, ignore_errors=True)
    run.log("the same cold import with one embedding worker …")
    try:
        with Mindnet(run.vault, scratch, None, run.embedder, True) as mn:
            started = time.perf_counter()
            summary = drain(mn.import_vault(ImportOptions(False, True, embed_workers=1))).summary
            seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for figure in run.figures:
        if figure.figure == STRICTER:
            figure.goal = "– (judged against the one-worker import)"
            figure.ok = None
    run.figures.append(
        Figure(
            "cold import vs the same import with one embedding worker (s)",
            round(run.cold_seconds, 2),
            "s",
            "the same cold import, 1 embedding worker",
            round(seconds, 2),
            "≤ 0.6× baseline",
            run.cold_seconds <= 0.6 * seconds,
            {"workers": workers, "one_worker_chunks_per_s": round(summary.chunks / seconds, 1)},
        )
    )
