"""Your ratings in the app: listed newest first, forgotten one question at a time or all,
and "Learn from my ratings" runs off the GUI thread and applies only a better proposal."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.dialogs.ratings import RatingsDialog

WAIT_MS = 300_000


def _rate(host, query: str, rank: int, rating: str) -> str:
    def job(mn, _job):
        result = hybrid_search(mn, query, k=10, per_note=True)
        record_feedback(mn, result.query_id, result.hits[rank].node_id, rating)
        return result.query_id

    submitted = host.submit(job)
    assert submitted.wait(60)
    return submitted.result


def _dialog(qtbot, host, vault: Path, tmp_path: Path, applied: list) -> RatingsDialog:
    def reader() -> Mindnet:
        return Mindnet(vault, tmp_path / "data", embedder=HashEmbedder(), lazy_store=True)

    dialog = RatingsDialog(host, reader, applied.append)
    qtbot.addWidget(dialog)
    return dialog


def test_ratings_are_listed_and_forgotten(qtbot, host, vault, tmp_path, monkeypatch) -> None:
    first = _rate(host, "Papierstau im Drucker", 2, "up")
    second = _rate(host, "Qdrant Vektordatenbank", 0, "down")
    dialog = _dialog(qtbot, host, vault, tmp_path, [])
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2, timeout=WAIT_MS)
    assert dialog.status.text() == "2 ratings stand."
    assert [dialog.table.item(r, 3).text() for r in range(2)] == [
        "Qdrant Vektordatenbank",
        "Papierstau im Drucker",
    ]
    assert dialog.table.item(0, 1).text() == "▼" and dialog.table.item(1, 1).text() == "▲"
    dialog.table.selectRow(0)
    assert dialog.selected_query() == second
    dialog.forget_selected()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=WAIT_MS)
    assert dialog.status.text() == "1 rating stands."
    assert dialog.selected_query() in (None, first)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    dialog.forget_all()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 0, timeout=WAIT_MS)
    assert host.mindnet.query_log.standing() == []
    assert not dialog.forget_all_button.isEnabled()


def test_learning_shows_the_proposal_and_applies_only_a_better_one(
    qtbot, host, vault, tmp_path
) -> None:
    for query, rank in (("Papierstau", 6), ("Vektordatenbank lokal", 4), ("Halbmarathon", 2)):
        _rate(host, query, rank, "up")
    applied: list = []
    dialog = _dialog(qtbot, host, vault, tmp_path, applied)
    dialog.learn()
    assert not dialog.learn_button.isEnabled() and dialog.cancel_button.isVisibleTo(dialog)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: dialog.learn_button.isEnabled(), timeout=WAIT_MS)
    result = dialog.result
    assert "example questions" in dialog.report.toPlainText() and dialog.report.isVisibleTo(dialog)
    assert dialog.apply_button.isEnabled() == result.better
    if result.better:
        dialog.apply_proposal()
        qtbot.waitUntil(lambda: bool(applied), timeout=WAIT_MS)
        assert applied[0] == result.proposed
        assert host.mindnet.retriever_config.weights == result.proposed
        assert list((tmp_path / "data" / "config").glob("retriever.yaml.bak-*"))
    else:
        assert not (tmp_path / "data" / "config" / "retriever.yaml").exists()


def test_learning_can_be_stopped(qtbot, host, vault, tmp_path) -> None:
    _rate(host, "Papierstau", 3, "up")
    dialog = _dialog(qtbot, host, vault, tmp_path, [])
    dialog.learn()
    dialog.stop()
    qtbot.waitUntil(lambda: dialog.learn_button.isEnabled(), timeout=WAIT_MS)
    assert dialog.result is None or dialog.result.tried < 14


def test_settings_open_the_ratings_and_start_learning(qtbot, make_window, vault) -> None:
    """Settings → Learn from my ratings: the ratings dialog opens over the settings and the
    learning starts at once (from File → Your ratings it waits for the button)."""
    from PySide6.QtWidgets import QWidget

    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes > 0, timeout=120000)
    _rate(window.host, "Papierstau", 1, "up")
    over = QWidget(window)
    window.open_ratings(over, lambda weights: None, learn=True)
    [dialog] = over.findChildren(RatingsDialog)
    assert dialog.tune_job is not None and not dialog.learn_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=60000)
    assert "stand" not in dialog.status.text()  # the list did not replace the progress
    dialog.stop()
    qtbot.waitUntil(lambda: dialog.learn_button.isEnabled(), timeout=WAIT_MS)
    window.open_ratings()
    [plain] = [d for d in window.findChildren(RatingsDialog) if d.parent() is window]
    assert plain.tune_job is None and plain.learn_button.isEnabled()
    dialog.close()
    plain.close()


def test_weights_written_after_the_dialog_closed_are_still_reported(
    qtbot, host, vault, tmp_path, monkeypatch
) -> None:
    """Closing the dialog while its weights are being written: the write goes on, and the
    window still hears of it (else it would later write the weights it had over them)."""
    import threading

    from mindnet_desktop.bench import tune
    from mindnet_desktop.ui.dialogs import ops as dialog_ops

    entered, release = threading.Event(), threading.Event()

    def slow_apply(mn, result) -> None:
        entered.set()
        assert release.wait(30)

    monkeypatch.setattr(dialog_ops, "apply", slow_apply)
    applied: list = []
    dialog = _dialog(qtbot, host, vault, tmp_path, applied)
    current = {"semantic": 0.6}
    proposed = {"semantic": 0.8}
    scores = {"hit@1": 0.5, "hit@5": 0.5, "mrr": 0.5}
    dialog.result = tune.TuneResult(
        current,
        proposed,
        {"yours": scores},
        {"yours": {**scores, "mrr": 0.6}},
        groups={"yours": 3},
        learnt_from=["yours"],
    )
    assert dialog.result.better
    dialog.apply_proposal()
    assert entered.wait(30)
    dialog.done(0)  # closed while the write runs
    release.set()
    qtbot.waitUntil(lambda: applied == [proposed], timeout=30000)
