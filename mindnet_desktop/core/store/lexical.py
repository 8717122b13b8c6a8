"""The lexical index: BM25 over chunk text, title and aliases, heading path and tags (tantivy).

One tantivy document per chunk, in `data_dir/lexical`. Every text is analysed twice, with a
German and with an English stemmer (vaults mix both languages), and each field has its own
boost: a term in a note's title or alias counts more than one in its text. BM25's inverse
document frequency keeps headings that every daily note repeats from crowding out the notes
that really answer.

The index follows the store note by note: replacing a note deletes its documents by note id
and adds the new ones; nothing is rebuilt on start (only a missing or out-of-step index is
rebuilt once, from the stored chunks: no parsing, no embedding).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.store.protocol import CandidateFilter
from mindnet_desktop.core.store.rebuild import REBUILD_HINT
from mindnet_desktop.core.store.stopwords import STOP_WORDS, is_stop_word

LEXICAL_SCHEMA = 2  # 2: German and English stop words and question words removed
LANGUAGES = ("de", "en")
# field -> boost; `name` holds the title and the aliases.
FIELDS = {"name": 3.0, "heading": 1.5, "tags": 1.5, "text": 1.0}
MAX_QUERY_TERMS = 64
WRITER_HEAP = 15_000_000


class LexicalError(MindnetError, RuntimeError):
    """The lexical index cannot be opened or written."""


@dataclass(frozen=True)
class LexicalDoc:
    """What one chunk contributes to the lexical index."""

    chunk_id: str
    note_id: str
    type: str
    name: str  # title and aliases, one per line
    heading: str  # the heading path, " / "-joined
    tags: str
    text: str


def _analyzer(language: str) -> Any:
    import tantivy as t

    builder = (
        t.TextAnalyzerBuilder(t.Tokenizer.simple())
        .filter(t.Filter.remove_long(40))
        .filter(t.Filter.lowercase())
        .filter(t.Filter.stopword("german"))
        .filter(t.Filter.stopword("english"))
        .filter(t.Filter.custom_stopword(sorted(STOP_WORDS)))
    )
    if language == "de":  # "Überzeugung" and "Uberzeugung" meet; English keeps its letters
        builder = builder.filter(t.Filter.ascii_fold())
    stemmer = {"de": "german", "en": "english"}[language]
    return builder.filter(t.Filter.stemmer(stemmer)).build()


class LexicalIndex:
    """BM25 search over chunks.

    Args:
        path: The index folder.
        writable: Open a writer (the data dir's writer holds it); readers only search.
    """

    def __init__(self, path: Path, writable: bool) -> None:
        import tantivy as t

        self.path = path
        self.analyzers = {lang: _analyzer(lang) for lang in LANGUAGES}
        builder = t.SchemaBuilder()
        for raw in ("chunk_id", "note_id", "type"):
            builder.add_text_field(raw, stored=True, tokenizer_name="raw")
        for name in FIELDS:
            for lang in LANGUAGES:
                builder.add_text_field(f"{name}_{lang}", stored=False, tokenizer_name=f"mn_{lang}")
        self.schema = builder.build()
        meta = path / "mindnet.json"
        self.index: Any = None
        self._writer: Any = None
        self.missing = not path.exists() and not writable
        if self.missing:  # an index from before the lexical term: the next writer builds it
            return
        try:
            if path.exists() and not self._compatible(meta):
                if not writable:
                    raise LexicalError(
                        f"The lexical index in {path} is from another version. {REBUILD_HINT}"
                    )
                shutil.rmtree(path)
            path.mkdir(parents=True, exist_ok=True)
            self.index = t.Index(self.schema, path=str(path), reuse=True)
            for lang, analyzer in self.analyzers.items():
                self.index.register_tokenizer(f"mn_{lang}", analyzer)
            self._writer = self.index.writer(WRITER_HEAP, 1) if writable else None
            if writable and not meta.exists():
                meta.write_text(json.dumps({"schema": LEXICAL_SCHEMA}), encoding="utf-8")
        except (OSError, ValueError) as exc:
            if "lock" in str(exc).lower():
                raise LexicalError(
                    f"The lexical index in {path} is open for writing in another process."
                ) from exc
            raise LexicalError(
                f"Cannot open the lexical index in {path}: {exc}. {REBUILD_HINT}"
            ) from exc
        self._dirty = False

    @staticmethod
    def _compatible(meta: Path) -> bool:
        try:
            return json.loads(meta.read_text(encoding="utf-8")).get("schema") == LEXICAL_SCHEMA
        except (OSError, ValueError):
            return False

    def count(self) -> int:
        if self.index is None:
            return 0
        self.index.reload()
        return int(self.index.searcher().num_docs)

    def _require_writer(self) -> Any:
        if self._writer is None:
            raise LexicalError("The lexical index was opened read-only.")
        return self._writer

    def replace(self, note_ids: Iterable[str], docs: Iterable[LexicalDoc]) -> None:
        """Drop every document of `note_ids`, then add `docs` (call `commit` after)."""
        import tantivy as t

        writer = self._require_writer()
        for note_id in note_ids:
            writer.delete_documents_by_term("note_id", note_id)
        for doc in docs:
            fields: dict[str, Any] = {
                "chunk_id": doc.chunk_id,
                "note_id": doc.note_id,
                "type": doc.type,
            }
            for name in FIELDS:
                value = getattr(doc, name)
                for lang in LANGUAGES:
                    fields[f"{name}_{lang}"] = value
            writer.add_document(t.Document(**fields))
        self._dirty = True

    def delete(self, note_ids: Iterable[str]) -> None:
        self.replace(note_ids, [])

    def clear(self) -> None:
        self._require_writer().delete_all_documents()
        self._dirty = True

    def commit(self) -> None:
        if self._writer is not None and self._dirty:
            self._writer.commit()
            self._dirty = False
            self.index.reload()

    def terms(self, text: str) -> dict[str, list[str]]:
        """language -> the analysed terms of `text`."""
        return {lang: a.analyze(text) for lang, a in self.analyzers.items()}

    def search(
        self,
        query: str,
        n: int,
        types: Iterable[str] | None = None,
        note_ids: Iterable[str] | None = None,
    ) -> list[tuple[str, float]]:
        """(chunk_id, BM25 score) of the best `n` chunks; `types` / `note_ids` restrict."""
        import tantivy as t

        if self.index is None:
            return []
        terms = self.terms(query)
        should = []
        for name, boost in FIELDS.items():
            for lang in LANGUAGES:
                for term in dict.fromkeys(terms[lang][:MAX_QUERY_TERMS]):
                    q = t.Query.term_query(self.schema, f"{name}_{lang}", term)
                    should.append((t.Occur.Should, t.Query.boost_query(q, boost)))
        if not should or n <= 0:
            return []
        clauses = [(t.Occur.Must, t.Query.boolean_query(should))]
        for field, allowed in (("type", types), ("note_id", note_ids)):
            if allowed is not None:  # a filter: it adds nothing to the score (else 1 each)
                only = t.Query.term_set_query(self.schema, field, sorted(allowed))
                clauses.append((t.Occur.Must, t.Query.boost_query(only, 0.0)))
        self.index.reload()  # another process (the writer) may have committed
        searcher = self.index.searcher()
        found = searcher.search(t.Query.boolean_query(clauses), n, count=False)
        return [(searcher.doc(addr)["chunk_id"][0], float(score)) for score, addr in found.hits]

    def coverage(self, query: str, chunk_ids: Iterable[str]) -> dict[str, float]:
        """chunk_id -> the share of the query's words (stop words left out) that the chunk
        holds in any field, for the given chunks (those holding none are left out)."""
        import tantivy as t

        ids = sorted(set(chunk_ids))
        words = [w for w in dict.fromkeys(query.split()) if not is_stop_word(w)]
        word_terms = [self.terms(w) for w in words]
        word_terms = [terms for terms in word_terms if any(terms.values())]
        if self.index is None or not ids or not word_terms:
            return {}
        self.index.reload()
        searcher = self.index.searcher()
        only = t.Query.term_set_query(self.schema, "chunk_id", ids)
        counts: dict[str, int] = {}
        for terms in word_terms:
            should = [
                (t.Occur.Should, t.Query.term_query(self.schema, f"{name}_{lang}", term))
                for name in FIELDS
                for lang in LANGUAGES
                for term in terms[lang]
            ]
            query_ = t.Query.boolean_query(
                [(t.Occur.Must, t.Query.boolean_query(should)), (t.Occur.Must, only)]
            )
            for _, addr in searcher.search(query_, len(ids), count=False).hits:
                cid = searcher.doc(addr)["chunk_id"][0]
                counts[cid] = counts.get(cid, 0) + 1
        return {cid: n / len(word_terms) for cid, n in counts.items()}

    def matched(self, query: str, fields: dict[str, str]) -> dict[str, list[str]]:
        """field -> the query's words found in that field's text (for the reasons)."""
        words = list(
            dict.fromkeys(
                w for w in query.split() if w.strip(".,;:!?()[]\"'") and not is_stop_word(w)
            )
        )
        found: dict[str, list[str]] = {}
        for field, value in fields.items():
            if not value:
                continue
            have = self.terms(value)
            hits = []
            for word in words:
                mine = self.terms(word)
                if any(set(mine[lang]) & set(have[lang]) for lang in LANGUAGES):
                    hits.append(word.strip(".,;:!?()[]\"'"))
            if hits:
                found[field] = list(dict.fromkeys(hits))
        return found

    @property
    def pending_marker(self) -> Path:
        """Exists while the store writes a batch: found on open, the batch may be missing
        from the lexical index (a crash between the two writes), so it is rebuilt."""
        return self.path / "pending"

    def close(self) -> None:
        if self._writer is not None:
            try:
                self.commit()
            finally:
                # Dropped even when the commit failed (a full disk): a writer kept alive by
                # the error would hold the index's lock, and the next import in this process
                # would find it "open for writing in another process".
                self._writer = None


class LexicalQueries:
    """The `Store` protocol's lexical queries, over a store's `lexical` index."""

    lexical: LexicalIndex

    def lexical_search(
        self, query: str, k: int, only: CandidateFilter | None = None
    ) -> list[tuple[str, float]]:
        types, note_ids = (only.types, only.note_ids) if only else (None, None)
        return self.lexical.search(query, k, types, note_ids)

    def term_coverage(self, query: str, chunk_ids: Iterable[str]) -> dict[str, float]:
        return self.lexical.coverage(query, chunk_ids)

    def matched_terms(self, query: str, fields: Mapping[str, str]) -> dict[str, list[str]]:
        return self.lexical.matched(query, dict(fields))
