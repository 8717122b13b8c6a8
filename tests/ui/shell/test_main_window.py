"""The main window on a copy of the example vault: import, counts, problems, watcher, close."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.core.ingest.ctxt import MAX_CHUNK_CHARS
from mindnet_desktop.core.service.vault.import_child import CHILD_MIN_FILES, import_in_child
from mindnet_desktop.core.store.lock import WriterLock
from mindnet_desktop.ui.index.indexer import WATCHING

LONG = 120_000


def wait_imported(qtbot, window, notes_at_least: int = 1) -> None:
    qtbot.waitUntil(
        lambda: window.indexer is not None and window.indexer.state == WATCHING, timeout=LONG
    )
    qtbot.waitUntil(
        lambda: window.stats is not None and window.stats.notes >= notes_at_least, timeout=LONG
    )


def store_counts(qtbot, window) -> tuple[int, int, int]:
    job = window.host.submit(
        lambda mn, job: (len(mn.records), mn.store.counts()["chunks"], len(mn.edges()))
    )
    qtbot.waitUntil(job.is_finished, timeout=LONG)
    assert job.error is None
    return job.result


def test_window_opens_imports_to_100_percent_and_counts_match_the_store(
    qtbot, make_window, vault: Path
) -> None:
    window = make_window()
    window.show()
    seen: list[IndexProgress] = []
    window.open_vault(vault)
    window.indexer.progress.connect(seen.append)
    wait_imported(qtbot, window)

    embed = [p for p in seen if p.phase == "embed"]
    assert embed and embed[-1].done == embed[-1].total
    assert window.progress_bar.isHidden()
    notes, chunks, edges = store_counts(qtbot, window)
    assert notes > 10 and chunks >= notes and edges > 0
    stats = window.stats
    assert (stats.notes, stats.chunks, stats.edges) == (notes, chunks, edges)
    assert f"{notes} " in window.counts_label.text()
    assert f"{chunks} " in window.counts_label.text()
    assert f"{edges} " in window.counts_label.text()
    assert window.watch_label.property("state") == "watching"
    assert window.index_panel.notes_model.rowCount() == notes
    assert window.settings.vault == vault.resolve()
    assert window.settings.recent_vaults[0] == vault.resolve()


def test_problem_files_and_index_times_are_listed(qtbot, make_window, vault: Path) -> None:
    (vault / "Inbox" / "Kaputt.md").write_text("---\ntitle: [unclosed\n---\nText\n", "utf-8")
    long_chunk = "x" * (MAX_CHUNK_CHARS + 10)
    (vault / "Support" / "lang.ctxt").write_text(
        f"`version: 1`\n`title: Lang`\n\n{long_chunk}\n", "utf-8"
    )
    (vault / "Inbox" / "binär.md").write_bytes(b"\xff\xfe\xfa not utf-8")
    started = time.time()
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)

    table = window.index_panel.problems
    rows = {
        table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text())
        for r in range(table.rowCount())
    }
    assert "Chunk too long" in rows["Support/lang.ctxt"][1]
    assert rows["Support/lang.ctxt"][0] == "error"
    assert "broken YAML" in rows["Inbox/Kaputt.md"][1]
    assert rows["Inbox/Kaputt.md"][0] == "warning"
    assert "UTF-8" in rows["Inbox/binär.md"][1]
    assert all(n.indexed_at >= started - 1 for n in window.stats.indexed)
    notes = window.index_panel.notes_model
    assert notes.index(0, 2).data()[:4] == time.strftime("%Y")


@pytest.mark.e2e
def test_gui_thread_never_blocked_during_import(qtbot, app_settings, vault: Path) -> None:
    """The import of the example vault with the real embedder runs on the host's thread; a
    20 ms timer on the GUI thread keeps ticking from the first progress signal until the
    import's result arrives, never more than 200 ms apart."""
    from mindnet_desktop.core.models.embedders import UseEmbedder
    from mindnet_desktop.ui.shell.main_window import MainWindow

    window = MainWindow(app_settings, embedder_factory=lambda name, threads: UseEmbedder(2))
    qtbot.addWidget(window)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    window.open_vault(vault)
    window.indexer.progress.connect(lambda _p: timer.isActive() or timer.start())
    window.indexer.imported.connect(lambda _s: ticks.append(time.perf_counter()))
    window.indexer.imported.connect(timer.stop)
    try:
        wait_imported(qtbot, window, notes_at_least=20)
    finally:
        window.close()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert len(gaps) > 10, "the import was too short to measure"
    assert max(gaps) < 0.2, f"GUI thread blocked for {max(gaps):.3f} s"


def test_watcher_imports_a_new_note_and_counts_follow(qtbot, make_window, vault: Path) -> None:
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    before = window.stats.notes
    reloads = window.graph.reloads
    (vault / "Inbox" / "Neue Idee.md").write_text("# Neue Idee\n\nSiehe [[Embeddings 101]].\n")
    qtbot.waitUntil(lambda: window.stats.notes == before + 1, timeout=LONG)
    assert window.graph.reloads > reloads
    assert store_counts(qtbot, window)[0] == before + 1


def test_the_open_note_preview_follows_a_save(qtbot, make_window, vault: Path) -> None:
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    window.show_note("Support/Papierstau beheben")
    preview = window.preview_dock.preview
    qtbot.waitUntil(lambda: "Papierstau" in preview.header.text(), timeout=LONG)
    note = vault / "Support" / "Papierstau beheben.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nNeu: Klappe C prüfen.\n", "utf-8")
    qtbot.waitUntil(lambda: "Klappe C" in preview.text.toPlainText(), timeout=LONG)


def test_a_hidden_graph_reads_the_graph_again_once_shown(qtbot, make_window, vault: Path) -> None:
    """While the graph pane is hidden, saves do not reload it; showing it reloads once."""
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    window.graph_action.setChecked(False)
    window.toggle_graph()
    before, reloads = window.stats.notes, window.graph.reloads
    (vault / "Inbox" / "Neue Idee.md").write_text("# Neue Idee\n\nSiehe [[Embeddings 101]].\n")
    qtbot.waitUntil(lambda: window.stats.notes == before + 1, timeout=LONG)
    assert window.graph.reloads == reloads
    window.graph_action.setChecked(True)
    with qtbot.waitSignal(window.graph.drawn, timeout=LONG):
        window.toggle_graph()
    assert window.graph.reloads == reloads + 1
    window.graph_action.setChecked(True)
    window.toggle_graph()  # shown again, nothing new: no reload
    assert window.graph.reloads == reloads + 1


def test_snapshots_are_saved_once_imports_are_quiet(qtbot, make_window, vault, tmp_path):
    """Guards the app's deferred snapshots: after an edit the watcher imported, the records
    snapshot is out of step until the indexer's quiet timer saves it (then a fresh process
    starts from it); without the timer the snapshots would be saved only at close."""
    from mindnet_desktop.core.graph.snapshot import Snapshots

    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    indexer = window.indexer
    indexer._snapshot_timer.setInterval(1500)
    snapshots = Snapshots(tmp_path / "data")

    def in_step() -> bool:
        return snapshots.load_records(snapshots.signatures()[0]) is not None

    saved = []
    indexer.imported.connect(lambda _s: saved.append(in_step()))
    before = window.stats.notes
    (vault / "Inbox" / "Neue Idee.md").write_text("# Neue Idee\n\nQuasar.\n", "utf-8")
    qtbot.waitUntil(lambda: window.stats.notes == before + 1, timeout=LONG)
    assert saved and saved[-1] is False  # right after the import: deferred
    qtbot.waitUntil(in_step, timeout=LONG)
    records = snapshots.load_records(snapshots.signatures()[0])
    assert any(r.note.path == "Inbox/Neue Idee.md" for r in records.values())


def test_the_chat_model_is_preloaded_after_the_first_import(
    qtbot, make_window, app_settings, vault
) -> None:
    """Guards the window's preload setting: on, the chat model is loaded once the vault is
    imported, before any question; off (the tests' default), it is not."""
    from mindnet_desktop.core.models.weights import resolve_model_path

    app_settings.chat_model = str(resolve_model_path("test"))
    app_settings.context_size = 1024
    idle = make_window()
    idle.open_vault(vault)
    wait_imported(qtbot, idle)
    assert not idle.chat.preloading and idle.chat._slot.llm is None
    idle.close()
    app_settings.preload_chat_model = True
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    qtbot.waitUntil(
        lambda: window.chat._slot.llm is not None and window.chat._slot.llm.loaded, timeout=LONG
    )
    qtbot.waitUntil(lambda: not window.chat.preloading, timeout=LONG)


def test_a_vanished_vault_is_reported_and_watched_again(qtbot, make_window, vault, tmp_path):
    """Guards: the window says so when the vault folder vanishes while watched (the index
    kept), and follows the folder again once it is back. Shown to fail by not passing
    `on_vault` to the VaultWatcher in VaultIndexer.start_watching (no message, state stays
    watching)."""
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    before = window.stats.notes
    vault.rename(tmp_path / "away")
    qtbot.waitUntil(lambda: "is gone" in (window.last_error or ""), timeout=LONG)
    assert window.watch_label.property("state") == "error"
    (tmp_path / "away" / "Neu.md").write_text("# Neu\n\nText.\n", encoding="utf-8")
    (tmp_path / "away").rename(vault)
    qtbot.waitUntil(lambda: window.stats.notes == before + 1, timeout=LONG)
    qtbot.waitUntil(lambda: window.indexer.state == WATCHING, timeout=LONG)
    assert store_counts(qtbot, window)[0] == before + 1


def test_locked_data_dir_shows_a_clear_message(qtbot, make_window, vault: Path, tmp_path) -> None:
    with WriterLock(tmp_path / "data"):
        window = make_window()
        window.open_vault(vault)
        qtbot.waitUntil(lambda: bool(window.last_error), timeout=LONG)
        assert "already open for writing" in window.last_error
        boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
        assert any("already open for writing" in b.text() for b in boxes)
        assert window.watch_label.property("state") == "error"
        window.close()


def test_closing_leaves_no_thread_and_releases_the_data_dir(
    qtbot, make_window, vault: Path, tmp_path
) -> None:
    before = {t.ident for t in threading.enumerate()}
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    host = window.host
    window.close()
    assert window.host is None and window.indexer is None
    assert host._pool.activeThreadCount() == 0
    qtbot.waitUntil(
        lambda: not [t for t in threading.enumerate() if t.ident not in before and t.is_alive()],
        timeout=10000,
    )
    with WriterLock(tmp_path / "data"):  # the lock was released
        pass


def test_cancel_stops_the_import(qtbot, make_window, tmp_path: Path) -> None:
    big = generate_vault(tmp_path / "big", 300)
    window = make_window()
    window.open_vault(big)
    window.indexer.progress.connect(lambda _p: window.cancel_button.click())
    qtbot.waitUntil(lambda: window.indexer.last_summary is not None, timeout=LONG)
    summary = window.indexer.last_summary
    assert summary.cancelled
    assert summary.added < 300
    assert not window.last_error
    assert "Cancelled" in window.index_panel.summary_label.text()


def test_shortcuts_preview_and_chat_configuration(qtbot, make_window, vault: Path) -> None:
    window = make_window()
    window.settings.link_target = "preview"
    window.settings.threads = 3
    window.open_vault(vault)
    window.show()
    qtbot.waitExposed(window)
    assert window.chat.link_target == "preview"
    model_path, threads, _, _ = window.chat.model_key
    assert threads == 3
    assert model_path is None  # the packaged default
    shortcuts = {a.shortcut().toString() for a in window.findChildren(QAction)}
    assert {"Ctrl+F", "Ctrl+,", "Ctrl+Q", "Ctrl+O", "F5"} <= shortcuts
    window.focus_input()
    assert window.focusWidget() is window.chat.input
    window.graph_action.trigger()  # View > Graph off
    assert not window.graph.isVisible()
    window.chat.open_note_at.emit("Projekte/KI-Projekt Alpha", "")
    assert window.graph.root == "Projekte/KI-Projekt Alpha"
    assert window.graph.isVisible()
    wait_imported(qtbot, window)


def test_cancel_stops_a_running_import_and_the_one_queued_behind_it(
    qtbot, make_window, vault: Path
) -> None:
    window = make_window()
    window.open_vault(vault)
    wait_imported(qtbot, window)
    first = window.indexer.import_now()
    second = window.indexer.import_now()  # e.g. the watcher's, queued behind F5's
    assert first is not None and second is not None
    window.indexer.cancel()
    assert first.cancelled() and second.cancelled()
    qtbot.waitUntil(lambda: first.is_finished() and second.is_finished(), timeout=LONG)


def test_a_large_import_runs_in_a_child_and_the_window_reads_its_result(
    qtbot, make_window, tmp_path: Path, monkeypatch
) -> None:
    """Guards the app's choice of a child process for large imports (issue 14: Chroma's
    writes and the parsing in the GUI's process held its GIL for long stretches): the
    first import of a large vault runs in the child, the window then shows what it wrote,
    and an edit seen by the watcher is imported here (shown to fail by never choosing the
    child: `children` stays empty)."""
    from mindnet_desktop.ui.index import ops as index_ops

    children: list[object] = []

    def spy(mn, options, cancel):  # type: ignore[no-untyped-def]
        children.append(options)
        return (yield from import_in_child(mn, options, cancel))

    monkeypatch.setattr(index_ops, "import_in_child", spy)
    big = generate_vault(tmp_path / "big", CHILD_MIN_FILES + 20)
    window = make_window()
    window.open_vault(big)
    wait_imported(qtbot, window)
    assert len(children) == 1
    notes, chunks, edges = store_counts(qtbot, window)
    assert notes == CHILD_MIN_FILES + 20 and chunks >= notes and edges > 0
    assert (window.stats.notes, window.stats.chunks) == (notes, chunks)
    (big / "zz-new.md").write_text("# New\n\nA fresh note about quokkas.\n", encoding="utf-8")
    qtbot.waitUntil(lambda: window.stats.notes == notes + 1, timeout=LONG)
    assert len(children) == 1  # the watcher's import ran here


def test_the_embedding_processes_setting_reaches_every_import(
    qtbot, make_window, vault: Path, monkeypatch
) -> None:
    """Guards Settings → Embedding processes: the window's imports (the first, F5's, the
    watcher's) carry the setting, and a change applies from the next import (shown to fail
    without `embed_workers` in `VaultIndexer.import_now` or in `apply_settings`)."""
    from mindnet_desktop.ui.index import ops as index_ops

    seen: list[int | None] = []
    real = index_ops.import_vault

    def spy(mn, job, options, small, outcome):  # type: ignore[no-untyped-def]
        seen.append(options.embed_workers)
        return real(mn, job, options, small, outcome)

    monkeypatch.setattr(index_ops, "import_vault", spy)
    window = make_window()
    window.settings.embed_workers = 3
    window.open_vault(vault)
    wait_imported(qtbot, window)
    window.settings.embed_workers = 0
    window.apply_settings({"embed_workers"})
    (vault / "Inbox" / "Neu.md").write_text("# Neu\n\nEin Quokka.\n", encoding="utf-8")
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=LONG)
    assert seen[0] == 3 and seen[-1] == 0
