"""What every command shares: errors, JSON output, progress, opening the vault.

A leaf of the CLI package: the command modules import it, it imports none of them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any, TypeVar

from mindnet_desktop.core.config.paths import resolve_data_dir, resolve_vault
from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.errors import user_message as user_message
from mindnet_desktop.core.service.vault.embedder_choice import resolve_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet

T = TypeVar("T")
EXIT_USAGE = 2


class CliError(MindnetError):
    """A problem with the command line itself; printed as one clear message."""


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 0 or more: {text!r}")
    return value


def embed_workers_option(parser: argparse.ArgumentParser) -> None:
    """`--embed-workers N` (import, watch, bench): `ImportOptions.embed_workers`."""
    parser.add_argument(
        "--embed-workers",
        type=_count,
        metavar="N",
        help="embedding processes of a large import at most; 0 embeds in this process "
        "(default: MINDNET_EMBED_WORKERS, else every core up to 2 and one core left free "
        "from 3 on, at most 8)",
    )


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def json_line(data: Any) -> str:
    """One JSON object on one line (`watch --json` prints one per import)."""
    return json.dumps(data, ensure_ascii=False)


def drive(gen: Generator[IndexProgress, None, T], show_progress: bool) -> T:
    """Run a progress generator, drawing a bar on stderr when it is a terminal."""
    last = 0.0
    try:
        while True:
            progress = next(gen)
            now = time.monotonic()
            if show_progress and (now - last > 0.1 or progress.done == progress.total):
                last = now
                width = 30
                filled = int(width * progress.done / max(progress.total, 1))
                label = progress.path[-40:]
                sys.stderr.write(
                    f"\r{progress.phase:>5} [{'#' * filled}{'.' * (width - filled)}] "
                    f"{progress.done}/{progress.total} {label:<40}"
                )
                sys.stderr.flush()
    except StopIteration as stop:
        if show_progress:
            sys.stderr.write("\r" + " " * 100 + "\r")
        return stop.value


def vault_of(args: argparse.Namespace) -> Path:
    vault = resolve_vault(args.vault)
    if vault is None:
        raise CliError("no vault given: pass --vault PATH or set MINDNET_VAULT")
    return vault


def open_mindnet(
    args: argparse.Namespace,
    write: bool = False,
    lazy_store: bool = False,
    background_store: bool = False,
) -> Mindnet:
    """The vault of `args`, opened for reading (or writing: one writer per data dir);
    `lazy_store`: a graph command that may need no store; `background_store`: a writer that
    may find nothing to write (see `Mindnet`)."""
    vault = vault_of(args)
    reembed = bool(getattr(args, "reembed", False))
    data_dir = resolve_data_dir(args.data_dir, vault)
    embedder = resolve_embedder(args.embedder, vault, data_dir, fresh=reembed)
    read_only = args.read_only_vault or os.environ.get("MINDNET_READ_ONLY_VAULT") == "1"
    return Mindnet(
        vault,
        args.data_dir,
        args.config,
        embedder,
        write,
        read_only,
        reembed,
        getattr(args, "chroma_url", None),
        lazy_store,
        background_store=background_store,
    )
