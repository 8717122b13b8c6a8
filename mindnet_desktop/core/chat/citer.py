"""Citations added while the model writes: a finished sentence that cites nothing but draws
on one source gets that source's number, token by token (`Citer`)."""

from __future__ import annotations

import re

from mindnet_desktop.core.retrieval.retriever import ScoredHit

CITATION = re.compile(r"\[\d+\]")
SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
WORD = re.compile(r"\w{4,}")
MIN_SENTENCE_WORDS = 3
MIN_OVERLAP = 0.5  # share of a sentence's words that must come from one source


class Citer:
    """Adds a citation to a finished sentence that cites nothing but clearly draws on one
    source (most of its words are in it): small models often forget to cite. The stream
    stays token by token; the citation goes into the token that ends the sentence (after
    the full stop, or before the line break)."""

    def __init__(self, sources: list[ScoredHit]) -> None:
        self.words = [set(WORD.findall(h.text.casefold())) for h in sources]
        self.sentence = ""
        self.pending = ""  # a citation waiting for the next piece (is it the model's own?)
        self.added = 0

    def cite(self, sentence: str) -> str:
        words = set(WORD.findall(sentence.casefold()))
        if CITATION.search(sentence) or len(words) < MIN_SENTENCE_WORDS or not self.words:
            return ""
        overlap = [len(words & source) / len(words) for source in self.words]
        best = max(range(len(overlap)), key=lambda i: overlap[i])
        if overlap[best] < MIN_OVERLAP:
            return ""
        return f" [{best + 1}]"

    def feed(self, text: str) -> str:
        """`text` (a streamed piece of the answer), with a citation inserted if it ends a
        sentence that needs one. A citation the model writes itself right after the full
        stop ("… ms. [1]") counts: the decision waits for the next word when needed."""
        if self.pending:
            if not text.strip():
                return text
            cited, self.pending = self.pending, ""
            if not text.lstrip().startswith("["):  # not the model's own citation
                text = cited.strip() + (text if text[0].isspace() else " " + text)
                self.added += 1
        combined = self.sentence + text
        ends = list(SENTENCE_END.finditer(combined))
        if not ends:
            self.sentence = combined
            return text
        end = ends[-1]
        done, self.sentence = combined[: end.end()], combined[end.end() :]
        cited = self.cite(done)
        if not cited:
            return text
        if end.group() != "\n":
            after = self.sentence.lstrip()
            if after.startswith("["):  # the model cites it itself
                return text
            if not after:  # nothing after the full stop yet: decide on the next piece
                self.pending = cited
                return text
        at = (end.start() if end.group() == "\n" else end.end()) - (len(combined) - len(text))
        at = max(at, 0)
        self.added += 1
        return text[:at] + cited + text[at:]

    def flush(self) -> str:
        rest, self.sentence = self.sentence, ""
        pending, self.pending = self.pending, ""
        cited = pending.strip() if pending else self.cite(rest)
        self.added += bool(cited)
        return cited
