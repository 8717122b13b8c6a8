"""The graph follows the conversation: after an answer it draws the answer's sources and how
they link, the cited ones ringed (legend, tooltip, status say so), until the user browses
again; the filters fold away so the canvas gets the room."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.graph.slice import joining, whole_vault
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.ui.graph.answer import BRIDGE_OPACITY, ringed
from mindnet_desktop.ui.graph.ops import same_picture
from mindnet_desktop.ui.graph.view import GraphView
from mindnet_desktop.ui.support.workers import ServiceHost
from tests.ui.graph.test_view import on_core, redraw

ALPHA = "Projekte/KI-Projekt Alpha"
QDRANT = "Wissen/Qdrant Vektordatenbank"
JAM = "Support/Papierstau beheben"


def answer(text: str, notes: list[str]) -> AskResult:
    hits = [ScoredHit(f"{n}#1", n, n, f"{n}.md", "concept", "…", 1.0) for n in notes]
    return AskResult("q", "Welche Datenbank?", Routing("FACT", "keyword"), text, sources=hits)


@pytest.fixture
def view(qtbot, host: ServiceHost) -> Iterator[GraphView]:
    widget = GraphView(host)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    with qtbot.waitSignal(widget.drawn, timeout=30000):
        widget.focus_note(JAM)
    yield widget
    widget.shutdown()


def legend(view: GraphView) -> list[str]:
    return [view.side.legend.item(i).text() for i in range(view.side.legend.count())]


def test_after_an_answer_the_graph_shows_its_sources_with_the_cited_ones_ringed(
    qtbot, view: GraphView, host: ServiceHost
) -> None:
    result = answer("Alpha nutzt Qdrant [2] als Datenbank [1].", [ALPHA, QDRANT, JAM, ALPHA])
    redraw(qtbot, view, lambda: view.show_answer(result))
    expected = on_core(qtbot, host, lambda mn: joining(mn.queries, [ALPHA, QDRANT, JAM]))
    assert view.controls.mode() == "answer"
    assert set(view.canvas.nodes) == set(expected.nodes) >= {ALPHA, QDRANT, JAM}
    assert set(view.canvas.edges) == {e.id for e in expected.edges}
    assert ringed(view.canvas) == {ALPHA, QDRANT}  # JAM is a source the answer does not cite
    assert view.canvas.marked("selected") == ALPHA  # the first cited: its text beside
    assert "Cited in the answer" in view.canvas.tooltip("node", ALPHA)
    assert "not cited" in view.canvas.tooltip("node", JAM)
    bridges = set(view.canvas.nodes) - {ALPHA, QDRANT, JAM}
    assert bridges and all(view.canvas.nodes[b].opacity() == BRIDGE_OPACITY for b in bridges)
    assert legend(view)[0] == "cited in the answer"
    assert "2 cited" in view.controls.status.text()

    redraw(qtbot, view, lambda: view.show_answer(answer("Nur Qdrant [1].", [QDRANT, JAM])))
    assert ringed(view.canvas) == {QDRANT}  # the next answer replaces it


def test_an_answer_without_sources_leaves_the_graph_as_it_is(qtbot, view: GraphView) -> None:
    drawn = view.reloads
    view.show_answer(answer("Not found in your notes.", []))
    assert view.reloads == drawn and view.controls.mode() == "neighbourhood"


def test_from_an_answer_the_user_browses_again(qtbot, view: GraphView) -> None:
    redraw(qtbot, view, lambda: view.show_answer(answer("Qdrant [1].", [QDRANT, ALPHA])))
    drawn = view.reloads
    view.focus_note(ALPHA)  # a source opened from the chat: selected where it is
    assert view.reloads == drawn and view.canvas.marked("selected") == ALPHA
    qtbot.mouseClick(
        view.canvas.viewport(),
        Qt.MouseButton.LeftButton,
        pos=view.canvas.viewport_pos("node", QDRANT),
    )
    assert view.selected == QDRANT and view.controls.mode() == "answer"

    pos = view.canvas.viewport_pos("node", QDRANT)
    with qtbot.waitSignal(view.drawn, timeout=30000):  # double-click: its neighbourhood
        qtbot.mouseDClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert view.controls.mode() == "neighbourhood" and view.canvas.slice.root == QDRANT
    assert not ringed(view.canvas) and "cited in the answer" not in legend(view)

    box = view.controls.focus_box  # the answer stays one choice away
    redraw(qtbot, view, lambda: box.setCurrentIndex(box.findData("answer")))
    assert ringed(view.canvas) == {QDRANT}
    redraw(qtbot, view, lambda: view.focus_note(JAM))  # a note the answer did not use
    assert view.controls.mode() == "neighbourhood" and view.canvas.slice.root == JAM


def test_an_answers_picture_is_not_kept_for_the_same_notes_browsed_again(
    qtbot, view: GraphView, host: ServiceHost
) -> None:
    """An answer citing every note draws, with one kind of edge shown, the same notes and
    edges as the whole vault; the whole vault chosen next is drawn again, without the rings
    (shown to fail without the view's `_answer_drawn` guard)."""
    kinds = {"related_to"}  # no link of this kind is unresolved: no node beyond the notes

    def pictures(mn):  # type: ignore[no-untyped-def]
        whole = whole_vault(mn.queries, kinds)
        return whole, joining(mn.queries, sorted(whole.nodes), kinds)

    whole, answered = on_core(qtbot, host, pictures)
    assert same_picture(whole, answered)  # else the case below is not the one meant
    notes = sorted(whole.nodes)
    kind_box = view.controls.kind_box
    redraw(qtbot, view, lambda: kind_box.setCurrentIndex(kind_box.findData("related_to")))
    redraw(qtbot, view, lambda: view.show_answer(answer("Alles [1] [2].", notes)))
    assert ringed(view.canvas) == set(notes[:2])
    box = view.controls.focus_box
    redraw(qtbot, view, lambda: box.setCurrentIndex(box.findData("vault")))
    assert set(view.canvas.nodes) == set(notes) and not ringed(view.canvas)
    assert "cited in the answer" not in legend(view)


def test_the_filters_are_folded_by_default_and_unfold(qtbot, view: GraphView) -> None:
    controls = view.controls
    assert controls.folded() and not controls.filters_panel.isVisible()
    assert controls.focus_box.isVisible() and controls.search_edit.isVisible()
    assert not controls.kind_box.isVisible() and controls.fold_button.text() == "Filters"
    folded = controls.height()
    qtbot.mouseClick(controls.fold_button, Qt.MouseButton.LeftButton)
    assert not controls.folded() and controls.kind_box.isVisible()
    assert controls.rule_check.isVisible() and controls.colour_box.isVisible()
    qtbot.waitUntil(lambda: controls.height() > folded)
    redraw(qtbot, view, lambda: controls.rule_check.setChecked(False))
    qtbot.mouseClick(controls.fold_button, Qt.MouseButton.LeftButton)
    assert controls.folded() and controls.fold_button.text() == "Filters (1)"  # still in force
