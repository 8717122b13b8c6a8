"""Pure embedding of a list of texts through the import's embedding processes (the baseline
of `bench all`'s cold import): 1 child, then N side by side, each warmed up first."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from mindnet_desktop.bench.machine import process_rss
from mindnet_desktop.core.ingest.write_stage import EMBED_BATCH_CHUNKS
from mindnet_desktop.core.models.embed_worker import MAX_DEFAULT_WORKERS, EmbeddingPool
from mindnet_desktop.core.models.embedders import Embedder

# Above this many chunks the baselines embed a seeded sample of them and scale its time to
# all: at 50,000 notes (~170,000 chunks) embedding everything twice more would add an hour
# to a run whose import takes half of one; the rate of 30,000 chunks is steady.
BASELINE_TEXTS = 30_000


def baseline_texts(texts: Sequence[str], most: int = BASELINE_TEXTS) -> list[str]:
    """The texts the baselines embed: all of them, or a seeded sample of `most`."""
    if len(texts) <= most:
        return list(texts)
    return random.Random(5).sample(list(texts), most)


@dataclass(frozen=True)
class PureEmbedding:
    """Embedding `texts` chunk texts in `workers` child processes took `seconds`."""

    workers: int
    texts: int
    seconds: float
    rss_mib: list[int]  # each child's resident memory after the run

    def scaled(self, texts: int) -> PureEmbedding:
        """The same rate over `texts` chunks (a sample's time scaled to all of them)."""
        if texts == self.texts or not self.texts:
            return self
        return PureEmbedding(self.workers, texts, self.seconds * texts / self.texts, self.rss_mib)

    @property
    def rate(self) -> float:
        """Chunks per second, all children together."""
        return self.texts / self.seconds if self.seconds else 0.0

    @property
    def rate_per_worker(self) -> float:
        return self.rate / self.workers


def all_core_workers(used: int = 0) -> int:
    """Children that embed on every core (as many as the cores, at most
    MAX_DEFAULT_WORKERS, at least as many as an import used)."""
    return max(used, min(os.cpu_count() or 1, MAX_DEFAULT_WORKERS))


def pure_embedding(embedder: Embedder, texts: Sequence[str], workers: int) -> PureEmbedding:
    """Embed `texts` in batches as an import does (EMBED_BATCH_CHUNKS, each child one batch
    ahead), timed from the first batch to the last vectors; the children's start and model
    load are not timed."""
    pool = EmbeddingPool(embedder, workers)
    try:
        for _ in pool.workers:  # one tiny batch each: every child loads its model
            pool.submit(["warm up"])
        for _ in pool.workers:
            pool.take()
        waiting = 0
        started = time.perf_counter()
        for start in range(0, len(texts), EMBED_BATCH_CHUNKS):
            pool.submit(texts[start : start + EMBED_BATCH_CHUNKS])
            waiting += 1
            if waiting > pool.lookahead:
                pool.take()
                waiting -= 1
        for _ in range(waiting):
            pool.take()
        seconds = time.perf_counter() - started
        rss = [round(process_rss(w.pid) / 2**20) for w in pool.workers]
    finally:
        pool.close()
    return PureEmbedding(workers, len(texts), seconds, rss)
