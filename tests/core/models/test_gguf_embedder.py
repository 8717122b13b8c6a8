"""`--embedder gguf:NAME|PATH`: the user's own GGUF embedding model. Its dim, pooling,
prefixes and name come from the header (tiny files written here, no weights); an index never
mixes two GGUF embedders; the real llama.cpp path runs with the packaged chat model."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.models.embed_worker import EmbeddingPool, EmbeddingWorker
from mindnet_desktop.core.models.embedders import EmbedderError, HashEmbedder, make_embedder
from mindnet_desktop.core.models.gguf_embedder import GgufEmbedder
from mindnet_desktop.core.models.gguf_profile import (
    POOLING_CLS,
    POOLING_LAST,
    POOLING_MEAN,
    SEARCH_INSTRUCT,
    read_profile,
)
from mindnet_desktop.core.models.weights import DEFAULT_CHAT, cache_dir
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.protocol import StoreError
from tests.conftest import run_import
from tests.core.models.test_local_models import write_gguf


def embedding_gguf(
    path: Path, arch: str = "bert", name: str = "bge-m3", pooling: int | None = 1, dim: int = 48
) -> Path:
    extra: dict[str, int | str] = {f"{arch}.embedding_length": dim}
    if pooling is not None:
        extra[f"{arch}.pooling_type"] = pooling
    return write_gguf(path, arch=arch, name=name, file_type=1, extra=extra)


# What each family's model card asks for before a query and a passage.
PREFIXES = {
    "e5": ("query: ", "passage: "),
    "e5-instruct": (SEARCH_INSTRUCT + " ", ""),
    "nomic-embed": ("search_query: ", "search_document: "),
    "bge-m3": ("", ""),
    "embeddinggemma": ("task: search result | query: ", "title: none | text: "),
    "qwen3-embedding": (SEARCH_INSTRUCT, ""),
    "mxbai-embed": ("Represent this sentence for searching relevant passages: ", ""),
    None: ("", ""),
}


@pytest.mark.parametrize(
    ("arch", "name", "pooling", "family", "expected_pooling"),
    [
        ("bert", "multilingual-e5-large", 1, "e5", POOLING_MEAN),
        ("bert", "Multilingual E5 Large Instruct", 1, "e5-instruct", POOLING_MEAN),
        ("nomic-bert", "nomic-embed-text-v1.5", 1, "nomic-embed", POOLING_MEAN),
        ("nomic-bert", "Embedder", 1, "nomic-embed", POOLING_MEAN),  # by its architecture
        ("bert", "BGE M3", 2, "bge-m3", POOLING_CLS),
        ("gemma-embedding", "embeddinggemma-300m", 1, "embeddinggemma", POOLING_MEAN),
        ("qwen3", "Qwen3 Embedding 0.6B", 3, "qwen3-embedding", POOLING_LAST),
        ("bert", "mxbai-embed-large-v1", 2, "mxbai-embed", POOLING_CLS),
        ("bert", "all-MiniLM-L6-v2", None, None, POOLING_MEAN),  # no key: mean for an encoder
        ("bert", "granite-embedding", 0, None, POOLING_MEAN),  # "none" pools nothing
        ("llama", "Tiny Chat", None, None, POOLING_LAST),  # a decoder LLM: its last token
        ("e5x", "base5", 1, None, POOLING_MEAN),  # "e5" counts only as a word
    ],
)
def test_prefixes_and_pooling_come_from_the_header(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    arch: str,
    name: str,
    pooling: int | None,
    family: str | None,
    expected_pooling: int,
) -> None:
    monkeypatch.setattr(
        "mindnet_desktop.core.models.gguf_profile.architecture_known", lambda arch: True
    )
    profile = read_profile(embedding_gguf(tmp_path / "model.gguf", arch, name, pooling))
    assert profile.family == family
    assert (profile.query_prefix, profile.passage_prefix) == PREFIXES[family]
    assert profile.pooling == expected_pooling
    assert profile.pooling_from_file == (pooling not in (None, 0))
    assert profile.dim == 48 and profile.architecture == arch
    assert profile.is_chat_model == (arch == "llama")


def test_the_name_identifies_the_file_and_how_it_embeds(tmp_path: Path) -> None:
    first = embedding_gguf(tmp_path / "a" / "bge-m3-F16.gguf")
    again = make_embedder(f"gguf:{first}")
    assert again.name == make_embedder(f"gguf:{first}").name  # the same file: the same name
    assert again.name.startswith("gguf:bge-m3-") and len(again.name) == len("gguf:bge-m3-") + 12
    assert again.dim == 48  # known before the model loads

    copy = tmp_path / "b" / "bge-m3-F16.gguf"
    copy.parent.mkdir()
    shutil.copy(first, copy)
    assert make_embedder(f"gguf:{copy}").name == again.name  # a copy is the same model
    with copy.open("ab") as handle:
        handle.write(b"\x01")  # other weights (the end of the file), the same header
    assert make_embedder(f"gguf:{copy}").name != again.name
    # The same file embedded with other prefixes (the name discovery gave it) is another index.
    assert read_profile(first, "multilingual-e5-small:latest").name != again.name


def test_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="is not there"):
        make_embedder(f"gguf:{tmp_path / 'missing.gguf'}")
    (tmp_path / "notes.gguf").write_bytes(b"PK\x03\x04 a zip")
    with pytest.raises(EmbedderError, match="is not a GGUF model"):
        make_embedder(f"gguf:{tmp_path / 'notes.gguf'}")
    projector = write_gguf(
        tmp_path / "mmproj.gguf", arch="clip", extra={"clip.embedding_length": 8}
    )
    with pytest.raises(EmbedderError, match="vision projector"):
        make_embedder(f"gguf:{projector}")
    with pytest.raises(EmbedderError, match="cannot load 'no-such-arch'"):
        make_embedder(f"gguf:{embedding_gguf(tmp_path / 'new.gguf', arch='no-such-arch')}")
    with pytest.raises(EmbedderError, match="reranker"):
        make_embedder(f"gguf:{embedding_gguf(tmp_path / 'rank.gguf', pooling=4)}")
    with pytest.raises(EmbedderError, match="embedding_length"):
        make_embedder(f"gguf:{write_gguf(tmp_path / 'nodim.gguf', arch='bert')}")
    with pytest.raises(EmbedderError, match="gguf:NAME or gguf:PATH"):
        make_embedder("gguf:")
    with pytest.raises(EmbedderError, match="gguf:NAME|PATH"):
        make_embedder("bge-m3")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Ollama with an e5 model whose header says nothing of e5; LM Studio with bge-m3."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    store = home / ".ollama" / "models"
    embedding_gguf(store / "blobs" / "sha256-e5e5", name="model", pooling=1)
    manifest = store / "manifests" / "registry.ollama.ai" / "library" / "multilingual-e5-small"
    manifest.mkdir(parents=True)
    layer = {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:e5e5"}
    (manifest / "latest").write_text(json.dumps({"layers": [layer]}))
    lms = home / ".lmstudio" / "models" / "gpustack" / "bge-m3-GGUF"
    embedding_gguf(lms / "bge-m3-Q8_0.gguf", name="bge-m3", pooling=2)
    return home


def test_a_name_resolves_through_discovery(home: Path) -> None:
    e5 = make_embedder("gguf:multilingual-e5-small:latest")
    assert isinstance(e5, GgufEmbedder)
    assert e5.profile.path.name == "sha256-e5e5" and e5.profile.family == "e5"
    assert e5.profile.query_prefix == "query: "  # from the name Ollama gives it
    bge = make_embedder("gguf:bge-m3-Q8_0")  # the last part of an LM Studio name
    assert bge.profile.pooling == POOLING_CLS
    # The name an index stores resolves back to its file (the app keeps it in its settings).
    assert make_embedder(e5.name).profile.path == e5.profile.path
    assert make_embedder(bge.name).name == bge.name
    with pytest.raises(EmbedderError, match="mindnet models --embedders"):
        make_embedder("gguf:no-such-model")
    with pytest.raises(EmbedderError, match="mindnet models --embedders"):
        make_embedder("gguf:bge-m3-000000000000")


def test_mindnet_models_lists_the_embedding_models_with_their_embedder(home: Path, capsys) -> None:
    assert main(["models", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["models"]
    assert rows and all(m["kind"] != "embedding" and m["embedder"] is None for m in rows)
    assert main(["models"]) == 0
    text = capsys.readouterr().out
    assert "packaged" in text and "multilingual-e5" not in text
    assert "2 embedding model(s) too: mindnet models --embedders" in text

    assert main(["models", "--embedders", "--json"]) == 0
    rows = {m["name"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert {m["kind"] for m in rows.values()} == {"embedding"}
    spec = rows["multilingual-e5-small:latest"]["embedder"]
    assert spec == "gguf:multilingual-e5-small:latest"
    lms = rows["gpustack/bge-m3-GGUF/bge-m3-Q8_0"]
    assert (
        lms["embedder"] == "gguf:gpustack/bge-m3-GGUF/bge-m3-Q8_0" and lms["architecture"] == "bert"
    )
    for row in rows.values():  # each listed spec makes that file's embedder
        assert str(make_embedder(row["embedder"]).profile.path) == row["path"]
    assert main(["models", "--embedders"]) == 0
    text = capsys.readouterr().out
    assert "use: mindnet --embedder gguf:multilingual-e5-small:latest import --reembed" in text
    assert "embedding model" in text and "packaged" not in text  # no chat model


class FakeLlama:
    """Stands in for llama.cpp's model: hashed bag of words, not unit length."""

    def __init__(self, dim: int) -> None:
        self.inner, self.seen = HashEmbedder(dim), []

    def embed(self, texts: list[str], truncate: bool = True) -> list[list[float]]:
        self.seen += texts
        return (self.inner.embed(texts) * 3.0).tolist()


@pytest.fixture
def fake_llama(monkeypatch: pytest.MonkeyPatch) -> list[FakeLlama]:
    """The models loaded, each a FakeLlama (llama.cpp itself runs in the last test)."""
    made: list[FakeLlama] = []

    def load(self: GgufEmbedder) -> FakeLlama:
        made.append(FakeLlama(self.dim))
        return made[-1]

    monkeypatch.setattr(GgufEmbedder, "_load", load)
    return made


def test_prefixes_reach_the_model_and_vectors_are_unit_length(tmp_path: Path, fake_llama) -> None:
    e5 = make_embedder(f"gguf:{embedding_gguf(tmp_path / 'multilingual-e5-small.gguf')}")
    passages = e5.embed(["Qdrant speichert Vektoren", ""])
    queries = e5.embed_query(["Wo liegen die Vektoren?"])
    assert passages.dtype == np.float32 and passages.shape == (2, 48) and queries.shape == (1, 48)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert fake_llama[0].seen == [
        "passage: Qdrant speichert Vektoren",
        "passage: ",
        "query: Wo liegen die Vektoren?",
    ]
    assert e5.embed([]).shape == (0, 48)


def test_it_pickles_as_its_settings(tmp_path: Path, fake_llama) -> None:
    embedder = make_embedder(f"gguf:{embedding_gguf(tmp_path / 'bge-m3.gguf')}", threads=3)
    embedder.embed(["loaded"])
    copy = pickle.loads(pickle.dumps(embedder))
    assert not copy.loaded and copy.name == embedder.name and copy.dim == embedder.dim
    assert (copy.profile, copy.threads, copy.context) == (embedder.profile, 3, embedder.context)


def test_an_index_never_mixes_two_gguf_embedders(vault, tmp_path, open_mindnet, fake_llama) -> None:
    first = embedding_gguf(tmp_path / "models" / "bge-m3.gguf")
    other = embedding_gguf(
        tmp_path / "models" / "nomic-embed-text.gguf", "nomic-bert", "nomic-embed-text"
    )
    mn = open_mindnet(vault, embedder=make_embedder(f"gguf:{first}"))
    run_import(mn, embed_workers=0)
    built_with = mn.store.embedder_name
    mn.close()

    with pytest.raises(StoreError, match=f"--embedder gguf:{other} import --reembed"):
        Mindnet(vault, tmp_path / "data", embedder=make_embedder(f"gguf:{other}"), write=True)
    # The same file again opens the index as it is.
    same = open_mindnet(vault, embedder=make_embedder(f"gguf:{first}"))
    assert same.store.embedder_name == built_with and not same.store.reset
    assert run_import(same, embed_workers=0).summary.unchanged == len(same.records)
    same.close()
    switched = open_mindnet(vault, embedder=make_embedder(f"gguf:{other}"), replace_embedder=True)
    assert switched.store.reset and switched.store.embedder_name != built_with


QWEN = cache_dir() / f"{DEFAULT_CHAT.name}.gguf"


@pytest.mark.e2e
@pytest.mark.skipif(
    not QWEN.is_file(),
    reason=f"the packaged chat model is not joined into {QWEN.parent} (one `mindnet ask` does)",
)
def test_the_packaged_chat_model_embeds_through_llama_cpp() -> None:
    """The plumbing with a real GGUF: the packaged chat model (a decoder LLM: last-token
    pooling, no prefixes). No embedding GGUF installs from PyPI, so this says nothing of
    the quality of a real embedding model."""
    embedder = make_embedder(f"gguf:{QWEN}", threads=1)
    assert isinstance(embedder, GgufEmbedder)
    embedder.context = 256  # short texts: a small context loads faster
    texts = [
        "The cat sits on the mat.",
        "A cat is sitting on a rug.",
        "Tax returns are due in April.",
    ]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, 1536) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(embedder.embed(texts), vectors)  # deterministic
    similarity = vectors @ vectors.T
    assert similarity[0, 1] > similarity[0, 2] and similarity[0, 1] > similarity[1, 2]
    embedder.close()
    # An import's embedding process loads its own copy from the pickled settings.
    worker = EmbeddingWorker(embedder)
    try:
        worker.submit(texts)
        assert np.allclose(worker.take(), vectors, atol=1e-5)
    finally:
        worker.close()
    # A pool of two (each llama.cpp on one thread) gives each batch's vectors, in order
    # (llama.cpp's vector of a text moves a little with the batch it is in: ~4e-4).
    batches = [texts[:2], texts[2:]]
    pool = EmbeddingPool(embedder, 2)
    try:
        for batch in batches:
            pool.submit(batch)
        for batch in batches:
            assert np.allclose(pool.take(), embedder.embed(batch), atol=1e-5)
    finally:
        pool.close()
        embedder.close()
