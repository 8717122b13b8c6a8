"""Evidence: the sentences of the sources that best answer a question, chosen before the
model, each quotable at its place in the source (logic only: no model, words alone)."""

from __future__ import annotations

from mindnet_desktop.core.chat.evidence import Source, choose_evidence

PRINTER = Source(
    "Produkte/Drucker",
    "Produkte/Drucker#1",
    "# Drucker\n\nDer Drucker steht im Flur neben der Küche.\n"
    "Hinter dem Drucker müssen mindestens 10 cm Abstand frei bleiben,\n"
    "damit die Klappe aufgeht. Dies gilt auch für das Modell mit Duplex.\n\n"
    "```\nabstand = 10\n```\n",
)
TONER = Source(
    "Support/Toner",
    "Support/Toner#2",
    "Wie wechsle ich den Toner?\nÖffnen Sie die vordere Klappe und ziehen Sie die Kassette "
    "heraus. Die Kalibrierung dauert danach 30 Sekunden.\n\nDie Schritte beim Tausch:\n"
    "- Klappe öffnen\n",
)


def test_the_sentence_that_answers_comes_first_and_is_quotable_where_it_stands():
    chosen = choose_evidence(
        "Wie viel Abstand muss hinter dem Drucker frei bleiben?", [PRINTER, TONER], None
    )
    best = chosen[0]
    assert best.citation == 1 and best.chunk_id == "Produkte/Drucker#1"
    assert "10 cm Abstand" in best.sentence
    assert PRINTER.text[best.start : best.end] == best.sentence  # lines kept as written
    assert len(chosen) <= 3 and [e.score for e in chosen] == sorted(
        (e.score for e in chosen), reverse=True
    )


def test_a_sentence_that_points_back_brings_the_one_before_it():
    chosen = choose_evidence("Gilt das auch für das Duplex Modell?", [PRINTER], None)
    assert chosen[0].sentence.startswith("Hinter dem Drucker")
    assert chosen[0].sentence.endswith("Dies gilt auch für das Modell mit Duplex.")


def test_headings_code_and_questions_are_never_evidence():
    chosen = choose_evidence("Toner wechseln Drucker abstand", [PRINTER, TONER], None, limit=10)
    texts = [e.sentence for e in chosen]
    assert texts and not any(
        t.startswith(("#", "```", "abstand =")) or t.endswith("?") for t in texts
    )


def test_a_colon_brings_the_line_after_it():
    chosen = choose_evidence("Welche Schritte hat der Tausch?", [TONER], None, limit=1)
    assert chosen[0].sentence == "Die Schritte beim Tausch:\n- Klappe öffnen"


def test_no_prose_no_evidence():
    code = Source("n", "n#1", "```\nfn main() {}\n```\n")
    assert choose_evidence("main", [code], None) == []
    assert choose_evidence("anything", [], None) == []


def test_html_lines_are_never_evidence():
    """Guards the Rust book's figure captions: an HTML line shares the question's words but
    is markup, not what the user reads (shown to fail without `<` in NOT_PROSE)."""
    figure = Source(
        "ch17",
        "ch17#3",
        '<span class="caption">Figure 17-1: A concurrent workflow, switching between tasks'
        "</span>\n\n<figcaption>Figure 17-2: A parallel workflow of tasks</figcaption>\n\n"
        "Tasks run concurrently when the runtime switches between them at await points.\n",
    )
    chosen = choose_evidence("How does a concurrent workflow switch between tasks?", [figure], None)
    assert chosen and all(not e.sentence.lstrip().startswith("<") for e in chosen)
    assert chosen[0].sentence.startswith("Tasks run concurrently")
