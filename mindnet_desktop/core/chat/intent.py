"""Intent router (`config/decision_engine.yaml`): keywords and the embedding classifier
(`core/chat/intent_embed.py`) together; the chat model only when they are unsure and the
config asks for it; the default intent (FACT) otherwise."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mindnet_desktop.core.config.type_registry import (
    ConfigError,
    config_file,
    load_yaml,
    mapping,
    number,
)

if TYPE_CHECKING:
    from mindnet_desktop.core.models.llm import LlamaChat

INTENTS = ("FACT", "DECISION", "EMPATHY", "CODING")
IntentSource = Literal["keyword", "embedding", "model", "default"]
# Intent → log-probability of a question (the embedding classifier's `scores`).
Scores = Callable[[str], dict[str, float]]


@dataclass(frozen=True)
class Strategy:
    intent: str
    keywords: tuple[str, ...]
    inject_types: tuple[str, ...]
    prompt: str
    # Regexes that count like keywords: code in a question is a signal no word list gives.
    patterns: tuple[re.Pattern[str], ...] = ()

    def matches(self, text: str) -> tuple[str, ...]:
        """The keywords and patterns found in `text` (casefolded, spaces collapsed)."""
        words = tuple(k for k in self.keywords if _contains(text, k))
        return words + tuple(m.group() for p in self.patterns if (m := p.search(text)))


@dataclass(frozen=True)
class Routing:
    intent: str
    source: IntentSource
    matched: tuple[str, ...] = ()


@dataclass(frozen=True)
class EmbeddingSettings:
    """The embedding path (tuned per embedder on the dev half of the intent set)."""

    examples: str  # the examples file in the config dir
    regularisation: float
    keyword_bonus: float  # added to the log-probability of the keywords' intent
    margin: float  # another intent must beat the default's log-probability by this much
    unsure: Literal["default", "model"]  # below the margin: the default intent, or the model


@dataclass(frozen=True)
class DecisionEngine:
    strategies: dict[str, Strategy]
    default_intent: str
    # Embedder name → its settings; an embedder not listed routes by keywords and the model.
    embedding: dict[str, EmbeddingSettings] = field(default_factory=dict)

    def route(
        self,
        question: str,
        classify: Callable[[str], str] | None = None,
        scores: Scores | None = None,
        settings: EmbeddingSettings | None = None,
    ) -> Routing:
        """With `scores` (the embedding classifier) and its `settings`: see `route_combined`.
        Without: keywords decide when they match (most matches wins, config order breaks
        ties); otherwise `classify` (the chat model) picks one of the four labels; anything
        else, or no model, gives the default intent."""
        if scores is not None and settings is not None:
            return self.route_combined(question, scores, settings, classify)
        best = self.keywords(question)
        if best is not None:
            return best
        return self.route_by_model(question, classify)

    def route_combined(
        self,
        question: str,
        scores: Scores,
        settings: EmbeddingSettings,
        classify: Callable[[str], str] | None = None,
        use_keywords: bool = True,
    ) -> Routing:
        """The classifier's log-probabilities, the keywords' intent raised by the bonus; the
        best intent wins when it beats the default intent by the margin (no model call).
        Otherwise the default intent, or the model when the settings say so: when unsure,
        FACT wins. `use_keywords=False`: the classifier alone (the bench's `embedding`)."""
        keyword = self.keywords(question) if use_keywords else None
        ranked = dict(scores(question))
        if keyword is not None:
            ranked[keyword.intent] += settings.keyword_bonus
        best = max(INTENTS, key=lambda i: (ranked[i], i == self.default_intent))
        if best == self.default_intent or ranked[best] - ranked[self.default_intent] >= (
            settings.margin
        ):
            if keyword is not None and keyword.intent == best:
                return keyword  # the keywords and the classifier agree
            return Routing(best, "embedding")
        if settings.unsure == "model":
            return self.route_by_model(question, classify)
        return Routing(self.default_intent, "default")

    def keywords(self, question: str) -> Routing | None:
        """The keyword routing, or None when no keyword matches."""
        text = " ".join(question.casefold().split())
        best: Routing | None = None
        # On a tie the more specific strategy wins; the default intent comes last.
        order = sorted(self.strategies.values(), key=lambda s: s.intent == self.default_intent)
        for strategy in order:
            found = strategy.matches(text)
            if found and (best is None or len(found) > len(best.matched)):
                best = Routing(strategy.intent, "keyword", found)
        return best

    def keyword_routing(self, question: str) -> Routing | None:
        """The fast path alone: the keyword routing, or None when no keyword matches."""
        return self.keywords(question)

    def route_by_model(self, question: str, classify: Callable[[str], str] | None) -> Routing:
        """The slow path alone: the model's label; the default intent when there is no model
        or it is unsure (names no label, or more than one)."""
        if classify is not None:
            label = parse_label(classify(question))
            if label is not None:
                return Routing(label, "model")
        return Routing(self.default_intent, "default")


def parse_label(answer: str) -> str | None:
    """The one intent label `answer` names; None when it names none or several: an unsure
    model must not pull a plain question away from the facts (the default intent wins)."""
    upper = answer.upper()
    named = {i for i in INTENTS if re.search(rf"\b{i}\b", upper)}
    return named.pop() if len(named) == 1 else None


def model_classifier(llm: LlamaChat, prompt: str) -> Callable[[str], str]:
    """`classify` for `DecisionEngine.route`: the chat model answers with a label."""

    def classify(question: str) -> str:
        return llm.complete(
            [{"role": "system", "content": prompt}, {"role": "user", "content": question}]
        )

    return classify


def _contains(text: str, keyword: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(keyword.casefold())}(?!\w)", text) is not None


def load_decision_engine(config_dir: Path | None = None) -> DecisionEngine:
    path = config_file("decision_engine.yaml", config_dir)
    data = load_yaml(path)
    raw = mapping(path, "strategies", data.get("strategies"))
    strategies = {}
    for intent in INTENTS:
        key = f"strategies.{intent}"
        spec = mapping(path, key, raw.get(intent))
        keywords = spec.get("keywords", [])
        if not isinstance(keywords, list) or not all(
            isinstance(k, str) and k.strip() for k in keywords
        ):
            raise ConfigError(path, f"{key}.keywords", "a list of words or phrases", keywords)
        inject = spec.get("inject_types", [])
        if not isinstance(inject, list) or not all(isinstance(t, str) for t in inject):
            raise ConfigError(path, f"{key}.inject_types", "a list of note types", inject)
        patterns = spec.get("patterns", [])
        try:
            compiled = tuple(re.compile(p) for p in patterns)
        except (re.error, TypeError) as exc:
            raise ConfigError(
                path, f"{key}.patterns", "a list of regular expressions", exc
            ) from exc
        prompt = spec.get("prompt")
        if not isinstance(prompt, str) or not prompt:
            raise ConfigError(path, f"{key}.prompt", "a prompt template name", prompt)
        strategies[intent] = Strategy(
            intent, tuple(keywords), tuple(t.lower() for t in inject), prompt, compiled
        )
    unknown = sorted(set(raw) - set(INTENTS))
    if unknown:
        raise ConfigError(path, f"strategies.{unknown[0]}", f"one of {', '.join(INTENTS)}")
    default = data.get("default_intent", "FACT")
    if default not in INTENTS:
        raise ConfigError(path, "default_intent", f"one of {', '.join(INTENTS)}", default)
    embedding = _embedding_settings(path, data.get("embedding"))
    return DecisionEngine(strategies, default, embedding)


def _embedding_settings(path: Path, raw: object) -> dict[str, EmbeddingSettings]:
    """`embedding: {examples, regularisation, embedders: {name: {keyword_bonus, margin,
    unsure}}}`; absent: no embedding path."""
    if raw is None:
        return {}
    spec = mapping(path, "embedding", raw)
    examples = spec.get("examples", "intent_examples.yaml")
    if not isinstance(examples, str) or not examples.endswith(".yaml"):
        raise ConfigError(path, "embedding.examples", "a YAML file name", examples)
    regularisation = number(
        path, "embedding.regularisation", spec.get("regularisation", 0.01), 0.0, 10.0
    )
    out = {}
    for name, tuned in mapping(path, "embedding.embedders", spec.get("embedders", {})).items():
        key = f"embedding.embedders.{name}"
        tuned = mapping(path, key, tuned)
        unsure = tuned.get("unsure", "default")
        if unsure not in ("default", "model"):
            raise ConfigError(path, f"{key}.unsure", "default or model", unsure)
        out[str(name)] = EmbeddingSettings(
            examples,
            regularisation,
            number(path, f"{key}.keyword_bonus", tuned.get("keyword_bonus", 0.0), 0.0, 100.0),
            number(path, f"{key}.margin", tuned.get("margin", 0.0), 0.0, 100.0),
            unsure,
        )
    return out
