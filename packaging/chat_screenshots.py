"""Write the chat screenshots of the README and docs/: the main window on a temporary copy of the
example vault, one question answered from ten sources, grabbed while the answer streams
(its sources already shown) and when it is done, at 1366 x 768.

Meant for a real X server (the offscreen platform draws other fonts):

    Xvfb :99 -screen 0 1366x768x24 &
    DISPLAY=:99 .venv/bin/python packaging/chat_screenshots.py [--model test] [--fast]

`--model` is a packaged chat model (`default`, `small`, `test`) or a GGUF path; `--fast`
uses the test embedder instead of the default one. `--max-tokens` keeps the answer short
(the default model writes a few tokens a second on a busy 2-core machine). The timings of
the run (model loaded, sources shown, first token, done) are printed for the caption.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import example_app, open_and_import, scratch, wait  # noqa: E402

QUESTION = "Wie behebe ich einen Papierstau im LaserJet 500?"  # FACT: nothing injected
FOCUS = "Produkte/LaserJet 500"  # the note the graph view centres on
SOURCES = 10
STREAMED_TOKENS = 30  # the first screenshot is taken once this many tokens arrived
SIZE = (1366, 768)


def config_with_sources(target: Path, sources: int) -> Path:
    """A copy of the bundled config whose answers read `sources` sources."""
    from mindnet_desktop.resources import CONFIG_DIR

    shutil.copytree(CONFIG_DIR, target)
    prompts = target / "prompts.yaml"
    text = prompts.read_text(encoding="utf-8")
    text, found = re.subn(r"(?m)^sources: \d+", f"sources: {sources}", text)
    if not found:
        text += f"\nsources: {sources}\n"
    prompts.write_text(text, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default=str(ROOT / "docs"))
    parser.add_argument("--model", default="default", help="default | small | test | a GGUF")
    parser.add_argument("--fast", action="store_true", help="the test embedder")
    parser.add_argument("--max-tokens", type=int, default=120)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--lang", default="en", choices=("en", "de"))
    parser.add_argument("--timeout", type=float, default=1200.0)
    args = parser.parse_args(argv)
    with scratch("mindnet-chat-shots-") as work:
        return shoot(args, work)


def shoot(args: argparse.Namespace, work: Path) -> int:
    from mindnet_desktop.core.models.embedders import HashEmbedder, make_embedder
    from mindnet_desktop.core.models.llm import Token
    from mindnet_desktop.core.models.weights import resolve_model_path
    from mindnet_desktop.ui.shell.main_window import MainWindow, VaultLocation
    from mindnet_desktop.ui.support.i18n import install_translators

    app, vault, settings = example_app(work, args.lang)
    settings.threads = args.threads
    settings.chat_model = str(resolve_model_path(args.model))  # joined and checked now
    translators = install_translators(args.lang)  # noqa: F841 - kept alive
    factory = (lambda name, threads: HashEmbedder()) if args.fast else make_embedder
    location = VaultLocation(config_dir=config_with_sources(work / "config", SOURCES))
    window = MainWindow(settings, location, embedder_factory=factory)
    window.setGeometry(0, 0, *SIZE)
    if not open_and_import(app, window, vault, args.timeout):
        return 1
    chat, graph = window.chat, window.graph
    assert chat is not None and graph is not None
    drawn: list[bool] = []
    graph.drawn.connect(lambda: drawn.append(True))
    graph.focus_note(FOCUS)
    wait(app, lambda: bool(drawn) and graph.root == FOCUS, 120)
    chat.max_tokens = args.max_tokens
    chat.input.setPlainText(QUESTION)
    started = time.monotonic()
    times: dict[str, float] = {}
    tokens: list[str] = []

    def seen(item: object) -> None:
        now = round(time.monotonic() - started, 1)
        if chat.sources.rows and "sources shown" not in times:
            times["sources shown"] = now
        if isinstance(item, Token):
            times.setdefault("first token", now)
            tokens.append(item.text)

    chat.send()
    assert chat.job is not None
    chat.job.progress.connect(seen)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    streaming = out / "chat-streaming.png"
    if not wait(app, lambda: len(tokens) >= STREAMED_TOKENS or not chat.busy, args.timeout):
        print("no answer came", file=sys.stderr)
        return 1
    wait(app, lambda: False, 0.3)  # the last token is painted
    ok = window.grab().save(str(streaming))
    print(f"wrote {streaming} ({len(tokens)} tokens so far, status: {chat.status.text()!r})")
    if not wait(app, lambda: not chat.busy, args.timeout):
        print("the answer did not end", file=sys.stderr)
        return 1
    times["done"] = round(time.monotonic() - started, 1)
    wait(app, lambda: False, 1.0)  # layouts and repaints settle
    done = out / f"chat-{SIZE[0]}x{SIZE[1]}-{SOURCES}-sources.png"
    ok = window.grab().save(str(done)) and ok
    print(f"wrote {done} ({len(chat.sources.rows)} sources, status: {chat.status.text()!r})")
    print(f"model {Path(settings.chat_model).name}, timings from Send (s): {times}")
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
