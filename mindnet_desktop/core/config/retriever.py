"""`config/retriever.yaml`: weights of the hybrid score, per-kind and per-provenance edge
weights, status multipliers, candidate pool and k (typed and validated)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from mindnet_desktop.core.config.type_registry import (
    ConfigError,
    config_file,
    integer,
    load_yaml,
    mapping,
    number,
)
from mindnet_desktop.core.files import atomic_writer

TERMS = (
    "semantic",
    "lexical",
    "name",
    "edge",
    "centrality",
    "type",
    "status",
    "coverage",
    "feedback",
)
# Absent from an older override file: off, except the user's own ratings, which count
# wherever the weights came from (the bundled weight).
FEEDBACK_WEIGHT = 0.75
OPTIONAL_TERMS = {"lexical": 0.0, "name": 0.0, "coverage": 0.0, "feedback": FEEDBACK_WEIGHT}
# A rating counts for a question whose cosine to the rated one exceeds the threshold (per
# embedder, as models spread cosines differently; others: "default").
FEEDBACK_THRESHOLD = {"default": 0.8}
# A ▼ stops counting where the note's evidence for the new question exceeds its evidence for
# the rated one by this much (absent from an older override file: this; `null`: no guard).
FEEDBACK_DOWN_MARGIN = 0.2
PROVENANCES = ("explicit", "rule", "structure", "user")
FUSIONS = ("minmax", "rrf")


@dataclass(frozen=True)
class RetrieverConfig:
    weights: dict[str, float]
    edge_weights: dict[str, float]
    provenance_weights: dict[str, float]
    status_multipliers: dict[str, float]
    candidate_pool: int
    k: int
    lexical_pool: int = 50
    source: str = ""
    # How the semantic and lexical terms turn a candidate's cosine / BM25 into a raw value:
    # "minmax" scales the value to the candidates (best 1, worst 0); "rrf" uses its rank
    # among them, (rrf_k + 1) / (rrf_k + rank), as reciprocal-rank fusion does.
    fusion: str = "minmax"
    rrf_k: int = 60
    feedback_threshold: dict[str, float] = field(default_factory=lambda: dict(FEEDBACK_THRESHOLD))
    feedback_down_threshold: dict[str, float] = field(default_factory=dict)  # none: threshold
    feedback_half_life_days: float = 180.0
    # A ▼ counts less where the note's evidence for the new question exceeds its evidence
    # for the rated one, and not at all from this margin on (None: no guard).
    feedback_down_margin: float | None = FEEDBACK_DOWN_MARGIN
    # Term weights that replace some of `weights` for an index built with one embedder (its
    # name -> {term: weight}): models differ in how far their cosine alone can be trusted.
    embedder_weights: dict[str, dict[str, float]] = field(default_factory=dict)
    # Embedders whose vector of a question of several sentences is the mean of the whole
    # question's and each sentence's (`core/retrieval/question.py`), and whether the embedder
    # this configuration is for is one of them (set by `for_embedder`).
    sentence_embedders: tuple[str, ...] = ()
    by_sentence: bool = False
    # The languages of the questions embedded so (empty: every language).
    sentence_languages: tuple[str, ...] = ()

    def for_embedder(self, embedder: str) -> RetrieverConfig:
        """This configuration for an index built with `embedder`: its own term weights in
        place (if it has any), and whether it embeds a question sentence by sentence."""
        own = self.embedder_weights.get(embedder)
        weights = {**self.weights, **own} if own else self.weights
        return replace(self, weights=weights, by_sentence=embedder in self.sentence_embedders)

    def edge_weight(self, kind: str) -> float:
        return self.edge_weights.get(kind, self.edge_weights.get("default", 1.0))

    def threshold(self, embedder: str, down: bool = False) -> float:
        """The question cosine above which a ▲ (`down`: a ▼) counts, for `embedder`."""
        thresholds = self.feedback_threshold
        up = thresholds.get(embedder, thresholds.get("default", FEEDBACK_THRESHOLD["default"]))
        downs = self.feedback_down_threshold
        return downs.get(embedder, downs.get("default", up)) if down else up

    def status_multiplier(self, status: str) -> float:
        return self.status_multipliers.get(
            status or "default", self.status_multipliers.get("default", 1.0)
        )


def _numbers(path: Path, key: str, raw: object, low: float, high: float) -> dict[str, float]:
    return {
        str(name): number(path, f"{key}.{name}", value, low, high)
        for name, value in mapping(path, key, raw).items()
    }


def load_retriever_config(config_dir: Path | None = None) -> RetrieverConfig:
    """Load and validate `retriever.yaml` (override dir first, else the bundled file)."""
    return load_retriever_file(config_file("retriever.yaml", config_dir))


def load_retriever_file(path: Path) -> RetrieverConfig:
    """Load and validate one retriever config file (`mindnet probe --against FILE`)."""
    data = load_yaml(path)
    weights = {**OPTIONAL_TERMS, **_numbers(path, "weights", data.get("weights"), 0.0, 10.0)}
    for term in TERMS:
        if term not in weights:
            raise ConfigError(path, f"weights.{term}", "a number between 0.0 and 10.0")
    unknown = sorted(set(weights) - set(TERMS))
    if unknown:
        raise ConfigError(path, f"weights.{unknown[0]}", f"one of {', '.join(TERMS)}")
    provenance = _numbers(path, "provenance_weights", data.get("provenance_weights", {}), 0.0, 10.0)
    for name in provenance:
        if name not in PROVENANCES:
            raise ConfigError(
                path, f"provenance_weights.{name}", f"one of {', '.join(PROVENANCES)}"
            )
    pool = integer(path, "candidate_pool", data.get("candidate_pool", 50), 1)
    lexical_pool = integer(path, "lexical_pool", data.get("lexical_pool", 50), 0)
    k = integer(path, "k", data.get("k", 10), 1)
    fusion = data.get("fusion", "minmax")
    if fusion not in FUSIONS:
        raise ConfigError(path, "fusion", " or ".join(FUSIONS), fusion)
    rrf_k = integer(path, "rrf_k", data.get("rrf_k", 60), 1)
    feedback = mapping(path, "feedback", data.get("feedback", {}))
    thresholds = {
        **FEEDBACK_THRESHOLD,
        **_numbers(path, "feedback.threshold", feedback.get("threshold", {}), 0.0, 1.0),
    }
    downs = _numbers(path, "feedback.down_threshold", feedback.get("down_threshold", {}), 0.0, 1.0)
    half_life = number(path, "feedback.half_life_days", feedback.get("half_life_days", 180), 1, 1e5)
    margin = feedback.get("down_margin", FEEDBACK_DOWN_MARGIN)
    margin = None if margin is None else number(path, "feedback.down_margin", margin, 0.01, 1.0)
    if k > pool:
        raise ConfigError(path, "k", f"at most candidate_pool ({pool})", k)
    per_embedder = mapping(path, "embedder_weights", data.get("embedder_weights") or {})
    embedder_weights = {
        str(name): _numbers(path, f"embedder_weights.{name}", own, 0.0, 10.0)
        for name, own in per_embedder.items()
    }
    for name, own in embedder_weights.items():
        for term in own:
            if term not in TERMS:
                raise ConfigError(
                    path, f"embedder_weights.{name}.{term}", f"one of {', '.join(TERMS)}"
                )
    sentence_embedders = data.get("sentence_vectors") or []
    if not isinstance(sentence_embedders, list) or not all(
        isinstance(name, str) for name in sentence_embedders
    ):
        raise ConfigError(path, "sentence_vectors", "a list of embedder names", sentence_embedders)
    sentence_languages = data.get("sentence_vector_languages") or []
    if not isinstance(sentence_languages, list) or not all(
        lang in ("de", "en") for lang in sentence_languages
    ):
        raise ConfigError(
            path, "sentence_vector_languages", "a list of languages: de, en", sentence_languages
        )
    return RetrieverConfig(
        weights=weights,
        edge_weights=_numbers(path, "edge_weights", data.get("edge_weights", {}), 0.0, 10.0),
        provenance_weights={p: provenance.get(p, 1.0) for p in PROVENANCES},
        status_multipliers=_numbers(
            path, "status_multipliers", data.get("status_multipliers", {}), 0.0, 10.0
        ),
        candidate_pool=pool,
        k=k,
        lexical_pool=lexical_pool,
        source=str(path),
        fusion=fusion,
        rrf_k=rrf_k,
        feedback_threshold=thresholds,
        feedback_down_threshold=downs,
        feedback_half_life_days=half_life,
        feedback_down_margin=margin,
        embedder_weights=embedder_weights,
        sentence_embedders=tuple(sentence_embedders),
        sentence_languages=tuple(sentence_languages),
    )


def save_retriever_weights(
    config_dir: Path, weights: dict[str, float], base_dir: Path | None = None
) -> Path:
    """Write `retriever.yaml` into `config_dir` with the term `weights` replaced.

    Everything else is copied from the file in effect (`base_dir`'s, else the bundled one),
    so the override stays complete, except the per-embedder weights: the user's own weights
    hold whatever the embedder. Written atomically, after the weights are validated.
    """

    import yaml

    target = config_dir / "retriever.yaml"
    data = load_yaml(config_file("retriever.yaml", base_dir))
    data["weights"] = {
        term: number(
            target, f"weights.{term}", weights.get(term, OPTIONAL_TERMS.get(term)), 0.0, 10.0
        )
        for term in TERMS
    }
    data.pop("embedder_weights", None)
    with atomic_writer(target, text=True) as handle:
        handle.write("# Written by Mindnet Desktop (Settings > Retriever weights).\n")
        yaml.safe_dump(data, handle, sort_keys=False, allow_unicode=True)
    return target
