"""The search figure that the app and the CLI find the same candidates: the semantic top 50
of Chroma's approximate vector index (what the app and `watch` search) against the exact
search of the chunk snapshot (what a fresh CLI process searches), over the same index.

Chroma's default breadth (`ef_search` 100) held 72 % of the exact top 50 at 50,000 notes;
docs/retrieval-quality.md has the measurements that set `EF_SEARCH`.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from mindnet_desktop.bench.figures import QUESTIONS, Figure
from mindnet_desktop.core.store import chroma_codec as codec
from mindnet_desktop.core.store.chunk_snapshot import ChunkSnapshot

POOL = 50  # config/retriever.yaml candidate_pool
SENTENCES = 45  # drawn from random chunks, asked beside the bench's questions
GOAL = 0.95
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


def candidate_figure(run: Any, mn: Any) -> Figure | None:
    """Chroma's semantic top 50 against the exact one, over the bench's questions and
    SENTENCES sentences of the vault; None without a chunk snapshot in step (a server)."""
    snapshot = ChunkSnapshot.load(run.data, mn.state.snapshots.signatures()[0], run.embedder.name)
    if snapshot is None or not len(snapshot):
        return None
    questions = [*QUESTIONS, *sentence_queries(snapshot, SENTENCES)]
    shares = recall_at(mn.store, snapshot, run.embedder.embed_query(questions))
    value = float(np.mean(shares))
    return Figure(
        "search: Chroma's semantic top 50 holds the exact top 50 (recall, the app vs the CLI)",
        round(value, 4),
        "share",
        goal=f"≥ {GOAL:g}",
        ok=value >= GOAL,
        detail={"queries": len(shares), "lowest": round(min(shares), 2)},
    )
