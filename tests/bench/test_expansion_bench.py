"""`mindnet bench quality --expand MODE` ranks each question without and with the chat
model's rewrite and reports the rewrite's seconds apart; without `--expand` the bench never
asks the model (a stand-in records its calls)."""

from __future__ import annotations

import json
from pathlib import Path

from mindnet_desktop.bench.expansion import seconds
from mindnet_desktop.cli.main import main
from tests.bench.test_quality import QUESTIONS, write_set
from tests.core.service.ask.test_expansion import REWRITE, RecordingChat


def test_bench_quality_expands_only_when_asked(tmp_path: Path, capsys, monkeypatch) -> None:
    recorded = RecordingChat.made = []
    monkeypatch.setattr("mindnet_desktop.core.models.llm.LlamaChat", RecordingChat)
    path = write_set(tmp_path, QUESTIONS)
    args = ["bench", "quality", "--sets", str(path), "--embedders", "hash", "--split", "all"]
    work = ["--workdir", str(tmp_path / "work"), "--json"]
    assert main([*args, *work]) == 0
    assert "expansion" not in json.loads(capsys.readouterr().out)
    assert recorded == []  # the plain bench made no chat model

    more = ["--expand", "keywords", "--embedder", "hash", "--limit", "2"]
    assert main([*args, *more, *work]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expansion"] == "keywords" and data["ok"] is True
    tiny = data["sets"]["tiny"]
    assert tiny["questions"] == 2 and [r["id"] for r in tiny["rewrites"]] == ["t1", "t2"]
    assert all(r["rewrite"] == REWRITE for r in tiny["rewrites"])
    assert len(recorded) == 1 and len(recorded[0].rewrites()) == 2  # one per question
    assert set(tiny["scores"]) == {"hybrid", "expanded"} and data["all"]["questions"] == 2
    assert set(data["all"]["rewrite_seconds"]) == {"median", "p95"}
    assert "| tiny | 2 |" in data["table"] and "added s median / p95" in data["table"]


def test_seconds_are_median_and_p95() -> None:
    assert seconds([]) == {"median": 0.0, "p95": 0.0}
    assert seconds([4.0, 1.0, 3.0, 2.0]) == {"median": 2.5, "p95": 3.0}
    assert seconds([float(s) for s in range(1, 22)]) == {"median": 11.0, "p95": 20.0}
