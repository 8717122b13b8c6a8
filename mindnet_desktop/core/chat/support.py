"""What an answer rests on, source by source: the sentence of a source that supports the
answer (where a click on the source opens the note) and which sources the answer cites
(what a view of the answer's notes marks).

The supporting sentence of source n is, in this order: the source sentence an answer
sentence was aligned to (`align.py`), the evidence sentence chosen from that source
(`evidence.py`), else the first sentence of what the model read of it (its excerpt, or the
chunk's text): the place the answer came from, as near as it is known.
"""

from __future__ import annotations

from mindnet_desktop.core.chat.align import Alignment
from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.excerpt import GAP, HEADING, split_units
from mindnet_desktop.core.chat.grounding import CITED

MIN_CHARS = 12  # a shorter unit ("See also:", "1.") says too little to open a note at


def alignment_of(alignments: list[Alignment], citation: int) -> Alignment | None:
    """The first answer sentence that source `citation` (1-based) supports."""
    return next((a for a in alignments if a.source == citation and a.support), None)


def first_sentence(text: str) -> str:
    """The first sentence of `text` that says something: not a heading, not code, not a
    fragment; "" when there is none."""
    for part in text.split(GAP.strip()):
        for unit, _new_line, code in split_units(part):
            unit = unit.strip()
            if not code and len(unit) >= MIN_CHARS and not HEADING.match(unit):
                return unit
    return ""


def supporting_sentence(result: AskResult, citation: int) -> str:
    """The sentence of source `citation` (1-based) the answer rests on: aligned, else
    evidence, else the start of what was read of it; "" for a source that is not there."""
    if not 1 <= citation <= len(result.sources):
        return ""
    aligned = alignment_of(result.alignments, citation)
    if aligned is not None:
        return aligned.support
    evidence = next((e for e in result.evidence if e.citation == citation), None)
    if evidence is not None:
        return evidence.sentence
    excerpts = result.excerpts
    read = excerpts[citation - 1] if excerpts and citation <= len(excerpts) else None
    return first_sentence(read or "") or first_sentence(result.sources[citation - 1].text)


def cited_sources(result: AskResult) -> set[int]:
    """The sources (1-based) the answer's text cites."""
    count = len(result.sources)
    return {n for n in map(int, CITED.findall(result.answer)) if 1 <= n <= count}


def answer_notes(result: AskResult) -> tuple[list[str], set[str]]:
    """The notes of the answer's sources (in their order, each once) and those of them the
    answer cites."""
    notes = list(dict.fromkeys(hit.note_id for hit in result.sources))
    cited = {result.sources[n - 1].note_id for n in cited_sources(result)}
    return notes, cited
