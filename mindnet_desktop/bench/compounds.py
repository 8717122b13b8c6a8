"""Experiment (issue 11): German compounds in the query split at the vault's own terms,
compared on a QA set's DEV half (not kept: see the README, Retrieval quality).

    python -m mindnet_desktop.bench.compounds DATA_DIR VAULT SET.yaml [MODE ...]

MODE: `off`; `always`: every word that splits into two indexed terms adds them;
`commoner`: only when the parts are commoner than the whole word (Koehn & Knight);
`unknown`: only words the index does not hold whole.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mindnet_desktop.bench.fusion import evaluate_configs
from mindnet_desktop.bench.quality import load_qa_set
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.mindnet import Mindnet
from mindnet_desktop.resources import ROOT


def main(argv: list[str]) -> int:
    data, vault, qa_path, *modes = argv
    out = {}
    with Mindnet(Path(vault), Path(data), None, make_embedder(), write=True) as mn:
        qa = load_qa_set(Path(qa_path), ROOT)
        dev = [q for q in qa.questions if q.split == "dev"]
        for mode in modes or ["off", "always", "commoner", "unknown"]:
            lexical = mn.store.lexical
            lexical.split_compounds = mode != "off"
            lexical.split_rule = mode
            print("==", mode, file=sys.stderr, flush=True)
            out[mode] = evaluate_configs(mn, dev, "default")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
