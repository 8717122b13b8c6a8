"""The index on a real Chroma server (`chroma run`, started by the tests): the store
contract, import -> search -> ask end to end, collections per vault, and a server that is
down or fails for a moment."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store import chroma_server as server_module
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chroma_server import ChromaServer, retrying
from mindnet_desktop.core.store.protocol import Store, StoreError
from tests.chroma_server import chroma_server, free_port  # noqa: F401 - the fixture
from tests.core.store.test_store_contract import EMBEDDER, StoreContract


class TestChromaServerStore(StoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path, chroma_server: str) -> Iterator[Store]:  # noqa: F811
        server = ChromaServer(chroma_server, collection=f"contract-{uuid.uuid4().hex[:8]}")
        chroma = ChromaStore(tmp_path / "data", EMBEDDER, server=server)
        yield chroma
        chroma.close()


def _cli(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_import_search_ask_end_to_end_on_the_server(
    vault,
    tmp_path,
    capsys,
    monkeypatch,
    chroma_server,  # noqa: F811
):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    monkeypatch.setenv("MINDNET_CHROMA_URL", chroma_server)
    data = tmp_path / "data"
    base = ["--vault", str(vault), "--data-dir", str(data)]
    summary = _cli(capsys, *base, "import")
    assert summary["notes"] > 20 and summary["errors"] == []
    assert not (data / "chroma").exists()  # the vectors live on the server only
    assert (data / "manifest.json").is_file() and (data / "lexical").is_dir()
    assert _cli(capsys, *base, "import")["changed"] == 0
    found = _cli(capsys, *base, "search", "Papierstau beheben")
    assert any("Papierstau" in hit["note_id"] for hit in found["hits"])
    asked = _cli(capsys, *base, "ask", "Wie behebe ich einen Papierstau?", "--no-llm")
    assert any("Papierstau" in source["note_id"] for source in asked["sources"])
    # The same data dir opened embedded sees no index: nothing was mixed into it.
    monkeypatch.delenv("MINDNET_CHROMA_URL")
    with Mindnet(vault, data, embedder=HashEmbedder()) as local:
        assert local.store.counts() == {"notes": 0, "chunks": 0}


def test_two_vaults_never_share_collections(tmp_path, chroma_server):  # noqa: F811
    server = ChromaServer(chroma_server)
    one, two = tmp_path / "a" / "Vault", tmp_path / "b" / "Vault"
    assert server.prefix(one) != server.prefix(two)  # same name, other path
    assert server.prefix(one) == server.prefix(one)
    shared = ChromaServer(chroma_server, collection="team vault")
    assert shared.prefix(one) == shared.prefix(two) == "mn-team-vault"


def test_a_server_that_is_down_is_a_clear_error_and_changes_nothing(vault, tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "BACKOFF_SECONDS", 0.01)
    data = tmp_path / "data"
    down = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(StoreError, match="Cannot reach the Chroma server at") as error:
        Mindnet(vault, data, embedder=HashEmbedder(), write=True, chroma_url=down)
    assert "chroma run" in str(error.value)
    assert not (data / "chroma").exists() and not (data / "manifest.json").exists()
    # the writer lock was released: the next writer can open the data dir
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True):
        pass


def test_transient_failures_are_retried_with_back_off_then_reported():
    sleeps: list[float] = []
    attempts: list[int] = []

    def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise httpx.ConnectError("connection reset")
        return "ok"

    assert retrying(flaky, "a call", sleeps.append) == "ok"
    assert sleeps == [0.25, 0.5]

    def broken() -> None:
        raise httpx.ReadTimeout("slow")

    sleeps.clear()
    with pytest.raises(StoreError, match="a call: slow"):
        retrying(broken, "a call", sleeps.append)
    assert sleeps == [0.25, 0.5, 1.0, 2.0]

    def bad_call() -> None:
        raise ValueError("Expected ids to be a list")

    sleeps.clear()
    with pytest.raises(ValueError):  # not transient: no retry, the caller's bug shows
        retrying(bad_call, "a call", sleeps.append)
    assert sleeps == []


def test_bad_url_is_a_clear_error():
    with pytest.raises(StoreError, match="http://host:port"):
        ChromaServer.from_env("ftp://somewhere")
