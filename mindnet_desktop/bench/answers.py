"""Grounded answers on `resources/qa/chat/answers.yaml`: does `ask` state the fact the notes
give, cite the note that gives it, cite only sources that exist, answer in the question's
language and say "not found in your notes" when the notes do not hold the answer?

Every figure is a share of the questions it applies to: `fact`, `cites_gold`,
`fact_and_cited`, `evidence_fact` and `evidence_gold` (the sentences chosen before the
model) over the answerable ones, `marked_right` over the right answers, `told_unanswerable`
over the unanswerable ones, `abstains` over the unanswerable ones (and
`false_abstain` over the answerable), the others over all. Times: time to first token as the
user waits for it (routing, retrieval and prompt included) and decode tokens per second.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.grounding import detect_language, says_not_found
from mindnet_desktop.core.config.type_registry import ConfigError
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.service.ask.pipeline import ask
from mindnet_desktop.core.service.vault.mindnet import Mindnet

CITED = re.compile(r"\[(\d+)\]")
METRICS = (
    "fact",
    "cites_gold",
    "fact_and_cited",
    "cites_exist",
    "language",
    "abstains",
    "false_abstain",
    "abstains_or_warns",
    "false_warning",
    "warns_when_wrong",
    "withheld_right",
    "evidence_fact",
    "evidence_gold",
    "marked_right",
    "told_unanswerable",
)


@dataclass(frozen=True)
class AnswerQuestion:
    id: str
    vault: str
    q: str
    lang: str
    kind: str
    expect: tuple[str, ...]
    gold: tuple[str, ...]
    split: str
    set: str = ""  # the set's name (several sets are reported apart too)

    @property
    def answerable(self) -> bool:
        return self.kind != "unanswerable"


def load_answers(path: Path) -> list[AnswerQuestion]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return [
            AnswerQuestion(
                str(r["id"]),
                str(r["vault"]),
                str(r["q"]),
                r["lang"],
                r["kind"],
                tuple(r["expect"]),
                tuple(r["gold"]),
                r["split"],
                str(data.get("name") or path.stem),
            )
            for r in data["questions"]
        ]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise ConfigError(path, "questions", "the answers set (see its header)", exc) from exc


def score(question: AnswerQuestion, result: AskResult) -> dict[str, bool | None]:
    """The per-question checks (None: the check does not apply to this question)."""
    answer = result.answer
    cited = {int(n) for n in CITED.findall(answer)}
    paths = {n: h.path for n, h in enumerate(result.sources, start=1)}
    fact = any(re.search(p, answer, re.IGNORECASE) for p in question.expect)
    # The model's text before the second look withheld it: was it right?
    drafted = result.draft_answer if result.draft_answer is not None else answer
    right_draft = any(re.search(p, drafted, re.IGNORECASE) for p in question.expect)
    gold = any(paths.get(n) in question.gold for n in cited)
    abstained = result.not_found or says_not_found(answer)
    # The user is told it is not in the notes either way: the model says so, or the answer
    # names a figure no source holds ("not in your notes: 256 KB").
    warned = abstained or bool(result.unsupported_figures)
    # Before the model: do the evidence sentences hold the fact, and come from a gold note?
    path_of = {h.note_id: h.path for h in result.sources}
    evidence = " ".join(e.sentence for e in result.evidence)
    evidence_fact = any(re.search(p, evidence, re.IGNORECASE) for p in question.expect)
    evidence_gold = any(path_of.get(e.note_id) in question.gold for e in result.evidence)
    # After it: a sentence the alignment found in no source is shown marked.
    marked = any(a.action == "unsupported" for a in result.alignments)
    return {
        "fact": fact if question.answerable else None,
        "cites_gold": gold if question.answerable else None,
        "fact_and_cited": (fact and gold) if question.answerable else None,
        "cites_exist": cited <= set(paths),
        "language": detect_language(answer, default="?") == question.lang,
        "abstains": None if question.answerable else abstained,
        "false_abstain": abstained if question.answerable else None,
        "abstains_or_warns": None if question.answerable else warned,
        # Of the right answers, those warned about (false alarms); of the wrong ones, those
        # warned about (the point of the warning).
        "false_warning": warned if question.answerable and fact else None,
        "warns_when_wrong": warned if question.answerable and not fact else None,
        # Of the answers whose draft was right, those the second look withheld (hidden).
        "evidence_fact": evidence_fact if question.answerable else None,
        "evidence_gold": evidence_gold if question.answerable else None,
        # A right answer with a sentence marked "not found in your notes" (a false mark).
        "marked_right": marked if question.answerable and fact else None,
        # The user is told, one way or another: abstained, a figure, or a marked sentence.
        "told_unanswerable": (warned or marked) if not question.answerable else None,
        "withheld_right": (
            result.draft_answer is not None if question.answerable and right_draft else None
        ),
    }


def run_question(mn: Mindnet, llm: LlamaChat, question: AnswerQuestion, k: int | None) -> dict:
    """Ask once; the checks, the answer and the timings."""
    started = time.perf_counter()
    first: float | None = None
    last: float | None = None
    tokens = 0
    gen = ask(mn, question.q, llm, k=k, language=question.lang)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            result: AskResult = stop.value
            break
        tokens += 1
        if first is None:
            first = time.perf_counter()
        last = time.perf_counter()
    done = time.perf_counter()
    ttft = (first or done) - started
    # Decoding ends with the last token; what follows (the second look) is timed apart.
    decode = (last or done) - (first or done)
    checked = done - (last or done)
    return {
        "id": question.id,
        "set": question.set,
        "q": question.q,
        "kind": question.kind,
        "lang": question.lang,
        "answer": result.answer,
        "intent": result.routing.intent,
        "not_found": result.not_found,
        "error": result.error,
        "flagged_citations": result.to_dict()["flagged_citations"],
        "unsupported_figures": result.unsupported_figures,
        "unsupported_answer": result.unsupported_answer,
        "draft_answer": result.draft_answer,
        "withheld": result.withheld,
        "repaired_citation": result.repaired_citation,
        "verification": result.verification.to_dict() if result.verification else None,
        "source_paths": [h.path for h in result.sources],
        "excerpts": result.excerpts,
        "top_similarity": round(max((h.similarity for h in result.sources), default=0.0), 3),
        "sources": len(result.sources),
        "evidence": [{"citation": e.citation, "sentence": e.sentence} for e in result.evidence],
        "evidence_s": result.evidence_seconds,
        "alignments": [a.to_dict() for a in result.alignments],
        "prompt_tokens": result.prompt_tokens,
        "ttft_s": round(ttft, 2),
        "after_answer_s": round(checked, 2),
        "tokens": tokens,
        "tokens_per_s": round((tokens - 1) / decode, 1) if tokens > 1 and decode > 0 else None,
        "checks": score(question, result),
    }


def summarise(rows: list[dict]) -> dict[str, Any]:
    """Shares per metric over the rows it applies to, and the median timings."""
    summary: dict[str, Any] = {"questions": len(rows)}
    for metric in METRICS:
        values = [r["checks"][metric] for r in rows if r["checks"][metric] is not None]
        summary[metric] = round(sum(values) / len(values), 3) if values else None
        summary[f"{metric}_n"] = len(values)
    # Citations of claims the alignment left unsupported by every source (weak, unsupported)
    # among all cited claims of the answers given (kept, added and replaced ones are held).
    cited = [
        a
        for r in rows
        if not r.get("not_found")
        for a in r.get("alignments") or []
        if a["cited"] or a["action"] in ("added", "replaced")
    ]
    wrong = [a for a in cited if a["action"] in ("weak", "unsupported")]
    summary["miscited"] = round(len(wrong) / len(cited), 3) if cited else None
    summary["miscited_n"] = len(cited)
    ttfts = [r["ttft_s"] for r in rows]
    speeds = [r["tokens_per_s"] for r in rows if r["tokens_per_s"]]
    summary["median_ttft_s"] = round(statistics.median(ttfts), 2) if ttfts else None
    read = [r["prompt_tokens"] for r in rows if r.get("prompt_tokens") is not None]
    summary["median_prompt_tokens"] = statistics.median(read) if read else None
    ready = [r["evidence_s"] for r in rows if r.get("evidence_s") is not None]
    summary["median_evidence_s"] = round(statistics.median(ready), 3) if ready else None
    summary["median_tokens_per_s"] = round(statistics.median(speeds), 1) if speeds else None
    return summary


def evaluate_answers(
    open_vault: Callable[[str], Mindnet],
    models: dict[str, LlamaChat],
    questions: list[AnswerQuestion],
    k: int | None = None,
    on_row: Callable[[str, dict], None] | None = None,
) -> dict[str, Any]:
    """Every model over every question; each vault is opened (imported) once."""
    rows: dict[str, list[dict]] = {name: [] for name in models}
    by_vault: dict[str, list[AnswerQuestion]] = {}
    for question in questions:
        by_vault.setdefault(question.vault, []).append(question)
    for vault, asked in by_vault.items():
        mn = open_vault(vault)
        for question in asked:
            for name, llm in models.items():
                rows[name].append(run_question(mn, llm, question, k))
                if on_row:  # a long run shows (and keeps) each answer as it comes
                    on_row(name, rows[name][-1])
    return {
        "models": {
            name: {
                "summary": summarise(r),
                "by_set": {s: summarise([x for x in r if x["set"] == s]) for s in _keys(r, "set")},
                "by_language": {
                    lang: summarise([x for x in r if x["lang"] == lang])
                    for lang in _keys(r, "lang")
                },
                "rows": r,
            }
            for name, r in rows.items()
        },
    }


def _keys(rows: list[dict], key: str) -> list[str]:
    """The values of `key` in `rows`, in order of first appearance."""
    return list(dict.fromkeys(r[key] for r in rows))


def answers_table(result: dict[str, Any]) -> str:
    """The Markdown table of docs/answer-quality.md: one column per model, and per model
    one per set when several were asked."""
    names, summaries = [], []
    for name, model in result["models"].items():
        names.append(name)
        summaries.append(model["summary"])
        by_set = model.get("by_set") or {}
        if len(by_set) > 1:
            for set_name, summary in by_set.items():
                names.append(f"{name}: {set_name}")
                summaries.append(summary)
    lines = ["| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    labels = {
        "fact": "fact correct",
        "cites_gold": "cites a gold note",
        "fact_and_cited": "fact correct and cited",
        "cites_exist": "cites only existing sources",
        "language": "answer in the question's language",
        "abstains": "abstains when it should",
        "false_abstain": "abstains wrongly (answerable)",
        "abstains_or_warns": "abstains or flags a made-up figure",
        "false_warning": "abstains or flags a right answer (of right answers)",
        "warns_when_wrong": "abstains or flags a wrong answer (of wrong answers)",
        "withheld_right": "right draft withheld as not found (of right drafts)",
        "evidence_fact": "top-3 evidence holds the fact",
        "evidence_gold": "top-3 evidence comes from a gold note",
        "marked_right": "right answer with a sentence marked not found (of right answers)",
        "told_unanswerable": "unanswerable: told (abstains, a figure or a marked sentence)",
        "miscited": "cited claims no source holds (of cited claims)",
    }
    for metric, label in labels.items():
        cells = []
        for s in summaries:
            value = s[metric]
            cells.append("–" if value is None else f"{value:.2f} ({s[f'{metric}_n']})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(
        "| median time to first token | "
        + " | ".join(f"{s['median_ttft_s']} s" for s in summaries)
        + " |"
    )
    lines.append(
        "| median prompt tokens | "
        + " | ".join(f"{s.get('median_prompt_tokens')}" for s in summaries)
        + " |"
    )
    lines.append(
        "| median time to evidence | "
        + " | ".join(f"{s.get('median_evidence_s')} s" for s in summaries)
        + " |"
    )
    lines.append(
        "| median decode speed | "
        + " | ".join(f"{s['median_tokens_per_s']} tok/s" for s in summaries)
        + " |"
    )
    return "\n".join(lines)
