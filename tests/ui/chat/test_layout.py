"""Sources before the answer, a status line that says what happens, and a chat that keeps
its shape with ten sources: at 1366 x 768, and stacked in a narrow window.

The chat model is a fake (no weights): what is tested here is when things appear and how
they are laid out, not what the model writes. Retrieval is real (Chroma, test embedder)."""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import mindnet_desktop.core.service.ask.stages as asking
import mindnet_desktop.ui.chat.ops as chat_ops
from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.models.llm import MIN_ANSWER_TOKENS, Token
from mindnet_desktop.ui.chat.layout import STACK_BELOW, TRANSCRIPT_MIN_WIDTH
from mindnet_desktop.ui.chat.panel import ChatPanel
from mindnet_desktop.ui.support.workers import ServiceHost

QUESTION = "How do I fix a paper jam in the LaserJet 500?"
WAIT_MS = 60_000
SOURCES = 10
READABLE_CHARS = 35  # characters a transcript line holds at the least


class FakeChat:
    """A chat model without weights: a word counts as a token; loading and the first and
    remaining tokens each wait for an event of the test (all set by default)."""

    answer = "Open tray 2 and pull out the paper [1]. Then close the tray [2]. Done [10]."
    load = threading.Event()
    first = threading.Event()
    rest = threading.Event()

    def __init__(self, model: str | None = None, n_ctx: int = 4096, **kw: object) -> None:
        self.n_ctx, self.max_tokens = n_ctx, int(kw.get("max_tokens", 512))  # type: ignore[call-overload]
        self.loaded = False
        self.name = "fake.gguf"

    def warm_up(self) -> None:
        assert self.load.wait(WAIT_MS / 1000)
        self.loaded = True

    def close(self) -> None:
        self.loaded = False

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def prompt_budget(self) -> int:
        return self.n_ctx - max(self.max_tokens, MIN_ANSWER_TOKENS)

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        return "FACT"

    def stream(
        self, messages, cancel=None, max_tokens=None, temperature=None, prefix=None
    ) -> Iterator[Token]:
        assert self.first.wait(WAIT_MS / 1000)
        for i, word in enumerate(self.answer.split(" ")):
            if i == 1:
                assert self.rest.wait(WAIT_MS / 1000)
            if cancel is not None and cancel.is_set():
                return
            yield Token(word + " ")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> type[FakeChat]:
    """The fake model for every chat panel, with fresh (set) events; ten sources an answer."""

    class Chat(FakeChat):
        load, first, rest = threading.Event(), threading.Event(), threading.Event()

    for event in (Chat.load, Chat.first, Chat.rest):
        event.set()
    monkeypatch.setattr(chat_ops, "LlamaChat", Chat)
    # Ten whole sources (no excerpts, which may leave a source out): the layout's worst case.
    ten = dataclasses.replace(load_prompts(), sources=SOURCES, context_tokens=None)
    monkeypatch.setattr(asking, "load_prompts", lambda config_dir=None: ten)
    yield Chat
    for event in (Chat.load, Chat.first, Chat.rest):
        event.set()  # nothing the test held may keep a job waiting


@pytest.fixture
def panel(qtbot, host: ServiceHost, fake: type[FakeChat]) -> Iterator[ChatPanel]:
    widget = ChatPanel(host)
    qtbot.addWidget(widget)
    widget.configure(Path("fake.gguf"), 2, 8192, "preview")
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


def ask(qtbot, panel: ChatPanel, question: str = QUESTION) -> AskResult:
    panel.input.setPlainText(question)
    with qtbot.waitSignal(panel.answer_finished, timeout=WAIT_MS) as blocker:
        panel.send()
    qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    return blocker.args[0]


def chars_per_line(panel: ChatPanel) -> float:
    """How many average characters one line of the transcript holds."""
    return panel.view.viewport().width() / panel.view.fontMetrics().averageCharWidth()


def status(panel: ChatPanel) -> str:
    return panel.status.text()


# -- sources first, status line -----------------------------------------------------------


def test_sources_and_their_thumbs_come_before_the_first_token(
    qtbot, panel: ChatPanel, host: ServiceHost, fake: type[FakeChat]
) -> None:
    fake.load.clear()
    fake.first.clear()
    fake.rest.clear()
    panel.input.setPlainText(QUESTION)
    panel.send()
    qtbot.waitUntil(lambda: status(panel).startswith("Loading the chat model…"), timeout=WAIT_MS)
    qtbot.waitUntil(  # the seconds it has taken so far
        lambda: re.fullmatch(r"Loading the chat model… \d+ s", status(panel)) is not None,
        timeout=5000,
    )
    # The sources come before the model has loaded (retrieval needs no model).
    assert len(panel.sources.rows) == SOURCES and panel.busy
    assert panel.sources.heading.text() == "Sources (10)"
    assert all(row.score_bar.value() > 0 and row.toolTip() for row in panel.sources.rows)
    assert "Open" not in panel.view.toPlainText()
    assert not panel.sources.answer_feedback.isEnabled()  # no answer to rate yet
    row = panel.sources.rows[2]
    with qtbot.waitSignal(panel.feedback_recorded, timeout=10_000) as written:
        qtbot.mouseClick(row.feedback.up, Qt.MouseButton.LeftButton)  # while the model loads
    query_id = panel.turns[-1].result.query_id  # type: ignore[union-attr]
    assert written.args[0]["query_id"] == query_id and written.args[0]["rating"] == "up"
    assert row.feedback.up.isChecked()
    rows = list(panel.sources.rows)
    fake.load.set()
    qtbot.waitUntil(lambda: status(panel).startswith("Reading 10 sources…"), timeout=WAIT_MS)
    assert panel.sources.rows == rows and row.feedback.up.isChecked()  # not rebuilt

    fake.first.set()
    qtbot.waitUntil(lambda: status(panel).startswith("Writing…"), timeout=WAIT_MS)
    assert panel.busy and panel.view.toPlainText().rstrip().endswith("Open")
    rows = list(panel.sources.rows)
    with qtbot.waitSignal(panel.answer_finished, timeout=WAIT_MS) as done:
        fake.rest.set()
    result: AskResult = done.args[0]
    assert result.query_id == query_id and len(result.sources) == SOURCES
    assert re.fullmatch(r"Answered in \d+ s from 10 sources\.", status(panel))
    assert panel.sources.rows == rows and rows[2].feedback.up.isChecked()  # kept, not rebuilt
    assert panel.sources.answer_feedback.isEnabled()
    logged = [q for q in host.mindnet.query_log.read_queries() if q["query_id"] == query_id]
    assert len(logged) == 1 and logged[0]["answer"] == result.answer


def test_stop_says_how_long_it_ran(qtbot, panel: ChatPanel, fake: type[FakeChat]) -> None:
    fake.rest.clear()
    panel.input.setPlainText(QUESTION)
    panel.send()
    qtbot.waitUntil(lambda: status(panel).startswith("Writing…"), timeout=WAIT_MS)
    with qtbot.waitSignal(panel.answer_finished, timeout=WAIT_MS):
        panel.stop()
        assert status(panel) == "Stopping…"
        fake.rest.set()
    assert re.fullmatch(r"Stopped after \d+ s\.", status(panel))


# -- the shape of the chat ----------------------------------------------------------------


def test_ten_sources_leave_the_transcript_readable_and_a_narrow_panel_stacks_them(
    qtbot, panel: ChatPanel
) -> None:
    result = ask(qtbot, panel)
    assert len(result.sources) == len(panel.sources.rows) == SOURCES
    panel.resize(900, 700)
    qtbot.waitUntil(lambda: panel.splitter.width() > STACK_BELOW)
    assert not panel.splitter.stacked
    assert panel.view.width() >= TRANSCRIPT_MIN_WIDTH and chars_per_line(panel) >= READABLE_CHARS
    assert panel.sources.x() > panel.view.x()  # side by side

    panel.resize(460, 700)  # narrow: the sources go under the transcript
    qtbot.waitUntil(lambda: panel.splitter.stacked)
    assert panel.sources.y() >= panel.view.y() + panel.view.height()
    assert panel.view.width() > 400 and chars_per_line(panel) >= READABLE_CHARS
    assert panel.view.height() > panel.sources.height() > 100

    panel.resize(1000, 700)  # wide again: side by side
    qtbot.waitUntil(lambda: not panel.splitter.stacked)
    assert panel.sources.x() > panel.view.x() and panel.view.width() > panel.sources.width()


def test_the_window_at_1366x768_with_ten_sources_keeps_chat_and_graph_readable(
    qtbot, make_window, vault: Path, fake: type[FakeChat]
) -> None:
    window = make_window()
    window.resize(1366, 768)
    window.show()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes > 0, timeout=WAIT_MS)
    chat = window.chat
    assert chat is not None and window.graph is not None and window.graph.isVisible()
    chat.configure(Path("fake.gguf"), 2, 8192, "preview")
    result = ask(qtbot, chat)
    assert len(result.sources) == len(chat.sources.rows) == SOURCES
    qtbot.wait(50)  # the rows' layout settles
    assert chat.view.width() >= TRANSCRIPT_MIN_WIDTH
    assert chars_per_line(chat) >= READABLE_CHARS, chat.view.width()
    assert window.graph.width() >= 280 and chat.sources.width() >= 240
    badge = chat.sources.badge  # the intent and where it came from, not cut off
    assert badge.isVisible() and badge.width() >= badge.sizeHint().width()
    assert chat.width() > window.graph.width()  # the chat a bit wider

    window.resize(820, 700)  # a narrow window: the chat stacks its sources
    qtbot.waitUntil(lambda: chat.splitter.stacked)
    assert chars_per_line(chat) >= READABLE_CHARS and window.graph.width() >= 280


def test_the_first_window_takes_most_of_the_screen_centred(make_window) -> None:
    window = make_window()  # no saved geometry
    area = window.screen().availableGeometry()
    assert abs(window.width() - 0.88 * area.width()) <= 1
    assert abs(window.height() - 0.88 * area.height()) <= 1
    centre = window.geometry().center()
    assert abs(centre.x() - area.center().x()) <= 2 and abs(centre.y() - area.center().y()) <= 2
