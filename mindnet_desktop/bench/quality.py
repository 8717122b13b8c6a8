"""Retrieval quality on question → gold-note sets (`resources/qa/*.yaml`).

Each question is ranked per note (the best chunk of each note, top 10) by four retrievers:

- `semantic`: embedding similarity only (what most note-RAG tools do);
- `lexical`: BM25 only;
- `semantic+lexical`: both candidate pools, the two terms with their configured weights;
- `hybrid`: what `mindnet search --per-note` returns: every term of `retriever.yaml`, named
  notes and their neighbours, intent routing.

A question is a hit at rank r when the r-th note is one of its gold notes (by vault path or
note id). Reported: hit@1, hit@5 and MRR (reciprocal rank, 0 beyond rank 10).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from mindnet_desktop.core.config.type_registry import ConfigError
from mindnet_desktop.core.retrieval.metrics import Scores as Scores
from mindnet_desktop.core.retrieval.metrics import first_gold_rank as first_gold_rank
from mindnet_desktop.core.retrieval.retriever import HybridRetriever
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet

DEPTH = 10
VARIANTS = ("semantic", "lexical", "semantic+lexical", "hybrid")
KINDS = ("fact", "relation", "decision", "howto", "known_item")
SPLITS = ("dev", "test")  # dev: for choosing weights, models, sizes; test: reported only


@dataclass(frozen=True)
class Question:
    id: str
    q: str
    lang: str
    kind: str
    gold: tuple[str, ...]
    split: str = "test"
    heading: str = ""  # the gold heading, where the answer lives under one
    deep: bool = False  # answered by one detail deep inside a long note


@dataclass(frozen=True)
class QaSet:
    name: str
    vault: Path
    questions: tuple[Question, ...]
    licence: str = ""


def read_yaml_file(path: Path, what: str) -> Any:
    """The parsed YAML of a bench file (`what` names it in the error: "question set", …)."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(path, "", f"a readable YAML {what}", str(exc)) from exc


def read_question_file(path: Path, what: str) -> dict[str, Any]:
    """The mapping of a YAML question file (`what`: "question set", "intent set"), with its
    `questions` list checked to be there."""
    data = read_yaml_file(path, what)
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise ConfigError(path, "questions", "a list of questions")
    return data


def load_qa_set(path: Path, root: Path) -> QaSet:
    """A question set; its `vault` is relative to `root` (the repository)."""
    data = read_question_file(path, "question set")
    questions = []
    for i, raw in enumerate(data["questions"]):
        if not isinstance(raw, dict):
            raise ConfigError(path, f"questions[{i}]", "a mapping")
        gold = raw.get("gold")
        if not raw.get("q") or not isinstance(gold, list) or not gold:
            raise ConfigError(path, f"questions[{i}]", "q and a non-empty gold list")
        if raw.get("lang") not in ("de", "en") or raw.get("kind") not in KINDS:
            raise ConfigError(path, f"questions[{i}]", f"lang de|en and kind {'|'.join(KINDS)}")
        if raw.get("split") not in SPLITS:
            raise ConfigError(path, f"questions[{i}].split", "dev or test", raw.get("split"))
        questions.append(
            Question(
                id=str(raw.get("id", i)),
                q=str(raw["q"]),
                lang=raw["lang"],
                kind=raw["kind"],
                gold=tuple(str(g) for g in gold),
                split=raw["split"],
                heading=str(raw.get("heading") or ""),
                deep=bool(raw.get("deep", False)),
            )
        )
    name = str(data.get("name") or path.stem)
    return QaSet(name, root / str(data["vault"]), tuple(questions), str(data.get("licence", "")))


def only(weights: dict[str, float], keep: Iterable[str]) -> dict[str, float]:
    kept = set(keep)
    return {term: (w if term in kept else 0.0) for term, w in weights.items()}


def variant_retriever(mn: Mindnet, variant: str) -> HybridRetriever:
    """The retriever of one ablation: the configured weights of its terms, the others 0."""
    retriever = mn.retriever
    config = retriever.config
    if variant == "semantic":
        config = replace(config, weights=only({**config.weights, "semantic": 1.0}, ["semantic"]))
        config = replace(config, lexical_pool=0)
    elif variant == "lexical":
        config = replace(config, weights=only({**config.weights, "lexical": 1.0}, ["lexical"]))
        config = replace(config, candidate_pool=0)
    elif variant == "semantic+lexical":
        config = replace(config, weights=only(config.weights, ["semantic", "lexical"]))
    else:
        raise ValueError(f"unknown variant {variant}")
    retriever.config = config
    return retriever


def ranked_notes(mn: Mindnet, variant: str, question: str) -> list[tuple[str, str]]:
    """(note id, path) of the top notes for `question` under `variant`."""
    if variant == "hybrid":
        # Injected notes come on top of the k hits: cut at the same depth as the others.
        hits = hybrid_search(mn, question, DEPTH, log=False, per_note=True, language="en").hits
        hits = hits[:DEPTH]
    else:
        retriever = variant_retriever(mn, variant)
        hits = retriever.rank(question, DEPTH, per_note=True).hits
    return [(h.note_id, h.path) for h in hits]


def evaluate(
    mn: Mindnet,
    qa: QaSet,
    variants: Iterable[str] = VARIANTS,
    on_question: Callable[[int, int], None] | None = None,
    split: str | None = "test",
) -> dict[str, Any]:
    """Scores per variant (overall and per kind / language) and the misses of `hybrid`, over
    the questions of `split` (None: all)."""
    variants = list(variants)
    questions = [q for q in qa.questions if split is None or q.split == split]
    missing = [g for q in questions for g in q.gold if not _known(mn, g)]
    scores = {v: Scores() for v in variants}
    by_group: dict[str, dict[str, Scores]] = {}
    misses = []
    for i, question in enumerate(questions):
        for variant in variants:
            rank = first_gold_rank(ranked_notes(mn, variant, question.q), question.gold)
            scores[variant].ranks.append(rank)
            for group in (question.kind, question.lang, *(["deep"] if question.deep else [])):
                by_group.setdefault(group, {v: Scores() for v in variants})[variant].ranks.append(
                    rank
                )
            if variant == "hybrid" and rank != 1:
                misses.append({"id": question.id, "q": question.q, "rank": rank})
        if on_question:
            on_question(i + 1, len(questions))
    return {
        "split": split or "all",
        "questions": len(questions),
        "unknown_gold": missing,
        "scores": {v: s.summary() for v, s in scores.items()},
        "groups": {g: {v: s.summary() for v, s in per.items()} for g, per in by_group.items()},
        "hybrid_misses": misses,
    }


def _known(mn: Mindnet, gold: str) -> bool:
    return gold in mn.records or any(r.note.path == gold for r in mn.records.values())


def embedding_speed(embedder: Any, texts: list[str]) -> float:
    """Passages per second for `texts` (after one warm-up call)."""
    embedder.embed(texts[:2])
    started = time.perf_counter()
    embedder.embed(texts)
    return len(texts) / max(time.perf_counter() - started, 1e-9)


def sample_texts(mn: Mindnet, n: int) -> list[str]:
    """Up to `n` chunk texts of the vault, spread over its notes."""
    texts: list[str] = []
    for note_id in sorted(mn.records):
        texts.extend(c.text for c in mn.store.chunks(note_id)[:2])
        if len(texts) >= n:
            break
    return texts[:n]


def hybrid_wins(scores: dict[str, dict[str, float]]) -> bool:
    """The full hybrid beats every single signal on hit@5 and MRR."""
    best = scores["hybrid"]
    return all(
        best[m] > scores[single][m] for single in ("semantic", "lexical") for m in ("hit@5", "mrr")
    )


def quality_table(results: dict[str, Any], embedders: list[str]) -> str:
    """The Markdown table of docs/retrieval-quality.md."""
    lines = [
        "| set | overlap | embedder | retriever | hit@1 | hit@5 | MRR |",
        "|---|---|---|---|---|---|---|",
    ]
    for set_name, per_set in results["sets"].items():
        overlap = per_set.get("overlap")
        shared = f"{overlap['median']:g} / {overlap['max']}" if overlap else ""
        for name in embedders:
            picked = per_set[name].get("embedder", name)
            shown = name if picked == name else f"{name} ({picked})"
            for variant, s in per_set[name]["scores"].items():
                label = f"**{variant}**" if variant == "hybrid" else variant
                lines.append(
                    f"| {set_name} ({per_set['questions']} q) | {shared} | {shown} | {label} "
                    f"| {s['hit@1']:.2f} | {s['hit@5']:.2f} | {s['mrr']:.2f} |"
                )
    lines.append("")
    lines.append(
        "overlap: content words a question shares with its gold note's title, aliases, file "
        "name and headings, median / maximum over the set's questions (`bench/overlap.py`)."
    )
    speeds = results["embedding_chunks_per_second"]
    lines.append("")
    lines.append(
        "Embedding speed here (2 cores): "
        + ", ".join(f"{name} {speed:g} chunks/s" for name, speed in speeds.items())
    )
    return "\n".join(lines)
