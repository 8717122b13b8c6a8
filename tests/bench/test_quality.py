"""The QA benchmark's arithmetic, set loading and a small run through `mindnet bench quality`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.bench.quality import (
    Scores,
    evaluate,
    first_gold_rank,
    load_qa_set,
    ranked_notes,
)
from mindnet_desktop.cli.main import main
from mindnet_desktop.core.config.type_registry import ConfigError
from tests.conftest import EXAMPLE_VAULT, REPO, run_import


def test_ranks_and_scores() -> None:
    ranked = [("a", "A.md"), ("b", "Sub/B.md"), ("c", "C.md")]
    assert first_gold_rank(ranked, ("Sub/B.md",)) == 2
    assert first_gold_rank(ranked, ("c",)) == 3  # by note id too
    assert first_gold_rank(ranked, ("X.md",)) is None
    scores = Scores([1, 2, None, 6]).summary()
    assert scores == {"hit@1": 0.25, "hit@5": 0.5, "mrr": round((1 + 0.5 + 1 / 6) / 4, 3)}


def write_set(tmp_path: Path, questions: list[dict], vault: str = "resources/example_vault"):
    path = tmp_path / "set.yaml"
    path.write_text(
        json.dumps({"name": "tiny", "vault": vault, "questions": questions}), encoding="utf-8"
    )
    return path


def test_a_bad_question_set_names_the_question(tmp_path: Path) -> None:
    path = write_set(tmp_path, [{"q": "Wo?", "lang": "fr", "kind": "fact", "gold": ["A.md"]}])
    with pytest.raises(ConfigError, match=r"questions\[0\]"):
        load_qa_set(path, REPO)


QUESTIONS = [
    {"id": "t1", "q": "Tonerkassette 55X Seiten", "lang": "de", "kind": "fact",
     "gold": ["Support/Toner wechseln.md"], "split": "test"},
    {"id": "t2", "q": "HNSW Graph", "lang": "en", "kind": "fact", "gold": ["Glossar/HNSW.md"],
     "split": "test"},
    {"id": "t3", "q": "Papierstau Walze", "lang": "de", "kind": "known_item", "split": "dev",
     "gold": ["Support/Papierstau beheben.md"], "deep": True},
]  # fmt: skip


def test_evaluate_ranks_notes_per_variant(tmp_path: Path, vault: Path, open_mindnet) -> None:
    qa = load_qa_set(write_set(tmp_path, QUESTIONS), REPO)
    assert qa.vault == EXAMPLE_VAULT
    mn = open_mindnet(vault)
    run_import(mn)
    lexical = ranked_notes(mn, "lexical", "Tonerkassette 55X Seiten")
    assert lexical[0][1] == "Support/Toner wechseln.md"
    assert len({n for n, _ in lexical}) == len(lexical)  # one hit per note
    result = evaluate(mn, qa)  # the test half by default
    assert result["questions"] == 2 and result["unknown_gold"] == []
    assert set(result["scores"]) == {"semantic", "lexical", "semantic+lexical", "hybrid"}
    assert result["scores"]["lexical"]["hit@1"] == 1.0
    assert set(result["groups"]) == {"fact", "de", "en"}
    dev = evaluate(mn, qa, split="dev")
    assert dev["questions"] == 1 and set(dev["groups"]) == {"known_item", "de", "deep"}
    assert evaluate(mn, qa, split=None)["questions"] == 3


def test_a_question_without_a_split_is_refused(tmp_path: Path) -> None:
    path = write_set(tmp_path, [{**QUESTIONS[0], "split": "train"}])
    with pytest.raises(ConfigError, match=r"questions\[0\].split"):
        load_qa_set(path, REPO)


def test_bench_quality_reports_a_table_per_embedder(tmp_path: Path, capsys) -> None:
    path = write_set(tmp_path, QUESTIONS)
    args = ["bench", "quality", "--sets", str(path), "--embedders", "hash"]
    assert main([*args, "--workdir", str(tmp_path / "work"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["split"] == "test" and data["sets"]["tiny"]["hash"]["questions"] == 2
    # "HNSW Graph" shares "hnsw" with the note HNSW; the toner question shares "toner".
    overlap = data["sets"]["tiny"]["overlap"]
    assert overlap["per_question"] == {"t1": ["tonerkassette"], "t2": ["hnsw"]}
    assert "| tiny (2 q) | 1 / 1 | hash | **hybrid** |" in data["table"]
    assert data["embedding_chunks_per_second"]["hash"] > 0
    assert isinstance(data["ok"], bool)


def test_a_comparison_on_dev_leaves_the_configuration_in_effect(
    tmp_path: Path, vault: Path, open_mindnet
) -> None:
    """`bench.fusion` ranks the dev half under several configurations one after the other;
    the last one (lexical only) must not stay in use, or the next set's comparison (and its
    "default" row) would start from it."""
    from mindnet_desktop.bench.fusion import evaluate_configs

    qa = load_qa_set(write_set(tmp_path, QUESTIONS), REPO)
    mn = open_mindnet(vault)
    run_import(mn)
    before = mn.retriever_config
    dev = [q for q in qa.questions if q.split == "dev"]
    first = evaluate_configs(mn, dev, "default")
    assert list(first) == ["default", "semantic only", "lexical only"]
    assert mn.retriever_config == before
    assert evaluate_configs(mn, dev, "default") == first


def test_the_simulated_user_can_swap_which_half_is_rated() -> None:
    """`bench feedback --swap-roles` rates the questions that are otherwise the unrelated
    ones (and the other way round), on the same half, so one half measures twice."""
    from mindnet_desktop.bench.feedback import halves
    from mindnet_desktop.bench.quality import QaSet, Question

    questions = tuple(
        Question(f"q{i}", f"question {i}", "en", "fact", ("A.md",), split)
        for i, split in enumerate(["dev", "test", "dev", "dev", "test", "dev"])
    )
    qa = QaSet("tiny", REPO, questions)
    paraphrases = {q.id: f"reworded {q.id}" for q in questions if q.id != "q5"}
    plain, swapped = halves(qa, paraphrases, "dev"), halves(qa, paraphrases, "dev", swap=True)
    assert [q.id for q in plain.rated] == ["q0", "q3"] and [q.id for q in plain.unrelated] == ["q2"]
    assert swapped.rated == plain.unrelated and swapped.unrelated == plain.rated
