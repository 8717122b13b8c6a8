"""How many of the exact semantic candidates Chroma's HNSW index finds, and whether the
final hybrid ranking changes, at a given `ef_search`.

The CLI's reader processes search the chunk snapshot exactly; the app (and `watch`) search
Chroma's HNSW index once their store is open. This compares the two on an imported data dir.

    python tools/research/hnsw/recall.py --vault V --data D --ef 100 [--ef 200 ...]

Each `--ef` is set on the data dir's collections (persisted: Chroma reads it when a process
first loads the index) and measured in a child process of its own; the data dir is left at
the last value given. Queries: 300 notes' mean vectors, 300 sentences drawn from chunks
(embedded as questions) and the bench's five questions.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

POOL = 50  # config/retriever.yaml candidate_pool


def set_ef(data: Path, ef: int) -> None:
    """Set `ef_search` on the data dir's two collections (Chroma keeps it; a process that
    loads the index afterwards searches with it)."""
    import chromadb
    from chromadb.config import Settings

    from mindnet_desktop.core.models.embedders import chroma_embedding_function, make_embedder
    from mindnet_desktop.core.store.chunk_snapshot import snapshot_embedder

    function = chroma_embedding_function(make_embedder(snapshot_embedder(data)))
    settings = Settings(anonymized_telemetry=False)
    client = chromadb.PersistentClient(str(data / "chroma"), settings=settings)
    for name in ("mindnet_notes", "mindnet_chunks"):
        collection = client.get_collection(name, embedding_function=function)
        collection.modify(configuration={"hnsw": {"ef_search": ef}})


def queries(snap: Any, n: int) -> dict[str, Any]:
    """`n` sentences drawn from random chunks, the bench's questions and `n` random notes'
    mean vectors (what related notes search with)."""
    from mindnet_desktop.bench.candidates import sentence_queries
    from mindnet_desktop.bench.figures import QUESTIONS

    rng = random.Random(0)
    notes = np.asarray(snap.note_vectors()[1])
    picked = notes[sorted(rng.sample(range(len(notes)), min(n, len(notes))))]
    return {
        "sentences": sentence_queries(snap, n),
        "questions": list(QUESTIONS),
        "note vectors": picked,
    }


def measure(vault: Path, data: Path, n: int) -> dict[str, dict[str, float]]:
    """Per kind of query: the app's store (Chroma) against the exact chunk snapshot."""
    from mindnet_desktop.core.models.embedders import make_embedder
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store.chunk_snapshot import snapshot_embedder

    embedder = make_embedder(snapshot_embedder(data))
    out: dict[str, dict[str, float]] = {}
    with (
        Mindnet(vault, data, None, embedder, lazy_store=True) as reader,
        Mindnet(vault, data, None, embedder) as app,
    ):
        snapshot = reader.store.snapshot
        asked = queries(snapshot, n)
        for kind, items in asked.items():
            vectors = items if isinstance(items, np.ndarray) else embedder.embed_query(items)
            recall, seconds, same_top, same_set = [], [], [], []
            for i, vector in enumerate(vectors):
                exact = {row.chunk_id for row, _ in snapshot.nearest(vector, POOL)}
                started = time.perf_counter()
                found = {row.chunk_id for row, _ in app.store.nearest_chunks(vector, POOL)}
                seconds.append(time.perf_counter() - started)
                recall.append(len(exact & found) / len(exact))
                if not isinstance(items, np.ndarray):
                    ours = [
                        h.note_id
                        for h in hybrid_search(app, items[i], k=10, log=False, per_note=True).hits
                    ]
                    theirs = [
                        h.note_id
                        for h in hybrid_search(
                            reader, items[i], k=10, log=False, per_note=True
                        ).hits
                    ]
                    same_top.append(ours[:1] == theirs[:1])
                    same_set.append(len(set(ours) & set(theirs)) / max(len(theirs), 1))
            out[kind] = {
                "n": len(recall),
                "recall@50": round(float(np.mean(recall)), 4),
                "min recall@50": round(float(np.min(recall)), 2),
                "query ms p50": round(float(np.median(seconds)) * 1000, 2),
            }
            if same_top:
                out[kind]["same top note"] = round(float(np.mean(same_top)), 3)
                out[kind]["top-10 notes shared"] = round(float(np.mean(same_set)), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--ef", type=int, action="append", default=[])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.vault, args.data, args.n)))
        return
    for ef in args.ef or [100]:
        set_ef(args.data, ef)
        child = [sys.executable, __file__, "--child", "--vault", str(args.vault)]
        got = subprocess.run(
            [*child, "--data", str(args.data), "--n", str(args.n)],
            check=True,
            capture_output=True,
            text=True,
        )
        print(json.dumps({"ef_search": ef, **json.loads(got.stdout.splitlines()[-1])}, indent=1))


if __name__ == "__main__":
    main()
