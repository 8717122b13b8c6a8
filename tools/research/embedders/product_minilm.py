"""The product itself with all-MiniLM-L6-v2 int8 as its embedder (English vaults only): a
Mindnet index built with a custom embedder object (nothing in the checkout changes), then the
same rankings as product_runs.py (hybrid = every term of the product, semantic = MiniLM).

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python product_minilm.py
Writes out/product-minilm-int8.json (English vaults' sets only).
"""

from __future__ import annotations

import time

import numpy as np
from common import DATA, OUT, SETS, dump_chunks, load_dev, save_json
from models import MiniLMInt8

from mindnet_desktop.bench.quality import first_gold_rank, ranked_notes

try:
    from mindnet_desktop.core.service.search.hybrid import hybrid_search
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
except ImportError:
    from mindnet_desktop.core.service.mindnet import Mindnet

    from mindnet_desktop.core.service.search import hybrid_search
from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest.importer import ImportOptions


class ProductMiniLM:
    """The product's Embedder protocol around MiniLMInt8 (2 threads)."""

    name = "minilm-int8"
    dim = 384

    def __init__(self) -> None:
        self.m = MiniLMInt8(threads=2)
        self.calls = 0

    def embed(self, texts):
        self.calls += 1
        return self.m.embed(list(texts)) if len(texts) else np.zeros((0, 384), np.float32)

    def embed_query(self, texts):
        return self.embed(texts)

    def forget_queries(self) -> None:
        pass


def main() -> None:
    emb = ProductMiniLM()
    result: dict = {"embedder": "minilm-int8", "sets": {}, "import": {}}
    opened = {}
    for key in SETS:
        vault, questions = load_dev(key)
        if vault.name not in ("rust-book-en", "pydocs"):
            continue
        if vault.name not in opened:
            t0 = time.perf_counter()
            mn = Mindnet(
                vault,
                DATA / f"{vault.name}-minilm-int8",
                None,
                emb,
                write=True,
                read_only_vault=True,
            )
            drain(mn.import_vault(ImportOptions(sync_deletes=True, embed_workers=0)))
            took = time.perf_counter() - t0
            result["import"][vault.name] = {
                "seconds": round(took, 1),
                "chunks": len(dump_chunks(mn)),
            }
            print(vault.name, result["import"][vault.name], flush=True)
            opened[vault.name] = mn
        mn = opened[vault.name]
        per_q = {}
        for q in questions:
            row = {"q": q.q, "lang": q.lang, "kind": q.kind, "gold": list(q.gold)}
            t0 = time.perf_counter()
            hyb = ranked_notes(mn, "hybrid", q.q)
            row["hybrid_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            row["rank"] = {"hybrid": first_gold_rank(hyb, q.gold)}
            for variant in ("semantic", "lexical"):
                row["rank"][variant] = first_gold_rank(ranked_notes(mn, variant, q.q), q.gold)
            deep = hybrid_search(mn, q.q, 30, log=False, per_note=True, language="en").hits
            row["hybrid_notes30"] = [[h.note_id, h.path] for h in deep[:30]]
            per_q[q.id] = row
        result["sets"][key] = per_q
        print(key, len(per_q), flush=True)
    save_json(OUT / "product-minilm-int8.json", result)


if __name__ == "__main__":
    main()
