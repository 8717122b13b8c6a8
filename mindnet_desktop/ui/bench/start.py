"""Start -> ready of the app window on an indexed vault, in a fresh process (`mindnet bench
all`'s `start` figure): `python -m mindnet_desktop.ui.bench.start --vault V --data-dir D
[--embedder NAME] --t0 EPOCH`.

Prints one JSON object; times are seconds since `--t0` (the caller's clock just before it
started this process, so the interpreter's start and the imports count):

- `usable`: the window is shown and its event loop runs (a 10 ms timer ticked once);
- `searched`: a search asked right after the window was usable came back (from the reader
  snapshots while the store opens);
- `ready`: the vault is open, the start's import (a check of every file; nothing changed)
  finished, the counts are shown and the vault is watched;
- `store_open`: the writer's store (Chroma) is open and searches moved to it;
- `longest_gap_ms`, `gap_p99_ms`: the GUI thread's longest pause and 99th percentile of its
  pauses between `usable` and the last of the above.

Runs offscreen unless QT_QPA_PLATFORM says otherwise; the chat model is not preloaded.
With `--with-model` it is, as the app's default settings do, and the process waits for it:
`model` is when it was loaded and its prompts read ahead, `rss_mib` / `peak_rss_mib` the
app's memory then (`bench all`'s "the app with the model loaded").

`error` says why a mark is missing: the search failed, the vault could not be opened (the
process ends at once), or `--timeout` seconds passed (default 600) and what was still awaited.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIMEOUT_S = 600.0


def run(
    vault: Path,
    data_dir: Path,
    embedder: str | None,
    t0: float,
    with_model: bool = False,
    model: str | None = None,
    timeout: float = TIMEOUT_S,
) -> dict[str, Any]:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from mindnet_desktop.bench.machine import rss_bytes
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from mindnet_desktop.ui.index.indexer import WATCHING
    from mindnet_desktop.ui.shell.main_window import MainWindow, VaultLocation
    from mindnet_desktop.ui.support.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    marks: dict[str, float] = {}
    ticks: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mindnet-bench-start-") as scratch:
        settings = AppSettings.from_file(Path(scratch) / "settings.ini")
        settings.preload_chat_model = with_model
        if model:
            settings.chat_model = model
        window = MainWindow(
            settings,
            VaultLocation(data_dir),
            embedder_factory=lambda name, threads: make_embedder(embedder or name, threads),
        )
        window.resize(1366, 768)
        window.show()
        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(lambda: ticks.append(time.time()))
        timer.start()
        window.open_vault(vault)
        loop = QEventLoop()
        assert window.host is not None
        job = window.host.submit(lambda mn, job: hybrid_search(mn, "Projekt", 10, log=False))
        window.host.opened.connect(lambda _mn: marks.setdefault("store_open", time.time()))
        failures: list[str] = []  # the vault could not be opened: nothing more will come
        window.host.open_failed.connect(failures.append)

        def check() -> None:
            now = time.time()
            if ticks and "usable" not in marks:
                marks["usable"] = ticks[0]
            watching = window.indexer is not None and window.indexer.state == WATCHING
            if "ready" not in marks and window.stats is not None and watching:
                marks["ready"] = now
            if "searched" not in marks and job.is_finished():
                marks["searched"] = now
            chat = window.chat
            if with_model and "model" not in marks and chat is not None and chat.preloaded:
                marks["model"] = now
            if len(marks) == 4 + with_model or failures or now - t0 > timeout:
                loop.quit()

        poll = QTimer()
        poll.setInterval(5)
        poll.timeout.connect(check)
        poll.start()
        loop.exec()
        timer.stop()
        poll.stop()
        error = job.error or (f"the vault could not be opened: {failures[0]}" if failures else None)
        wanted = ["usable", "ready", "searched", "store_open"] + ["model"] * with_model
        if missing := [name for name in wanted if name not in marks]:
            # Timed out: say what the window was waiting for, not only that it was late.
            indexer, chat = window.indexer, window.chat
            state = {
                "indexer": indexer.state if indexer else None,
                "stats": window.stats is not None,
                "search_job": job.is_finished(),
                "preloading": chat is not None and chat.preloading,
                "host_busy": window.host.busy,
            }
            error = error or f"timed out after {timeout:.0f} s waiting for {missing}: {state}"
        rss, peak = rss_bytes()
        window.close()
        app.processEvents()
    end = max(marks.values(), default=time.time())
    gaps = sorted(b - a for a, b in zip(ticks, ticks[1:]) if b <= end)
    return {
        **{name: round(at - t0, 3) for name, at in marks.items()},
        "longest_gap_ms": round(max(gaps, default=0.0) * 1000, 1),
        "gap_p99_ms": round(gaps[int(0.99 * (len(gaps) - 1))] * 1000, 1) if gaps else 0.0,
        "error": error,
        "rss_mib": round(rss / 2**20),
        "peak_rss_mib": round(peak / 2**20),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindnet_desktop.ui.bench.start")
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--embedder")
    parser.add_argument("--t0", type=float, default=time.time())
    parser.add_argument("--with-model", action="store_true", help="preload the chat model")
    parser.add_argument("--model", help="the chat model's GGUF (default: the packaged one)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds from --t0")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    got = run(
        args.vault, args.data_dir, args.embedder, args.t0, args.with_model, args.model, args.timeout
    )
    print(json.dumps(got))
    return 0


if __name__ == "__main__":
    sys.exit(main())
