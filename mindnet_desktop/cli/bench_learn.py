"""`mindnet bench feedback`: the simulated user of issue 17 on the QA sets that have
paraphrases (`resources/qa/paraphrases/`), the test half by default."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import CliError, drive
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.resources import QA_DIR, ROOT


def bench_feedback(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    from mindnet_desktop.bench.feedback import (
        feedback_table,
        load_paraphrases,
        paraphrase_file,
        simulate,
    )
    from mindnet_desktop.bench.quality import load_qa_set

    paths = [Path(p) for p in args.sets] if args.sets else sorted(QA_DIR.glob("*.yaml"))
    paths = [p for p in paths if paraphrase_file(p).is_file()]
    if not paths:
        raise CliError("bench feedback: no question set has paraphrases (resources/qa/paraphrases)")
    split = None if args.split == "all" else args.split
    embedder = make_embedder(args.embedder)
    results: dict[str, Any] = {
        "benchmark": "feedback",
        "split": args.split,
        "swapped": args.swap_roles,
        "embedder": embedder.name,
        "sets": {},
    }
    for path in paths:
        qa = load_qa_set(path, ROOT)
        paraphrases = load_paraphrases(paraphrase_file(path), qa)
        with Mindnet(
            qa.vault, work / f"feedback-{qa.name}-{embedder.name}", None, embedder, True
        ) as mn:
            if not args.json:
                print(f"{qa.name}: importing {qa.vault} …", file=sys.stderr, flush=True)
            drive(
                mn.import_vault(ImportOptions(sync_deletes=True)),
                not args.json and sys.stderr.isatty(),
            )

            def step(what: str, done: int, total: int, name: str = qa.name) -> None:
                if not args.json and sys.stderr.isatty():
                    print(f"\r{name}: {what} {done}/{total}", end="", file=sys.stderr, flush=True)

            results["sets"][qa.name] = simulate(mn, qa, paraphrases, split, step, args.swap_roles)
    results["table"] = feedback_table(results)
    results["ok"] = all(run["ok"] for run in results["sets"].values())
    return results
