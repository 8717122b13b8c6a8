"""Write the screenshots of an answer's checked states (docs/answer-quality.md), in English
and German: the main window at 1366 x 768 on a temporary copy of the example vault, the real
chat model answering, and for each state the first answer that shows it:

- `corrected`: a citation the alignment replaced, its tooltip open ("Cited [n] instead of
  [m]");
- `unsupported`: a sentence no source supports, underlined dotted, its tooltip open;
- `not-found`: "I found nothing in your notes that answers this", the closest notes below.

Each window asks its language's questions, then the other language's (an English answer
over the German example vault is rarely judged: its claims are `unchecked`), then its own
again (the chat's history has grown: other answers), until every state was seen or
`--budget` seconds passed. The model decides which answer shows which state, so a state can
be missing: the run says so.

Meant for a real X server (the offscreen platform draws other fonts):

    Xvfb :99 -screen 0 1366x768x24 &
    DISPLAY=:99 .venv/bin/python packaging/answer_state_screenshots.py [--lang en de]

`--states corrected` asks only until those states were grabbed (the others' files stay).
`--ask QUESTION --name NAME` asks that one question and writes `answer-NAME-LANG-1366x768.png`
with the tooltip of the answer's first citation open (to retake one answer's screenshot).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import answer_window, grab_with_tooltip, scratch, wait  # noqa: E402

SIZE = (1366, 768)
STATES = ("corrected", "unsupported", "not-found")
# Questions over the example vault: some the notes answer (the model may cite the wrong
# note or add a claim of its own), some they do not, and one off the vault's topics. The
# first ones ask two things that two notes answer, one each: the model may cite one note for
# both, or invent the half it did not find. The English ones ask the vault's English notes
# (an English answer over the German ones is rarely judged).
QUESTIONS = {
    "en": [
        "Which distance metric is the default for text embeddings, and how many dimensions "
        "does an embedding typically have?",
        "How is an embedding made from a text, and what does a vector database store for "
        "each record?",
        "What do the HNSW parameters m and ef control, and which prefixes do some embedding "
        "models expect?",
        "How fast does the LaserJet 500 print, and what does a toner cartridge cost?",
        "Which 8B model exactly does Alpha run through Ollama?",
        "What is KI-Projekt Alpha and which database does it use?",
        "What does the abbreviation HNSW stand for?",
        "How do I fix a paper jam in the LaserJet 500, and how long does it take?",
        "Who is Lena Hoffmann and what talk did she give?",
        "What did the LaserJet 500 cost when I bought it?",
        "What is the capital of Australia?",
    ],
    "de": [
        "Welchen Code zeigt der LaserJet 500 bei niedrigem Toner, und wie lange kalibriert "
        "er sich nach dem Tonerwechsel?",
        "Wie lange muss die Fixiereinheit des LaserJet 500 abkühlen, und wie viele Seiten "
        "hält sie?",
        "Wie schnell druckt der LaserJet 500, und mit welcher Auflösung in dpi?",
        "Wo hat Lena Hoffmann ihren Talk gehalten, und wie viele Leute waren dort?",
        "Wie schnell druckt der LaserJet 500, und was kostet eine Tonerkassette?",
        "Welches 8B-Modell genau betreibt Alpha über Ollama?",
        "Was ist KI-Projekt Alpha und welche Datenbank nutzt es?",
        "Wie behebe ich einen Papierstau im LaserJet 500 und wie lange dauert das?",
        "Wer ist Lena Hoffmann und welchen Vortrag hat sie gehalten?",
        "Was hat der LaserJet 500 beim Kauf gekostet?",
        "Wie heißt die Hauptstadt von Australien?",
    ],
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default=str(ROOT / "docs"))
    parser.add_argument("--model", default="default", help="default | small | test | a GGUF")
    parser.add_argument("--lang", nargs="+", default=["en", "de"], choices=("en", "de"))
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument("--budget", type=float, default=900.0, help="seconds per language")
    parser.add_argument(
        "--states", nargs="+", default=list(STATES), choices=STATES, help="the states to grab"
    )
    parser.add_argument("--ask", help="ask only this question (with --name)")
    parser.add_argument("--name", help="the screenshot's name for --ask")
    args = parser.parse_args(argv)
    if bool(args.ask) != bool(args.name):
        parser.error("--ask and --name go together")
    missing = []
    for lang in args.lang:
        with scratch(f"mindnet-state-shots-{lang}-") as work:
            if args.ask:
                missing += [] if shoot_one(args, lang, work) else [f"{args.name} ({lang})"]
            else:
                missing += [f"{state} ({lang})" for state in shoot(args, lang, work)]
    if missing:
        print("no answer showed: " + ", ".join(missing), file=sys.stderr)
    return 0


def states_of(result: object) -> list[str]:
    """The STATES an answer shows."""
    actions = [a.action for a in result.alignments]  # type: ignore[attr-defined]
    if result.not_found:  # type: ignore[attr-defined]
        return ["not-found"]
    marks = (("corrected", "replaced"), ("unsupported", "unsupported"))
    return [state for state, action in marks if action in actions]


def anchor_point(view: object, prefix: str) -> object | None:
    """The global point of the last anchor in `view` whose href starts with `prefix`."""
    from PySide6.QtGui import QTextCursor

    from mindnet_desktop.ui.chat.text import anchors

    document = view.document()  # type: ignore[attr-defined]
    fragments = list(anchors(document, prefix))
    if not fragments:
        return None
    found = fragments[-1]
    cursor = QTextCursor(document)
    cursor.setPosition(found.position() + found.length() // 2)
    view.setTextCursor(cursor)  # type: ignore[attr-defined]
    view.ensureCursorVisible()  # type: ignore[attr-defined]
    rect = view.cursorRect(cursor)  # type: ignore[attr-defined]
    return view.viewport().mapToGlobal(rect.center())  # type: ignore[attr-defined]


def shoot(args: argparse.Namespace, lang: str, work: Path) -> list[str]:
    """Ask `lang`'s questions until every state was grabbed; the states not seen."""
    from PySide6.QtGui import QCursor
    from PySide6.QtWidgets import QToolTip

    from mindnet_desktop.ui.chat.text import unfounded_tooltip

    opened = answer_window(work, lang, args, SIZE)
    if opened is None:
        return list(args.states)
    app, window, _translators = opened  # the translators stay referenced while the window runs
    chat = window.chat
    assert chat is not None
    wait(app, lambda: not chat.preloading, args.timeout)
    chat.max_tokens = args.max_tokens
    todo = list(args.states)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    other = "de" if lang == "en" else "en"
    started = time.monotonic()
    for question in [*QUESTIONS[lang], *QUESTIONS[other], *QUESTIONS[lang]]:
        if not todo or time.monotonic() - started > args.budget:
            break
        chat.input.setPlainText(question)
        chat.send()
        if not wait(app, lambda: not chat.busy, args.timeout):
            print(f"no answer to {question!r}", file=sys.stderr)
            continue
        result = chat.turns[-1].result
        shown = states_of(result) if result is not None else []
        actions = [a.action for a in result.alignments] if result is not None else []
        print(f"[{lang}] {question!r}: {shown} {actions}; {chat.turns[-1].answer!r}")
        state = next((s for s in shown if s in todo), None)
        if state is None:
            continue
        wait(app, lambda: False, 1.0)  # layouts and repaints settle
        turn = len(chat.turns) - 1
        if state == "corrected":  # the citation the alignment put in: its tooltip says so
            n = next(a.source for a in result.alignments if a.action == "replaced")
            href = f"cite:{turn}/{n}"
            tip = chat.citation_tooltip(href)
        elif state == "unsupported":
            href = f"unfounded:{turn}/"
            tip = unfounded_tooltip(f"unfounded:{turn}/0")
        else:
            href, tip = "", None
        point = anchor_point(chat.view, href) if href else None
        if point is not None and tip:
            # The pointer goes where a user's would, first: a tooltip that opens over it
            # closes at once (the widget under the pointer gets a Leave event).
            QCursor.setPos(point)
            wait(app, lambda at=point: QCursor.pos() == at, 2.0)
            wait(app, lambda: False, 0.3)  # the enter and leave events of the move
            QToolTip.showText(point, tip, chat.view.viewport())
            wait(app, lambda: False, 0.6)
        print(
            f"  tooltip for {href!r}: point {point is not None}, text {bool(tip)}, shown "
            f"{QToolTip.isVisible()}"
        )
        target = out / f"answer-{state}-{lang}-{SIZE[0]}x{SIZE[1]}.png"
        grab_with_tooltip(window).save(str(target))
        QToolTip.hideText()
        print(f"wrote {target}")
        todo.remove(state)
    window.close()
    return todo


def shoot_one(args: argparse.Namespace, lang: str, work: Path) -> bool:
    """Ask `args.ask` once and grab the window with its first citation's tooltip open;
    whether the answer came."""
    from PySide6.QtWidgets import QToolTip

    opened = answer_window(work, lang, args, SIZE)
    if opened is None:
        return False
    app, window, _translators = opened
    chat = window.chat
    assert chat is not None
    wait(app, lambda: not chat.preloading, args.timeout)
    chat.max_tokens = args.max_tokens
    chat.input.setPlainText(args.ask)
    chat.send()
    if not wait(app, lambda: not chat.busy, args.timeout) or chat.turns[-1].result is None:
        window.close()
        return False
    result = chat.turns[-1].result
    actions = [(a.action, a.source) for a in result.alignments]
    print(f"[{lang}] {args.ask!r}: {actions}; {chat.turns[-1].answer!r}")
    wait(app, lambda: False, 1.0)  # layouts and repaints settle
    cited = [a.source for a in result.alignments if a.source]
    if cited:
        href = f"cite:{len(chat.turns) - 1}/{cited[0]}"
        point, tip = anchor_point(chat.view, href), chat.citation_tooltip(href)
        if point is not None and tip:
            QToolTip.showText(point, tip, chat.view.viewport())
            wait(app, lambda: False, 0.6)
    target = Path(args.out_dir) / f"answer-{args.name}-{lang}-{SIZE[0]}x{SIZE[1]}.png"
    grab_with_tooltip(window).save(str(target))
    QToolTip.hideText()
    print(f"wrote {target}")
    window.close()
    return True


if __name__ == "__main__":
    sys.exit(main())
