"""The answer in the window at 1366 x 768, as a new user sees it: after an answer the graph
shows its sources with the cited ones ringed, and its canvas has the room (the filters are
folded). The chat model is a fake quoting source [1]; retrieval is real."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.chat.support import answer_notes
from mindnet_desktop.ui.graph.answer import ringed
from tests.ui.chat.quoting import use_quoting_chat

WAIT_MS = 60_000
QUESTION = "How do I fix a paper jam in the LaserJet 500?"


@pytest.fixture
def window(qtbot, make_window, vault: Path, monkeypatch: pytest.MonkeyPatch):
    use_quoting_chat(monkeypatch)
    window = make_window()
    window.resize(1366, 768)
    window.show()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes > 0, timeout=WAIT_MS)
    window.chat.configure(Path("fake.gguf"), 2, 8192, "preview")
    return window


def test_after_an_answer_the_graph_shows_its_sources_with_the_cited_ones_ringed(
    qtbot, window
) -> None:
    chat, graph = window.chat, window.graph
    chat.input.setPlainText(QUESTION)
    with qtbot.waitSignal(chat.answer_finished, timeout=WAIT_MS) as answered:
        chat.send()
    result = answered.args[0]
    notes, cited = answer_notes(result)
    assert cited, "the fake cites source [1]"
    qtbot.waitUntil(
        lambda: graph.controls.mode() == "answer" and set(notes) <= set(graph.canvas.nodes),
        timeout=WAIT_MS,
    )
    assert ringed(graph.canvas) == cited
    assert "cited" in graph.controls.status.text()


def test_at_1366x768_the_graph_canvas_has_the_room_and_its_controls_fold(qtbot, window) -> None:
    graph = window.graph
    qtbot.waitUntil(lambda: graph.canvas.height() > 0)
    controls, canvas = graph.controls, graph.canvas
    assert controls.folded()
    # The folded bar: two short rows and the status line, not the whole filter set.
    assert canvas.height() >= 2 * controls.height(), (canvas.size(), controls.size())
    assert canvas.width() * canvas.height() >= 3 * controls.width() * controls.height()
