"""Intent router (`config/decision_engine.yaml`): keywords and the embedding classifier
(`core/chat/intent_embed.py`) together; the chat model only when they are unsure and the
config asks for it; the default intent (FACT) otherwise. One keyword rule comes before all of
them: a feeling shared with a request for help (`FeelingAndHelp`)."""

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
class FeelingAndHelp:
    """A message that shares a feeling (an EMPATHY keyword) and asks for help ("was hilft
    mir?", "what should I do?") wants support: EMPATHY. When what is left of it, the feeling
    and the request taken out, weighs options ("… Yoga oder Laufen?", "should I quit?",
    "which is better"), it wants a choice made: DECISION, the feeling notwithstanding.

    Decided before the classifier, which reads a request for help as advice (DECISION) or a
    look-up (FACT) and outweighs the keyword bonus; and before the keyword count, where the
    "soll ich" / "should i" inside "was soll ich tun" / "what should I do" ties the feeling.
    A message about code (a CODING keyword or pattern) goes the usual way.
    """

    help: tuple[str, ...]
    options: tuple[str, ...]
    option_patterns: tuple[re.Pattern[str], ...] = ()

    def weighs_options(self, rest: str) -> tuple[str, ...]:
        """The option words and patterns found in `rest` (the message without the feeling and
        the request for help)."""
        words = tuple(w for w in self.options if _contains(rest, w))
        return words + tuple(
            m.group().strip() for p in self.option_patterns if (m := p.search(rest))
        )


@dataclass(frozen=True)
class DecisionEngine:
    strategies: dict[str, Strategy]
    default_intent: str
    # Embedder name → its settings; an embedder not listed routes by keywords and the model.
    embedding: dict[str, EmbeddingSettings] = field(default_factory=dict)
    feeling_and_help: FeelingAndHelp | None = None

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
        if use_keywords and (ruled := self.feeling_with_help(question)) is not None:
            return ruled  # the classifier would read the request for help as advice
        keyword = self.most_keywords(question) if use_keywords else None
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
        """The keyword routing, or None when no keyword matches: a feeling with a request for
        help first (`FeelingAndHelp`), else the strategy with the most matches."""
        return self.feeling_with_help(question) or self.most_keywords(question)

    def feeling_with_help(self, question: str) -> Routing | None:
        """EMPATHY for a feeling shared with a request for help, DECISION when the message also
        weighs options; None when the rule does not apply (see `FeelingAndHelp`)."""
        rule = self.feeling_and_help
        if rule is None:
            return None
        text = _normalise(question)
        feelings = self.strategies["EMPATHY"].matches(text)
        asks = tuple(h for h in rule.help if _contains(text, h))
        if not feelings or not asks or self.strategies["CODING"].matches(text):
            return None
        options = rule.weighs_options(_without(text, asks + feelings))
        if options:
            return Routing("DECISION", "keyword", options)
        return Routing("EMPATHY", "keyword", feelings + asks)

    def most_keywords(self, question: str) -> Routing | None:
        """The strategy whose keywords match most often, or None when none matches."""
        text = _normalise(question)
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


def _normalise(question: str) -> str:
    """Casefolded, spaces collapsed: the text keywords are matched in."""
    return " ".join(question.casefold().split())


def _contains(text: str, keyword: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(keyword.casefold())}(?!\w)", text) is not None


def _without(text: str, phrases: tuple[str, ...]) -> str:
    """`text` with each whole-word occurrence of `phrases` replaced by a space."""
    for phrase in phrases:
        text = re.sub(rf"(?<!\w){re.escape(phrase.casefold())}(?!\w)", " ", text)
    return text


def load_decision_engine(config_dir: Path | None = None) -> DecisionEngine:
    path = config_file("decision_engine.yaml", config_dir)
    data = load_yaml(path)
    raw = mapping(path, "strategies", data.get("strategies"))
    strategies = {}
    for intent in INTENTS:
        key = f"strategies.{intent}"
        spec = mapping(path, key, raw.get(intent))
        keywords = _phrases(path, f"{key}.keywords", spec.get("keywords", []))
        inject = spec.get("inject_types", [])
        if not isinstance(inject, list) or not all(isinstance(t, str) for t in inject):
            raise ConfigError(path, f"{key}.inject_types", "a list of note types", inject)
        compiled = _patterns(path, f"{key}.patterns", spec.get("patterns", []))
        prompt = spec.get("prompt")
        if not isinstance(prompt, str) or not prompt:
            raise ConfigError(path, f"{key}.prompt", "a prompt template name", prompt)
        strategies[intent] = Strategy(
            intent, keywords, tuple(t.lower() for t in inject), prompt, compiled
        )
    unknown = sorted(set(raw) - set(INTENTS))
    if unknown:
        raise ConfigError(path, f"strategies.{unknown[0]}", f"one of {', '.join(INTENTS)}")
    default = data.get("default_intent", "FACT")
    if default not in INTENTS:
        raise ConfigError(path, "default_intent", f"one of {', '.join(INTENTS)}", default)
    embedding = _embedding_settings(path, data.get("embedding"))
    rule = _feeling_and_help(path, data.get("feeling_and_help"))
    return DecisionEngine(strategies, default, embedding, rule)


def _phrases(path: Path, key: str, raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(k, str) and k.strip() for k in raw):
        raise ConfigError(path, key, "a list of words or phrases", raw)
    return tuple(raw)


def _patterns(path: Path, key: str, raw: object) -> tuple[re.Pattern[str], ...]:
    if not isinstance(raw, list):
        raise ConfigError(path, key, "a list of regular expressions", raw)
    try:
        return tuple(re.compile(p) for p in raw)
    except (re.error, TypeError) as exc:
        raise ConfigError(path, key, "a list of regular expressions", exc) from exc


def _feeling_and_help(path: Path, raw: object) -> FeelingAndHelp | None:
    """`feeling_and_help: {help, options, option_patterns}`; absent: no such rule."""
    if raw is None:
        return None
    spec = mapping(path, "feeling_and_help", raw)
    help_ = _phrases(path, "feeling_and_help.help", spec.get("help"))
    if not help_:
        raise ConfigError(path, "feeling_and_help.help", "at least one request for help", help_)
    return FeelingAndHelp(
        help_,
        _phrases(path, "feeling_and_help.options", spec.get("options", [])),
        _patterns(path, "feeling_and_help.option_patterns", spec.get("option_patterns", [])),
    )


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
