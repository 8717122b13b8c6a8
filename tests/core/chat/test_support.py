"""Where an answer rests on each source: the sentence a click on a source opens the note at
(aligned, else evidence, else the start of what was read), and the sources it cites."""

from __future__ import annotations

from mindnet_desktop.core.chat.align import Alignment
from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.evidence import Evidence
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.chat.support import (
    answer_notes,
    cited_sources,
    first_sentence,
    supporting_sentence,
)
from mindnet_desktop.core.retrieval.retriever import ScoredHit

PRINTER = (
    "# Drucker\n\nDer Drucker steht im Flur neben der Küche.\n"
    "Hinter dem Drucker müssen mindestens 10 cm Abstand frei bleiben."
)
TONER = "## Toner\nDie Kalibrierung dauert nach dem Wechsel 30 Sekunden. Dann druckt er."


def hit(note: str, n: int, text: str) -> ScoredHit:
    return ScoredHit(f"{note}#{n}", note, note, f"{note}.md", "concept", text, 1.0)


def result(**kw: object) -> AskResult:
    sources = [hit("Drucker", 1, PRINTER), hit("Toner", 1, TONER), hit("Drucker", 2, PRINTER)]
    return AskResult("q", "Wie viel Abstand?", Routing("FACT", "keyword"), sources=sources, **kw)  # type: ignore[arg-type]


def test_the_aligned_sentence_comes_first() -> None:
    aligned = Alignment("Er braucht 10 cm Abstand.", (1,), 1, "Hinter dem Drucker …", "kept")
    unsupported = Alignment("Er ist blau.", (2,), None, "", "unsupported")
    evidence = Evidence(1, "Drucker", "Drucker#1", "Der Drucker steht im Flur.", 0, 9, 1.0)
    asked = result(alignments=[unsupported, aligned], evidence=[evidence])
    assert supporting_sentence(asked, 1) == "Hinter dem Drucker …"


def test_else_the_evidence_sentence_of_that_source() -> None:
    evidence = [
        Evidence(1, "Drucker", "Drucker#1", "Der Drucker steht im Flur.", 0, 9, 1.0),
        Evidence(2, "Toner", "Toner#1", "Dann druckt er wieder.", 0, 9, 0.5),
    ]
    assert supporting_sentence(result(evidence=evidence), 2) == "Dann druckt er wieder."


def test_else_the_first_sentence_read_of_it_never_a_heading() -> None:
    first = "Die Kalibrierung dauert nach dem Wechsel 30 Sekunden."
    assert supporting_sentence(result(), 2) == first
    excerpts = ["… Hinter dem Drucker müssen mindestens 10 cm Abstand frei bleiben.", "", ""]
    assert supporting_sentence(result(excerpts=excerpts), 1).startswith("Hinter dem Drucker")
    assert supporting_sentence(result(), 4) == supporting_sentence(result(), 0) == ""
    assert first_sentence("# Nur ein Titel\n\n```\ncode = 1\n```") == ""


def test_the_cited_sources_and_their_notes() -> None:
    cited = result(answer="Er braucht 10 cm Abstand [3]. Und Toner [2][9].")
    assert cited_sources(cited) == {2, 3}
    assert answer_notes(cited) == (["Drucker", "Toner"], {"Drucker", "Toner"})
    assert answer_notes(result(answer="Nichts zitiert.")) == (["Drucker", "Toner"], set())
