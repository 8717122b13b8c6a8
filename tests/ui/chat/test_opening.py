"""A click on a source or a citation opens its note in the app, at the sentence the answer
rests on, marked; Obsidian only for those who chose it (and the app when it does not open).

The chat model is a fake that quotes a sentence of source [1], so that the answer aligns to
it: what is tested is where a click leads, not what a model writes. Retrieval is real."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.ui.chat.panel import ChatPanel
from mindnet_desktop.ui.dialogs.note_preview import find_words
from mindnet_desktop.ui.support.obsidian import obsidian_url
from mindnet_desktop.ui.support.workers import ServiceHost
from tests.ui.chat.quoting import use_quoting_chat

QUESTION = "How do I fix a paper jam in the LaserJet 500?"
WAIT_MS = 60_000


@pytest.fixture
def quoting(monkeypatch: pytest.MonkeyPatch) -> None:
    use_quoting_chat(monkeypatch)


@pytest.fixture
def panel(qtbot, host: ServiceHost, quoting: None) -> Iterator[ChatPanel]:
    widget = ChatPanel(host)
    qtbot.addWidget(widget)
    widget.configure(Path("fake.gguf"), 2, 8192, "preview")
    widget.resize(1000, 700)
    widget.show()
    yield widget
    widget.shutdown()


def ask(qtbot, panel: ChatPanel) -> AskResult:
    panel.input.setPlainText(QUESTION)
    with qtbot.waitSignal(panel.answer_finished, timeout=WAIT_MS) as blocker:
        panel.send()
    qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    return blocker.args[0]


class Opened(list):
    """The URLs handed to the system (nothing is opened); `works = False`: as on a machine
    without Obsidian."""

    works = True

    def open(self, url: QUrl) -> bool:
        self.append(url.toEncoded().data().decode())
        return self.works


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Opened:
    urls = Opened()
    monkeypatch.setattr(QDesktopServices, "openUrl", urls.open)
    return urls


def test_a_source_opens_in_the_app_at_the_sentence_the_answer_rests_on(
    qtbot, panel: ChatPanel, opened: Opened
) -> None:
    result = ask(qtbot, panel)
    support = [a for a in result.alignments if a.source == 1 and a.support]
    assert support, "the answer quotes source [1]: it aligns to it"
    with qtbot.waitSignal(panel.open_note_at, timeout=5000) as blocker:
        panel.sources.rows[0].title.linkActivated.emit("open")
    assert blocker.args == [result.sources[0].note_id, support[0].support]
    assert not opened  # the default: the app, not Obsidian


def test_obsidian_as_link_target_still_opens_obsidian_else_the_app(
    qtbot, panel: ChatPanel, opened: Opened, vault: Path
) -> None:
    panel.configure(Path("fake.gguf"), 2, 8192, "obsidian")
    result = ask(qtbot, panel)
    shown: list[tuple[str, str]] = []
    panel.open_note_at.connect(lambda note, sentence: shown.append((note, sentence)))
    panel.sources.rows[0].title.linkActivated.emit("open")
    assert opened == [obsidian_url(vault.name, result.sources[0].path)] and not shown

    opened.works = False  # no Obsidian on this machine
    panel.sources.rows[0].title.linkActivated.emit("open")
    assert len(opened) == 2 and shown and shown[0][0] == result.sources[0].note_id
    assert "Obsidian did not open" in panel.status.text() and not panel.status.error


def test_a_source_s_context_menu_opens_it_in_obsidian_or_in_the_app(
    qtbot, panel: ChatPanel, opened: Opened, vault: Path
) -> None:
    result = ask(qtbot, panel)
    row = panel.sources.rows[1]
    menu = row.menu()
    actions = {a.text(): a for a in menu.actions()}
    actions["Open in Obsidian"].trigger()
    assert opened == [obsidian_url(vault.name, result.sources[1].path)]
    with qtbot.waitSignal(panel.open_note_at, timeout=5000) as blocker:
        actions["Show in the app"].trigger()
    assert blocker.args[0] == result.sources[1].note_id and blocker.args[1]
    menu.deleteLater()


def test_in_the_window_a_source_click_shows_the_note_with_the_sentence_marked(
    qtbot, make_window, vault: Path, quoting: None, opened: Opened
) -> None:
    window = make_window()
    window.resize(1366, 768)
    window.show()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes > 0, timeout=WAIT_MS)
    window.chat.configure(Path("fake.gguf"), 2, 8192, window.settings.link_target)
    result = ask(qtbot, window.chat)
    sentence = next(a.support for a in result.alignments if a.source == 1 and a.support)
    preview = window.preview_dock.preview
    with qtbot.waitSignal(preview.shown, timeout=WAIT_MS):
        window.chat.sources.rows[0].title.linkActivated.emit("open")
    assert window.preview_dock.isVisible() and not opened
    assert preview.current.note_id == result.sources[0].note_id
    (marked,) = preview.text.extraSelections()
    plain = preview.text.toPlainText()
    span = find_words(plain, sentence)
    assert span is not None
    assert (marked.cursor.selectionStart(), marked.cursor.selectionEnd()) == span
    cursor = QTextCursor(preview.text.document())
    cursor.setPosition(span[0])
    top = preview.text.cursorRect(cursor).top()  # in sight, with what leads to it above
    assert 0 <= top <= preview.text.viewport().height() // 2
