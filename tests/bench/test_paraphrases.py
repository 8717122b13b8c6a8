"""The paraphrase files in resources/qa/paraphrases/ fit the QA sets they paraphrase.

Issue 17's simulated-user benchmark asks a question, rates its results, then asks the
paraphrase; a paraphrase that repeats the question's words would measure nothing. Fast: reads
YAML only; nothing is imported or embedded.

Word overlap: the share of the question's content stems that reappear in the paraphrase.
Content stems are the lowercased letter/digit tokens of two or more characters, minus a small
English and German stop-word list, cut to their first five characters after dropping one
trailing "s" (a crude stem, so "loop"/"loops" and "Variable"/"Variablen" count as the same word).
Each paraphrase repeats at most 60 % of them (MAX_OVERLAP) and a set at most 25 % on average
(MAX_MEAN_OVERLAP; the shipped sets are near 0.2). known_item questions (an exact rare term or
compiler error) are left out of the overlap and length checks: their paraphrase keeps the term,
so it must repeat at least half of the question's stems instead.
"""

from __future__ import annotations

import re
from pathlib import Path
from statistics import mean

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
QA_DIR = REPO / "resources" / "qa"
PARAPHRASE_DIR = QA_DIR / "paraphrases"
PARAPHRASE_FILES = sorted(PARAPHRASE_DIR.glob("*.yaml"))
EXPECTED = {"rust-book-en", "rust-book-de", "example_vault", "pydocs"}
TOP_KEYS = {"name", "set", "paraphrases"}
MAX_OVERLAP = 0.6
MAX_MEAN_OVERLAP = 0.25
MIN_KNOWN_ITEM_OVERLAP = 0.5  # the other way round: a known-item paraphrase keeps its term
LENGTH_RATIO = (0.5, 2.2)  # paraphrase words / question words, "about as long"


def _words(text: str) -> set[str]:
    return set(text.split())


STOP_EN = _words(
    """a about after again all also an and another any are aren as at be been being both but by
    can could d did didn do does doesn doing don e eg either etc even every for from g get got
    had has have here how i if in into is isn it its just ll m may me might more most must my
    no nor not now of off on one only or other our out over own re s same shall should so some
    still such t than that the their them then there these they this those to too two up us ve
    very vs was wasn way we were what when where which who whom whose why will with won would
    yet you your"""
)
STOP_DE = _words(
    """aber alle als also am an auch auf aus bei bin bis da dabei damit dann das dass dem den
    denn der des die dir doch du ein eine einem einen einer eines er es etwa etwas für gibt
    habe haben hat hatte ich ihr ihre ihren im in ist ja jede jeder jedes kann kein keine
    keinen man mein meine meinem meinen meiner meines mich mir mit muss nach nicht noch nur ob
    oder ohne schon sein seine seinen sich sie sind so soll sollte statt über um und uns unser
    unter viel viele vom von vor war was weil welche welchem welchen welcher welches wenn wer
    werden wie wir wird wo wurde wurden zu zum zur"""
)
STOP = STOP_EN | STOP_DE
# Words that tell the two languages apart, for the "same language as the question" check.
ONLY_EN = STOP_EN - STOP_DE
ONLY_DE = STOP_DE - STOP_EN


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def tokens(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def content_stems(text: str) -> set[str]:
    return {t.removesuffix("s")[:5] for t in tokens(text) if len(t) > 1 and t not in STOP}


def overlap(question: str, paraphrase: str) -> float:
    """Share of the question's content stems that the paraphrase repeats (0 = none)."""
    asked = content_stems(question)
    return len(asked & content_stems(paraphrase)) / len(asked) if asked else 0.0


def _pairs(path: Path) -> list[tuple[dict, str]]:
    data = _load(path)
    questions = _load(REPO / data["set"])["questions"]
    return [(q, data["paraphrases"][q["id"]]) for q in questions]


def test_every_retrieval_set_of_issue_17_has_paraphrases() -> None:
    assert {path.stem for path in PARAPHRASE_FILES} >= EXPECTED


@pytest.mark.parametrize("path", PARAPHRASE_FILES, ids=lambda p: p.stem)
def test_names_an_existing_set_and_covers_exactly_its_ids(path: Path) -> None:
    data = _load(path)
    assert set(data) == TOP_KEYS
    assert data["name"] == path.stem
    qa_set = REPO / data["set"]
    assert qa_set.parent == QA_DIR and qa_set.is_file(), data["set"]
    assert _load(qa_set)["name"] == data["name"]
    ids = [q["id"] for q in _load(qa_set)["questions"]]
    assert isinstance(data["paraphrases"], dict)
    assert sorted(data["paraphrases"]) == sorted(ids)


@pytest.mark.parametrize("path", PARAPHRASE_FILES, ids=lambda p: p.stem)
def test_each_paraphrase_is_new_text_in_the_question_language(path: Path) -> None:
    seen: set[str] = set()
    for question, paraphrase in _pairs(path):
        assert isinstance(paraphrase, str) and paraphrase.strip(), question["id"]
        assert paraphrase.strip().casefold() != question["q"].strip().casefold(), question["id"]
        assert paraphrase.casefold() not in seen, question["id"]
        seen.add(paraphrase.casefold())
        words = tokens(paraphrase)
        own, other = (ONLY_DE, ONLY_EN) if question["lang"] == "de" else (ONLY_EN, ONLY_DE)
        assert sum(w in own for w in words) > sum(w in other for w in words), question["id"]


@pytest.mark.parametrize("path", PARAPHRASE_FILES, ids=lambda p: p.stem)
def test_paraphrases_reword_the_question(path: Path) -> None:
    pairs = [(q, p) for q, p in _pairs(path) if q["kind"] != "known_item"]
    scores = {q["id"]: overlap(q["q"], p) for q, p in pairs}
    too_close = {i: round(s, 2) for i, s in scores.items() if s > MAX_OVERLAP}
    assert not too_close
    assert mean(scores.values()) <= MAX_MEAN_OVERLAP


@pytest.mark.parametrize("path", PARAPHRASE_FILES, ids=lambda p: p.stem)
def test_paraphrases_are_about_as_long_as_the_question(path: Path) -> None:
    low, high = LENGTH_RATIO
    off = {
        q["id"]: (len(tokens(q["q"])), len(tokens(p)))
        for q, p in _pairs(path)
        if q["kind"] != "known_item" and not low <= len(tokens(p)) / len(tokens(q["q"])) <= high
    }
    assert not off


@pytest.mark.parametrize("path", PARAPHRASE_FILES, ids=lambda p: p.stem)
def test_known_item_paraphrases_keep_the_exact_term(path: Path) -> None:
    """A known-item search is about one rare term or error text: the paraphrase keeps it."""
    for question, paraphrase in _pairs(path):
        if question["kind"] != "known_item":
            continue
        rare = re.findall(r"`[^`]+`|E\d{4}|[A-Z][a-z]+[A-Z]\w*", question["q"])
        assert all(w in paraphrase for w in rare), (question["id"], rare)
        assert overlap(question["q"], paraphrase) >= MIN_KNOWN_ITEM_OVERLAP, question["id"]
