"""Fuzzing the MCP tools' arguments (`mindnet mcp`): any value of any type for any
parameter, note ids that are paths, chunk ids or nothing, unknown vaults.

Property: a call on the server (in-process, on an imported copy of the example vault) either
answers JSON or fails with a tool error that carries the user's message; never an internal
error (a bug: its traceback would only reach the server's log).
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from mindnet_desktop.cli.main import main
from mindnet_desktop.cli.mcp.server import build_server
from mindnet_desktop.cli.mcp.vaults import ServedVault, VaultOptions, VaultSet
from mindnet_desktop.core.models.embedders import HashEmbedder
from tests.reliability.support import count_example, hang_guard

pytestmark = pytest.mark.fuzz
EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "example_vault"
TOOLS = ["search", "get_note", "neighbors", "related", "list_vaults"]
PARAMETERS = ["query", "k", "type", "folder", "detail", "note_id", "heading"]
PARAMETERS += ["direction", "kind", "limit", "unlinked", "vault"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MCPServer[Any]]:
    root = tmp_path_factory.mktemp("mcp-fuzz")
    vault, data = root / "vault", root / "data"
    shutil.copytree(EXAMPLE, vault)
    assert (
        main(["--vault", str(vault), "--data-dir", str(data), "--embedder", "hash", "import"]) == 0
    )
    options = VaultOptions(None, "hash", None, False)
    vaults = VaultSet([ServedVault("vault", vault, data, options, HashEmbedder())])
    yield build_server(vaults)
    vaults.close()


texts = st.one_of(
    st.sampled_from(
        ["KI-Projekt Alpha", "Projekte/KI-Projekt Alpha#1", "#1", "", " ", "../..", "Projekte/"]
    ),
    st.text(max_size=30),
)
values = st.one_of(
    texts,
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
arguments = st.dictionaries(st.sampled_from(PARAMETERS), st.one_of(texts, values), max_size=5)


def call(server: MCPServer[Any], tool: str, args: dict[str, Any]) -> str:
    """The answer's text, or the tool error's message."""
    try:
        result = asyncio.run(server.call_tool(tool, args))
    except ToolError as exc:
        return f"error: {exc}"
    return result.content[0].text


@given(st.sampled_from(TOOLS), arguments)
@example("get_note", {"note_id": "KI-Projekt Alpha", "heading": "#"})
@example("neighbors", {"note_id": "Projekte/KI-Projekt Alpha#99", "kind": "x-y"})
@example("search", {"query": "x", "folder": "../..", "type": ""})
@example("related", {"note_id": "Inbox/Kaputtes YAML", "k": 20, "unlinked": True})
@example("search", {"query": "x", "vault": "andere"})
@example("search", {"query": " "})
def test_tool_arguments_never_cause_an_internal_error(
    server: MCPServer[Any], tool: str, args: dict[str, Any]
) -> None:
    """Guards: every bad argument gets the user's message as a tool error.

    Shown to fail by raising a KeyError instead of `NoteNotFoundError` for a heading the
    note does not have in `tools.get_note` (the first example then gets an internal error)."""
    count_example("mcp tool arguments")
    with hang_guard(60, f"{tool} {args!r}"):
        text = call(server, tool, args)
    assert "internal error" not in text, text
    if not text.startswith("error: "):
        json.loads(text)
