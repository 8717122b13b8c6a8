"""`mindnet probe`: search quality measured on the user's own vault (known-item probes made
from the notes, see `core/service/quality/probes.py`), for the configuration in effect and, side by
side, another retriever.yaml or another embedder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import CliError, drive, open_mindnet, print_json, vault_of

COMMANDS = ("probe",)
QUESTION_CONTEXT = 2048  # tokens: a passage of at most 900 characters and a short question


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    probe = sub.add_parser(
        "probe",
        parents=[common],
        help="search quality on your own vault (hit@1, hit@5, MRR)",
        description="Builds known-item probes from the vault (a sentence of a note with its "
        "title words taken out; a question the local chat model writes about one chunk) and "
        "reports how often search finds their note: hit@1, hit@5 and MRR per kind, plus your "
        "rated questions (▲ sources count as gold). The probes are cached in the data dir "
        "and never leave it. Run `mindnet import` first.",
    )
    probe.add_argument("--n", type=int, default=100, help="notes to probe (default: 100)")
    other = probe.add_mutually_exclusive_group()
    other.add_argument(
        "--against",
        metavar="RETRIEVER_YAML",
        help="also score this retriever config file, side by side",
    )
    other.add_argument(
        "--against-embedder",
        metavar="NAME",
        help="also score another embedder (indexes the whole vault with it once, in "
        "<data dir>/probe-NAME)",
    )
    probe.add_argument(
        "--no-llm", action="store_true", help="sentence probes only (no chat model: fast)"
    )
    probe.add_argument(
        "--model", help="chat model for the questions: GGUF file, 'default' or 'test'"
    )
    probe.add_argument("--threads", type=int, help="llama.cpp threads (default: all cores)")
    probe.add_argument(
        "--forget-probes",
        action="store_true",
        help="remove the cached probes and comparison indexes, then stop",
    )
    probe.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    if args.forget_probes:
        return forget(args)
    from mindnet_desktop.core.config.retriever import load_retriever_file
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.service.quality.probes import (
        plan_probes,
        rated_probes,
        write_questions,
    )
    from mindnet_desktop.core.service.quality.score import ProbeError, compare
    from mindnet_desktop.core.service.vault.comparison import open_comparison_index

    if args.n < 1:
        raise CliError("--n must be at least 1")
    bar = not args.json and not args.no_progress and sys.stderr.isatty()
    against = load_retriever_file(Path(args.against).expanduser()) if args.against else None
    embedder = make_embedder(args.against_embedder) if args.against_embedder else None
    llm = None if args.no_llm else _chat_model(args)
    other = None
    with open_mindnet(args) as mn:
        if not mn.records:
            raise ProbeError("the index is empty: run `mindnet import` first")
        plan = plan_probes(mn, args.n, questions=llm is not None)
        plan.save()
        if llm is not None and plan.to_ask:
            _warm_up(llm)
            _say(
                args,
                f"writing {len(plan.to_ask)} question(s) with the chat model "
                "(tens of seconds each on 2 cores; cached for the next run) …",
            )
            drive(write_questions(plan, llm), bar)
        kinds = ("sentence", "question") if llm is not None else ("sentence",)
        probes = plan.probes(kinds) + rated_probes(mn)
        if not probes:
            raise ProbeError("no note has enough text to make a probe from")
        try:
            if embedder is not None:
                target = mn.data_dir / f"probe-{embedder.name}"
                _say(args, f"indexing the vault with {embedder.name} in {target} …")
                other = drive(open_comparison_index(mn, embedder, args.chroma_url), bar)
            results = drive(compare(mn, probes, against, other), bar)
        finally:
            if other is not None:
                other.close()
        report = {
            "vault": str(mn.vault),
            "probes_file": str(plan.path),
            "notes_probed": len(plan.sampled),
            "probes": {
                k: sum(p.kind == k for p in probes) for k in ("sentence", "question", "rated")
            },
            "model": llm.name if llm is not None else None,
            "questions_written": plan.asked,
            "seconds_per_question": round(plan.seconds / plan.asked, 2) if plan.asked else None,
            "configs": [r.to_dict() for r in results],
        }
    if args.json:
        print_json(report)
    else:
        print(table(report))
    return 0


def _chat_model(args: argparse.Namespace) -> Any:
    """The chat model, loaded only when a question is to be written (all cached: never)."""
    from mindnet_desktop.core.models.llm import LlamaChat

    return LlamaChat(args.model, n_ctx=QUESTION_CONTEXT, threads=args.threads)


def _warm_up(llm: Any) -> None:
    from mindnet_desktop.core.models.weights import ModelError

    try:
        llm.warm_up()
    except ModelError as exc:
        raise CliError(f"{exc} (or run `mindnet probe --no-llm`: sentence probes only)") from exc


def _say(args: argparse.Namespace, message: str) -> None:
    if not args.json:
        print(message, file=sys.stderr, flush=True)


def forget(args: argparse.Namespace) -> int:
    from mindnet_desktop.core.config.paths import resolve_data_dir
    from mindnet_desktop.core.service.quality.probes import forget_probes

    data_dir = resolve_data_dir(args.data_dir, vault_of(args).resolve())
    removed = forget_probes(data_dir)
    if args.json:
        print_json({"forgotten": removed, "data_dir": str(data_dir)})
    else:
        indexes = ", ".join(removed["indexes"]) or "none"
        print(f"forgot {removed['probes']} probe(s); comparison indexes removed: {indexes}")
    return 0


def table(report: dict[str, Any]) -> str:
    """The report as aligned columns: one row per kind, each configuration's three figures."""
    configs = report["configs"]
    counts = report["probes"]
    lines = [
        f"{report['notes_probed']} notes probed: {counts['sentence']} sentence, "
        f"{counts['question']} question, {counts['rated']} rated probe(s)"
        + (f" ({report['model']})" if report["model"] else ""),
    ]
    if report["seconds_per_question"]:
        lines.append(
            f"{report['questions_written']} question(s) written now, "
            f"{report['seconds_per_question']} s each"
        )
    for c in configs:
        lines.append(f"{c['name']:>8}: {c['config']} ({c['embedder']})")
    head = f"{'kind':<9} {'probes':>6}"
    for c in configs:
        head += f" | {c['name'] + ' hit@1':>13} {'hit@5':>5} {'MRR':>5}"
    lines += ["", head]
    for kind, n in counts.items():
        if not n:
            continue
        row = f"{kind:<9} {n:>6}"
        for c in configs:
            s = c["scores"][kind]
            row += f" | {s['hit@1']:>13.2f} {s['hit@5']:>5.2f} {s['mrr']:>5.2f}"
        lines.append(row)
    return "\n".join(lines)
