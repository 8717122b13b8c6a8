"""The MCP server (the official SDK's `MCPServer`, mcp 2.x): its tools with compact schemas,
the `note://` resources, the instructions that say which mode it runs in, and how a
failure becomes a tool error the client reads while the server keeps running."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import ToolAnnotations
from pydantic import Field

from mindnet_desktop.cli.mcp import tools
from mindnet_desktop.cli.mcp.vaults import VaultSet, import_first
from mindnet_desktop.core.errors import user_message

log = logging.getLogger("mindnet.mcp")

READ_ONLY = ToolAnnotations(read_only_hint=True)
NoteRef = Annotated[str, Field(description="note id, path, title or alias")]
Vault = Annotated[str | None, Field(description="vault name (list_vaults)")]


@functools.lru_cache(maxsize=1)
def _chat_model(model: str | None) -> Any:
    from mindnet_desktop.core.models.llm import LlamaChat

    return LlamaChat(model)  # loaded on the first question, kept for the next


def compact_schema(schema: dict[str, Any], vaults: list[str]) -> dict[str, Any]:
    """A tool's input schema without what costs tokens and tells a model nothing: pydantic's
    titles, `anyOf [X, null]` of optional parameters (left out means none); `vault` only
    with several vaults, then required and one of their names."""
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        prop = {k: v for k, v in prop.items() if k != "title"}
        options = prop.get("anyOf")
        if options and prop.get("default", ...) is None:
            kept = [o for o in options if o.get("type") != "null"]
            if len(kept) == 1:
                prop = {**{k: v for k, v in prop.items() if k not in ("anyOf", "default")}}
                prop.update(kept[0])
        properties[name] = prop
    required = list(schema.get("required", []))
    if "vault" in properties:
        if len(vaults) > 1:
            properties["vault"] = {"type": "string", "enum": vaults}
            required.append("vault")
        else:
            del properties["vault"]
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out


def instructions(vaults: VaultSet, with_ask: bool, allow_writes: bool) -> str:
    """What the client's model reads first: the vaults, the tools' order of use, the mode."""
    names = ", ".join(vaults.vaults)
    several = len(vaults.vaults) > 1
    lines = [
        f"Mindnet over the Obsidian vault{'s' if several else ''} {names}: hybrid search "
        "explained, notes and their typed links (a knowledge graph).",
        "Use search first, then get_note (a heading for one section), neighbors, related.",
        "Notes are resources too: note://VAULT/NOTE_ID.",
    ]
    if several:
        lines.append("Every tool but list_vaults takes `vault`.")
    if with_ask:
        lines.append("ask answers with a local model and cites its sources (slow on a CPU).")
    if allow_writes:
        lines.append(
            "Mode: writes allowed: add_edge writes a typed link into the source note (or the "
            "edge overlay of a read-only vault); no other tool writes."
        )
    else:
        lines.append("Mode: read-only: no tool changes a note or the index.")
    return "\n".join(lines)


def _text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def build_server(
    vaults: VaultSet,
    with_ask: bool = False,
    allow_writes: bool = False,
    model: str | None = None,
    imports: bool = False,
) -> MCPServer[Any]:
    """The server over `vaults`; `imports`: import every vault at start (`--import`)."""
    names = list(vaults.vaults)

    def guarded(fn: Callable[..., Any]) -> Callable[..., str]:
        """One call at a time (the service is not thread-safe); a failure the user can act
        on becomes its message, a bug a short error (its traceback goes to stderr)."""

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> str:
            with vaults.lock:
                try:
                    return _text(fn(*args, **kwargs))
                except ToolError:
                    raise
                except Exception as exc:  # noqa: BLE001 - the server keeps running
                    message = user_message(exc)
                    if message is None:
                        log.exception("tool %s failed", fn.__name__)
                        message = f"internal error ({type(exc).__name__}); see the server's log"
                    raise ToolError(message) from exc

        return call

    def search(
        query: str,
        k: Annotated[int, Field(ge=1, le=tools.MAX_K)] = 5,
        type: Annotated[str | None, Field(description="only notes of this type")] = None,
        folder: Annotated[str | None, Field(description="only notes in this folder")] = None,
        detail: Annotated[bool, Field(description="longer excerpts, all reasons")] = False,
        vault: Vault = None,
    ) -> Any:
        mn = vaults.get(vault).reader()
        return tools.search(mn, query, k, type, folder, detail)

    def get_note(
        note_id: NoteRef,
        heading: Annotated[str | None, Field(description="only this section")] = None,
        vault: Vault = None,
    ) -> Any:
        return tools.get_note(vaults.get(vault).reader(), note_id, heading)

    def neighbors(
        note_id: NoteRef,
        direction: Literal["out", "in", "both"] = "both",
        kind: Annotated[str | None, Field(description="edge kind, e.g. depends_on")] = None,
        limit: Annotated[int, Field(ge=1, le=tools.MAX_NEIGHBORS)] = 20,
        vault: Vault = None,
    ) -> Any:
        mn = vaults.get(vault).reader()
        return tools.neighbors(mn, note_id, direction, kind, limit)

    def related(
        note_id: NoteRef,
        unlinked: Annotated[bool, Field(description="only notes not linked to it yet")] = False,
        k: Annotated[int, Field(ge=1, le=tools.MAX_K)] = 10,
        vault: Vault = None,
    ) -> Any:
        return tools.related_notes(vaults.get(vault).reader(), note_id, unlinked, k)

    def list_vaults() -> Any:
        return [v.summary() for v in vaults.vaults.values()]

    def ask(question: str, vault: Vault = None) -> Any:
        from mindnet_desktop.cli.mcp.answer import answer

        return answer(vaults.get(vault).reader(), question, _chat_model(model))

    def add_edge(
        source: NoteRef,
        kind: Annotated[str, Field(description="edge kind, e.g. related_to")],
        target: NoteRef,
        vault: Vault = None,
    ) -> Any:
        with vaults.get(vault).writer() as mn:
            return tools.add_edge(mn, source, kind, target)

    described: list[tuple[Callable[..., Any], str, ToolAnnotations | None]] = [
        (search, "Hybrid search (meaning + words + links) over the notes; hits per note.", None),
        (get_note, "A note's text and properties, or one section.", None),
        (neighbors, "Notes linked to a note, with the links' kinds.", None),
        (related, "Notes most like a note.", None),
        (list_vaults, "The vaults served and their index state.", None),
    ]
    if with_ask:
        described.append((ask, "Answer from the notes with a local model, cited.", None))
    if allow_writes:
        described.append(
            (
                add_edge,
                "Link two notes: SOURCE -kind-> TARGET (a callout in the source note).",
                ToolAnnotations(read_only_hint=False, destructive_hint=False),
            )
        )
    served = []
    for fn, text, hints in described:
        tool = Tool.from_function(
            guarded(fn),
            name=fn.__name__,
            description=text,
            annotations=hints or READ_ONLY,
            structured_output=False,
        )
        tool.parameters = compact_schema(tool.parameters, names)
        served.append(tool)

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[None]:
        # Here, not before: the SDK has pointed stdout at stderr by now, so nothing an
        # import prints can reach the protocol's stream.
        if imports:
            for vault in vaults.vaults.values():
                import_first(vault)
        try:
            yield
        finally:
            vaults.close()

    server: MCPServer[Any] = MCPServer(
        "mindnet",
        instructions=instructions(vaults, with_ask, allow_writes),
        tools=served,
        lifespan=lifespan,
        log_level="INFO",
    )

    @server.resource(
        "note://{vault}/{+note_id}", name="note", mime_type="text/markdown", description="A note"
    )
    def note(vault: str, note_id: str) -> str:
        with vaults.lock:
            try:
                return tools.note_resource(vaults.get(vault).reader(), note_id)
            except Exception as exc:  # noqa: BLE001 - the server keeps running
                raise ResourceError(user_message(exc) or "internal error") from exc

    return server
