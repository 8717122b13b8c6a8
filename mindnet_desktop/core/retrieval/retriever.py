"""The hybrid retriever: semantic and lexical candidates ranked with graph and type signals,
every hit explained (score_breakdown + reasons).

Candidates are the union of the semantic top-N (Chroma) and the lexical top-N (BM25 over
text, title/aliases, headings and tags, `lexical.py`), so a note that only one signal finds
can still win. How the semantic and lexical raw values are made is `fusion` in
`retriever.yaml`: `rrf` (shipped), a candidate's rank r among the candidates by cosine and by
BM25 gives (rrf_k + 1) / (rrf_k + r); `minmax`, the cosine and the BM25 score scaled to the
candidates (best 1, worst 0). The reasons name the level of the cosine itself.

The edge term sums the weighted edges reaching a hit's note from other candidate notes, each
counted in proportion to how relevant its source is; edge and centrality are then scaled by
the hit's own relevance (semantic and lexical terms blended by their weights).

score = Σ weight · raw over the terms semantic, lexical, name (the query names the note),
edge, centrality, type and status; the breakdown lists raw, weight and contribution of each,
in that order, and the score is the sum of the contributions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mindnet_desktop.core.config.retriever import RetrieverConfig
from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.graph.note_index import SearchGraph
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.retrieval.explain import semantic_reason, text
from mindnet_desktop.core.retrieval.feedback import EVIDENCE_TERMS, Effect, down_share
from mindnet_desktop.core.retrieval.question import question_vector, searched_by_sentence
from mindnet_desktop.core.retrieval.rag import Hit, make_hit
from mindnet_desktop.core.retrieval.scoring import (
    Candidates,
    GraphTerms,
    Link,
    Terms,
    rank_scores,
    scaled,
    score,
    similarity_range,
)
from mindnet_desktop.core.store.protocol import CandidateFilter, Store

MAX_NAMED = 3  # notes named per hub / authority reason


@dataclass
class ScoredHit(Hit):
    score_breakdown: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    injected: bool = False
    similarity: float = 0.0  # the cosine (the semantic term's raw value is it scaled)


@dataclass
class Ranking:
    hits: list[ScoredHit]
    # The cosines of the candidates the semantic term was measured against (best first):
    # hits ranked apart (injected ones) pass them back to be measured on the same scale.
    reference: tuple[float, ...]


class HybridRetriever:
    """Ranks chunks for a query.

    Args:
        store: Chunk store (semantic candidates, vectors).
        embedder: Embeds the query.
        kg: The knowledge graph, or the note index that stands for it in a fresh reader
            (deleted edges are ignored).
        config: Weights from `config/retriever.yaml`.
        symmetric: Kinds read both ways.
        notes: note id -> Note, for reasons (any mapping; looked up only when needed).
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        kg: SearchGraph,
        config: RetrieverConfig,
        symmetric: frozenset[str],
        notes: Mapping[str, Note],
    ) -> None:
        self.store, self.embedder, self.kg, self.config = store, embedder, kg, config
        self.symmetric, self.notes = symmetric, notes

    def candidate_links(self, notes: set[str]) -> list[Link]:
        """Active edges from one candidate note (or its chunks) to another (projected)."""
        links = []
        for link in self.kg.links_among(notes):
            weight = (
                link.confidence
                * self.config.edge_weight(link.kind)
                * self.config.provenance_weights.get(link.provenance, 1.0)
            )
            if weight > 0:
                links.append(Link(link.source, link.target, link.kind, weight))
        return links

    def rank(
        self,
        query: str,
        k: int | None = None,
        only: CandidateFilter | None = None,
        vector: np.ndarray | None = None,
        extra: list[str] | None = None,
        language: str = "en",
        pool: int | None = None,
        per_note: bool = False,
        named: set[str] | None = None,
        reference: tuple[float, ...] | None = None,
        feedback: Mapping[str, Effect] | None = None,
    ) -> Ranking:
        """The top k chunks for `query` with breakdown and reasons.

        Args:
            query: The question or search text.
            k: Hits to return (default from the config).
            only: Which notes' chunks may be candidates (types, a neighbourhood).
            vector: The query vector when already embedded.
            extra: Chunk ids that join the candidates (e.g. a named note's neighbourhood).
            language: `de` or `en` for the reasons.
            pool: Semantic candidates (default: `candidate_pool` of the config; 0: rank only
                the `extra` chunks, no lexical candidates either).
            per_note: Return only the best chunk of each note.
            named: Notes the query names (title, file name or alias): the `name` term.
            reference: Measure the semantic term against these cosines instead of these
                candidates' (hits ranked apart, e.g. injected ones, compare with the main
                ranking: pass its `Ranking.reference`).
            feedback: The user's ratings' effect per note for this query (the `feedback`
                term; `service/quality/feedback.py`).

        Returns:
            The hits, and the cosines the semantic term was measured against.
        """
        if vector is None:
            by_sentence = searched_by_sentence(self.config, query)
            vector = question_vector(self.embedder, query, by_sentence)
        found = self.candidates(query, vector, only, extra, pool)
        if not found.rows:
            return Ranking([], reference or ())
        reference = reference or tuple(sorted(found.similarity.values(), reverse=True))
        terms = self.terms(found, reference, named or set(), feedback or {})
        scored = score(terms.raws, self.config.weights)
        if per_note:
            seen: set[str] = set()
            first = []
            for s in scored:  # each note's best chunk only
                if terms.note_of[s[1]] not in seen:
                    seen.add(terms.note_of[s[1]])
                    first.append(s)
            scored = first
        hits = [  # only the returned hits are explained
            self.explain(query, found, terms, cid, total, breakdown, language)
            for total, cid, breakdown in scored[: k or self.config.k]
        ]
        return Ranking(hits, reference)

    def candidates(
        self,
        query: str,
        vector: np.ndarray,
        only: CandidateFilter | None,
        extra: list[str] | None,
        pool: int | None,
        spare: int = 0,
    ) -> Candidates:
        """The semantic top-N, the lexical top-N and the `extra` chunks, with the cosine of
        each to the query (read from the store; nothing is scored yet). `spare`: as many
        more of each top-N, for a caller that drops chunks the filter `only` could not."""
        extras_only = pool == 0
        pool = self.config.candidate_pool if pool is None else pool
        nearest = self.store.nearest_chunks(vector, pool + spare, only) if pool > 0 else []
        similarity = {row.chunk_id: sim for row, sim in nearest}
        rows = {row.chunk_id: row for row, _ in nearest}
        bm25: dict[str, float] = {}
        lexical_pool = 0 if extras_only else self.config.lexical_pool + spare
        if lexical_pool > 0 and self.config.weights["lexical"] > 0:
            bm25 = dict(self.store.lexical_search(query, lexical_pool, only))
        more = self.store.chunk_rows(
            [c for c in dict.fromkeys([*bm25, *(extra or [])]) if c not in rows], vectors=True
        )
        for cid, row in more.items():
            similarity[cid] = float(row.vector @ vector)
            rows[cid] = row
        coverage = (
            self.store.term_coverage(query, rows) if self.config.weights["coverage"] > 0 else {}
        )
        return Candidates(rows, similarity, bm25, coverage)

    def terms(
        self,
        found: Candidates,
        reference: tuple[float, ...],
        named: set[str],
        feedback: Mapping[str, Effect],
    ) -> Terms:
        """The raw value of every term for every candidate (pure: no store access)."""
        rows = found.rows
        if self.config.fusion == "rrf":
            semantic = rank_scores(found.similarity, reference, self.config.rrf_k)
            bm25 = sorted(found.bm25.values(), reverse=True)
            lexical = rank_scores(found.bm25, tuple(bm25), self.config.rrf_k)
            lexical = {cid: lexical.get(cid, 0.0) for cid in rows}
        else:
            best_bm25 = max(found.bm25.values(), default=0.0)
            lexical = {
                cid: found.bm25.get(cid, 0.0) / best_bm25 if best_bm25 else 0.0 for cid in rows
            }
            semantic = scaled(found.similarity, similarity_range(reference))
        note_of = {cid: row.note_id for cid, row in rows.items()}
        relevance = self.relevance(semantic, lexical, note_of)
        graph = self.graph_terms(set(note_of.values()), relevance)
        shares = self.down_shares(feedback, note_of, semantic, lexical, found.coverage)
        raws = {}
        for cid, row in rows.items():
            note = note_of[cid]
            own = relevance[note]
            effect = feedback[note].raw * shares.get(note, 1.0) if note in feedback else 0.0
            raws[cid] = {
                "semantic": semantic[cid],
                "lexical": lexical[cid],
                "name": 1.0 if note in named else 0.0,
                "edge": own * graph.incoming[note] / graph.max_in if graph.max_in else 0.0,
                "centrality": (
                    own * len(graph.neighbours[note]) / graph.max_degree
                    if graph.max_degree
                    else 0.0
                ),
                "type": float(row.retriever_weight),
                "status": self.config.status_multiplier(row.status),
                "coverage": found.coverage.get(cid, 0.0),
                "feedback": effect,
            }
        return Terms(raws, note_of, relevance, graph, dict(feedback), shares)

    def down_shares(
        self,
        feedback: Mapping[str, Effect],
        note_of: dict[str, str],
        semantic: dict[str, float],
        lexical: dict[str, float],
        coverage: dict[str, float],
    ) -> dict[str, float]:
        """Of each ▼ (with its rated evidence logged), the share that counts for this query
        (`feedback.down_share`): the note's evidence here takes each term's best value over
        its candidate chunks, so every chunk of the note carries the same feedback term."""
        guarded = {n for n, e in feedback.items() if e.raw < 0 and e.evidence is not None}
        if not guarded:
            return {}
        raws = {"semantic": semantic, "lexical": lexical, "coverage": coverage}
        best: dict[str, dict[str, float]] = {}
        for cid, note in note_of.items():
            if note in guarded:
                own = best.setdefault(note, dict.fromkeys(EVIDENCE_TERMS, 0.0))
                for term in EVIDENCE_TERMS:
                    own[term] = max(own[term], raws[term].get(cid, 0.0))
        margin, weights = self.config.feedback_down_margin, self.config.weights
        return {n: down_share(feedback[n].evidence, best[n], weights, margin) for n in best}

    def graph_terms(self, notes: set[str], relevance: dict[str, float]) -> GraphTerms:
        """Edges among the candidate notes: the weighted incoming sum per note (each edge in
        proportion to its source's relevance), neighbours, and who points to whom."""
        out = GraphTerms()
        for link in self.candidate_links(notes):
            out.incoming[link.target] += link.weight * relevance[link.source]
            out.pointed_by[link.target].append(link)
            out.points_to[link.source].append(link)
            out.neighbours[link.source].add(link.target)
            out.neighbours[link.target].add(link.source)
            if link.kind in self.symmetric:
                out.incoming[link.source] += link.weight * relevance[link.target]
        out.max_in = max(out.incoming.values(), default=0.0)
        out.max_degree = max((len(n) for n in out.neighbours.values()), default=0)
        return out

    def explain(
        self,
        query: str,
        found: Candidates,
        terms: Terms,
        cid: str,
        total: float,
        breakdown: list[dict[str, Any]],
        language: str,
    ) -> ScoredHit:
        """The hit of chunk `cid` with its score, breakdown and reasons."""
        row, raws, note = found.rows[cid], terms.raws[cid], terms.note_of[cid]
        hit = ScoredHit(**vars(make_hit(row, 0.0)))
        hit.score, hit.score_breakdown = total, breakdown
        hit.similarity = round(found.similarity[cid], 6)
        hit.reasons = self.reasons(
            hit,
            {**raws, "similarity": found.similarity[cid]},
            row.status,
            terms.graph.points_to[note],
            terms.graph.pointed_by[note],
            terms.relevance,
            language,
        )
        if raws["lexical"] > 0:
            hit.reasons[1:1] = self.lexical_reasons(query, hit, language)
        if raws["name"] > 0:
            hit.reasons.insert(1, text("named", language))
        if raws["coverage"] >= 1.0:
            hit.reasons.insert(1, text("coverage", language))
        effect = terms.feedback.get(note)
        if effect is not None and effect.raw != 0.0:
            share = terms.down_share.get(note, 1.0)
            key = "feedback_up" if effect.raw > 0 else "feedback_down"
            if effect.raw < 0 and share < 1.0:
                key = "feedback_down_less" if share > 0.0 else "feedback_down_void"
            hit.reasons.insert(1, text(key, language, query=effect.query))
        return hit

    def relevance(
        self, semantic: dict[str, float], lexical: dict[str, float], note_of: dict[str, str]
    ) -> dict[str, float]:
        """How relevant each candidate note is to the query (0..1): its best chunk's semantic
        and lexical terms blended by the two terms' weights. Graph signals count in
        proportion, so a hub never outranks what the query is about."""
        w_sem, w_lex = self.config.weights["semantic"], self.config.weights["lexical"]
        if w_sem + w_lex == 0:
            w_sem = 1.0
        relevance: dict[str, float] = defaultdict(float)
        for cid, note in note_of.items():
            topical = w_sem * semantic[cid] + w_lex * lexical[cid]
            relevance[note] = max(relevance[note], topical / (w_sem + w_lex))
        return relevance

    def lexical_reasons(self, query: str, hit: ScoredHit, language: str) -> list[str]:
        """Which of the query's words the hit has in its title (or alias), heading, tags or
        text; the first two places found are named."""
        note = self.notes.get(hit.note_id)
        fields = {
            "name": hit.title,
            "alias": "\n".join(note.aliases) if note else "",
            "heading": " / ".join(hit.heading_path),
            "tags": " ".join(note.tags) if note else "",
            "text": hit.text,
        }
        found = self.store.matched_terms(query, fields)
        if "name" in found and "alias" in found:  # an alias repeating the title adds nothing
            found["alias"] = [w for w in found["alias"] if w not in found["name"]]
            found = {field: words for field, words in found.items() if words}
        return [
            text(f"lexical_{field}", language, terms=", ".join(words))
            for field, words in list(found.items())[:2]
        ]

    def reasons(
        self,
        hit: ScoredHit,
        raws: dict[str, float],
        status_name: str,
        hub: list[Link],
        authority: list[Link],
        relevance: dict[str, float],
        language: str,
    ) -> list[str]:
        """Semantic level, type preference, status, hub (what the hit's note points to among
        the candidates) and authority (which candidates point to it), naming notes and kinds."""
        reasons = [semantic_reason(raws["similarity"], language, self.embedder.name)]
        if hit.type not in ("default", "") and raws["type"] >= 0.9:
            reasons.append(text("type", language, type=hit.type))
        status = raws["status"]
        if status != 1.0:
            key = "status_up" if status > 1.0 else "status_down"
            reasons.append(text(key, language, status=status_name or "-", m=status))
        for key, links, end in (("hub", hub, "target"), ("authority", authority, "source")):
            named: dict[str, list[str]] = {}
            # The most relevant linked notes are named first.
            ranked = sorted(
                links, key=lambda i: (-i.weight * relevance[getattr(i, end)], getattr(i, end))
            )
            for link in ranked:
                other = getattr(link, end)
                kinds = named.setdefault(other, [])
                if link.kind not in kinds:
                    kinds.append(link.kind)
            for other, kinds in list(named.items())[:MAX_NAMED]:
                note = self.notes.get(other)
                title = note.title if note else other
                reasons.append(text(key, language, title=title, kind=", ".join(kinds)))
        return reasons
