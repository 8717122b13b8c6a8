"""Intent router (`config/decision_engine.yaml`): keywords first, the chat model second."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mindnet_desktop.core.config.type_registry import ConfigError, config_file, load_yaml, mapping

if TYPE_CHECKING:
    from mindnet_desktop.core.models.llm import LlamaChat

INTENTS = ("FACT", "DECISION", "EMPATHY", "CODING")
IntentSource = Literal["keyword", "model", "default"]


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
class DecisionEngine:
    strategies: dict[str, Strategy]
    default_intent: str

    def route(self, question: str, classify: Callable[[str], str] | None = None) -> Routing:
        """Keywords decide when they match (most matches wins, config order breaks ties);
        otherwise `classify` (the chat model) picks one of the four labels; anything else,
        or no model, gives the default intent."""
        text = " ".join(question.casefold().split())
        best: Routing | None = None
        # On a tie the more specific strategy wins; the default intent comes last.
        order = sorted(self.strategies.values(), key=lambda s: s.intent == self.default_intent)
        for strategy in order:
            found = strategy.matches(text)
            if found and (best is None or len(found) > len(best.matched)):
                best = Routing(strategy.intent, "keyword", found)
        if best is not None:
            return best
        return self.route_by_model(question, classify)

    def keyword_routing(self, question: str) -> Routing | None:
        """The fast path alone: the keyword routing, or None when no keyword matches."""
        routing = self.route(question)
        return routing if routing.source == "keyword" else None

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
    return DecisionEngine(strategies, default)
