"""Embedders for the embedding-process tests, importable by a child process (`python -m
embed_worker` unpickles them by name): they say which text and which child made a vector."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

import numpy as np

from mindnet_desktop.core.models.embedders import HashEmbedder


class SlowHashEmbedder(HashEmbedder):
    """The hash embedder, taking `delay` seconds for a batch whose first text starts with
    "slow": the children of a pool then finish their batches out of order."""

    def __init__(self, dim: int = 64, delay: float = 0.3) -> None:
        super().__init__(dim)
        self.delay = delay

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if texts and str(texts[0]).startswith("slow"):
            time.sleep(self.delay)
        return super().embed(texts)


class ThreadsEmbedder:
    """One row per text: [its `threads` setting, OMP_NUM_THREADS (0 if unset)]."""

    name = "threads"
    dim = 2

    def __init__(self, threads: int = 4) -> None:
        self.threads = threads

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        omp = float(os.environ.get("OMP_NUM_THREADS", 0))
        return np.array([[self.threads, omp]] * len(texts), np.float32)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)

    def forget_queries(self) -> None:
        pass
