"""The answer's prompts (`config/prompts.yaml`): each strategy's system prompt, the
classification prompt, the "not found" cut-off, how much of the sources the model reads, the
second look and ask-time expansion, loaded into a typed `Prompts`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mindnet_desktop.core.chat.packing import MIN_SOURCE_TOKENS
from mindnet_desktop.core.chat.rewrite import EXPANSIONS, MAX_TOKENS
from mindnet_desktop.core.config.type_registry import (
    ConfigError,
    bundled_config_dir,
    config_file,
    load_yaml,
    mapping,
)

STRATEGY_PROMPTS = ("fact", "decision", "empathy", "coding")


@dataclass(frozen=True)
class Prompts:
    classify: str
    strategies: dict[str, str]
    # Per embedder (cosines spread differently): no fact source this close to the question
    # gives "not found in your notes"; an embedder not listed has no cut-off.
    min_similarity: dict[str, float] = field(default_factory=dict)
    # Sources an answer reads when the caller gives no k (None: the retriever's k).
    sources: int | None = None
    # Tokens of the sources' text the model reads (excerpts of the sentences that bear on
    # the question; None: whole sources, as many as the context holds).
    context_tokens: int | None = None
    # The second look after an answer (`verify.py`): None: not asked; else the log-odds
    # below which an answer counts as not backed by the notes (per check; None: only
    # measured).
    verify: dict[str, float | None] | None = None
    # An example answer per language (de, en), added to the FACT prompt of that language.
    examples: dict[str, str] = field(default_factory=dict)
    # A strategy's prompt written in a question's language (de: {fact: …}), used instead of
    # the English one for questions in that language.
    localized: dict[str, dict[str, str]] = field(default_factory=dict)
    # Ask-time expansion (`rewrite.py`): none, keywords or answer, and the rewrite's system
    # prompt per mode and language ({keywords: {en: …, de: …}, answer: …}).
    expansion: str = "none"
    expansion_prompts: dict[str, dict[str, str]] = field(default_factory=dict)

    def expansion_prompt(self, mode: str, language: str) -> str:
        """The rewrite's system prompt for `mode` in `language` (else the English one)."""
        per_language = self.expansion_prompts[mode]
        return per_language.get(language) or per_language["en"]


def _expansion_prompts(path: Path, data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """`expansion_prompts` of a prompts file; a file written before expansion existed (an
    override in the config dir) takes the bundled file's."""
    raw = data.get("expansion_prompts")
    if raw is None:
        bundled = bundled_config_dir() / "prompts.yaml"
        if path.resolve() == bundled.resolve():
            raise ConfigError(path, "expansion_prompts", "keywords / answer: {en: prompt, …}")
        return _expansion_prompts(bundled, load_yaml(bundled))
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(mode), dict)
        and isinstance(raw[mode].get("en"), str)
        and all(isinstance(t, str) and t.strip() for t in raw[mode].values())
        for mode in MAX_TOKENS
    ):
        raise ConfigError(
            path, "expansion_prompts", "keywords / answer: {en: prompt, de: prompt}", raw
        )
    return {mode: {str(lang): t.strip() for lang, t in raw[mode].items()} for mode in MAX_TOKENS}


def load_prompts(config_dir: Path | None = None) -> Prompts:
    path = config_file("prompts.yaml", config_dir)
    data = load_yaml(path)
    classify = data.get("classify")
    if not isinstance(classify, str) or not classify.strip():
        raise ConfigError(path, "classify", "the classification prompt (text)", classify)
    raw = mapping(path, "strategies", data.get("strategies"))
    for name in STRATEGY_PROMPTS:
        if not isinstance(raw.get(name), str) or not raw[name].strip():
            raise ConfigError(path, f"strategies.{name}", "a system prompt (text)", raw.get(name))
    cut = data.get("min_similarity") or {}
    if not isinstance(cut, dict) or not all(
        isinstance(v, (int, float)) and 0.0 <= v < 1.0 for v in cut.values()
    ):
        raise ConfigError(path, "min_similarity", "embedder: a cosine between 0 and 1", cut)
    sources = data.get("sources")
    if sources is not None and (not isinstance(sources, int) or sources < 1):
        raise ConfigError(path, "sources", "a positive number of sources", sources)
    budget = data.get("context_tokens")
    if budget is not None and (not isinstance(budget, int) or budget < MIN_SOURCE_TOKENS):
        raise ConfigError(
            path, "context_tokens", f"a number of tokens of at least {MIN_SOURCE_TOKENS}", budget
        )
    checks = data.get("verify")
    if checks is not None and not (
        isinstance(checks, dict)
        and set(checks) <= {"answer", "question"}
        and all(v is None or isinstance(v, (int, float)) for v in checks.values())
    ):
        raise ConfigError(path, "verify", "answer / question: a log-odds cut-off or null", checks)
    examples = data.get("examples") or {}
    if not isinstance(examples, dict) or not all(isinstance(v, str) for v in examples.values()):
        raise ConfigError(path, "examples", "language: an example answer (text)", examples)
    by_language = data.get("strategies_by_language") or {}
    if not isinstance(by_language, dict) or not all(
        isinstance(v, dict) and all(isinstance(t, str) for t in v.values())
        for v in by_language.values()
    ):
        raise ConfigError(
            path, "strategies_by_language", "language: {strategy: prompt}", by_language
        )
    strategies = {k: str(v).strip() for k, v in raw.items()}
    cuts = {str(k): float(v) for k, v in cut.items()}
    shown = {str(k): v.strip() for k, v in examples.items()}
    localized = {
        str(lang): {str(k): t.strip() for k, t in v.items()} for lang, v in by_language.items()
    }
    expansion = data.get("expansion", "none")
    if expansion not in EXPANSIONS:
        raise ConfigError(path, "expansion", " | ".join(EXPANSIONS), expansion)
    return Prompts(
        classify.strip(),
        strategies,
        cuts,
        sources,
        budget,
        checks,
        shown,
        localized,
        expansion,
        _expansion_prompts(path, data),
    )
