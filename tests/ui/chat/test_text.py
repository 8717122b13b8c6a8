"""The chat panel's text builders (tooltips, cited answers, Obsidian links) and its German
translation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.ui.chat.panel import ChatPanel
from mindnet_desktop.ui.chat.state import Turn
from mindnet_desktop.ui.chat.text import (
    explanation_html,
    intent_text,
    linked_answer_html,
    parse_citation,
    transcript_html,
)
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.obsidian import obsidian_url
from mindnet_desktop.ui.support.workers import ServiceHost

REPO = Path(__file__).resolve().parents[3]


def make_hit(**overrides: object) -> ScoredHit:
    fields: dict[str, object] = {
        "node_id": "Support/Papierstau beheben#2",
        "note_id": "Support/Papierstau beheben",
        "title": "Papierstau <beheben>",
        "path": "Support/Papierstau beheben.md",
        "type": "source",
        "text": "Fach 2 herausziehen",
        "score": 0.6123,
        "score_breakdown": [
            {"term": "semantic", "raw": 0.8, "weight": 0.7, "contribution": 0.56},
            {"term": "type", "raw": 0.5, "weight": 0.1, "contribution": 0.05},
            {"term": "edge", "raw": 0.0123, "weight": 0.1, "contribution": 0.00123},
        ],
        "reasons": ["Ähnlich zur Frage (0.80)", 'Verlinkt von "LaserJet 500"'],
    }
    fields.update(overrides)
    return ScoredHit(**fields)  # type: ignore[arg-type]


def test_the_explanation_lists_reasons_and_every_term_of_the_score(qapp: QApplication) -> None:
    tip = explanation_html(make_hit(), citation=3)
    assert "[3] Papierstau &lt;beheben&gt;" in tip  # escaped: a title is not markup
    assert "Ähnlich zur Frage (0.80)" in tip and "Verlinkt von &quot;LaserJet 500&quot;" in tip
    for raw, weight, contribution in (("0.800", "0.7", "0.560"), ("0.012", "0.1", "0.001")):
        assert f">{raw}<" in tip and f">{weight}<" in tip and f">{contribution}<" in tip
    assert ">0.612<" in tip  # the score, the sum of the contributions
    assert "semantic similarity" in tip and "Injected" not in tip
    assert "Injected for a decision" in explanation_html(make_hit(injected=True))


def test_citations_become_links_only_for_existing_sources(qapp: QApplication) -> None:
    answer = "Fach 2 ziehen [1].\nDann [3] und [12] <b>"
    out = linked_answer_html(answer, turn=4, sources=3)
    assert '<a href="cite:4/1">[1]</a>' in out and '<a href="cite:4/3">[3]</a>' in out
    assert "[12]" in out and "cite:4/12" not in out
    assert "&lt;b&gt;" in out and "<br>" in out
    assert parse_citation("cite:4/3") == (4, 3)
    assert parse_citation("https://example.org") is None


def test_obsidian_urls_encode_the_vault_and_the_path_without_md() -> None:
    url = obsidian_url("Mein Vault", "Projekte/KI-Projekt Alpha.md")
    assert url == "obsidian://open?vault=Mein%20Vault&file=Projekte%2FKI-Projekt%20Alpha"
    assert obsidian_url("v", "Wissen/Über & mehr.md").endswith(
        "file=Wissen%2F%C3%9Cber%20%26%20mehr"
    )
    assert obsidian_url("v", "Support/faq.ctxt").endswith("file=Support%2Ffaq.ctxt")


def test_the_intent_badge_says_where_the_intent_came_from(qapp: QApplication) -> None:
    assert intent_text(Routing("DECISION", "keyword", ("soll ich",))) == "DECISION · keywords"
    assert intent_text(Routing("EMPATHY", "model")) == "EMPATHY · model"


@pytest.fixture
def german(qapp: QApplication) -> Iterator[None]:
    # The chat's catalogue and the shared one (the score terms' names), as the app installs.
    translators = []
    for catalogue in ("chat_de.qm", "mindnet_de.qm"):
        translator = QTranslator()
        assert translator.load(str(REPO / "resources" / "i18n" / catalogue))
        QCoreApplication.installTranslator(translator)
        translators.append(translator)
    yield
    for translator in translators:
        QCoreApplication.removeTranslator(translator)


def test_the_german_translation_covers_the_panel_and_the_tooltips(
    qtbot, german: None, tmp_path: Path
) -> None:
    host = ServiceHost(lambda: None)  # type: ignore[arg-type, return-value]  # never opened
    panel = ChatPanel(host)
    qtbot.addWidget(panel)
    assert panel.send_button.text() == "Senden" and panel.stop_button.text() == "Stopp"
    assert panel.sources.heading.text() == "Quellen"
    tip = explanation_html(make_hit(injected=True))
    assert "Gründe" in tip and "Beitrag" in tip and "semantische Ähnlichkeit" in tip
    assert intent_text(Routing("FACT", "keyword")) == "FACT · Schlüsselwörter"
    result = AskResult("q1", "Papierstau?", Routing("FACT", "keyword"), sources=[make_hit()])
    stopped = Turn("Papierstau?", "Fach 2 ziehen [1].", "stopped", result=result)
    out = transcript_html([stopped], lambda n: panel.tr("Sources (%n)", "", n))
    assert "Quelle (1)" in out and "<i>angehalten</i>" in out and '"cite:0/1"' in out
    assert panel.tr("Writing…") == "Schreibe …"  # the status line while tokens come
    assert fill(panel.tr("Reading %1 sources…"), 5) == "Lese 5 Quellen …"
    assert "Was die Antwort davon gelesen hat" in explanation_html(make_hit(), 1, "Fach 2")
    panel.shutdown()


def test_the_answer_says_what_it_read_and_which_citations_to_check(qapp: QApplication) -> None:
    """A source's tooltip (row and citation link) shows the excerpt the model read; a
    citation the check does not find backed by its source gets a line under the answer."""
    from mindnet_desktop.core.chat.grounding import check_citations
    from mindnet_desktop.ui.chat.text import citation_html

    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand. Fach 2 herausziehen.")
    answer = "Hinten braucht er 25 cm Abstand [1]. Fach 2 herausziehen [1]."
    result = AskResult("q1", "Abstand?", Routing("FACT", "keyword"), answer, sources=[hit])
    result.excerpts = ["Der Drucker braucht hinten 10 cm Abstand."]
    result.citation_checks = check_citations(answer, [hit])
    turn = Turn("Abstand?", answer, "done", result=result)
    out = transcript_html([turn], lambda n: f"Sources ({n})")
    assert out.count("⚠") == 1 and "source [1] may not say" in out and "25 cm" in out
    tip = citation_html((turn, hit, 1))
    assert tip is not None and "What the answer read of it" in tip and "10 cm" in tip
    assert "What the answer read" not in explanation_html(hit, 1)  # read whole: no excerpt
    result.citation_checks = check_citations("Fach 2 herausziehen [1].", [hit])
    assert "⚠" not in transcript_html([turn], lambda n: f"Sources ({n})")


def test_a_figure_in_no_source_is_named_under_the_answer(qapp: QApplication) -> None:
    """An answer stating a figure none of its sources holds gets a "not in your notes"
    line naming it; an answer whose figures are all in the sources gets none."""
    from mindnet_desktop.core.chat.grounding import unsupported_figures

    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand.")
    answer = "Er braucht 10 cm Abstand und kostet 899 € [1]."
    result = AskResult("q1", "Abstand?", Routing("FACT", "keyword"), answer, sources=[hit])
    result.unsupported_figures = unsupported_figures(answer, "Abstand?", [hit])
    turn = Turn("Abstand?", answer, "done", result=result)
    out = transcript_html([turn], lambda n: f"Sources ({n})")
    assert out.count("⚠") == 1 and "Not in your notes: “899 €”" in out
    result.unsupported_figures = unsupported_figures("10 cm [1].", "Abstand?", [hit])
    assert "⚠" not in transcript_html([turn], lambda n: f"Sources ({n})")


def test_rows_shown_before_the_answer_get_what_it_read(qtbot) -> None:
    """The sources are shown before the answer is packed; when the answer comes with the
    same sources, the rows stay and their tooltips gain the excerpts."""
    from mindnet_desktop.ui.chat.sources import SourcesPane

    pane = SourcesPane()
    qtbot.addWidget(pane)
    hits = [make_hit(), make_hit(node_id="B#0", note_id="B", title="B", path="B.md")]
    early = AskResult("q1", "Fach?", Routing("FACT", "keyword"), sources=hits)
    pane.show_result(early, {}, answering=True)
    rows = list(pane.rows)
    assert all("What the answer read" not in r.toolTip() for r in rows)
    done = AskResult("q1", "Fach?", Routing("FACT", "keyword"), "Fach 2 [1].", sources=hits)
    done.excerpts = ["Fach 2 herausziehen", "Nur B"]
    pane.show_result(done, {})
    assert pane.rows == rows
    assert "What the answer read" in rows[0].toolTip() and "Nur B" in rows[1].toolTip()


def test_a_follow_up_carries_the_answered_and_stopped_turns_only() -> None:
    from mindnet_desktop.ui.chat.state import Turn, history_of

    turns = [
        Turn("Q1", "A1", "done"),
        Turn("Q2", "", "failed", error="boom"),
        Turn("Q3", "A3 (half)", "stopped"),
        Turn("Q4", "", "running"),
    ]
    assert history_of(turns) == [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "A1"},
        {"role": "user", "content": "Q3"},
        {"role": "assistant", "content": "A3 (half)"},
    ]


def test_a_withheld_draft_is_shown_under_the_not_found_answer(qapp: QApplication) -> None:
    """When the second look withheld the model's answer, the user reads "not found" and,
    under a warning, what the model had written; without a draft no such line. Shown to
    fail by dropping the draft line from `doubts_html` (no ⚠)."""
    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand.")
    not_found = "Nicht in deinen Notizen gefunden."
    result = AskResult("q1", "RAM?", Routing("FACT", "keyword"), not_found)
    result.sources, result.not_found = [hit], True
    result.draft_answer = "Qdrant braucht 2 GB RAM [1]."
    turn = Turn("RAM?", result.answer, "done", result=result)
    out = transcript_html([turn], lambda n: f"Sources ({n})")
    assert out.count("⚠") == 1 and "withheld" in out and "2 GB RAM" in out
    # Its unfounded claim is quoted once, in the draft's line (shown to fail by listing the
    # alignments of a withheld answer too: two ⚠); the evidence is only the closest.
    from mindnet_desktop.core.chat.align import Alignment
    from mindnet_desktop.core.chat.evidence import Evidence

    result.alignments = [Alignment("Qdrant braucht 2 GB RAM.", (1,), None, "", "unsupported")]
    result.evidence = [Evidence(1, hit.note_id, hit.node_id, hit.text, 0, len(hit.text), 0.2)]
    out = transcript_html([turn], lambda n: f"Sources ({n})")
    assert out.count("⚠") == 1 and "Closest in your notes" in out
    assert "From your notes" not in out
    result.draft_answer, result.not_found = None, False
    result.answer = turn.answer = "Qdrant braucht 2 GB RAM [1]."
    out = transcript_html([turn], lambda n: f"Sources ({n})")
    assert out.count("⚠") == 1 and "Not found in your notes" in out and "From your notes" in out


def test_the_evidence_stands_above_the_answer_with_its_citations(qapp: QApplication) -> None:
    """ "From your notes" comes before the answer (also while it is written), each sentence
    with a citation link to its source; a turn without evidence shows none."""
    from mindnet_desktop.core.chat.evidence import Evidence

    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand.")
    sentence = "Der Drucker braucht\nhinten 10 cm Abstand."
    evidence = [Evidence(1, hit.note_id, hit.node_id, sentence, 0, len(sentence), 0.7)]
    result = AskResult("q1", "Abstand?", Routing("FACT", "keyword"), sources=[hit])
    result.evidence = evidence
    running = Turn("Abstand?", "Mindestens", "running", result=result)
    out = transcript_html([running], lambda n: f"Sources ({n})")
    assert out.index("From your notes") < out.index("“Der Drucker braucht hinten 10 cm")
    assert out.index('"cite:0/1"') < out.index("Mindestens")
    listed = Evidence(1, hit.note_id, hit.node_id, "- Fach 2: 500 Blatt", 0, 18, 0.5)
    result.evidence = [listed]
    assert "“Fach 2: 500 Blatt”" in transcript_html([running], lambda n: f"Sources ({n})")
    result.evidence = []
    assert "From your notes" not in transcript_html([running], lambda n: f"Sources ({n})")


def test_citations_set_by_alignment_are_shown_and_explained(qapp: QApplication) -> None:
    """A replaced citation and a sentence no source supports get a line under the answer; a
    citation's tooltip quotes the source sentence that supports the answer's sentence."""
    from mindnet_desktop.core.chat.align import Alignment
    from mindnet_desktop.ui.chat.text import citation_html, doubts_html

    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand.")
    result = AskResult("q1", "Abstand?", Routing("FACT", "keyword"), "x", sources=[hit])
    result.alignments = [
        Alignment(
            "Er braucht 10 cm Abstand.",
            (2,),
            1,
            "Der Drucker braucht hinten 10 cm Abstand.",
            "replaced",
        ),
        Alignment("Der Mond ist aus Käse.", (), None, "", "unsupported"),
        Alignment("Ja, so ist es wirklich.", (1,), 1, "", "kept"),
    ]
    turn = Turn("Abstand?", "x", "done", result=result)
    lines = doubts_html(turn)
    assert (
        "Cited [1] instead of [2]: that source says “Der Drucker braucht hinten 10 cm Abstand”."
        in lines
    )
    assert "Not found in your notes: “Der Mond ist aus Käse”." in lines
    assert "so ist es wirklich" not in lines
    tip = citation_html((turn, hit, 1))
    assert tip is not None
    assert tip.index("Der Drucker braucht hinten 10 cm Abstand") < tip.index("[1] Papierstau")


def test_a_claim_no_source_supports_is_underlined_dotted_in_its_sentence(
    qapp: QApplication,
) -> None:
    """Guards the in-place mark of issue 31 item 3: the unsupported sentence (found in the
    answer although its citations are left out of the claim) becomes an anchor whose text
    gets a dotted underline and a "not found" tooltip, its citation stays a link, and the
    supported sentence stays plain (shown to fail by matching the claim with its citations:
    the anchor is missing)."""
    from PySide6.QtGui import QTextCharFormat, QTextDocument

    from mindnet_desktop.ui.chat.text import underline_unfounded, unfounded_tooltip

    answer = "Er braucht 10 cm Abstand [1]. Der Mond ist [2] aus Käse [1]. Ende gut."
    claims = ["Der Mond ist aus Käse.", "Nicht in der Antwort."]
    out = linked_answer_html(answer, turn=3, sources=2, unfounded=claims)
    assert '<a href="unfounded:3/0" style="color:palette(text); text-decoration:none">' in out
    assert out.count('href="unfounded:3/0"') == 3  # split around the citations inside it
    assert '<a href="cite:3/2">[2]</a>' in out and "unfounded:3/1" not in out
    assert "Er braucht" not in out.split("unfounded:3/0")[1]  # starts after sentence one

    document = QTextDocument()
    document.setHtml(f"<p>{out}</p>")
    underline_unfounded(document)
    styles = {}
    for part in document.begin():
        fragment = part.fragment()
        styles[fragment.text()] = fragment.charFormat().underlineStyle()
    dotted = QTextCharFormat.UnderlineStyle.DotLine
    assert styles["Der Mond ist "] == dotted and styles[" aus Käse "] == dotted
    assert styles["[2]"] != dotted and styles["Er braucht 10 cm Abstand "] != dotted
    tip = unfounded_tooltip("unfounded:3/0")
    assert tip is not None and "Not found in your notes" in tip
    assert unfounded_tooltip("cite:3/1") is None


def test_a_replaced_citation_says_so_in_its_tooltip(qapp: QApplication) -> None:
    """Guards issue 31 item 3: the citation the alignment put in place of the model's says
    which it replaced (shown to fail by dropping the note for `replaced`)."""
    from mindnet_desktop.core.chat.align import Alignment
    from mindnet_desktop.ui.chat.text import citation_html

    hit = make_hit(text="Der Drucker braucht hinten 10 cm Abstand.")
    result = AskResult("q1", "Abstand?", Routing("FACT", "keyword"), "x", sources=[hit])
    support = "Der Drucker braucht hinten 10 cm Abstand."
    result.alignments = [Alignment("Er braucht 10 cm Abstand.", (2,), 1, support, "replaced")]
    turn = Turn("Abstand?", "x", "done", result=result)
    tip = citation_html((turn, hit, 1))
    assert tip is not None and "Cited [1] instead of [2]: that source does not say it." in tip
    result.alignments = [Alignment("Er braucht 10 cm Abstand.", (1,), 1, support, "kept")]
    kept = citation_html((turn, hit, 1))
    assert kept is not None and "instead of" not in kept and support in kept
