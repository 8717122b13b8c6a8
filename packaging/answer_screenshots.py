"""Write the screenshots of an answer in the window (README, docs/answer-quality.md): the main
window at 1366 x 768 on a temporary copy of the example vault, one question answered; the
graph following the answer (its sources and how they link, the cited ones ringed, a cited
note's tooltip, the filters folded), then a source clicked open in the app's preview at the
sentence the answer rests on.

Meant for a real X server (the offscreen platform draws other fonts):

    Xvfb :99 -screen 0 1366x768x24 &
    DISPLAY=:99 .venv/bin/python packaging/answer_screenshots.py [--model test] [--fast]

`--model` is a packaged chat model (`default`, `small`, `test`) or a GGUF path; `--fast`
uses the test embedder instead of the default one; `--source N` is the source clicked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import answer_window, grab_with_tooltip, scratch, wait  # noqa: E402

QUESTION = "Was ist KI-Projekt Alpha und welche Datenbank nutzt es?"
SIZE = (1366, 768)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default=str(ROOT / "docs"))
    parser.add_argument("--model", default="default", help="default | small | test | a GGUF")
    parser.add_argument("--fast", action="store_true", help="the test embedder")
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--source", type=int, default=2, help="the source clicked open")
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lang", default="en", choices=("en", "de"))
    parser.add_argument("--timeout", type=float, default=1200.0)
    args = parser.parse_args(argv)
    with scratch("mindnet-answer-shots-") as work:
        return shoot(args, work)


def shoot(args: argparse.Namespace, work: Path) -> int:
    from PySide6.QtWidgets import QToolTip

    from mindnet_desktop.core.chat.support import answer_notes

    opened = answer_window(work, args.lang, args, SIZE, args.fast)
    if opened is None:
        return 1
    app, window, _translators = opened  # the translators stay referenced while the window runs
    chat, graph = window.chat, window.graph
    assert chat is not None and graph is not None
    drawn: list[bool] = []
    graph.drawn.connect(lambda: drawn.append(True))
    # A preload under way holds the model for the old key: changing max_tokens meanwhile
    # would close it under the preload's feet (see ModelSlot).
    wait(app, lambda: not chat.preloading, args.timeout)
    chat.max_tokens = args.max_tokens
    chat.input.setPlainText(args.question)
    chat.send()
    if not wait(app, lambda: not chat.busy, args.timeout):
        print("the answer did not end", file=sys.stderr)
        return 1
    result = chat.turns[-1].result
    if result is None or not result.sources:
        print("no sources", file=sys.stderr)
        return 1
    notes, cited = answer_notes(result)
    wait(app, lambda: bool(drawn) and graph.controls.mode() == "answer", 60)
    wait(app, lambda: False, 1.0)  # layouts and repaints settle
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    canvas = graph.canvas
    tipped = next((n for n in notes if n in cited), notes[0])
    spot = canvas.viewport().mapToGlobal(canvas.viewport_pos("node", tipped))
    QToolTip.showText(spot, canvas.tooltip("node", tipped), canvas.viewport())
    wait(app, lambda: False, 0.5)
    answered = out / f"answer-graph-{SIZE[0]}x{SIZE[1]}.png"
    ok = grab_with_tooltip(window).save(str(answered))
    QToolTip.hideText()
    print(f"wrote {answered}: {len(notes)} source notes, cited {sorted(cited)}")
    print(f"answer: {result.answer!r}")

    preview = window.preview_dock.preview
    assert preview is not None
    shown: list[str] = []
    preview.shown.connect(shown.append)
    chat.sources.rows[args.source - 1].title.linkActivated.emit("open")
    wait(app, lambda: bool(shown), 60)
    wait(app, lambda: False, 1.0)
    opened = out / f"answer-source-preview-{SIZE[0]}x{SIZE[1]}.png"
    ok = window.grab().save(str(opened)) and ok
    print(f"wrote {opened}: {shown} marked {bool(preview.text.extraSelections())}")
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
