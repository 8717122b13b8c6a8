"""Benchmark of the graph view reading the graph again after a save, on an indexed vault's
whole graph: `python -m mindnet_desktop.ui.bench.reload --vault V --data-dir D [--times 3]`.

The app reloads the view after every import that changed a note (each save, through the
watcher). Most saves change a note's text and leave the graph as it was; the view then keeps
its scene (`ops.same_picture`). This opens the vault as the window does (the readers first,
the store in the background), draws the whole vault, then reloads `--times` times with the
graph unchanged, and as many times rebuilding the scene as every reload did before the view
compared the slices. The store stays unchanged (the reload is measured, not a save), and
"rebuilt" is today's reload with the comparison off: the slice is still read with the GC
paused, which the reloads before the comparison did not. Reports each reload's seconds
(request to drawn) and the longest pause of the GUI thread during it. Runs on the offscreen
platform unless QT_QPA_PLATFORM says otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def run(
    vault: str,
    data_dir: str,
    embedder: str | None = None,
    times: int = 3,
    timeout_s: float = 120.0,
) -> dict[str, Any]:
    """Reload the whole-vault view `times` times keeping its scene, then `times` times
    rebuilding it.

    Returns:
        Notes and edges drawn, and for "kept" and "rebuilt" the seconds of each reload, the
        longest GUI pause in each, and whether the scene stayed.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QApplication

    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.ui.graph import ops
    from mindnet_desktop.ui.graph.view import GraphView
    from mindnet_desktop.ui.support.workers import ServiceHost

    app = QApplication.instance() or QApplication(sys.argv[:1])
    chosen = make_embedder(embedder)
    host = ServiceHost(
        lambda: Mindnet(Path(vault), Path(data_dir), None, chosen, False, lazy_store=True)
    )

    def until(signal: SignalInstance, start: Any = None) -> float:
        """Start, process events until `signal`, return the longest pause between two
        rounds of the event loop."""
        seen: list[int] = []

        def note(*_: object) -> None:
            seen.append(1)

        signal.connect(note)
        if start is not None:
            start()
        longest, last = 0.0, time.perf_counter()
        deadline = last + timeout_s
        while not seen:
            app.processEvents()
            now = time.perf_counter()
            longest, last = max(longest, now - last), now
            if now > deadline:
                signal.disconnect(note)
                raise TimeoutError(f"no {signal} within {timeout_s:.0f} s")
        signal.disconnect(note)
        return longest

    until(host.readable, host.open)
    view = GraphView(host)
    view.resize(1200, 800)
    view.show()
    until(view.drawn, lambda: view.controls.set_mode("vault"))
    settle = time.perf_counter() + 1.0  # what the first draw left queued (titles, GC)
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.01)
    report: dict[str, Any] = {
        "platform": app.platformName(),
        "cores": os.cpu_count(),
        "load": [round(x, 2) for x in os.getloadavg()],
        "embedder": chosen.name,
        "nodes": view.node_count(),
        "edges": view.edge_count(),
    }
    compare = ops.same_picture
    try:
        for label, same in (("kept", compare), ("rebuilt", lambda a, b: False)):
            ops.same_picture = same  # "rebuilt": every reload as it was before the comparison
            seconds, pauses, stayed = [], [], []
            for _ in range(times):
                scene = view.canvas.scene()
                start = time.perf_counter()
                pauses.append(round(until(view.drawn, view.reload), 3))
                seconds.append(round(time.perf_counter() - start, 3))
                stayed.append(view.canvas.scene() is scene)
            report[label] = {"seconds": seconds, "gui_pause_s": pauses, "scene_kept": stayed}
    finally:
        ops.same_picture = compare
        view.shutdown()
        host.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindnet_desktop.ui.bench.reload")
    parser.add_argument("--vault", required=True, help="an indexed vault")
    parser.add_argument("--data-dir", required=True, help="the vault's data dir")
    parser.add_argument("--embedder", help="the embedder the vault's index was built with")
    parser.add_argument("--times", type=int, default=3, help="reloads of each kind")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.vault, args.data_dir, args.embedder, args.times), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
