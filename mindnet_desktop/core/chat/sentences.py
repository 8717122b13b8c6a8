"""Sentence boundaries, of the sources the evidence is chosen from and of the answers whose
claims are aligned: sentencex (Wikimedia's rule-based segmenter), whose abbreviation lists per
language keep "ca. 30 Euro", "z. B. das", "bzw. die" and "e.g. this" one sentence.

One rule is kept on top of it: a part that begins with a small letter or a digit goes on the
sentence before it ("approx. 30 dollars", "the `?` operator"), as a sentence rarely begins
so.
"""

from __future__ import annotations

import re

import sentencex

from mindnet_desktop.core.retrieval.language import detect_language

GOES_ON = re.compile(r"[a-zäöüß0-9]")


def sentences(text: str, language: str | None = None) -> list[str]:
    """The sentences of `text` (a paragraph or a line) as they stand in it, stripped, none
    empty; `language` (`de`, `en`) is told from the text when not given."""
    spans: list[list[int]] = []
    for found in sentencex.get_sentence_boundaries(language or detect_language(text), text):
        start, end = found["start_index"], found["end_index"]
        part = text[start:end].strip()
        if not part:
            continue
        if spans and GOES_ON.match(part):
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return [text[start:end].strip() for start, end in spans]
