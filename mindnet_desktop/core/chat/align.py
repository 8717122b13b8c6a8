"""Citations by alignment: each sentence of an answer is matched to the source sentence that
supports it, and its citations are set from that match, not taken on the model's word.

A source sentence supports an answer sentence when it holds every number the answer sentence
states and enough of its content words: at least `MIN_SHARED`, or `MIN_SHARE` of them (the
bar of `grounding.check_citations`: an answer paraphrases, and one in another language than
its note shares only names and numbers). Per answer sentence that claims something (at least
`MIN_CLAIM_WORDS` content words):

- `kept`: a cited source supports it;
- `added`: it cites nothing, and a source supports it: that source is cited;
- `replaced`: it cites a source that does not support it, and another does: the citation is
  replaced by that one;
- `weak`: a source shares a few of its words, too few to cite it: left as it is;
- `unsupported`: no source shares enough of it (shown: "not found in your notes").

To add or replace a citation the bar is higher (`STRICT_SHARE`): a citation the model did
not give must rest on most of the sentence's words, counted without the question's (every
source was retrieved for those: "the LaserJet 500 cost €1,200" shares "LaserJet" and "500"
with any note on the printer), and on one source sentence that holds the claim's figures
(not a figure anywhere in the note).

Ties between supporting sources go to the one sharing more words, then the better-ranked one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mindnet_desktop.core.chat.excerpt import split_sentences
from mindnet_desktop.core.chat.grounding import (
    CITED,
    CONTENT,
    MIN_CLAIM_WORDS,
    MIN_SHARE,
    MIN_SHARED,
    NUMBER,
    STOP_WORDS,
    _normal_number,
    _sentences,
    detect_language,
    says_not_found,
)

STOP = STOP_WORDS["de"] | STOP_WORDS["en"]
CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
CITATION = re.compile(r"\s*\[\d+\]")  # one, with the space before it
# To cite a source the model did not, it must hold MIN_SHARED of the claim's content words
# and at least this share of them (to keep a citation the model gave, either is enough).
STRICT_SHARE = 0.5
POINTS_AT_NOTES = re.compile(r"(?i)\b(?:notes?|notiz(?:en)?|sources?|quellen?)\b")


@dataclass(frozen=True)
class Alignment:
    """One answer sentence (citations left out), the citations the model gave it, the
    source (1-based) and source sentence that support it (None, "": none), and what was
    done: kept, added or replaced; or, when no source supports it, weak (a few shared
    words), unsupported (marked) or unchecked (in another language than every source)."""

    sentence: str
    cited: tuple[int, ...]
    source: int | None
    support: str
    action: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Aligned:
    answer: str
    alignments: list[Alignment] = field(default_factory=list)

    @property
    def changed(self) -> list[Alignment]:
        return [a for a in self.alignments if a.action in ("added", "replaced")]


def _words(text: str) -> set[str]:
    return {w for w in CONTENT.findall(text.casefold()) if w not in STOP}


def _numbers(text: str) -> set[str]:
    return {_normal_number(n) for n in NUMBER.findall(text)}


@dataclass(frozen=True)
class _Part:
    """A source sentence with its content words and numbers."""

    text: str
    words: frozenset[str]
    numbers: frozenset[str]


@dataclass(frozen=True)
class _Read:
    """A source as alignment compares with it, read once per answer: its place (0-based),
    its numbers, and its sentences."""

    index: int
    numbers: frozenset[str]
    sentences: tuple[_Part, ...]


def _read(index: int, text: str) -> _Read:
    parts = tuple(
        _Part(p, frozenset(_words(p)), frozenset(_numbers(p))) for p, _ in split_sentences(text)
    )
    return _Read(index, frozenset(_numbers(text)), parts)


def _best_support(
    claim: str,
    sources: Sequence[_Read],
    share: float = MIN_SHARE,
    known: frozenset[str] = frozenset(),
    asked: frozenset[str] = frozenset(),
) -> tuple[int, str, int] | None:
    """(source index, sentence, shared words) of the source sentence that best supports
    `claim` (with `MIN_SHARED` words or `share` of them), or None. The source must hold
    every number of the claim, except the `known` ones (the question's: a product's "500" is
    no claim). `STRICT_SHARE` (a citation the model did not give): both, counted without the
    words `asked` (the question's), and the sentence itself holds the claim's numbers."""
    words, numbers = _words(claim), _numbers(claim) - known
    strict = share >= STRICT_SHARE
    new = words - asked if strict else words  # what the claim says beyond the question
    best: tuple[int, str, int] | None = None
    for source in sources:
        if numbers - source.numbers:
            continue  # a number the claim states is nowhere in this source
        for part in source.sentences:
            if strict and numbers - part.numbers:
                continue  # the figure stands elsewhere in the note, about something else
            shared = len(words & part.words)
            enough = len(new & part.words) >= MIN_SHARED
            most = shared / len(words) >= share
            if not (enough and most if strict else enough or most):
                continue
            if best is None or shared > best[2]:
                best = (source.index, part.text, shared)
    return best


def align_citations(
    answer: str, texts: Sequence[str], question: str = "", mark: bool = True
) -> Aligned:
    """`answer` with its citations set by alignment to `texts` (what the model read of each
    source, in citation order), and one `Alignment` per sentence that claims something.
    An answer that says the notes do not hold it is left as it is. The `question`'s numbers
    need no source. `mark`: a sentence no source supports is `unsupported` (else `weak`):
    a fact answer's are claims; a decision's or an encouragement's are the model's advice."""
    if not answer.strip() or says_not_found(answer):
        return Aligned(answer)
    known = frozenset(_numbers(question))
    asked = frozenset(_words(question))
    sources = [_read(i, text) for i, text in enumerate(texts)]
    # Words cannot tell whether a claim in another language than every source is in them
    # (an English answer over German notes shares names and numbers): it is not marked.
    languages = {detect_language(text, "?") for text in texts} - {"?"}
    out = answer
    alignments = []
    prose = CODE_BLOCK.sub(" ", answer)
    for sentence in _sentences(prose):
        claim = CITATION.sub("", sentence).strip()
        if len(_words(claim)) < MIN_CLAIM_WORDS or _pointer(claim):
            continue
        cited = tuple(dict.fromkeys(int(n) for n in CITED.findall(sentence)))
        # The cited sources that support it (the lenient bar), lowest number first.
        backing = {
            n: support
            for n in sorted(cited)
            if 1 <= n <= len(sources)
            and (support := _best_support(claim, [sources[n - 1]], known=known))
        }
        if backing:
            source, support = next(iter(backing.items()))
            alignments.append(Alignment(claim, cited, source, support[1], "kept"))
            continue
        found = _best_support(claim, sources, STRICT_SHARE, known, asked)
        if found is None:
            # Some words in a source (an answer in another language than its notes shares
            # little more): too little to cite it, enough not to call the claim unfounded.
            figures = _numbers(claim) - known
            invented = bool(figures) and not any(figures <= s.numbers for s in sources)
            other = languages and detect_language(claim, "?") not in languages | {"?"}
            if other and not invented:
                action = "unchecked"  # another language than every source: words cannot tell
            elif not mark or _best_support(claim, sources, known=known) is not None:
                action = "weak"
            else:
                action = "unsupported"
            alignments.append(Alignment(claim, cited, None, "", action))
            continue
        source = found[0] + 1
        if sentence not in out:
            continue  # citations that opened the next line were joined to it: not as written
        # The sentence's own citations (none supports it) give way to the one that does.
        out = out.replace(sentence, _cite(CITATION.sub("", sentence), source), 1)
        action = "replaced" if cited else "added"
        alignments.append(Alignment(claim, cited, source, found[1], action))
    return Aligned(out, alignments)


def _pointer(claim: str) -> bool:
    """A sentence that points at the notes or at what follows ("as shown in note [2]",
    "the notes say:") rather than stating something: it claims nothing of its own."""
    return claim.rstrip().endswith(":") or (
        POINTS_AT_NOTES.search(claim) is not None and not _numbers(claim)
    )


def _cite(sentence: str, source: int) -> str:
    """`sentence` with `[source]` before its closing punctuation."""
    stripped = sentence.rstrip()
    if stripped and stripped[-1] in ".!?":
        return f"{stripped[:-1]} [{source}]{stripped[-1]}"
    return f"{stripped} [{source}]"
