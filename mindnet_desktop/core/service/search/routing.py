"""Route a question for a vault: the decision engine with the embedding classifier of the
vault's embedder (when the config tunes one for it), fitted once per process and cached in
the data dir."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from mindnet_desktop.core.chat.intent import DecisionEngine, EmbeddingSettings, Routing
from mindnet_desktop.core.chat.intent_embed import IntentClassifier, load_intent_examples
from mindnet_desktop.core.config.type_registry import config_file

if TYPE_CHECKING:
    from mindnet_desktop.core.models.embedders import Embedder

# Embedder → (examples text, regularisation) → classifier: one fit per embedder and examples.
_CLASSIFIERS: weakref.WeakKeyDictionary[object, dict[tuple[str, float], IntentClassifier]] = (
    weakref.WeakKeyDictionary()
)


class VaultSettings(Protocol):
    """What routing (and an answer's prompt) reads of an open vault (`Mindnet`): its
    decision engine, its embedder, where its config is looked up, its data dir."""

    @property
    def decision_engine(self) -> DecisionEngine: ...

    @property
    def embedder(self) -> Embedder: ...

    @property
    def config_lookup(self) -> Path | None: ...

    @property
    def data_dir(self) -> Path: ...


def intent_classifier(
    embedder: Embedder,
    settings: EmbeddingSettings,
    config_dir: Path | None,
    cache_dir: Path | None,
) -> IntentClassifier:
    """The classifier for `embedder` and the examples file of `settings` (shared). The file
    is read on every call (a change takes effect), but parsed only when its text is new:
    parsing it took 30-70 ms of every search."""
    per_embedder = _CLASSIFIERS.setdefault(embedder, {})
    try:
        text = config_file(settings.examples, config_dir).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None  # load_intent_examples says what is wrong with it
    known = per_embedder.get((text, settings.regularisation)) if text is not None else None
    if known is not None:
        return known
    examples = load_intent_examples(settings.examples, config_dir)
    key = (examples.text, settings.regularisation)
    if key not in per_embedder:
        per_embedder[key] = IntentClassifier(examples, embedder, settings.regularisation, cache_dir)
    return per_embedder[key]


def route_question(
    mn: VaultSettings, question: str, classify: Callable[[str], str] | None = None
) -> Routing:
    """The routing the app and `ask` use: keywords and the embedding classifier when the
    config has settings for the vault's embedder (the model only when they are unsure and
    the settings ask for it); keywords, then the model, otherwise."""
    engine = mn.decision_engine
    settings = engine.embedding.get(mn.embedder.name)
    if settings is None:
        return engine.route(question, classify)
    classifier = intent_classifier(mn.embedder, settings, mn.config_lookup, mn.data_dir)
    return engine.route(question, classify, classifier.scores, settings)
