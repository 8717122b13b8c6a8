"""`mindnet bench intents` and `mindnet bench answers`: the chat benches on the shipped sets
in `resources/qa/chat/` (the test half by default; tune on `--split dev`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mindnet_desktop.resources import QA_DIR

INTENTS_SET = QA_DIR / "chat" / "intents.yaml"
ANSWERS_SET = QA_DIR / "chat" / "answers.yaml"


def _progress(args: argparse.Namespace, label: str) -> Any:
    if args.json or not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        print(f"\r{label} {done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    return show


def _config_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.config).expanduser() if getattr(args, "config", None) else None


def bench_intents(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Fast path, slow path and both on the labelled intents (`--model none`: fast only)."""
    from mindnet_desktop.bench.intents import evaluate_intents, intents_table, load_intents
    from mindnet_desktop.core.chat.answer import load_prompts
    from mindnet_desktop.core.chat.intent import load_decision_engine, model_classifier
    from mindnet_desktop.core.models.llm import LlamaChat

    questions = [
        q for q in load_intents(INTENTS_SET) if args.split == "all" or q.split == args.split
    ][: args.limit or None]
    config = _config_dir(args)
    engine = load_decision_engine(config)
    classify, model = None, None
    if args.model != "none":
        llm = LlamaChat(args.model, n_ctx=1024, threads=args.threads)
        classify, model = model_classifier(llm, load_prompts(config).classify), llm
    result = evaluate_intents(engine, questions, classify, _progress(args, "intents"))
    result = {
        "benchmark": "intents",
        "split": args.split,
        "model": model.name if model else None,
        **result,
    }
    result["table"] = intents_table(result)
    return result


def bench_answers(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    raise NotImplementedError
