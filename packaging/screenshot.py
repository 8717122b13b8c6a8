"""Write docs/screenshot.png: the main window with an answer, its sources, a tooltip and the
graph view, rendered offscreen on a temporary copy of the example vault.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/screenshot.py [--fast] [--out PATH]

`--fast` uses the test embedder and the small test chat model (no default model needed).
The question is typed into the chat panel (Ctrl+Enter), the first source is hovered for its
explanation tooltip, and the graph view focuses the project note.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
QUESTION = "Welche Datenbank nutzt KI-Projekt Alpha?"
FOCUS = "KI-Projekt Alpha"


@contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A temporary folder for one run, with the index inside it (`MINDNET_DATA_DIR`) and
    Chroma's telemetry off; removed at the end."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    work = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["MINDNET_DATA_DIR"] = str(work / "data")
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def wait(app: object, condition: object, seconds: float) -> bool:
    """Process events until `condition()` holds or the time is up."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()  # type: ignore[attr-defined]
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def example_app(work: Path, language: str) -> tuple[object, Path, object]:
    """The QApplication (Fusion style), a copy of the example vault in `work` and settings in
    `work` for `language` with citations opening the preview."""
    from PySide6.QtWidgets import QApplication

    from mindnet_desktop.resources import EXAMPLE_VAULT
    from mindnet_desktop.ui.support.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")  # type: ignore[attr-defined]
    vault = work / "vault"
    shutil.copytree(EXAMPLE_VAULT, vault)
    settings = AppSettings.from_file(work / "settings.ini")
    settings.language = language
    settings.link_target = "preview"
    return app, vault, settings


def answer_window(
    work: Path, lang: str, args: object, size: tuple[int, int], fast: bool = False
) -> tuple[object, object, object] | None:
    """The app, its main window at `size` on a copy of the example vault in `lang` (imported,
    the chat model `args.model` on `args.threads` threads) and the translators to keep alive;
    None when the import did not finish within `args.timeout`."""
    from mindnet_desktop.core.models.embedders import HashEmbedder, make_embedder
    from mindnet_desktop.core.models.weights import resolve_model_path
    from mindnet_desktop.ui.shell.main_window import MainWindow
    from mindnet_desktop.ui.support.i18n import install_translators

    app, vault, settings = example_app(work, lang)
    settings.threads = args.threads  # type: ignore[attr-defined]
    settings.chat_model = str(resolve_model_path(args.model))  # type: ignore[attr-defined]
    translators = install_translators(lang)
    factory = (lambda name, threads: HashEmbedder()) if fast else make_embedder
    window = MainWindow(settings, embedder_factory=factory)
    window.setGeometry(0, 0, *size)
    if not open_and_import(app, window, vault, args.timeout):  # type: ignore[attr-defined]
        return None
    return app, window, translators


def open_and_import(app: object, window: object, vault: Path, seconds: float) -> bool:
    """Show `window`, open `vault` in it and wait for the first import (False: timed out)."""
    window.show()  # type: ignore[attr-defined]
    window.open_vault(vault)  # type: ignore[attr-defined]
    stats = lambda: window.stats  # type: ignore[attr-defined]  # noqa: E731
    if not wait(app, lambda: stats() is not None and stats().notes > 0, seconds):
        print("the import did not finish", file=sys.stderr)
        return False
    return True


def ask(app: object, chat: object, question: str, seconds: float) -> None:
    """Ask through the chat panel's `ask` hook, else type into its input and press Ctrl+Enter."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit

    if hasattr(chat, "ask"):
        chat.ask(question)  # type: ignore[attr-defined]
    else:
        fields = [
            f
            for kind in (QPlainTextEdit, QTextEdit, QLineEdit)
            for f in chat.findChildren(kind)  # type: ignore[attr-defined]
            if not f.isReadOnly()
        ]
        if not fields:
            return
        field = fields[0]
        if isinstance(field, QLineEdit):
            field.setText(question)
        else:
            field.setPlainText(question)
        QTest.keyClick(field, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait(app, lambda: not getattr(chat, "busy", False), seconds)


def show_source_tooltip(app: object, chat: object) -> None:
    """Hover the first source: its explanation tooltip (reasons, score breakdown) shows."""
    from PySide6.QtWidgets import QToolTip

    from mindnet_desktop.ui.chat.sources import SourceRow

    def rows() -> list[SourceRow]:
        return [r for r in chat.findChildren(SourceRow) if r.isVisible()]  # type: ignore[attr-defined]

    if wait(app, lambda: bool(rows()), 10):
        row = rows()[0]
        QToolTip.showText(row.mapToGlobal(row.rect().center()), row.toolTip(), row)
        wait(app, lambda: False, 0.5)


def grab_with_tooltip(window: object) -> object:
    """The window's pixmap with a visible tooltip painted in (tooltips are own windows)."""
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QApplication

    pixmap = window.grab()  # type: ignore[attr-defined]
    tips = [
        w
        for w in QApplication.topLevelWidgets()
        if w.isVisible() and w.metaObject().className() == "QTipLabel"
    ]
    if tips:
        painter = QPainter(pixmap)
        for tip in tips:
            pos = window.mapFromGlobal(tip.mapToGlobal(tip.rect().topLeft()))  # type: ignore[attr-defined]
            painter.drawPixmap(pos, tip.grab())
        painter.end()
    return pixmap


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--fast", action="store_true", help="test embedder and test chat model")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with scratch("mindnet-shot-") as work:
        return shoot(args, work)


def shoot(args: argparse.Namespace, work: Path) -> int:
    from mindnet_desktop.core.models.embedders import HashEmbedder, make_embedder
    from mindnet_desktop.ui.shell.main_window import MainWindow

    app, vault, settings = example_app(work, "de")
    if args.fast:
        from mindnet_desktop.core.models.weights import TEST_CHAT, ModelError, part_paths

        try:
            settings.chat_model = str(part_paths(TEST_CHAT)[0])
        except ModelError as exc:
            print(f"no test chat model ({exc}); the default model is used", file=sys.stderr)
    from mindnet_desktop.ui.support.i18n import install_translators

    translators = install_translators(settings.language)  # noqa: F841 - kept alive
    factory = (lambda name, threads: HashEmbedder()) if args.fast else make_embedder
    window = MainWindow(settings, embedder_factory=factory)
    window.resize(1560, 940)
    if not open_and_import(app, window, vault, args.timeout):
        return 1
    window.index_dock.hide()  # more room for the answer, its sources and the graph
    width = window.splitter.width()
    window.splitter.setSizes([width * 11 // 20, width * 9 // 20])
    graph, chat = window.graph, window.chat
    if chat is not None:
        chat.splitter.setSizes([chat.width() * 3 // 5, chat.width() * 2 // 5])
    if graph is not None:
        graph.focus_note(FOCUS)
    if chat is not None:
        ask(app, chat, QUESTION, args.timeout)
        show_source_tooltip(app, chat)
    wait(app, lambda: False, 1.5)  # layouts and repaints settle
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = grab_with_tooltip(window).save(str(out))  # type: ignore[attr-defined]
    window.close()
    print(f"wrote {out}" if ok else f"could not write {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
