"""The feedback log records up, down and a taken-back rating (clear), and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.core.store.query_log import QueryLog


def test_a_rating_taken_back_is_recorded_as_clear(tmp_path: Path) -> None:
    log = QueryLog(tmp_path)
    log.log_query({"query_id": "q1", "query": "x", "hits": [{"node_id": "A#1"}]})
    log.feedback("q1", "A#1", "up")
    log.feedback("q1", "A#1", "clear")
    log.feedback("q1", "answer", "down")
    rows = [(f["query_id"], f["node_id"], f["rating"]) for f in log.read_feedback()]
    assert rows == [("q1", "A#1", "up"), ("q1", "A#1", "clear"), ("q1", "answer", "down")]


def test_an_unknown_rating_is_refused_and_not_written(tmp_path: Path) -> None:
    log = QueryLog(tmp_path)
    log.log_query({"query_id": "q1", "query": "x", "hits": [{"node_id": "A#1"}]})
    with pytest.raises(ValueError, match="unknown rating"):
        log.feedback("q1", "A#1", "sideways")  # type: ignore[arg-type]
    assert log.read_feedback() == []


def test_a_query_logged_again_is_one_entry_completed_by_the_later_line(tmp_path: Path) -> None:
    log = QueryLog(tmp_path)
    log.log_query({"query_id": "q1", "query": "x", "hits": [{"node_id": "A#1"}]})
    log.log_query({"query_id": "q2", "query": "y", "hits": []})
    log.feedback("q1", "A#1", "up")  # rated before its answer was logged
    log.log_query({"query_id": "q1", "query": "x", "hits": [{"node_id": "A#1"}], "answer": "a"})
    queries = log.read_queries()
    assert [q["query_id"] for q in queries] == ["q1", "q2"]
    assert queries[0]["answer"] == "a" and "answer" not in queries[1]
    lines = log.queries.read_text(encoding="utf-8").splitlines()
    assert queries[0]["time"] == json.loads(lines[0])["time"]  # when it was asked
