"""The need-based question sets in resources/qa/needs/ (questions asked from a need, without
the gold note's words): well-formed, gold notes that exist, at most one content word shared
with the gold note's names and a median of none, and a dev/test split fixed before tuning."""

from __future__ import annotations

import hashlib
import statistics
from pathlib import Path

import pytest
import yaml

from mindnet_desktop.bench.overlap import question_overlap
from mindnet_desktop.bench.quality import load_qa_set
from tests.conftest import REPO

NEEDS_DIR = REPO / "resources" / "qa" / "needs"
NEED_FILES = sorted(NEEDS_DIR.glob("*.yaml"))
QUESTION_KEYS = {"id", "q", "lang", "kind", "gold", "split", "need"}
# Fixed before any tuning: changing which half a question is in changes the digest.
SPLIT_DIGESTS = {
    "example_vault": "ce5aedf4d8fec2cb",
    "pydocs": "cef02779246f72e3",
    "rust-book-de": "7cd75a5e589a0a60",
    "rust-book-en": "836cdf6d69fd05f9",
}
MIN_PER_LANGUAGE = 60


def split_digest(questions: list[dict]) -> str:
    pairs = ";".join(f"{q['id']}={q['split']}" for q in questions)
    return hashlib.sha256(pairs.encode()).hexdigest()[:16]


def _questions(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]


def test_the_four_sets_are_shipped_with_enough_questions_per_language() -> None:
    assert {p.stem for p in NEED_FILES} == set(SPLIT_DIGESTS)
    per_language: dict[str, int] = {}
    for path in NEED_FILES:
        for q in _questions(path):
            per_language[q["lang"]] = per_language.get(q["lang"], 0) + 1
    assert per_language["en"] >= MIN_PER_LANGUAGE and per_language["de"] >= MIN_PER_LANGUAGE


@pytest.mark.parametrize("path", NEED_FILES, ids=lambda p: p.stem)
def test_schema_and_gold_notes(path: Path) -> None:
    qa = load_qa_set(path, REPO)  # the bench's own loader accepts the set
    assert qa.name == f"{path.stem}-needs"
    ids = [q["id"] for q in _questions(path)]
    assert len(ids) == len(set(ids))
    for q in _questions(path):
        assert QUESTION_KEYS <= set(q) <= QUESTION_KEYS | {"deep"}, q["id"]
        assert q["need"].strip() and q["q"].strip()
        for gold in q["gold"]:
            assert (qa.vault / gold).is_file(), (q["id"], gold)


@pytest.mark.parametrize("path", NEED_FILES, ids=lambda p: p.stem)
def test_questions_do_not_share_the_gold_notes_words(path: Path) -> None:
    qa = load_qa_set(path, REPO)
    counts = {q.id: len(question_overlap(qa.vault, q.q, q.gold)) for q in qa.questions}
    assert max(counts.values()) <= 1, {k: n for k, n in counts.items() if n > 1}
    assert statistics.median(counts.values()) == 0


@pytest.mark.parametrize("path", NEED_FILES, ids=lambda p: p.stem)
def test_the_split_is_half_and_half_and_fixed(path: Path) -> None:
    questions = _questions(path)
    tests = sum(q["split"] == "test" for q in questions)
    assert tests * 2 == len(questions)
    assert split_digest(questions) == SPLIT_DIGESTS[path.stem]


def test_the_german_rust_questions_mirror_the_english_ones() -> None:
    """Written from the same needs: same gold chapters, same halves."""
    en, de = (_questions(NEEDS_DIR / f"rust-book-{lang}.yaml") for lang in ("en", "de"))
    assert [(q["gold"], q["split"]) for q in en] == [(q["gold"], q["split"]) for q in de]
    assert [q["need"] for q in en] == [q["need"] for q in de]
