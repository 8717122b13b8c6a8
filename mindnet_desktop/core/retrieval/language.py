"""Which language a text is in, German or English, by its function words: the question's
language chooses the answer's, the alignment's judgement and how a question is embedded."""

from __future__ import annotations

import re

# Frequent function words: a handful suffices to tell German from English in a question or
# an answer of a few sentences (shared words like "in", "was" are left out).


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS = {
    "de": _words(
        "der die das den dem des ein eine einen einem und oder nicht ist sind war wie warum "
        "wieso weshalb welche welcher welches wer wo wann ich du er sie wir ihr mein meine "
        "dein deine mit für auf aus bei nach von vor zu zum zur auch noch nur schon sich "
        "habe hat hatte wird werden kann können muss soll sollte über unter im ins am "
        "dass weil wenn aber bitte viel viele man keine kein deinen notizen"
    ),
    "en": _words(
        "the a an and or not is are was were how why which who where when what i you he she "
        "we they my your with for on from at by of to also only already itself have has had "
        "will would can could must should about under into that because if but please much "
        "many does do did this these those there their notes"
    ),
}
WORDS = re.compile(r"[^\W\d_]+")


def detect_language(text: str, default: str = "en") -> str:
    """`de` or `en` by counting stop words; `default` on a tie (no evidence either way)."""
    words = [w.casefold() for w in WORDS.findall(text)]
    counts = {lang: sum(w in stop for w in words) for lang, stop in STOP_WORDS.items()}
    if counts["de"] == counts["en"]:
        return default
    return "de" if counts["de"] > counts["en"] else "en"
