"""Hybrid search as the user asks it: route the intent, rank with explanations, inject the
strategy's note types (DECISION: values, principles, goals), log the query."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.domain import Note, name_words
from mindnet_desktop.core.retrieval.explain import system_language, text
from mindnet_desktop.core.retrieval.question import question_vector, searched_by_sentence
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.search.routing import VaultSettings, route_question
from mindnet_desktop.core.store.protocol import CandidateFilter

if TYPE_CHECKING:
    import numpy as np

    from mindnet_desktop.core.retrieval.feedback import Effect
    from mindnet_desktop.core.retrieval.rag import Searcher
    from mindnet_desktop.core.retrieval.retriever import HybridRetriever
    from mindnet_desktop.core.service.search.view import SearchView
    from mindnet_desktop.core.store.query_log import QueryLog

INJECTED_PER_QUERY = 3
MIN_NAME_LENGTH = 4
MAX_NAME_WORDS = 8
NEIGHBOUR_CHUNKS = 2  # of each neighbour of a named note
MAX_EXTRA_CHUNKS = 60
MAX_LIKED = 5  # notes rated up for a like question that join the candidates


class FeedbackTerm(Protocol):
    """The user's ratings as the retriever's `feedback` term (`quality.FeedbackIndex`)."""

    def effects(self, vector: np.ndarray) -> dict[str, Effect]: ...


class LoggedVault(Protocol):
    """A vault whose query log records what was searched and asked."""

    @property
    def query_log(self) -> QueryLog: ...


class SearchVault(VaultSettings, LoggedVault, Protocol):
    """What a search reads of an open vault (`Mindnet`): routing's settings, the search view
    and the retriever over it, the ratings, the note vectors (`top_notes`), the query log."""

    @property
    def search_view(self) -> SearchView: ...

    @property
    def retriever(self) -> HybridRetriever: ...

    @property
    def searcher(self) -> Searcher: ...

    @property
    def feedback(self) -> FeedbackTerm: ...

    def top_notes(self, vector: Any, types: set[str], n: int, exclude: set[str]) -> list[str]: ...


@dataclass
class SearchResult:
    query_id: str
    query: str
    routing: Routing
    hits: list[ScoredHit]

    def to_dict(self) -> dict[str, Any]:
        return {
            "query_id": self.query_id,
            "query": self.query,
            "intent": self.routing.intent,
            "intent_source": self.routing.source,
            "hits": [h.to_dict() for h in self.hits],
        }


def named_notes(mn: SearchVault, question: str) -> list[str]:
    """Notes whose title, file name or alias the question names as whole words
    (case-insensitive), looked up by the question's word n-grams."""
    words = name_words(question)
    names = mn.search_view.names
    found: list[str] = []
    for size in range(min(MAX_NAME_WORDS, len(words)), 0, -1):
        for start in range(len(words) - size + 1):
            phrase = " ".join(words[start : start + size])
            if len(phrase) >= MIN_NAME_LENGTH:
                for note_id in names.get(phrase, []):
                    if note_id not in found:
                        found.append(note_id)
    return found


def hybrid_search(
    mn: SearchVault,
    query: str,
    k: int | None = None,
    types: list[str] | None = None,
    root: str | None = None,
    depth: int = 2,
    language: str | None = None,
    routing: Routing | None = None,
    log: bool = True,
    model: str | None = None,
    per_note: bool = False,
    folder: str | None = None,
) -> SearchResult:
    """Rank chunks for `query` and explain each hit.

    Candidates: the semantic and the lexical top-N (restricted by `types`, the `root`
    neighbourhood and the `folder` (vault-relative, its subfolders too) when given) plus
    the chunks of notes the query names and of their direct neighbours. `per_note`: one hit
    (the best chunk) per note.
    """
    from mindnet_desktop.core.graph.queries import QueryError

    if not query.strip():
        raise QueryError("the query is empty")
    language = language or system_language()
    routing = routing or route_question(mn, query)
    retriever = mn.retriever
    graph = mn.search_view.graph  # a fresh reader's note index, or the graph
    only, possible = (
        mn.searcher.candidate_filter(types, root, depth)
        if types or root is not None
        else (None, True)
    )
    if folder:
        only = _in_folder(mn.search_view.notes, folder, only)
        possible = possible and bool(only.note_ids)
    if not possible:
        return _finish(mn, query, routing, [], log, model)
    # Ranked (and injected notes chosen) by the question's search vector; the ratings of like
    # questions are found by its plain vector, as their thresholds were set with it.
    plain = mn.embedder.embed_query([query])[0]
    vector = question_vector(mn.embedder, query, searched_by_sentence(retriever.config, query))
    extra: list[str] = []
    named = named_notes(mn, query)
    unfiltered = root is None and not types and not folder
    if unfiltered:
        for note_id in named:
            extra.extend(graph.chunks_of(note_id))
            for node in graph.note_neighbours(note_id):
                extra.extend(graph.chunks_of(node)[:NEIGHBOUR_CHUNKS])
        extra = extra[:MAX_EXTRA_CHUNKS]
    feedback = mn.feedback.effects(plain)
    if unfiltered:  # notes rated up for a like question join the candidates
        liked = sorted(
            (n for n, e in feedback.items() if e.raw > 0), key=lambda n: -feedback[n].raw
        )
        for note_id in liked[:MAX_LIKED]:
            extra.extend(graph.chunks_of(note_id)[:MAX_EXTRA_CHUNKS])
    ranking = retriever.rank(
        query,
        k,
        only,
        vector,
        extra,
        language,
        per_note=per_note,
        named=set(named),
        feedback=feedback,
    )
    hits = ranking.hits
    inject = mn.decision_engine.strategies[routing.intent].inject_types
    if inject and root is None and not folder:
        present = {h.note_id for h in hits}
        chosen = mn.top_notes(vector, set(inject), INJECTED_PER_QUERY, present)
        chunks = [c for note in chosen for c in graph.chunks_of(note)]
        extra_hits = [
            h
            for h in retriever.rank(
                query,
                len(chunks),
                None,
                vector,
                chunks,
                language,
                pool=0,
                reference=ranking.reference,  # measured like the main ranking's hits
                feedback=feedback,
            ).hits
            if h.note_id in chosen
        ]
        added = 0
        for hit in extra_hits:
            if hit.note_id in present or added == INJECTED_PER_QUERY:
                continue
            hit.injected = True
            hit.reasons.append(text("injected", language, intent=routing.intent, type=hit.type))
            hits.append(hit)
            present.add(hit.note_id)
            added += 1
    return _finish(mn, query, routing, hits, log, model)


def _in_folder(
    notes: Mapping[str, Note], folder: str, only: CandidateFilter | None
) -> CandidateFilter:
    """`only` narrowed to the notes in `folder` (or below it)."""
    prefix = folder.strip("/") + "/"
    inside = frozenset(n for n, note in notes.items() if note.path.startswith(prefix))
    if only is None:
        return CandidateFilter(note_ids=inside)
    kept = inside if only.note_ids is None else inside & only.note_ids
    return CandidateFilter(only.types, kept)


def _finish(
    mn: LoggedVault,
    query: str,
    routing: Routing,
    hits: list[ScoredHit],
    log: bool,
    model: str | None,
) -> SearchResult:
    result = SearchResult(mn.query_log.new_id(), query, routing, hits)
    if log:
        log_ranked(mn.query_log, result.query_id, query, routing, hits, model)
    return result


def log_ranked(
    query_log: QueryLog,
    query_id: str,
    query: str,
    routing: Routing,
    hits: list[ScoredHit],
    model: str | None,
    answer: str | None = None,
) -> None:
    """Append a search (or, with `answer`, an ask) to the query log: the hits with their
    breakdowns, for an ask also the answer and each source's citation number."""
    rows = []
    for n, hit in enumerate(hits, start=1):
        row: dict[str, Any] = {"node_id": hit.node_id, "note_id": hit.note_id, "score": hit.score}
        if answer is not None:
            row["citation"] = n
        rows.append({**row, "injected": hit.injected, "score_breakdown": hit.score_breakdown})
    entry: dict[str, Any] = {
        "query_id": query_id,
        "query": query,
        "intent": routing.intent,
        "intent_source": routing.source,
        "model": model,
    }
    if answer is not None:
        entry["answer"] = answer
    query_log.log_query({**entry, "hits": rows})
