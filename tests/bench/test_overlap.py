"""The overlap of a question with its gold note's names (`bench/overlap.py`): what counts as
a shared content word, and what the need-based question sets must stay under."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.bench.overlap import (
    content_words,
    note_names,
    question_overlap,
    same_word,
    set_overlap,
    shared_words,
)
from mindnet_desktop.bench.quality import Question
from tests.conftest import EXAMPLE_VAULT


def test_function_words_and_short_words_are_not_content_words() -> None:
    assert content_words("How do I let several parts of my program own it?") == {
        "let",  # a Rust keyword: not a function word here
        "several",
        "parts",
        "program",
    }
    assert content_words("Wie gebe ich einer Funktion etwas?") == {"gebe", "funktion"}


def test_inflections_count_as_the_same_word_and_unrelated_words_do_not() -> None:
    assert same_word("borrow", "borrowing") and same_word("referenz", "referenzen")
    assert same_word("ownership", "owners")  # the same first six characters
    assert not same_word("own", "ownership")  # too short to be a prefix that counts
    assert not same_word("panic", "pain") and not same_word("share", "shape")


def test_a_note_is_named_by_title_aliases_file_name_and_headings(tmp_path: Path) -> None:
    (tmp_path / "Rc.md").write_text(
        "---\naliases: [Shared pointer]\n---\n# Rc<T>, the Reference Counted Smart Pointer\n"
        "## Using Rc<T> to Share Data\n```\n# not a heading\n```\nText.\n",
        encoding="utf-8",
    )
    names = note_names(tmp_path, "Rc.md")
    assert names == [
        "Rc<T>, the Reference Counted Smart Pointer",
        "Shared pointer",
        "Rc",
        "Using Rc<T> to Share Data",
    ]
    assert shared_words("How do I share a value between owners?", names) == ["share"]
    assert shared_words("How do I let several parts own the same value?", names) == []


def test_a_question_counts_the_gold_note_it_shares_least_with() -> None:
    gold = ("Support/Toner wechseln.md", "Glossar/HNSW.md")
    assert question_overlap(EXAMPLE_VAULT, "Toner wechseln", gold) == []
    assert question_overlap(EXAMPLE_VAULT, "Toner wechseln", gold[:1]) == ["toner", "wechseln"]


def test_a_set_reports_each_question_and_its_median_and_maximum() -> None:
    questions = [
        Question("a", "Toner wechseln", "de", "howto", ("Support/Toner wechseln.md",)),
        Question("b", "Wie viele Seiten schafft die Kassette?", "de", "fact", ("Glossar/HNSW.md",)),
        Question("c", "Was ist HNSW?", "de", "fact", ("Glossar/HNSW.md",)),
    ]
    report = set_overlap(EXAMPLE_VAULT, questions)
    assert report["per_question"] == {"a": ["toner", "wechseln"], "b": [], "c": ["hnsw"]}
    assert report["median"] == 1 and report["max"] == 2
