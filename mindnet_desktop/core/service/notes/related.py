"""Related notes: the notes most similar to one note, by the hybrid retriever's semantic and
lexical candidates over the note's own text, each with its reasons. `unlinked` leaves out the
notes already joined to it by an edge either way (the "not yet linked" list the graph view
offers to link with one click)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from mindnet_desktop.core.service.notes.text import NoteFiles, note_body
from mindnet_desktop.core.store.protocol import CandidateFilter

if TYPE_CHECKING:
    from mindnet_desktop.core.domain import Note
    from mindnet_desktop.core.graph.queries import GraphQueries
    from mindnet_desktop.core.models.embedders import Embedder
    from mindnet_desktop.core.retrieval.retriever import HybridRetriever
    from mindnet_desktop.core.store.protocol import Store

QUERY_CHARS = 2000  # of the note's text, for the lexical query (its first terms count)
MAX_LISTED_NOTES = 5000  # note ids a candidate filter names at most
MAX_SPARE_CHUNKS = 5000  # more candidates than a list needs, at most (a query's results)


class RelatedVault(NoteFiles, Protocol):
    """What related notes read of an open vault (`Mindnet`): the notes, the graph's queries
    around a note, the chunks' vectors and the retriever's candidates (from the note index
    while the records and the graph are not loaded)."""

    def every_note(self) -> list[Note]: ...

    def chunk_ids(self, note_id: str) -> list[str]: ...

    def neighbour_queries(self, ref: str) -> tuple[str, GraphQueries]: ...

    @property
    def store(self) -> Store: ...

    @property
    def embedder(self) -> Embedder: ...

    @property
    def retriever(self) -> HybridRetriever: ...


@dataclass
class RelatedNote:
    """One related note; `score` = semantic weight · scaled cosine + lexical weight ·
    scaled BM25, the two retriever terms (weights from `retriever.yaml`)."""

    note_id: str
    title: str
    type: str
    path: str
    score: float
    similarity: float  # cosine of the note vectors' best chunk pair
    bm25: float
    linked: bool
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def linked_notes(mn: RelatedVault, note_id: str) -> set[str]:
    """Notes joined to `note_id` by an active edge, either way (any kind, any chunk)."""
    note_id, queries = mn.neighbour_queries(note_id)
    page = queries.neighbors(note_id, "both", None, 100_000, None, False, "note")
    return {item.node["id"] for item in page.items if item.node.get("kind") == "note"}


def related(
    mn: RelatedVault, ref: str, k: int = 10, unlinked: bool = False, folder: str | None = None
) -> list[RelatedNote]:
    """The `k` notes most related to the note `ref` (id, path, title, alias or name).

    Args:
        mn: The open vault (`Mindnet`).
        ref: The note.
        k: How many.
        unlinked: Leave out notes already joined to it by an edge either way.
        folder: Only notes in this folder (or below it).
    """
    note = mn.note(mn.find_note_id(ref))
    linked = linked_notes(mn, note.note_id)
    allowed = {
        n.note_id
        for n in mn.every_note()
        if n.note_id != note.note_id
        and not (unlinked and n.note_id in linked)
        and (not folder or n.path.startswith(folder.rstrip("/") + "/"))
    }
    if not allowed:
        return []
    chunk_ids = mn.chunk_ids(note.note_id)
    rows = mn.store.chunk_rows(chunk_ids, vectors=True)
    vectors = [row.vector for row in rows.values() if row.vector is not None]
    vector = np.mean(vectors, axis=0) if vectors else mn.embedder.embed_query([note.title])[0]
    vector = vector / (np.linalg.norm(vector) or 1.0)
    body = note.body or note_body(mn, note.note_id)  # the note index holds no bodies
    query = f"{note.title}\n{' '.join(note.aliases)}\n{body[:QUERY_CHARS]}"
    retriever = mn.retriever
    pool = max(retriever.config.candidate_pool, 8 * k)
    only: CandidateFilter | None = CandidateFilter(note_ids=frozenset(allowed))
    spare = 0
    if not folder and len(allowed) > MAX_LISTED_NOTES:
        # Chroma cannot take so many ids (SQLite's bound on a query's variables): ask
        # without them for as many more chunks as the few notes left out hold.
        # A hub's links can hold more chunks than a query may return: the list is then made
        # from the nearest of the others only.
        left_out = {note.note_id} | (linked if unlinked else set())
        spare = min(sum(len(mn.chunk_ids(n)) for n in left_out), MAX_SPARE_CHUNKS)
        only = None
    found = retriever.candidates(query, vector, only, None, pool, spare)
    best: dict[str, tuple[float, float]] = {}
    for cid, row in found.rows.items():
        owner = row.chunk.note_id
        if owner not in allowed:
            continue
        sim, bm = best.get(owner, (-1.0, 0.0))
        best[owner] = (max(sim, found.similarity.get(cid, -1.0)), max(bm, found.bm25.get(cid, 0.0)))
    if not best:
        return []
    sims = [s for s, _ in best.values()]
    low, high = min(sims), max(sims)
    top_bm = max(b for _, b in best.values()) or 1.0
    weights = retriever.config.weights
    out = []
    for owner, (sim, bm) in best.items():
        semantic = (sim - low) / (high - low) if high > low else 1.0
        score = weights["semantic"] * semantic + weights["lexical"] * bm / top_bm
        record = mn.note(owner)
        reasons = [f"similar text (cosine {sim:.2f})"]
        if bm > 0:
            text = (record.body or note_body(mn, owner))[:QUERY_CHARS]
            terms = mn.store.matched_terms(query[:600], {"text": text})
            shared = ", ".join(terms.get("text", [])[:5])
            reasons.append(f"shared words (BM25 {bm:.1f})" + (f": {shared}" if shared else ""))
        if owner in linked:
            reasons.append("already linked")
        out.append(
            RelatedNote(
                owner,
                record.title,
                record.type,
                record.path,
                round(score, 4),
                round(sim, 4),
                round(bm, 3),
                owner in linked,
                reasons,
            )
        )
    out.sort(key=lambda r: (-r.score, r.note_id))
    return out[:k]
