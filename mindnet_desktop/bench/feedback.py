"""A simulated user (issue 17): do thumbs on sources help the next, similar question, and
do they leave other questions alone?

Over the questions of one half (dev or test) of a QA set that has paraphrases
(`resources/qa/paraphrases/<set>.yaml`, written by hand): every other question is *rated*,
the rest are *unrelated*. Before any rating, each rated question's paraphrase and each
unrelated question is ranked (per note, top 10). Then the user asks every rated question
and rates its top 5: ▲ on each gold note, ▼ on the first two that are not gold. Afterwards
the paraphrases and the unrelated questions are ranked again. Reported: hit@1, hit@5 and MRR
before and after, for the paraphrases, the rated questions themselves asked again, and the
unrelated questions in two groups: those no rating is near (no rated question alike enough by
the feedback term's threshold) and those near a rated one.

The goals (`ok`): the paraphrases gain MRR +0.10 or more; the unrelated questions no rating is
near do not move at all (every rank as before); those near a rated one lose at most 0.03 MRR,
the stated price of a term that moves a rated note for questions like the rated one
(docs/feedback.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindnet_desktop.bench.quality import (
    DEPTH,
    QaSet,
    Question,
    Scores,
    first_gold_rank,
    read_yaml_file,
)
from mindnet_desktop.core.config.type_registry import ConfigError
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet

RATED_TOP = 5  # the user rates the top 5 sources
DOWN_PER_QUESTION = 2  # ▼ on the first two wrong ones
GOAL_GAIN = 0.10  # MRR on the paraphrases
NEAR_LOSS = 0.03  # MRR that unrelated questions near a rated one may lose


def paraphrase_file(qa_path: Path) -> Path:
    """Where the paraphrases of the QA set at `qa_path` live."""
    return qa_path.parent / "paraphrases" / qa_path.name


def load_paraphrases(path: Path, qa: QaSet) -> dict[str, str]:
    """Question id -> paraphrase, checked against the set (every one known, none equal to
    its question)."""
    data = read_yaml_file(path, "paraphrase file")
    if not isinstance(data, dict):
        raise ConfigError(path, "", "a mapping")
    raw = data.get("paraphrases")
    if not isinstance(raw, dict) or not raw:
        raise ConfigError(path, "paraphrases", "a mapping of question id to paraphrase")
    questions = {q.id: q.q for q in qa.questions}
    out = {}
    for qid, text in raw.items():
        if str(qid) not in questions:
            raise ConfigError(path, f"paraphrases.{qid}", f"an id of {qa.name}")
        if not isinstance(text, str) or not text.strip() or text == questions[str(qid)]:
            raise ConfigError(path, f"paraphrases.{qid}", "a reworded question")
        out[str(qid)] = text
    return out


@dataclass(frozen=True)
class Halves:
    rated: list[Question]
    unrelated: list[Question]


def halves(qa: QaSet, paraphrases: dict[str, str], split: str | None, swap: bool = False) -> Halves:
    """Every other question of `split` (with a paraphrase) is rated, the rest unrelated
    (`swap`: the other way round, so one half gives two measurements)."""
    asked = [q for q in qa.questions if (split is None or q.split == split) and q.id in paraphrases]
    first, second = asked[0::2], asked[1::2]
    return Halves(second, first) if swap else Halves(first, second)


def _rank(mn: Mindnet, query: str, gold: tuple[str, ...], language: str) -> int | None:
    hits = hybrid_search(mn, query, DEPTH, log=False, per_note=True, language=language).hits
    return first_gold_rank([(h.note_id, h.path) for h in hits[:DEPTH]], gold)


def _ranks(mn: Mindnet, asked: list[tuple[str, Question]]) -> list[int | None]:
    return [_rank(mn, text, q.gold, q.lang) for text, q in asked]


def _scores(mn: Mindnet, asked: list[tuple[str, Question]]) -> dict[str, float]:
    return Scores(_ranks(mn, asked)).summary()


def _split_by_nearness(
    mn: Mindnet,
    asked: list[tuple[str, Question]],
    before: list[int | None],
    after: list[int | None],
) -> dict[str, dict[str, Any]]:
    """The unrelated questions in two groups: `near`, those for which some rating counts
    (a rated question alike enough, by the feedback term's threshold), and `far`, the rest
    (the ratings cannot move their notes); `moved` counts the questions whose rank changed."""
    # one question at a time, as a search embeds it (a batch may differ in the last digits)
    vectors = [mn.embedder.embed_query([text])[0] for text, _ in asked]
    near = [bool(mn.feedback.effects(vector)) for vector in vectors]
    out: dict[str, dict[str, Any]] = {}
    for name, want in (("near", True), ("far", False)):
        pick = [i for i, flag in enumerate(near) if flag is want]
        out[name] = {
            "questions": len(pick),
            "before": Scores([before[i] for i in pick]).summary(),
            "after": Scores([after[i] for i in pick]).summary(),
            "moved": sum(before[i] != after[i] for i in pick),
        }
    return out


def rate(mn: Mindnet, question: Question) -> dict[str, int]:
    """Ask `question` as the user would (logged) and rate its top 5."""
    result = hybrid_search(mn, question.q, DEPTH, per_note=True, language=question.lang)
    gold = set(question.gold)
    counts = {"up": 0, "down": 0}
    for hit in result.hits[:RATED_TOP]:
        good = hit.note_id in gold or hit.path in gold
        if not good and counts["down"] == DOWN_PER_QUESTION:
            continue
        rating = "up" if good else "down"
        record_feedback(mn, result.query_id, hit.node_id, rating)
        counts[rating] += 1
    return counts


def simulate(
    mn: Mindnet,
    qa: QaSet,
    paraphrases: dict[str, str],
    split: str | None = "test",
    on_step: Callable[[str, int, int], None] | None = None,
    swap: bool = False,
) -> dict[str, Any]:
    """Run the simulated user on `mn` (its ratings are forgotten first: use a data dir of
    its own) and return the scores before and after (`swap`: the roles of the two halves
    of `halves` exchanged)."""
    if mn.query_log.read_feedback():
        mn.query_log.forget()
    mn.feedback.changed()
    parts = halves(qa, paraphrases, split, swap)
    paraphrased = [(paraphrases[q.id], q) for q in parts.rated]
    originals = [(q.q, q) for q in parts.rated]
    unrelated = [(q.q, q) for q in parts.unrelated]
    unrelated_before = _ranks(mn, unrelated)
    before = {
        "paraphrases": _scores(mn, paraphrased),
        "rated": _scores(mn, originals),
        "unrelated": Scores(unrelated_before).summary(),
    }
    counts = {"up": 0, "down": 0}
    for i, question in enumerate(parts.rated):
        for rating, n in rate(mn, question).items():
            counts[rating] += n
        if on_step:
            on_step("rating", i + 1, len(parts.rated))
    unrelated_after = _ranks(mn, unrelated)
    after = {
        "paraphrases": _scores(mn, paraphrased),
        "rated": _scores(mn, originals),
        "unrelated": Scores(unrelated_after).summary(),
    }
    gain = after["paraphrases"]["mrr"] - before["paraphrases"]["mrr"]
    drift = after["unrelated"]["mrr"] - before["unrelated"]["mrr"]
    nearness = _split_by_nearness(mn, unrelated, unrelated_before, unrelated_after)
    near = nearness["near"]
    goals = {
        "paraphrase_gain": gain >= GOAL_GAIN,
        "far_unmoved": nearness["far"]["moved"] == 0,
        "near_loss_bounded": near["after"]["mrr"] - near["before"]["mrr"] >= -NEAR_LOSS - 1e-9,
    }
    return {
        "split": split or "all",
        "swapped": swap,
        "rated_questions": len(parts.rated),
        "unrelated_questions": len(parts.unrelated),
        "ratings": counts,
        "before": before,
        "after": after,
        "paraphrase_mrr_gain": round(gain, 3),
        "unrelated_mrr_change": round(drift, 3),
        "unrelated_by_nearness": nearness,
        "goals": goals,
        "ok": all(goals.values()),
    }


def feedback_table(results: dict[str, Any]) -> str:
    """Markdown: per set, hit@1 / hit@5 / MRR before → after for each group of questions."""
    lines = [
        "| set | questions | hit@1 | hit@5 | MRR |",
        "|---|---|---|---|---|",
    ]
    labels = {
        "paraphrases": "paraphrases of rated",
        "rated": "rated, asked again",
        "unrelated": "unrelated",
    }
    nearness = {"near": "unrelated, near a rated question", "far": "unrelated, near none"}

    def row(name: str, label: str, n: int, b: dict[str, float], a: dict[str, float]) -> str:
        cells = [f"{b[m]:.2f} → {a[m]:.2f}" for m in ("hit@1", "hit@5", "mrr")]
        return f"| {name}: {label} | {n} | {' | '.join(cells)} |"

    for name, run in results["sets"].items():
        for group, label in labels.items():
            n = run["unrelated_questions"] if group == "unrelated" else run["rated_questions"]
            lines.append(row(name, label, n, run["before"][group], run["after"][group]))
        for part, label in nearness.items():
            got = run.get("unrelated_by_nearness", {}).get(part)
            if got and got["questions"]:
                lines.append(row(name, label, got["questions"], got["before"], got["after"]))
    return "\n".join(lines)
