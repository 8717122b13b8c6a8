"""Thumbs that teach: recording a rating with what the note looked like, and the ratings
that stand, with their questions' vectors, for the `feedback` term of the retriever.

The questions' vectors are kept in `feedback_vectors.npz` in the data dir (per embedder), so
a new process embeds only questions rated since. Nothing leaves the data dir.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from mindnet_desktop.core.files import atomic_writer
from mindnet_desktop.core.retrieval.feedback import Effect, FeedbackSettings, Rating, effects
from mindnet_desktop.core.store.query_log import Rating as Thumb

if TYPE_CHECKING:
    from mindnet_desktop.core.config.retriever import RetrieverConfig
    from mindnet_desktop.core.domain import Chunk
    from mindnet_desktop.core.models.embedders import Embedder
    from mindnet_desktop.core.service.search.view import SearchView
    from mindnet_desktop.core.store.query_log import QueryLog

VECTORS_FILE = "feedback_vectors.npz"


class RatedVault(Protocol):
    """What the ratings read of an open vault (`Mindnet`): the query log with its ratings,
    the notes that still exist and their chunks, the embedder and the retriever's config."""

    @property
    def data_dir(self) -> Path: ...

    @property
    def embedder(self) -> Embedder: ...

    @property
    def query_log(self) -> QueryLog: ...

    @property
    def retriever_config(self) -> RetrieverConfig: ...

    @property
    def search_view(self) -> SearchView: ...

    def has_note(self, note_id: str) -> bool: ...

    def chunks(self, note_id: str) -> list[Chunk]: ...


class RatingVault(RatedVault, Protocol):
    """A `RatedVault` with its `FeedbackIndex`, told when a rating is recorded."""

    @property
    def feedback(self) -> FeedbackIndex: ...


def chunk_hashes(texts: list[str]) -> list[str]:
    """Short hashes of a note's chunk texts: how much of it a later version still holds."""
    return [hashlib.sha1(t.encode("utf-8")).hexdigest()[:12] for t in texts]


def record_feedback(mn: RatingVault, query_id: str, node_id: str, rating: Thumb) -> dict[str, Any]:
    """Log a thumbs up/down/clear on a source or the answer of a logged query. A source's
    rating keeps the note's chunk hashes (a note rewritten since counts less); the answer's
    keeps its sources and the model."""
    query = mn.query_log.query(query_id)
    details: dict[str, Any] = {}
    if query is not None and node_id == "answer":
        details = {"sources": [h.get("note_id") for h in query.get("hits", [])]}
        details["model"] = query.get("model")
    elif query is not None:
        hit = next((h for h in query.get("hits", []) if h.get("node_id") == node_id), None)
        if hit is not None and mn.has_note(hit.get("note_id", "")):
            details = {"chunks": chunk_hashes([c.text for c in mn.chunks(hit["note_id"])])}
    entry = mn.query_log.feedback(query_id, node_id, rating, details, query)
    mn.feedback.changed()
    return entry


def _age_days(stamp: str, now: datetime) -> float:
    try:
        then = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return 0.0
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max((now - then).total_seconds() / 86400.0, 0.0)


class FeedbackIndex:
    """The standing ratings of a data dir, ready to score a question (`effects`). Reloaded
    when the feedback log changes; the questions' vectors are cached on disk."""

    def __init__(self, mn: RatedVault) -> None:
        self.mn = mn
        self._ratings: list[Rating] | None = None
        self._stamp: tuple[int, int] | None = None
        self._kept: dict[tuple[str, int, int, tuple[str, ...]], float] = {}
        self._leave_out: frozenset[str] = frozenset()

    @contextmanager
    def leaving_out(self, query_ids: frozenset[str]) -> Iterator[None]:
        """Within the block, the ratings given for `query_ids` do not count (`mindnet tune`
        ranks each rated question without its own ratings)."""
        before, self._leave_out = self._leave_out, query_ids
        try:
            yield
        finally:
            self._leave_out = before

    def changed(self) -> None:
        """Forget what was loaded (a rating was added or removed)."""
        self._ratings = None

    def forget(self) -> None:
        """Forget everything read, the shares of notes kept too (another process wrote the
        index)."""
        self._ratings, self._stamp, self._kept = None, None, {}

    def effects(self, vector: np.ndarray) -> dict[str, Effect]:
        """The feedback term's effect per rated note for a question with `vector`."""
        config = self.mn.retriever_config
        if config.weights["feedback"] <= 0:
            return {}
        ratings = self.ratings()
        if self._leave_out:
            ratings = [r for r in ratings if r.query_id not in self._leave_out]
        name = self.mn.embedder.name
        settings = FeedbackSettings(
            config.threshold(name), config.feedback_half_life_days, config.threshold(name, True)
        )
        return effects(ratings, vector, settings)

    def ratings(self) -> list[Rating]:
        """The standing ratings of notes that still exist, with their questions' vectors."""
        path = self.mn.query_log.feedback_path
        stat = path.stat() if path.is_file() else None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else None
        if self._ratings is not None and stamp == self._stamp:
            return self._ratings
        standing = (
            [
                e
                for e in self.mn.query_log.standing()
                if e.get("node_id") != "answer"
                and e.get("query")
                and self.mn.has_note(e["note_id"])
            ]
            if stamp
            else []
        )
        vectors = self._vectors([e["query"] for e in standing])
        now = datetime.now(UTC)
        self._ratings = [
            Rating(
                query_id=e["query_id"],
                query=e["query"],
                note_id=e["note_id"],
                sign=1.0 if e["rating"] == "up" else -1.0,
                age_days=_age_days(e.get("time", ""), now),
                kept=self._kept_share(e["note_id"], e.get("chunks")),
                vector=vectors[e["query"]],
                evidence=e.get("raws"),
            )
            for e in standing
        ]
        self._stamp = stamp
        return self._ratings

    def _kept_share(self, note_id: str, then: list[str] | None) -> float:
        """The share of the note's chunks at rating time that it still holds (1 when the
        rating did not record them)."""
        if not then:
            return 1.0
        key = (note_id, *self.mn.search_view.stamp(note_id), tuple(then))
        if key not in self._kept:
            now = set(chunk_hashes([c.text for c in self.mn.chunks(note_id)]))
            self._kept[key] = sum(h in now for h in then) / len(then)
        return self._kept[key]

    def _vectors(self, questions: list[str]) -> dict[str, np.ndarray]:
        """Each question's vector: from the cache file, the missing ones embedded now (and
        the cache rewritten with exactly the questions that are still rated)."""
        wanted = list(dict.fromkeys(questions))
        if not wanted:
            return {}
        path = self.mn.data_dir / VECTORS_FILE
        cached = self._load(path)
        missing = [q for q in wanted if q not in cached]
        if missing:
            for question, vector in zip(
                missing, self.mn.embedder.embed_query(missing), strict=True
            ):
                cached[question] = np.asarray(vector, dtype=np.float32)
        if missing or set(cached) != set(wanted):
            self._save(path, {q: cached[q] for q in wanted})
        return {q: cached[q] for q in wanted}

    def _load(self, path: Path) -> dict[str, np.ndarray]:
        try:
            with np.load(path, allow_pickle=False) as data:
                if str(data["embedder"]) != self.mn.embedder.name:
                    return {}
                return dict(zip(data["questions"].tolist(), data["vectors"], strict=True))
        except (OSError, KeyError, ValueError):
            return {}  # none yet, another embedder's, or damaged: embedded again

    def _save(self, path: Path, vectors: dict[str, np.ndarray]) -> None:
        buffer = io.BytesIO()
        np.savez(
            buffer,
            embedder=np.array(self.mn.embedder.name),
            questions=np.array(list(vectors)),
            vectors=np.stack(list(vectors.values())),
        )
        try:
            with atomic_writer(path) as handle:
                handle.write(buffer.getvalue())
        except OSError:
            pass  # a read-only data dir: the vectors are embedded again next time
