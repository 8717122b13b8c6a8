"""An MCP client for the tests: `mindnet mcp` spawned as a user's assistant spawns it (the
official SDK's stdio client), and the index's files read before and after."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import REPO


def server_env(**extra: str) -> dict[str, str]:
    """The test's environment (its data dir, embedder) with this checkout first on the path."""
    env = {**os.environ, "PYTHONPATH": str(REPO), **extra}
    env.pop("MINDNET_VAULT", None)
    return env


def server_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "mindnet_desktop.cli.main", "mcp", *args]


@asynccontextmanager
async def connect(*args: str, **env: str) -> AsyncIterator[ClientSession]:
    """A session with `mindnet mcp ARGS`, initialised; the server's stderr in the test's."""
    command = server_command(*args)
    params = StdioServerParameters(command=command[0], args=command[1:], env=server_env(**env))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> tuple[bool, Any]:
    """(is_error, the JSON answer, or the error's text)."""
    result = await session.call_tool(tool, arguments)
    text = result.content[0].text if result.content else ""
    return bool(result.is_error), text if result.is_error else json.loads(text)


def index_files(data_dir: Path) -> dict[str, bytes]:
    """Every file of the data dir but the fitted intent classifier (a cache of the routing,
    written once by the first search of any reader, as `mindnet search` does)."""
    return {
        str(p.relative_to(data_dir)): p.read_bytes()
        for p in sorted(data_dir.rglob("*"))
        if p.is_file() and not p.name.startswith("intent_classifier_")
    }
