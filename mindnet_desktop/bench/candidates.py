"""The search figure that the app and the CLI find the same candidates: the semantic top 50
of Chroma's approximate vector index (what the app and `watch` search) against the exact
search of the chunk snapshot (what a fresh CLI process searches), over the same index.

Chroma's default breadth (`ef_search` 100) held 73 % of the exact top 50 at 50,000 notes;
docs/retrieval-quality.md has the measurements that set `EF_SEARCH`.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np

from mindnet_desktop.core.store import chroma_codec as codec
from mindnet_desktop.core.store.chunk_snapshot import ChunkSnapshot

POOL = 50  # config/retriever.yaml candidate_pool
SENTENCES = 45  # drawn from random chunks, asked beside the bench's questions
GOAL = 0.95  # the share of the exact top 50, averaged over the queries
SENTENCE_WORDS = (6, 30)


def sentence_queries(snapshot: ChunkSnapshot, count: int, seed: int = 0) -> list[str]:
    """`count` sentences of 6 to 30 words, each from another random chunk of `snapshot`
    (fewer when its chunks hold fewer such sentences)."""
    rng = random.Random(seed)
    shortest, longest = SENTENCE_WORDS
    found: list[str] = []
    for i in rng.sample(range(len(snapshot)), min(len(snapshot), count * 3)):
        text = codec.chunk_row(*snapshot.rows_at([i])[0]).chunk.text
        sentences = [
            s for s in re.split(r"(?<=[.!?])\s+", text) if shortest <= len(s.split()) <= longest
        ]
        if sentences:
            found.append(rng.choice(sentences))
        if len(found) == count:
            break
    return found


def recall_at(
    store: Any, snapshot: ChunkSnapshot, vectors: np.ndarray, k: int = POOL
) -> list[float]:
    """For each vector: the share of the snapshot's exact top `k` chunks that the store's
    `nearest_chunks` returns."""
    shares = []
    for vector in vectors:
        exact = {row.chunk_id for row, _ in snapshot.nearest(vector, k)}
        found = {row.chunk_id for row, _ in store.nearest_chunks(vector, k)}
        shares.append(len(exact & found) / max(len(exact), 1))
    return shares


def candidate_recall(data: Path, mn: Any, embedder: Any, questions: list[str]) -> list[float]:
    """Per query (`questions`, then SENTENCES sentences of the vault): Chroma's semantic
    top 50 against the exact one; empty without a chunk snapshot in step (a server), or
    when `mn` searches the snapshot itself (a reader store: nothing to compare)."""
    if getattr(mn.store, "snapshot", None) is not None:
        return []
    signature = mn.state.snapshots.signatures()[0]
    snapshot = ChunkSnapshot.load(data, signature, embedder.name)
    if snapshot is None or not len(snapshot):
        return []
    asked = [*questions, *sentence_queries(snapshot, SENTENCES)]
    return recall_at(mn.store, snapshot, embedder.embed_query(asked))
