"""`mindnet tune`: retriever weights learned from your ratings (see `bench/tune.py`)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import drive, open_mindnet, print_json
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.service.mindnet import Mindnet
from mindnet_desktop.resources import EXAMPLE_VAULT, PRIOR_QA, ROOT


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    tune = sub.add_parser(
        "tune",
        parents=[common],
        help="learn the retriever weights from your ratings",
        description="Proposes term weights from your rated questions (leave-one-out), held "
        "by the bundled example-vault questions as a prior; writes retriever.yaml (keeping a "
        "backup) only when the proposal is better and worse on nothing.",
    )
    tune.add_argument("--dry-run", action="store_true", help="show the proposal, write nothing")
    tune.add_argument("--no-prior", action="store_true", help="leave the example questions out")


def prior_group(mn: Mindnet, show: bool) -> Any:
    """The example vault's dev questions on their own index (built once in the data dir)."""
    from mindnet_desktop.bench.quality import load_qa_set
    from mindnet_desktop.bench.tune import Asked, Group

    qa = load_qa_set(PRIOR_QA, ROOT)
    data = mn.data_dir / "tune" / f"example_vault-{mn.embedder.name}"
    prior = Mindnet(EXAMPLE_VAULT, data, None, mn.embedder, write=True, read_only_vault=True)
    if show:
        print("indexing the example vault (the prior) …", file=sys.stderr, flush=True)
    drive(prior.import_vault(ImportOptions(sync_deletes=True)), show)
    prior.use_retriever_config(replace(prior.retriever_config, weights=mn.retriever_config.weights))
    asked = [Asked(q.q, frozenset(q.gold), q.lang) for q in qa.questions if q.split == "dev"]
    return Group("example questions", prior, asked, prior=True)


def cmd_tune(args: argparse.Namespace, mn: Mindnet) -> int:
    from mindnet_desktop.bench.fusion import CachedQueries
    from mindnet_desktop.bench.tune import Group, apply, rated_questions, tune, weights_table

    show = not args.json and sys.stderr.isatty()
    rated = rated_questions(mn)
    mn.embedder = CachedQueries(mn.embedder)  # type: ignore[assignment]
    groups = [Group("your rated questions", mn, rated)]
    if not args.no_prior:
        groups.append(prior_group(mn, show))
    try:

        def step(done: int, total: int) -> None:
            if show:
                print(f"\rtrying weights {done}/{total}", end="", file=sys.stderr, flush=True)

        result = tune(groups, dict(mn.retriever_config.weights), step)
    finally:
        for group in groups[1:]:
            group.mn.close()
    if show:
        print(file=sys.stderr)
    written: tuple[Path, Path | None] | None = None
    if result.better and not args.dry_run:
        written = apply(mn, result)
    out = {
        **result.to_dict(),
        "written": str(written[0]) if written else None,
        "backup": str(written[1]) if written and written[1] else None,
    }
    if args.json:
        print_json(out)
        return 0
    if not rated:
        print("no rated questions with a ▲ source yet: rate sources, then tune again")
    print(weights_table(result))
    if written:
        print(f"wrote {written[0]}" + (f" (backup: {written[1]})" if written[1] else ""))
    elif result.better:
        print("better on your questions and worse on none: run without --dry-run to apply")
    else:
        print("no weights rank your questions better without harm elsewhere: nothing written")
    return 0


COMMANDS = {"tune": cmd_tune}


def run(args: argparse.Namespace) -> int:
    with open_mindnet(args) as mn:
        return COMMANDS[args.command](args, mn)
