"""`python -m mindnet_desktop.bench.ask_rss`: the peak memory of a fresh `mindnet ask` — the
vault opened as `ask` opens it (the reader snapshots while they are in step, the store when
something needs it), searched, the chat model loaded, one question answered — printed as
JSON. `bench all` runs it so that its memory figure is not the peak of the bench process,
which imported and embedded the whole vault before. (The app's own figure is
`ui/bench/start.py --with-model`.)"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mindnet_desktop.bench.ask_figures import ANSWER_TOKENS
from mindnet_desktop.bench.figures import QUESTIONS
from mindnet_desktop.bench.machine import rss_bytes


def main(argv: list[str] | None = None) -> int:
    from mindnet_desktop.core.chat.answer import generate
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.models.llm import LlamaChat
    from mindnet_desktop.core.service.ask.pipeline import prepare
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from mindnet_desktop.core.service.vault.mindnet import Mindnet

    parser = argparse.ArgumentParser(prog="ask_rss")
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--embedder", required=True)
    parser.add_argument("--model")
    args = parser.parse_args(argv)
    llm = LlamaChat(args.model)
    try:
        llm.warm_up()
        embedder = make_embedder(args.embedder)
        with Mindnet(args.vault, args.data_dir, embedder=embedder, lazy_store=True) as mn:
            hybrid_search(mn, QUESTIONS[0], log=False)
            ready = prepare(mn, QUESTIONS[1], llm)
            for n, _ in enumerate(generate(ready, llm)):
                if n >= ANSWER_TOKENS:
                    break
            now, peak = rss_bytes()
    finally:
        llm.close()
    print(json.dumps({"rss_bytes": now, "peak_bytes": peak}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
