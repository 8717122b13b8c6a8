"""`mindnet tune`: retriever weights learned from your ratings (see `bench/tune.py`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import open_mindnet, print_json
from mindnet_desktop.core.service.vault.mindnet import Mindnet


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    tune = sub.add_parser(
        "tune",
        parents=[common],
        help="learn the retriever weights from your ratings",
        description="Proposes term weights from your rated questions (leave-one-out), held "
        "by the bundled example-vault questions as a prior, and from known-item probes of your "
        "notes; writes retriever.yaml (keeping a "
        "backup) only when the proposal is better and worse on nothing.",
    )
    tune.add_argument("--dry-run", action="store_true", help="show the proposal, write nothing")
    tune.add_argument("--no-prior", action="store_true", help="leave the example questions out")
    tune.add_argument(
        "--probes",
        type=int,
        default=100,
        metavar="N",
        help="known-item probes of up to N notes of your vault (0: none; see `mindnet probe`)",
    )


def cmd_tune(args: argparse.Namespace, mn: Mindnet) -> int:
    from mindnet_desktop.bench.fusion import CachedQueries
    from mindnet_desktop.bench.tune import (
        apply,
        prior_group,
        scores_table,
        tune,
        user_groups,
        weights_table,
    )

    show = not args.json and sys.stderr.isatty()
    mn.embedder = CachedQueries(mn.embedder)  # type: ignore[assignment]
    groups = user_groups(mn, max(args.probes, 0))
    rated = groups[0].questions
    if not args.no_prior:
        if show:
            print("indexing the example vault (the prior) …", file=sys.stderr, flush=True)
        groups.append(prior_group(mn))
    try:

        def step(done: int, total: int) -> None:
            if show:
                print(f"\rtrying weights {done}/{total}", end="", file=sys.stderr, flush=True)

        result = tune(groups, dict(mn.retriever_config.weights), step)
    finally:
        for group in groups:
            if group.prior:
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
        print("no rated questions with a ▲ source yet: learning from the probes only")
    print(weights_table(result))
    print()
    print(scores_table(result))
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
