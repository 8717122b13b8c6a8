"""Chat models already on the machine: Ollama's store, LM Studio's folder, a folder the user
names — found by their GGUF headers (tiny files written here; no weights), listed by
`mindnet models`, usable by name with `--model`."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.models.gguf_header import (
    GgufError,
    architecture_known,
    quant_from_name,
    read_gguf_header,
)
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.local import (
    chat_models,
    check_load,
    discover,
    find_model,
    resolve_chat_model,
)
from mindnet_desktop.core.models.weights import ModelError, packaged_gguf


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def write_gguf(
    path: Path,
    arch: str = "llama",
    name: str = "Tiny Chat",
    file_type: int = 15,
    extra: dict[str, int | str] | None = None,
    tokens: int = 3,
) -> Path:
    """A GGUF v3 header: architecture, name, file type, context length, any `extra` keys
    (uint32 or string), then the tokenizer's vocabulary (which the reader must not need)."""
    kv = [
        _string("general.architecture") + struct.pack("<I", 8) + _string(arch),
        _string("general.name") + struct.pack("<I", 8) + _string(name),
        _string("general.file_type") + struct.pack("<I", 4) + struct.pack("<I", file_type),
        _string(f"{arch}.context_length") + struct.pack("<I", 4) + struct.pack("<I", 2048),
        _string("general.tags") + struct.pack("<IIQ", 9, 8, 2) + _string("a") + _string("b"),
    ]
    kv += [
        _string(k)
        + (struct.pack("<I", 8) + _string(v) if isinstance(v, str) else struct.pack("<II", 4, v))
        for k, v in (extra or {}).items()
    ]
    vocab = b"".join(_string(f"tok{i}") for i in range(tokens))
    kv.append(_string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, tokens) + vocab)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv)) + b"".join(kv))
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with an Ollama store and an LM Studio folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    store = home / ".ollama" / "models"
    write_gguf(store / "blobs" / "sha256-aaaa", name="Tiny Llama 1B")
    write_gguf(
        store / "blobs" / "sha256-eeee",
        arch="nomic-bert",
        name="Embedder",
        file_type=1,
        extra={"nomic-bert.pooling_type": 1},
    )
    for model, tag, digest in (
        ("tiny", "1b-q4_K_M", "aaaa"),
        ("nomic-embed-text", "latest", "eeee"),
    ):
        manifest = store / "manifests" / "registry.ollama.ai" / "library" / model / tag
        manifest.parent.mkdir(parents=True, exist_ok=True)
        layers = [
            {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256-ffff"},
            {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}"},
        ]
        manifest.write_text(json.dumps({"schemaVersion": 2, "layers": layers}))
    lms = home / ".lmstudio" / "models" / "lmstudio-community" / "Tiny-Qwen-GGUF"
    write_gguf(lms / "Tiny-Qwen-Q5_K_M.gguf", arch="qwen2", name="Tiny Qwen", file_type=99)
    write_gguf(lms / "mmproj-Tiny-Qwen-F16.gguf", arch="clip", name="Projector", file_type=1)
    big = home / ".cache" / "lm-studio" / "models" / "acme" / "Big-GGUF"
    write_gguf(big / "Big-Q8_0-00001-of-00002.gguf", name="Big", file_type=7)
    write_gguf(big / "Big-Q8_0-00002-of-00002.gguf", name="Big", file_type=7)
    return home


def test_the_header_gives_name_architecture_and_quantisation(tmp_path: Path):
    info = read_gguf_header(write_gguf(tmp_path / "m.gguf", tokens=50_000))
    assert (info.architecture, info.name, info.file_type) == ("llama", "Tiny Chat", "Q4_K_M")
    assert info.context_length == 2048 and not info.is_embedding
    assert "tokenizer.ggml.tokens" not in info.metadata  # reading stopped before the vocabulary
    (tmp_path / "no.gguf").write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(GgufError):
        read_gguf_header(tmp_path / "no.gguf")
    (tmp_path / "cut.gguf").write_bytes((tmp_path / "m.gguf").read_bytes()[:60])
    with pytest.raises(GgufError):
        read_gguf_header(tmp_path / "cut.gguf")
    assert quant_from_name("Qwen2.5-7B-Instruct-Q4_K_M.gguf") == "Q4_K_M"
    assert quant_from_name("llama-3-8b.iq3_xxs.gguf") == "IQ3_XXS"


def test_the_header_of_the_packaged_test_model():
    info = read_gguf_header(packaged_gguf("test"))
    assert info.architecture == "llama" and info.file_type == "Q4_1"
    assert architecture_known("llama") is True and architecture_known("qwen2") is True
    assert architecture_known("no-such-architecture") is False


def test_ollama_lm_studio_and_a_folder_are_found(home: Path, tmp_path: Path):
    mine = tmp_path / "my-models"
    write_gguf(
        mine / "sub" / "Mine-Q6_K.gguf", arch="no-such-architecture", name="Mine", file_type=18
    )
    (mine / "notes.txt").write_text("not a model")
    found = {m.name: m for m in discover([mine], packaged=False)}
    tiny = found["tiny:1b-q4_K_M"]
    assert (tiny.source, tiny.kind, tiny.quant, tiny.title) == (
        "ollama",
        "chat",
        "Q4_K_M",
        "Tiny Llama 1B",
    )
    assert tiny.path == home / ".ollama/models/blobs/sha256-aaaa" and tiny.loadable is True
    assert tiny.size_bytes == tiny.path.stat().st_size
    assert found["nomic-embed-text:latest"].kind == "embedding"
    qwen = found["lmstudio-community/Tiny-Qwen-GGUF/Tiny-Qwen-Q5_K_M"]
    assert qwen.source == "lmstudio" and qwen.quant == "Q5_K_M"  # unknown file type: the name's
    assert found["lmstudio-community/Tiny-Qwen-GGUF/mmproj-Tiny-Qwen-F16"].kind == "projector"
    split = [n for n in found if n.startswith("acme/")]
    assert split == ["acme/Big-GGUF/Big-Q8_0-00001-of-00002"]  # the first part only
    own = found["sub/Mine-Q6_K"]
    assert own.source == "folder" and own.loadable is False and "no-such-architecture" in own.note
    usable = {m.name for m in chat_models([mine])}
    assert usable == {
        "tiny:1b-q4_K_M",
        "lmstudio-community/Tiny-Qwen-GGUF/Tiny-Qwen-Q5_K_M",
        "acme/Big-GGUF/Big-Q8_0-00001-of-00002",
    }


def test_ollama_models_env_moves_the_store(home: Path, tmp_path: Path, monkeypatch):
    moved = tmp_path / "elsewhere"
    (home / ".ollama" / "models").rename(moved)
    assert "tiny:1b-q4_K_M" not in {m.name for m in discover(packaged=False)}
    monkeypatch.setenv("OLLAMA_MODELS", str(moved))
    assert "tiny:1b-q4_K_M" in {m.name for m in discover(packaged=False)}


def test_a_detected_model_is_usable_by_name(home: Path):
    blob = home / ".ollama/models/blobs/sha256-aaaa"
    assert resolve_chat_model("tiny:1b-q4_K_M") == blob
    assert resolve_chat_model("Tiny-Qwen-Q5_K_M").name == "Tiny-Qwen-Q5_K_M.gguf"  # unique tail
    assert find_model("no-such-model") is None
    with pytest.raises(ModelError):
        resolve_chat_model("no-such-model")
    assert resolve_chat_model(str(blob)) == blob  # a path still works
    assert LlamaChat("tiny:1b-q4_K_M").name == "tiny:1b-q4_K_M"


def test_mindnet_models_lists_them_with_json(home: Path, tmp_path: Path, capsys):
    mine = tmp_path / "mine"
    write_gguf(mine / "Solo-Q4_0.gguf", name="Solo", file_type=2)
    assert main(["models", "--scan", str(mine), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {m["name"]: m for m in out["models"]}
    assert {"default", "small", "test"} <= set(rows)  # the packaged ones, installed or not
    assert rows["test"]["source"] == "packaged" and rows["test"]["path"]
    assert rows["Solo-Q4_0"]["quant"] == "Q4_0" and rows["Solo-Q4_0"]["source"] == "folder"
    assert rows["tiny:1b-q4_K_M"]["loadable"] is True and rows["tiny:1b-q4_K_M"]["size_bytes"]
    assert "nomic-embed-text:latest" not in rows  # an embedding model (shown with --all)
    assert main(["models", "--all", "--json"]) == 0
    assert "nomic-embed-text:latest" in capsys.readouterr().out
    assert main(["models"]) == 0
    text = capsys.readouterr().out
    assert "tiny:1b-q4_K_M" in text and "Q4_K_M" in text and "ollama" in text


@pytest.mark.e2e
def test_check_loads_for_real(tmp_path: Path):
    assert check_load(packaged_gguf("test")) == "ok"
    assert check_load(write_gguf(tmp_path / "header-only.gguf")) != "ok"
