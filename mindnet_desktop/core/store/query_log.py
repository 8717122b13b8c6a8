"""Query log and feedback log: JSONL files in the data dir, appended; the feedback log is
rewritten (atomically) only when the user asks to forget ratings."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Literal

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.files import atomic_writer
from mindnet_desktop.core.store.overlay import now_iso

Rating = Literal["up", "down", "clear"]
RATINGS = ("up", "down", "clear")  # clear: the user took back an earlier up or down


class UnknownQueryError(MindnetError, LookupError):
    """A feedback names a query (or a source of it) that the log does not hold."""


def _raws(hit: dict[str, Any]) -> dict[str, float]:
    """A logged hit's raw term values (empty when its breakdown is missing or damaged)."""
    out = {}
    for term in hit.get("score_breakdown") or []:
        if isinstance(term, dict) and isinstance(term.get("raw"), (int, float)):
            out[str(term.get("term"))] = float(term["raw"])
    return out


class QueryLog:
    def __init__(self, data_dir: Path) -> None:
        self.queries = data_dir / "queries.jsonl"
        self.feedback_path = data_dir / "feedback.jsonl"

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex[:16]

    def _append(self, path: Path, entry: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    @staticmethod
    def _read(path: Path) -> list[dict[str, Any]]:
        if not path.is_file():
            return []
        entries = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a torn last line after a crash must not hide the rest
        return entries

    def log_query(self, entry: dict[str, Any]) -> None:
        """Append one search/ask: query_id, query, intent, model, top-k with breakdowns.
        Logging a query_id again completes its entry (an answer logged after its sources)."""
        self._append(self.queries, {"time": now_iso(), **entry})

    def read_queries(self) -> list[dict[str, Any]]:
        """Every query once, in the order they were asked: the lines of one query_id merged
        (later fields win, the time stays the first one's: when it was asked)."""
        merged: dict[object, dict[str, Any]] = {}
        for n, entry in enumerate(self._read(self.queries)):
            key = entry.get("query_id") or n  # a line without an id stands alone
            first = merged.get(key)
            merged[key] = {**first, **entry, "time": first.get("time")} if first else entry
        return list(merged.values())

    def read_feedback(self) -> list[dict[str, Any]]:
        return self._read(self.feedback_path)

    def feedback(
        self,
        query_id: str,
        node_id: str,
        rating: Rating,
        details: dict[str, Any] | None = None,
        query: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Record a thumbs up/down for a source (`node_id`) or the `answer` of a query;
        `clear` records that an earlier rating was taken back (the log is append-only: the
        last line for a (query_id, node_id) is the rating that stands). `details` (the
        note's state, the answer's sources and model) are stored with it. `query`: the logged
        entry of `query_id` when the caller has read it already."""
        if rating not in RATINGS:
            raise ValueError(f"unknown rating '{rating}': one of {', '.join(RATINGS)}")
        query = query if query is not None else self.query(query_id)
        if query is None:
            raise UnknownQueryError(f"unknown query_id '{query_id}' (`mindnet log` lists them)")
        shown = {h.get("node_id") for h in query.get("hits", [])}
        if node_id != "answer" and node_id not in shown:
            raise UnknownQueryError(
                f"'{node_id}' was not a result of query {query_id}; give one of its node ids "
                "or 'answer'"
            )
        entry = {"time": now_iso(), "query_id": query_id, "node_id": node_id, "rating": rating}
        if node_id != "answer":
            entry["note_id"] = next(
                h.get("note_id", node_id) for h in query["hits"] if h.get("node_id") == node_id
            )
        entry.update(details or {})
        self._append(self.feedback_path, entry)
        return entry

    def query(self, query_id: str) -> dict[str, Any] | None:
        """The logged search or ask `query_id` (None when the log does not hold it)."""
        return next((q for q in self.read_queries() if q.get("query_id") == query_id), None)

    def standing(self) -> list[dict[str, Any]]:
        """The ratings that stand, oldest first: the last line for each (query_id, node_id)
        unless it is `clear`, each with the question (`query`) it was given for and, for a
        source, the raw values its terms had in that query's ranking (`raws`, when logged)."""
        last: dict[tuple[str, str], dict[str, Any]] = {}
        for entry in self.read_feedback():
            key = (str(entry.get("query_id")), str(entry.get("node_id")))
            last.pop(key, None)  # re-inserted: the order is the latest rating's
            last[key] = entry
        wanted = {q for q, _ in last}
        questions: dict[str, str] = {}
        notes: dict[tuple[str, str], str] = {}  # of ratings logged before they named the note
        raws: dict[tuple[str, str], dict[str, float]] = {}
        for q in self.read_queries():
            if q.get("query_id") in wanted:
                questions[q["query_id"]] = q.get("query", "")
                for hit in q.get("hits", []):
                    key = (q["query_id"], str(hit.get("node_id")))
                    notes[key] = str(hit.get("note_id") or hit.get("node_id"))
                    raws[key] = _raws(hit)
        return [
            {
                **entry,
                "query": questions.get(entry["query_id"], ""),
                **({"raws": raws[key]} if raws.get(key) else {}),
                **(
                    {"note_id": notes.get(key, key[1].split("#")[0])}
                    if key[1] != "answer" and "note_id" not in entry
                    else {}
                ),
            }
            for key, entry in last.items()
            if entry.get("rating") in ("up", "down")
        ]

    def forget(self, query_id: str | None = None) -> int:
        """Remove the ratings of `query_id` (None: all) from the feedback log, rewriting it
        atomically; the number of lines removed. Raises UnknownQueryError when `query_id` has
        no rating."""
        entries = self.read_feedback()
        kept = [e for e in entries if query_id is not None and e.get("query_id") != query_id]
        removed = len(entries) - len(kept)
        if query_id is not None and not removed:
            raise UnknownQueryError(f"query {query_id} has no ratings (`mindnet feedback --list`)")
        if removed:
            with atomic_writer(self.feedback_path, text=True) as handle:
                handle.writelines(json.dumps(e, ensure_ascii=False) + "\n" for e in kept)
        return removed
