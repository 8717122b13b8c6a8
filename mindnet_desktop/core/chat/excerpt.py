"""Evidence excerpts: the sentences of the sources that bear on the question, within a token
budget. On a CPU the model reads its prompt at a few dozen tokens a second, so five whole
chunks (~2,000 tokens) cost about a minute before the first answer token; the answer
usually stands in one or two sentences of them. Each source's text is split into sentences
(and lines, for lists and code); every sentence is scored by its cosine to the question
(the product's embedder) plus the share of the question's rarer words it contains, with a
small penalty by the source's rank; the best sentences are taken until the budget is spent,
the sentence after a taken one moving up behind it (an answer often runs on), and are given
back in their original order, gaps marked with "…". A source none of whose sentences is
taken is left out.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mindnet_desktop.core.chat.grounding import STOP_WORDS
from mindnet_desktop.core.chat.sentences import sentences
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.retrieval.language import detect_language

# A line that begins a block of its own: a list item or a quote (its wrapped lines follow),
# a heading or a table row (a line alone).
BLOCK_START = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|>)")
LINE_ALONE = re.compile(r"\s*(?:#{1,6}\s|\|)")
HEADING = re.compile(r"#{1,6}\s")
FENCE = "```"
WORD = re.compile(r"[^\W_]{3,}")
LEXICAL_WEIGHT = 0.5  # the question's words found in a sentence, as a share, beside the cosine
RANK_PENALTY = 0.02  # per place of the source in the ranking
FOLLOW = 0.5  # a taken sentence's next one rises to this share of its score (if higher)
GAP = " … "
MAX_SENTENCE_CHARS = 600  # a longer "sentence" (a table, a long code line) is cut there
# Only this many sentences, the best by their words, are embedded (1-2 ms each on one BLAS
# thread, 15 ms with two on busy cores); the rest keep their word score alone. None: all.
EMBED_TOP: int | None = 20


@dataclass(frozen=True)
class Sentence:
    source: int  # index of the source
    at: int  # position within the source
    text: str
    new_line: bool  # begins a line of its own (not the next sentence of a paragraph)


def split_sentences(text: str) -> list[tuple[str, bool]]:
    """The text's sentences, each with whether it begins a line of its own (`split_units`
    without the code flag)."""
    return [(part, new_line) for part, new_line, _code in split_units(text)]


def split_units(text: str) -> list[tuple[str, bool, bool]]:
    """The text's sentences, each with whether it begins a line of its own and whether it
    is a line of a fenced code block (its fences included). Lines wrapped inside a paragraph
    are joined; list items, headings, quotes, table rows and the lines of code blocks stand
    alone."""
    units: list[tuple[str, bool, bool]] = []
    paragraph: list[str] = []
    language = detect_language(text)

    def flush() -> None:
        for i, sentence in enumerate(sentences(" ".join(paragraph), language)):
            units.append((sentence[:MAX_SENTENCE_CHARS], i == 0, False))
        paragraph.clear()

    in_code = False
    for line in text.splitlines():
        stripped = line.strip()
        fence = stripped.startswith(FENCE)
        if fence or in_code:
            if paragraph:
                flush()
            units.append((line.rstrip()[:MAX_SENTENCE_CHARS], True, True))
            in_code = in_code != fence
        elif not stripped or BLOCK_START.match(line) or LINE_ALONE.match(line):
            if paragraph:
                flush()
            if stripped:
                paragraph.append(stripped)
                if LINE_ALONE.match(line):
                    flush()
        else:
            paragraph.append(stripped)
    if paragraph:
        flush()
    return units


def _stems(text: str) -> set[str]:
    # A prefix of five letters matches inflected forms ("Speicher", "Speichers") cheaply.
    words = (w.casefold() for w in WORD.findall(text))
    return {w[:5] for w in words if w not in STOP_WORDS["de"] and w not in STOP_WORDS["en"]}


def sentence_scores(
    question: str,
    sentences: Sequence[Sentence],
    embedder: Embedder | None,
    rank_penalty: float = RANK_PENALTY,
) -> list[float]:
    """Each sentence's score for `question`: cosine (when an embedder is given) + the
    weighted share of the question's words it holds, each word weighted by how few of the
    sentences hold it (the product's name in every sentence tells none apart), -
    `rank_penalty` per place of its source."""
    asked = _stems(question)
    held = [asked & _stems(s.text) for s in sentences]
    spread = Counter(w for words in held for w in words)
    weight = {w: math.log(1 + len(sentences) / (1 + spread[w])) for w in asked}
    total = sum(weight.values()) or 1.0
    lexical = [sum(weight[w] for w in words) / total for words in held]
    cosine = [0.0] * len(sentences)
    if embedder is not None and sentences:
        # The best by their words, the better-ranked source first on a tie.
        order = sorted(range(len(sentences)), key=lambda n: (-lexical[n], sentences[n].source))
        best = sorted(order[:EMBED_TOP])
        query = embedder.embed_query([question])[0]
        vectors = embedder.embed([sentences[n].text for n in best])
        for n, c in zip(best, (np.asarray(vectors) @ np.asarray(query)).tolist(), strict=True):
            cosine[n] = c
    return [
        c + LEXICAL_WEIGHT * w - rank_penalty * s.source
        for c, w, s in zip(cosine, lexical, sentences, strict=True)
    ]


def excerpts(
    question: str,
    texts: Sequence[str],
    budget: int,
    count_tokens: Callable[[str], int],
    embedder: Embedder | None = None,
    first: Sequence[tuple[int, str]] = (),
) -> list[str]:
    """For each source text, its excerpt for `question` ("" when nothing of it is taken);
    all excerpts together stay within `budget` tokens. Texts that fit whole together are
    kept whole. `first` (a source's index and a passage of its text: the evidence) is taken
    before any other sentence, as far as the budget holds it."""
    if sum(count_tokens(t) for t in texts) <= budget:
        return list(texts)
    sentences = [
        Sentence(i, at, part, new_line)
        for i, text in enumerate(texts)
        for at, (part, new_line) in enumerate(split_sentences(text))
        if not HEADING.match(part)  # the source's header names its title and headings
    ]
    scores = sentence_scores(question, sentences, embedder)
    costs = [count_tokens(s.text) + 1 for s in sentences]  # every one is weighed below
    index = {(s.source, s.at): n for n, s in enumerate(sentences)}
    queue = [(-score, n) for n, score in enumerate(scores)]
    # The evidence goes ahead of every score, in its order (its sentences by their place).
    top = max(scores, default=0.0) + 1.0
    for rank, (source, passage) in enumerate(first):
        held = " ".join(passage.split())
        for n, s in enumerate(sentences):
            if s.source == source and " ".join(s.text.split()) in held:
                queue.append((-(top + len(first) - rank), n))
    heapq.heapify(queue)
    taken: set[int] = set()
    spent = 0
    while queue:
        _priority, n = heapq.heappop(queue)
        if n in taken or spent + costs[n] > budget:
            continue
        taken.add(n)
        spent += costs[n]
        # An answer often runs on into the next sentence: it moves up behind this one.
        after = index.get((sentences[n].source, sentences[n].at + 1))
        if after is not None:  # by the sentence's own score (the evidence's is raised)
            heapq.heappush(queue, (FOLLOW * -scores[n], after))
    return [
        _join([s for n, s in enumerate(sentences) if n in taken and s.source == i])
        for i in range(len(texts))
    ]


def _join(chosen: list[Sentence]) -> str:
    """Sentences of one source in their order: next sentences joined by a space, lines by a
    line break, gaps by "…"."""
    if not chosen:
        return ""
    out = ("… " if chosen[0].at else "") + chosen[0].text
    for before, s in zip(chosen, chosen[1:], strict=False):
        if s.at != before.at + 1:
            out += GAP
        elif s.new_line:
            out += "\n"
        else:
            out += " "
        out += s.text
    return out
