"""Ask-time expansion measured (`mindnet bench quality --expand MODE`): hit@1, hit@5 and MRR
of the hybrid ranking per note with and without the chat model's rewrite of each question,
fused as `ask` fuses them, and the seconds the rewrite adds before an answer's first token,
reported apart (median, p95)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mindnet_desktop.bench.quality import DEPTH, QaSet, Question, Scores, first_gold_rank
from mindnet_desktop.core.chat.answer import load_prompts
from mindnet_desktop.core.chat.grounding import detect_language
from mindnet_desktop.core.chat.rewrite import Expansion
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.ask.expansion import expanded_facts
from mindnet_desktop.core.service.ask.pipeline import expand
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet


def _notes(hits: list[ScoredHit]) -> list[tuple[str, str]]:
    return [(h.note_id, h.path) for h in hits[:DEPTH]]


def expanded_notes(
    mn: Mindnet, question: str, llm: LlamaChat, mode: str
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], Expansion]:
    """(note id, path) of the top notes for `question` without and with its rewrite under
    `mode`, and the rewrite. Without: `ranked_notes(mn, "hybrid", …)`; with: the facts of
    both rankings fused as `ask` fuses them, the injected notes after them."""
    found = hybrid_search(mn, question, DEPTH, log=False, per_note=True, language="en")
    prompts = load_prompts(mn.config_lookup)
    rewrite = expand(llm, question, mode, prompts, detect_language(question, default="en"))
    if not rewrite.used:
        return _notes(found.hits), _notes(found.hits), rewrite
    facts = [h for h in found.hits if not h.injected]
    fused = expanded_facts(mn, list(facts), rewrite.text, DEPTH, found.routing, "en")
    injected = [h for h in found.hits if h.injected and h.note_id not in {f.note_id for f in fused}]
    return _notes(found.hits), _notes(fused + injected), rewrite


def seconds(values: list[float]) -> dict[str, float]:
    """Median and p95 of `values` (0 when empty)."""
    ordered = sorted(values)
    if not ordered:
        return {"median": 0.0, "p95": 0.0}
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {"median": round(median, 2), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2)}


def evaluate_expansion(
    mn: Mindnet,
    qa: QaSet,
    questions: list[Question],
    llm: LlamaChat,
    mode: str,
    on_question: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """`summary` of `questions` (of `qa`) ranked without and with the rewrite, with a row
    per question (its rewrite, seconds and both ranks)."""
    rows = []
    for question in questions:
        before, after, rewrite = expanded_notes(mn, question.q, llm, mode)
        row = {
            "id": question.id,
            "q": question.q,
            "rewrite": rewrite.text,
            "seconds": rewrite.seconds,
            "skipped": rewrite.skipped,
            "rank": first_gold_rank(before, question.gold),
            "rank_expanded": first_gold_rank(after, question.gold),
        }
        rows.append(row)
        if on_question:
            on_question({"set": qa.name, **row})
    return {**summary(rows), "rewrites": rows}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """hit@1 / hit@5 / MRR without (`hybrid`) and with (`expanded`) the rewrite, questions
    whose gold note ranked better / worse with it (a miss counts as last), the rewrite's
    seconds (median, p95) and how many questions it was skipped for."""
    plain = Scores([r["rank"] for r in rows])
    fused = Scores([r["rank_expanded"] for r in rows])
    pairs = [(b or DEPTH + 1, a or DEPTH + 1) for b, a in zip(plain.ranks, fused.ranks)]
    return {
        "questions": len(rows),
        "scores": {"hybrid": plain.summary(), "expanded": fused.summary()},
        "better": sum(a < b for b, a in pairs),
        "worse": sum(a > b for b, a in pairs),
        "rewrite_seconds": seconds([r["seconds"] for r in rows if r["skipped"] is None]),
        "skipped": sum(r["skipped"] is not None for r in rows),
    }


def expansion_table(result: dict[str, Any]) -> str:
    """Per set and over all: hit@1 / hit@5 / MRR without and with the rewrite, questions
    moved, and the rewrite's seconds."""
    lines = [
        f"expansion: {result['expansion']} (model {result['model']}, embedder "
        f"{result['embedder']}); added seconds: the model's rewrite, before the first token",
        "",
        "| set | questions | hybrid | expanded | Δ MRR | better / worse | added s median / p95 |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, per in [*result["sets"].items(), ("all", result["all"])]:
        base, exp = per["scores"]["hybrid"], per["scores"]["expanded"]
        cells = [f"{s['hit@1']:.2f} / {s['hit@5']:.2f} / {s['mrr']:.3f}" for s in (base, exp)]
        spent = per["rewrite_seconds"]
        lines.append(
            f"| {name} | {per['questions']} | {cells[0]} | {cells[1]} "
            f"| {exp['mrr'] - base['mrr']:+.3f} | {per['better']} / {per['worse']} "
            f"| {spent['median']} / {spent['p95']} |"
        )
    return "\n".join(lines)
