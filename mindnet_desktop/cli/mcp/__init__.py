"""`mindnet mcp`: the vault's search, notes and graph for AI assistants, as a Model Context
Protocol server over stdio (no socket). See docs/mcp.md.

`vaults` opens each vault as a reader that writes nothing; `tools` shapes what each tool
answers; `server` builds the SDK's server; `answer` is the optional `ask`."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """`common`: the global options but --vault and --data-dir, which repeat here."""
    mcp = sub.add_parser(
        "mcp",
        parents=[common],
        help="serve the vault(s) to AI assistants (Model Context Protocol, stdio)",
        description="An MCP server over stdin/stdout: search, get_note, neighbors, related, "
        "list_vaults (and ask, add_edge when enabled). Read-only unless --allow-writes. "
        "Logs go to stderr.",
    )
    mcp.add_argument(
        "--vault",
        action="append",
        dest="vaults",
        metavar="PATH",
        help="a vault folder (repeatable; or MINDNET_VAULT)",
    )
    mcp.add_argument(
        "--data-dir",
        action="append",
        dest="data_dirs",
        metavar="DIR",
        help="index folder, once per --vault in the same order (default: each vault's own)",
    )
    mcp.add_argument(
        "--import",
        action="store_true",
        dest="import_first",
        help="import each vault before serving (skipped while the app or watch writes it)",
    )
    mcp.add_argument(
        "--allow-writes",
        action="store_true",
        help="offer add_edge (a callout in the note; the overlay with --read-only-vault)",
    )
    mcp.add_argument(
        "--with-ask", action="store_true", help="offer ask (the local model; slow on a CPU)"
    )
    mcp.add_argument("--model", help="the chat model for ask (as `mindnet ask --model`)")


def run(args: argparse.Namespace) -> int:
    from mindnet_desktop.cli.mcp.server import build_server
    from mindnet_desktop.cli.mcp.vaults import VaultSet, served_vaults

    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="mindnet mcp: %(levelname)s %(message)s"
    )
    vaults = VaultSet(served_vaults(args))
    server = build_server(
        vaults, args.with_ask, args.allow_writes, args.model, imports=args.import_first
    )
    server.run("stdio")
    return 0
