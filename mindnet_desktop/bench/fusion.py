"""Choosing the fusion and the weights by evidence: rank a question set's DEV half under
several retriever configurations and compare hit@1 / hit@5 / MRR (the test half is never
looked at here; `mindnet bench quality` reports it).

    python -m mindnet_desktop.bench.fusion [--compare fusion|default]
        DATA_DIR VAULT SET.yaml [SET.yaml ...]

DATA_DIR holds an index of VAULT built by `mindnet bench quality --workdir` (or an import).
`fusion` compares the ways of fusing semantic and lexical; `default` ranks with the
configuration in effect and the two single signals (for comparing indexes built
differently: chunk sizes, the lexical analysis). How a note's score adds up its chunks
(`support`: best chunk plus a decayed sum of the next ones) was compared in commit 6e96c39
and not kept.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.quality import Scores, first_gold_rank, load_qa_set
from mindnet_desktop.core.config.retriever import RetrieverConfig
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.resources import ROOT

DEPTH = 10


def single_signals(base: RetrieverConfig) -> dict[str, RetrieverConfig]:
    """Semantic alone and lexical alone."""
    only = {t: 0.0 for t in base.weights}
    return {
        "semantic only": replace(base, weights={**only, "semantic": 1.0}, lexical_pool=0),
        "lexical only": replace(base, weights={**only, "lexical": 1.0}, candidate_pool=1),
    }


def variants(base: RetrieverConfig) -> dict[str, RetrieverConfig]:
    """The configurations compared: today's weighted min-max sum, rebalanced weights, and
    reciprocal-rank fusion of the semantic and lexical terms with several k."""

    def weighted(sem: float, lex: float, coverage: float = 0.0, **kw: Any) -> RetrieverConfig:
        weights = {**base.weights, "semantic": sem, "lexical": lex, "coverage": coverage}
        return replace(base, weights=weights, **kw)

    out = {"minmax .60/.10 (old default)": weighted(0.6, 0.1)}
    for cov in (0.0, 0.15, 0.3):
        c = {"coverage": cov}
        out[f"minmax .35/.35 cov {cov}"] = weighted(0.35, 0.35, **c)
        for k, sem, lex in ((10, 0.6, 0.4), (10, 0.5, 0.5), (30, 0.6, 0.4)):
            out[f"rrf k={k} {sem:.1f}/{lex:.1f} cov {cov}"] = weighted(
                sem, lex, fusion="rrf", rrf_k=k, **c
            )
    return {**out, **single_signals(base)}


COMPARISONS = {
    "fusion": variants,
    "default": lambda base: {"default": base, **single_signals(base)},
}


class CachedQueries:
    """The embedder with its query vectors remembered: every configuration ranks the same
    questions, so each is embedded once."""

    def __init__(self, embedder: Any) -> None:
        self.embedder, self.name, self.dim = embedder, embedder.name, embedder.dim
        self.cache: dict[str, Any] = {}

    def embed(self, texts: list[str]) -> Any:
        return self.embedder.embed(texts)

    def embed_query(self, texts: list[str]) -> Any:
        import numpy as np

        missing = [t for t in texts if t not in self.cache]
        if missing:
            for text, vector in zip(missing, self.embedder.embed_query(missing)):
                self.cache[text] = vector
        return np.stack([self.cache[t] for t in texts])


def evaluate_configs(
    mn: Mindnet, questions: list[Any], compare: str = "fusion"
) -> dict[str, dict[str, float]]:
    results = {}
    mn.embedder = CachedQueries(mn.embedder)  # type: ignore[assignment]
    mn.embedder.embed_query([q.q for q in questions])
    base = mn.retriever_config
    for name, config in COMPARISONS[compare](base).items():
        mn.use_retriever_config(config)
        scores = Scores()
        for q in questions:
            hits = hybrid_search(mn, q.q, DEPTH, log=False, per_note=True, language="en").hits
            ranked = [(h.note_id, h.path) for h in hits[:DEPTH]]
            scores.ranks.append(first_gold_rank(ranked, q.gold))
        results[name] = scores.summary()
        print(name, results[name], file=sys.stderr, flush=True)
    mn.use_retriever_config(base)  # the next comparison starts from the same configuration
    return results


def main(argv: list[str]) -> int:
    compare = "fusion"
    if argv[:1] == ["--compare"]:
        compare, argv = argv[1], argv[2:]
    data_dir, vault, *sets = argv
    out: dict[str, Any] = {}
    with Mindnet(Path(vault), Path(data_dir), None, make_embedder(), write=True) as mn:
        for path in sets:
            qa = load_qa_set(Path(path), ROOT)
            dev = [q for q in qa.questions if q.split == "dev"]
            out[qa.name] = evaluate_configs(mn, dev, compare)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
