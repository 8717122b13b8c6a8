"""Intent routing accuracy on the labelled set `resources/qa/chat/intents.yaml`.

Three routers are scored on the same questions:

- `fast`: the keywords alone (no keyword: the default intent, as the app does without a model);
- `slow`: the chat model alone (the classify prompt of `config/prompts.yaml`), every question;
- `both`: what the app does: keywords first, the model when none matches.

Reported per router: accuracy, the confusion matrix (gold intent → routed intent) and, for
the fast path, its coverage (the share of questions a keyword decides).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.quality import read_question_file
from mindnet_desktop.core.chat.intent import INTENTS, DecisionEngine, Routing
from mindnet_desktop.core.config.type_registry import ConfigError

ROUTERS = ("fast", "slow", "both")


@dataclass(frozen=True)
class IntentQuestion:
    id: str
    q: str
    lang: str
    intent: str
    split: str


def load_intents(path: Path) -> list[IntentQuestion]:
    data = read_question_file(path, "intent set")
    questions = []
    for i, raw in enumerate(data["questions"]):
        if not isinstance(raw, dict) or raw.get("intent") not in INTENTS or not raw.get("q"):
            raise ConfigError(path, f"questions[{i}]", f"q and an intent of {INTENTS}", raw)
        questions.append(
            IntentQuestion(
                str(raw.get("id", i)), str(raw["q"]), raw["lang"], raw["intent"], raw["split"]
            )
        )
    return questions


def confusion(pairs: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """gold → routed → count, every intent present (zeros included)."""
    matrix = {g: dict.fromkeys(INTENTS, 0) for g in INTENTS}
    for gold, routed in pairs:
        matrix[gold][routed] += 1
    return matrix


def evaluate_intents(
    engine: DecisionEngine,
    questions: list[IntentQuestion],
    classify: Callable[[str], str] | None,
    on_question: Callable[[dict[str, str]], None] | None = None,
) -> dict[str, Any]:
    """Accuracy and confusion of each router (`slow` and `both` need `classify`)."""
    routed: dict[str, list[tuple[str, str]]] = {r: [] for r in ROUTERS}
    misses: list[dict[str, str]] = []
    keyword_hits, model_seconds = 0, 0.0
    for question in questions:
        fast = engine.route(question.q)
        keyword_hits += fast.source == "keyword"
        routed["fast"].append((question.intent, fast.intent))
        if classify is not None:
            started = time.perf_counter()
            slow = engine.route_by_model(question.q, classify)
            model_seconds += time.perf_counter() - started
            # `both` is the fast path when a keyword matched, else the model's answer.
            both: Routing = fast if fast.source == "keyword" else slow
            routed["slow"].append((question.intent, slow.intent))
            routed["both"].append((question.intent, both.intent))
            if both.intent != question.intent:
                misses.append(
                    {
                        "id": question.id,
                        "q": question.q,
                        "gold": question.intent,
                        "routed": both.intent,
                        "source": both.source,
                    }
                )
        elif fast.intent != question.intent:
            misses.append(
                {
                    "id": question.id,
                    "q": question.q,
                    "gold": question.intent,
                    "routed": fast.intent,
                    "source": fast.source,
                }
            )
        if on_question:  # a long run shows (and keeps) each routing as it comes
            on_question(
                {
                    "id": question.id,
                    "gold": question.intent,
                    "fast": fast.intent,
                    **({"slow": slow.intent, "both": both.intent} if classify else {}),
                }
            )
    n = max(len(questions), 1)
    result: dict[str, Any] = {
        "questions": len(questions),
        "fast_coverage": round(keyword_hits / n, 3),
        "routers": {},
        "misses": misses,
    }
    for router, pairs in routed.items():
        if pairs:
            result["routers"][router] = {
                "accuracy": round(sum(g == r for g, r in pairs) / len(pairs), 3),
                "confusion": confusion(pairs),
            }
    if classify is not None:
        result["model_seconds_per_question"] = round(model_seconds / n, 2)
    return result


def intents_table(result: dict[str, Any]) -> str:
    """The README's Markdown tables: accuracy per router, then the confusion of `both`."""
    lines = ["| router | accuracy |", "|---|---|"]
    for router, scores in result["routers"].items():
        extra = f" (keywords decide {result['fast_coverage']:.0%})" if router == "fast" else ""
        lines.append(f"| {router}{extra} | {scores['accuracy']:.2f} |")
    last = "both" if "both" in result["routers"] else "fast"
    lines += ["", f"Confusion ({last}; rows: gold, columns: routed):", ""]
    lines.append("| gold \\ routed | " + " | ".join(INTENTS) + " |")
    lines.append("|---" * (len(INTENTS) + 1) + "|")
    for gold, row in result["routers"][last]["confusion"].items():
        lines.append(f"| {gold} | " + " | ".join(str(row[i]) for i in INTENTS) + " |")
    return "\n".join(lines)
