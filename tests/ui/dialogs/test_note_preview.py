"""The in-app note preview reads the note through the host and shows it."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from mindnet_desktop.ui.dialogs.note_preview import NotePreview


def test_preview_shows_the_note_and_opens_it_in_obsidian(qtbot, host, monkeypatch) -> None:
    preview = NotePreview(host)
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.shown, timeout=10000) as shown:
        preview.show_note("Support/Papierstau beheben#2")  # a chunk id shows its note
    assert shown.args == ["Support/Papierstau beheben"]
    assert "Papierstau" in preview.header.text() and "Support/Papierstau beheben.md" in (
        preview.header.text()
    )
    assert "Fach 2" in preview.text.toPlainText()
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    preview.open_button.click()
    assert opened and opened[0].startswith("obsidian://open?vault=vault&file=Support%2FPapierstau")
    assert isinstance(QUrl(opened[0]), QUrl)


def test_an_unknown_note_shows_a_clear_message(qtbot, host) -> None:
    preview = NotePreview(host)
    qtbot.addWidget(preview)
    job = preview.show_note("Gibt es nicht")
    with qtbot.waitSignal(job.finished, timeout=10000):
        pass
    qtbot.waitUntil(lambda: "Cannot show the note" in preview.header.text())
    assert "Gibt es nicht" in preview.header.text()
    assert not preview.open_button.isEnabled()


def test_a_sentence_is_found_in_the_rendered_note_whatever_markdown_lies_between() -> None:
    from mindnet_desktop.ui.dialogs.note_preview import find_words

    text = "Intro.\nDer Drucker braucht hinten mindestens 10 cm Abstand, damit die Klappe aufgeht."
    span = find_words(text, "Der **Drucker** braucht\nhinten mindestens 10 cm Abstand")
    assert span is not None and text[span[0] : span[1]].startswith("Der Drucker")
    assert text[span[0] : span[1]].endswith("Abstand")
    assert find_words(text, "Nichts davon steht in der Notiz") is None


def test_the_preview_marks_and_shows_the_asked_sentence(qtbot, host) -> None:
    preview = NotePreview(host)
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.shown, timeout=10000):
        preview.show_note("Support/Papierstau beheben", highlight="Fach 2")
    plain = preview.text.toPlainText()
    marked = preview.text.extraSelections()
    assert len(marked) == 1
    start, end = marked[0].cursor.selectionStart(), marked[0].cursor.selectionEnd()
    assert plain[start:end] == "Fach 2"
    with qtbot.waitSignal(preview.shown, timeout=10000):
        preview.show_note("Support/Papierstau beheben")  # a plain open marks nothing
    assert preview.text.extraSelections() == []


def test_a_refresh_shows_the_saved_text_and_leaves_an_unchanged_note_alone(
    qtbot, host, vault
) -> None:
    from tests.conftest import run_import

    preview = NotePreview(host)
    qtbot.addWidget(preview)
    with qtbot.waitSignal(preview.shown, timeout=10000):
        preview.show_note("Support/Papierstau beheben", highlight="Fach 2")
    shown: list[str] = []
    preview.shown.connect(shown.append)
    job = preview.refresh()
    assert job is not None
    with qtbot.waitSignal(job.finished, timeout=10000):
        pass
    qtbot.wait(50)
    assert shown == []  # the same text: nothing redone, the scroll stays

    note = vault / "Support" / "Papierstau beheben.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nNeu: Klappe C prüfen.\n", "utf-8")
    imported = host.submit(lambda mn, job: run_import(mn))
    qtbot.waitUntil(imported.is_finished, timeout=30000)
    with qtbot.waitSignal(preview.shown, timeout=10000):
        preview.refresh()
    assert "Klappe C" in preview.text.toPlainText()
    assert len(preview.text.extraSelections()) == 1  # the asked sentence marked again
