"""What keeps an answer honest: the question's language, the "not found in your notes" path
when no source is relevant enough, a check of every citation after generation, and of the
figures an answer states that no source holds."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mindnet_desktop.core.chat.sentences import sentences
from mindnet_desktop.core.retrieval.language import STOP_WORDS, WORDS, detect_language
from mindnet_desktop.core.retrieval.retriever import ScoredHit

__all__ = ["STOP_WORDS", "WORDS", "detect_language"]  # re-exported: the chat reads them here


# What the user reads when the notes hold no answer.
NOT_FOUND = {
    "de": "Ich habe in deinen Notizen nichts gefunden, was das beantwortet.",
    "en": "I found nothing in your notes that answers this.",
}
# The sentence the prompts ask the model to reply with instead (short: a small model copies
# it word for word); an answer that is only this one becomes `NOT_FOUND`.
MODEL_NOT_FOUND = {
    "de": "Nicht in deinen Notizen gefunden.",
    "en": "Not found in your notes.",
}
# The model's own ways of saying it (checked case-insensitively), for the benchmark too.
NOT_FOUND_PATTERN = re.compile(
    r"not found in your notes|found nothing in your notes|in deinen notizen nichts gefunden"
    r"|(?:notes|sources) do(?:es)? not (?:contain|mention|say)"
    r"|no (?:information|mention)|nicht in deinen notizen|"
    r"(?:notizen|quellen) (?:enthalten|erwähnen|nennen) (?:keine|nicht|nichts)"
    r"|keine (?:angabe|information)",
    re.IGNORECASE,
)
LANGUAGE_NAMES = {"de": "German", "en": "English"}


def says_not_found(answer: str) -> bool:
    return NOT_FOUND_PATTERN.search(answer) is not None


def in_language(answer: str, language: str | None) -> str:
    """An answer that is only a "not found" sentence (the model's, in either language: it
    often copies the English one from its prompt), as the user's "not found" in the
    question's language; any other answer unchanged."""
    bare = answer.strip().rstrip(".").casefold()
    said = [*NOT_FOUND.values(), *MODEL_NOT_FOUND.values()]
    if language in NOT_FOUND and bare in {v.rstrip(".").casefold() for v in said}:
        return NOT_FOUND[language]
    return answer


def relevant_enough(sources: list[ScoredHit], min_similarity: float) -> bool:
    """Whether any fact (not an injected note) is close enough to the question to answer it.

    The cosine of the best chunk is the measure: the fused score is scaled per query, so it
    is high for the best hit even when nothing fits."""
    facts = [h for h in sources if not h.injected]
    return any(h.similarity >= min_similarity for h in facts)


# ---- citation checks ---------------------------------------------------------------------

CITED = re.compile(r"\[(\d+)\]")
CONTENT = re.compile(r"\w{4,}|\d+(?:[.,]\d+)*")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
MIN_SHARED = 2  # content words a sentence shares with the source it cites
MIN_SHARE = 0.3  # … or this share of its content words (short sentences)
MIN_CLAIM_WORDS = 3  # fewer content words: no claim to check
LEADING_CITES = re.compile(r"^((?:\s*\[\d+\])+)\s*")


def _sentences(answer: str) -> list[str]:
    """The answer's sentences (each line's, `sentences.sentences`); citations that open a
    sentence ("… Kassette. [2] Das …") belong to the one before it."""
    out: list[str] = []
    language = detect_language(answer)
    for part in (s for line in answer.splitlines() for s in sentences(line, language)):
        lead = LEADING_CITES.match(part)
        if lead and out:
            out[-1] += " " + lead.group(1).strip()
            part = part[lead.end() :]
        if part:
            out.append(part)
    return out


@dataclass(frozen=True)
class CitationCheck:
    """One citation [n] in one sentence: does source n support that sentence?"""

    sentence: str
    citation: int
    supported: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "sentence": self.sentence,
            "citation": self.citation,
            "supported": self.supported,
            "reason": self.reason,
        }


def _normal_number(text: str) -> str:
    """One spelling per number: separators before groups of three digits group thousands
    ("1.000", "1,000", "12.500" are 1000, 12500); otherwise the last one is the decimal mark
    ("2,5" is 2.5, and "10.00", a price or a time, is 10.00, not 1000)."""
    parts = re.split(r"[.,]", text)
    if len(parts) == 1 or all(len(p) == 3 for p in parts[1:]):
        return "".join(parts)
    return "".join(parts[:-1]) + "." + parts[-1]


def check_citations(answer: str, sources: Sequence[ScoredHit | str]) -> list[CitationCheck]:
    """Every citation of `answer`, checked against the text of the source it names (a hit's
    chunk, or a text: the ask pipeline gives the sources' whole notes, as the alignment
    reads them, so the two never disagree).

    A citation is flagged when it names no source, when the sentence's numbers are all
    missing from the source (a number is the fact most often misattributed), or when the
    sentence shares too few content words with it (the answer may paraphrase, so the bar is
    low; an answer in another language than the note shares only names and numbers)."""
    stop = STOP_WORDS["de"] | STOP_WORDS["en"]
    texts = [(s if isinstance(s, str) else s.text).casefold() for s in sources]
    checks: list[CitationCheck] = []
    for sentence in _sentences(answer):
        numbers = CITED.findall(sentence)
        if not numbers:
            continue
        bare = CITED.sub(" ", sentence).casefold()
        words = {w for w in CONTENT.findall(bare) if w not in stop}
        facts = {_normal_number(n) for n in NUMBER.findall(bare)}
        for n in dict.fromkeys(int(x) for x in numbers):
            if not 1 <= n <= len(texts):
                checks.append(CitationCheck(sentence, n, False, "no such source"))
                continue
            source = texts[n - 1]
            source_numbers = {_normal_number(x) for x in NUMBER.findall(source)}
            if facts and not facts & source_numbers:
                checks.append(CitationCheck(sentence, n, False, "its numbers are not in it"))
                continue
            shared = {w for w in words if w in source}
            # "This is supported by note [2]." points at evidence and claims nothing.
            ok = (
                len(words) < MIN_CLAIM_WORDS
                or len(shared) >= MIN_SHARED
                or len(shared) / len(words) >= MIN_SHARE
            )
            reason = f"{len(shared)} of {len(words)} content words in the source"
            checks.append(CitationCheck(sentence, n, ok, reason))
    return checks


# ---- figures no source holds -------------------------------------------------------------

# A one-digit number is in nearly every note; it counts only with its unit ("1 MiB").
UNIT = r"(?:[kmgt]i?b|bytes?|ms|[mck]?m|%|prozent|percent|€|eur(?:os?)?|usd|\$)"
SHORT_QUANTITY = re.compile(r"(?<![\d.,])(\d)\s?(" + UNIT + r")(?!\w)", re.IGNORECASE)
# How a figure is shown: with the unit that follows it ("256 KB", not "256").
SHOWN = re.compile("(" + NUMBER.pattern + r")(?:\s?" + UNIT + r"(?!\w))?", re.IGNORECASE)
CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# Numbers of two digits a note may spell out (one-digit ones count only with a unit anyway).
NUMBER_WORDS = {
    "ten": "10",
    "zehn": "10",
    "eleven": "11",
    "elf": "11",
    "twelve": "12",
    "zwölf": "12",
}


def _quantity(digit: str, unit: str) -> str:
    """A one-digit quantity as compared: "1 MiB" and "1 mib", "2 bytes" and "2 byte" are one."""
    return f"{digit} {unit.casefold().rstrip('s')}"


def _figures(text: str) -> set[str]:
    """The numbers of `text` without separators ("12.500" and "12500" are one), and the
    one-digit quantities with their unit ("1 mib"); "zehn" to "zwölf" written out count."""
    numbers = (_normal_number(n) for n in NUMBER.findall(text))
    found = {n for n in numbers if len(n) > 1}
    found |= {_quantity(n, u) for n, u in SHORT_QUANTITY.findall(text)}
    words = (w.casefold() for w in WORDS.findall(text))
    return found | {NUMBER_WORDS[w] for w in words if w in NUMBER_WORDS}


def unsupported_figures(answer: str, question: str, sources: list[ScoredHit]) -> list[str]:
    """The figures `answer` states that neither the question nor any source (its text,
    title or path) holds, as the answer writes them: most often made up (a stack size, a
    version, a count the notes never give). Code blocks are not claims and are skipped;
    a number of one digit counts only with its unit."""
    prose = CODE_BLOCK.sub(" ", CITED.sub(" ", answer))
    known = _figures(question)
    for hit in sources:
        known |= _figures(f"{hit.path}\n{hit.title}\n{hit.text}")
    out: list[str] = []
    for match in SHOWN.finditer(prose):
        number = _normal_number(match.group(1))
        if len(number) > 1 and number not in known:
            out.append(match.group())
    for match in SHORT_QUANTITY.finditer(prose):
        if _quantity(match.group(1), match.group(2)) not in known:
            out.append(match.group())
    return list(dict.fromkeys(out))


# ---- a citation the model forgot ---------------------------------------------------------

# What an answer states that a source holds word for word: a number of two or more digits,
# or a name from code (FnOnce, macro_rules, i32, thread::spawn).
FACT_TOKEN = re.compile(
    r"(?<![\w.,])\d+(?:[.,:]\d+)*(?![\w])|\b\w*[a-z][A-Z]\w*|\b\w+_\w+|\b[a-z]+\d+\b|\w+::\w+"
)


def _fact_tokens(text: str) -> set[str]:
    out = set()
    for token in FACT_TOKEN.findall(text):
        if token[0].isdigit():
            if len(_normal_number(token)) > 1:
                out.add(_normal_number(token))
        else:
            out.add(token.casefold())
    return out


def missing_citation(answer: str, question: str, texts: list[str]) -> int | None:
    """The source to cite (1-based) when `answer` cites none but states facts that one
    source holds word for word and no other does; None otherwise. `texts` are what the
    model read of each source; facts taken from the question prove nothing."""
    if CITED.search(answer) or says_not_found(answer):
        return None
    facts = _fact_tokens(CODE_BLOCK.sub(" ", answer)) - _fact_tokens(question)
    if not facts:
        return None
    holders = {i for i, text in enumerate(texts) if facts & _fact_tokens(text)}
    return holders.pop() + 1 if len(holders) == 1 else None
