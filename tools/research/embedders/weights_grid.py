"""Semantic/lexical weights and rrf_k with one embedder, on the DEV halves only (need-based
and older sets), from the indexes `bench quality --workdir W` built.

    .venv/bin/python weights_grid.py EMBEDDER W
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

MAIN = Path(__file__).resolve().parents[3]  # the checkout
sys.path.insert(0, str(MAIN))
from mindnet_desktop.bench.quality import Scores, first_gold_rank, load_qa_set, ranked_notes  # noqa
from mindnet_desktop.core.models.embedders import make_embedder  # noqa
from mindnet_desktop.core.service.vault.mindnet import Mindnet  # noqa

GRID = [
    (0.6, 0.4, 10),
    (0.7, 0.3, 10),
    (0.8, 0.2, 10),
    (0.9, 0.1, 10),
    (0.6, 0.4, 30),
    (0.7, 0.3, 30),
    (0.8, 0.2, 30),
    (0.5, 0.5, 10),
]


def main(name: str, work: Path) -> None:
    embedder = make_embedder(name)
    sets = [
        (kind, p)
        for kind, folder in (("old", MAIN / "resources/qa"), ("needs", MAIN / "resources/qa/needs"))
        for p in sorted(folder.glob("*.yaml"))
    ]
    ranks: dict[tuple, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for kind, path in sets:
        qa = load_qa_set(path, MAIN)
        data = work / f"{qa.name}-{name}"
        if not data.exists():
            print("no index", data)
            continue
        dev = [q for q in qa.questions if q.split == "dev"]
        with Mindnet(qa.vault, data, None, embedder, write=False) as mn:
            base = mn.retriever_config
            for sem, lex, k in GRID:
                mn.use_retriever_config(
                    replace(
                        base, weights={**base.weights, "semantic": sem, "lexical": lex}, rrf_k=k
                    )
                )
                for q in dev:
                    r = first_gold_rank(ranked_notes(mn, "hybrid", q.q), q.gold)
                    ranks[(sem, lex, k)][f"{kind}-{q.lang}"].append(r)
            mn.use_retriever_config(base)
        print("done", kind, qa.name, flush=True)
    groups = ["needs-en", "needs-de", "old-en", "old-de"]
    print("| sem/lex/k | " + " | ".join(groups) + " |")
    for key, per in ranks.items():
        cells = []
        for g in groups:
            s = Scores()
            s.ranks.extend(per[g])
            m = s.summary()
            cells.append(f"{m['hit@1']:.2f}/{m['hit@5']:.2f}/{m['mrr']:.2f} (n={len(per[g])})")
        print(f"| {key} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
