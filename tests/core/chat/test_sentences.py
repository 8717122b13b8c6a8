"""Sentence boundaries of answers and sources (sentencex with the abbreviations of each
language): an abbreviation or a number does not end a sentence, and every sentence stands in
the text as written (the alignment replaces it there, the evidence finds its place)."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.chat.sentences import sentences


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        (
            "de",
            "Die Kassette kostet ca. 30 Euro. Sie hält z. B. 250 Blatt [2]. Gut!",
            ["Die Kassette kostet ca. 30 Euro.", "Sie hält z. B. 250 Blatt [2].", "Gut!"],
        ),
        (
            "de",
            "Siehe Kap. 4 bzw. Abschn. 3. Das Buch erklärt es.",
            ["Siehe Kap. 4 bzw. Abschn. 3.", "Das Buch erklärt es."],
        ),
        (
            "en",
            "It costs approx. 30 dollars, e.g. in 2021. Use the `?` operator, which returns.",
            ["It costs approx. 30 dollars, e.g. in 2021.", "Use the `?` operator, which returns."],
        ),
        ("en", "Version 3.5 ships.  Next   one?", ["Version 3.5 ships.", "Next   one?"]),
        ("en", "   ", []),
    ],
)
def test_abbreviations_and_numbers_do_not_end_a_sentence(language, text, expected):
    """Shown to fail by the splitter it replaced in the answers (at every ". "), which cut
    "ca." from "30 Euro", so a price the model invented was too short a claim to check."""
    got = sentences(text, language)
    assert got == expected
    assert all(part in text for part in got)


def test_the_language_is_told_from_the_text_when_not_given():
    assert sentences("Das ist z. B. ein Satz. Und das ist noch einer.") == [
        "Das ist z. B. ein Satz.",
        "Und das ist noch einer.",
    ]
