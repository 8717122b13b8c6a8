"""`mindnet tune`: what it learns from, that it never writes a worse config, that it keeps a
backup. The hash embedder is enough here: these properties do not depend on meaning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.bench.tune import (
    Asked,
    Group,
    TuneResult,
    apply,
    evaluate,
    neighbours,
    rated_questions,
    tune,
)
from mindnet_desktop.cli.main import main
from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

SCORES = {"hit@1": 0.5, "hit@5": 0.5, "mrr": 0.5}


def rate(mn, query: str, rank: int, rating: str) -> str:
    result = hybrid_search(mn, query, k=10, per_note=True)
    record_feedback(mn, result.query_id, result.hits[rank].node_id, rating)  # type: ignore[arg-type]
    return result.hits[rank].note_id


def test_rated_questions_take_up_sources_as_gold_and_leave_their_own_ratings_out(
    vault, open_mindnet
) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    liked = rate(mn, "Papierstau im Drucker", 3, "up")
    rate(mn, "Papierstau im Drucker", 0, "down")
    rate(mn, "Qdrant Vektordatenbank", 1, "down")  # only ▼: no gold, not a question to learn
    asked = rated_questions(mn)
    assert [(a.text, a.gold) for a in asked] == [("Papierstau im Drucker", frozenset({liked}))]
    (question,) = asked
    assert len(question.leave_out) == 2  # both searches of that text
    vector = mn.embedder.embed_query([question.text])[0]
    assert liked in mn.feedback.effects(vector)
    with mn.feedback.leaving_out(question.leave_out):
        assert mn.feedback.effects(vector) == {}


def test_tune_never_proposes_what_is_worse_on_any_group(vault, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    for query, rank in (("Papierstau", 6), ("Vektordatenbank lokal", 4), ("Halbmarathon", 2)):
        rate(mn, query, rank, "up")
    groups = [
        Group("rated", mn, rated_questions(mn)),
        Group("prior", mn, [Asked("Toner wechseln", frozenset({"Support/Toner wechseln"}))], True),
    ]
    current = dict(mn.retriever_config.weights)
    result = tune(groups, current)
    assert result.before == evaluate(groups, current)
    assert result.after == evaluate(groups, result.proposed)
    if result.better:
        for name in result.before:
            assert result.after[name]["mrr"] >= result.before[name]["mrr"]
    assert result.tried >= len(neighbours(current)) or not result.learnt_from


def test_apply_refuses_a_proposal_that_is_not_better_and_keeps_a_backup(
    vault, open_mindnet
) -> None:
    mn = open_mindnet(vault)
    current = dict(mn.retriever_config.weights)
    proposed = {**current, "coverage": current["coverage"] * 2}
    worse = TuneResult(
        current, proposed, {"rated": SCORES}, {"rated": {**SCORES, "mrr": 0.4}}, groups={"rated": 3}
    )
    worse.learnt_from = ["rated"]
    assert not worse.better
    with pytest.raises(ValueError, match="not better"):
        apply(mn, worse)
    assert not (mn.config_dir / "retriever.yaml").exists()
    better = TuneResult(
        current, proposed, {"rated": SCORES}, {"rated": {**SCORES, "mrr": 0.6}}, groups={"rated": 3}
    )
    better.learnt_from = ["rated"]
    bundled = Path(mn.retriever_config.source).read_text()
    written, backup = apply(mn, better)
    assert backup is not None and backup.read_text() == bundled  # the file that was in effect
    assert mn.retriever_config.weights == {t: proposed[t] for t in TERMS}
    again, second_backup = apply(mn, better)
    assert second_backup is not None and "Written by Mindnet" in second_backup.read_text()
    assert again == written


def test_cli_tune_dry_run_writes_nothing(vault, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import", "--json"]) == 0
    capsys.readouterr()
    argv = ["--vault", str(vault), "tune", "--dry-run", "--no-prior", "--probes", "0", "--json"]
    code = main(argv)
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["written"] is None and out["questions"] == {"your rated questions": 0}
    assert out["proposed"] == out["current"] and out["better"] is False
    code = main(["--vault", str(vault), "tune", "--dry-run", "--no-prior", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["written"] is None
    assert out["questions"]["probes from your notes"] > 10  # sentence probes of the vault
    assert out["learnt_from"] == ["probes from your notes"]
