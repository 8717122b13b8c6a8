"""Query strategies over the store and the graph: semantic search (optionally by type and
within a root's neighbourhood) and neighborhood RAG."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from mindnet_desktop.core.embed import Embedder
from mindnet_desktop.core.queries import GraphQueries, Hop, QueryError
from mindnet_desktop.core.store import ChromaStore


@dataclass
class Hit:
    """One ranked chunk (the `search --json` / `rag --json` hit schema)."""

    node_id: str
    note_id: str
    title: str
    path: str
    type: str
    text: str
    score: float
    heading_path: list[str] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    via: list[dict[str, Any]] | None = None  # rag: the edges from the root

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.via is None:
            data.pop("via")
        return data


@dataclass(frozen=True)
class CandidateFilter:
    """Which chunks may be candidates: of these note types and / or these notes (None:
    any). The vector store gets it as a Chroma `where`, the lexical index as term sets."""

    types: frozenset[str] | None = None
    note_ids: frozenset[str] | None = None

    @property
    def where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.types is not None:
            clauses.append({"type": {"$in": sorted(self.types)}})
        if self.note_ids is not None:
            clauses.append({"note_id": {"$in": sorted(self.note_ids)}})
        return None if not clauses else clauses[0] if len(clauses) == 1 else {"$and": clauses}


def make_hit(chunk_id: str, text: str, meta: dict[str, Any], score: float) -> Hit:
    return Hit(
        node_id=chunk_id,
        note_id=meta["note_id"],
        title=meta["title"],
        path=meta["path"],
        type=meta["type"],
        text=text,
        score=round(float(score), 6),
        heading_path=json.loads(meta.get("heading_path", "[]")),
        meta=json.loads(meta.get("meta", "{}")),
    )


class Searcher:
    """Semantic search and neighborhood RAG.

    Args:
        store: The chunk store.
        embedder: Embeds the query (same model as the store).
        queries: Graph queries (for roots and neighbourhoods).
    """

    def __init__(self, store: ChromaStore, embedder: Embedder, queries: GraphQueries) -> None:
        self.store, self.embedder, self.queries = store, embedder, queries

    def embed_query(self, query: str) -> np.ndarray:
        if not query.strip():
            raise QueryError("the query is empty")
        return self.embedder.embed_query([query])[0]

    def neighbourhood(self, root: str, depth: int) -> dict[str, list[Hop]]:
        """Notes reached from `root` over outgoing edges (symmetric kinds both ways), with
        the path to each; the root itself is not part of its neighbourhood."""
        reached = self.queries.traverse(root, depth, "out", None, "note")
        return {
            node: path
            for node, hops, path in reached
            if hops > 0 and self.queries.g.nodes[node].get("kind") == "note"
        }

    def candidate_filter(
        self, types: list[str] | None, root: str | None, depth: int
    ) -> tuple[CandidateFilter | None, bool]:
        """The filter for note types and a root's neighbourhood, and whether any chunk can
        match at all (False for a root that reaches nothing)."""
        notes = None
        if root is not None:
            notes = frozenset(self.neighbourhood(root, depth))
            if not notes:
                return None, False
        if not types and notes is None:
            return None, True
        kinds = frozenset(t.lower() for t in types) if types else None
        return CandidateFilter(kinds, notes), True

    def search(
        self,
        query: str,
        k: int = 10,
        types: list[str] | None = None,
        root: str | None = None,
        depth: int = 2,
        vector: np.ndarray | None = None,
    ) -> list[Hit]:
        """Chunks most similar to `query`; `types` filters by note type, `root` restricts
        the search to the notes reached from it within `depth`."""
        vector = self.embed_query(query) if vector is None else vector
        only, possible = self.candidate_filter(types, root, depth)
        if not possible:
            return []
        ranked = self.store.query_chunks(vector, k, only.where if only else None)
        rows = self.store.chunk_rows([cid for cid, _ in ranked])
        return [
            make_hit(cid, rows[cid][0], rows[cid][1], score) for cid, score in ranked if cid in rows
        ]

    def rag(
        self, root: str, query: str, depth: int = 2, k: int = 5, vector: np.ndarray | None = None
    ) -> list[Hit]:
        """Neighborhood RAG: the chunks of what `root` reaches within `depth` (outgoing
        edges, symmetric kinds both ways, never deleted edges), ranked by similarity to
        `query`; each hit carries the path of edges from the root."""
        vector = self.embed_query(query) if vector is None else vector
        paths = self.neighbourhood(root, depth)
        chunk_note = {c: n for n in paths for c in self.queries.kg.chunks_of(n)}
        rows = self.store.chunk_rows(list(chunk_note), vectors=True)
        if not rows:
            return []
        ids = list(rows)
        matrix = np.vstack([rows[c][2] for c in ids])
        scores = matrix @ vector
        order = sorted(range(len(ids)), key=lambda i: (-scores[i], ids[i]))[:k]
        hits = []
        for i in order:
            cid = ids[i]
            hit = make_hit(cid, rows[cid][0], rows[cid][1], scores[i])
            hit.via = [hop.to_dict() for hop in paths[chunk_note[cid]]]
            hits.append(hit)
        return hits
