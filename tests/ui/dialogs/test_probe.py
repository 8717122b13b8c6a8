"""Settings → "Check search quality": the probe runs off the GUI thread with progress, shows
the table for the current weights and the edited ones, and Cancel stops it."""

from __future__ import annotations

from mindnet_desktop.core.models.weights import resolve_model_path
from mindnet_desktop.core.service.quality.probes import PROBES_FILE
from mindnet_desktop.ui.dialogs.probe import QualityDialog
from mindnet_desktop.ui.dialogs.settings import SettingsDialog

WAIT_MS = 120_000


def lexical_only(weights: dict[str, float]) -> dict[str, float]:
    return {t: float(t == "lexical") for t in weights}


def test_the_dialog_shows_current_and_edited_weights_side_by_side(qtbot, host, app_settings):
    before = host.mindnet.retriever_config
    edited = lexical_only(before.weights)
    dialog = QualityDialog(host, app_settings, edited)
    qtbot.addWidget(dialog)
    dialog.notes.setValue(6)
    assert dialog.compare.isChecked() and not dialog.questions.isChecked()
    seen = []
    job = dialog.run()
    job.progress.connect(seen.append)
    assert dialog.run() is None  # one run at a time
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    assert dialog.error == ""
    assert [r.name for r in dialog.results] == ["current", "against"]
    assert dialog.results[1].config == "settings"
    assert dialog.table.rowCount() == 1 and dialog.table.columnCount() == 2 + 6
    assert dialog.table.item(0, 1).text() == "6"
    assert {p.phase for p in seen} == {"score"} and seen[-1].done == seen[-1].total == 12
    assert host.mindnet.retriever_config is before  # the edited weights were never applied
    assert (host.mindnet.data_dir / PROBES_FILE).is_file()
    assert dialog.run_button.isEnabled() and dialog.cancel_button.isHidden()


def test_cancel_stops_the_chat_model_between_questions(qtbot, host, app_settings):
    app_settings.chat_model = str(resolve_model_path("test"))
    dialog = QualityDialog(host, app_settings, None)
    qtbot.addWidget(dialog)
    assert not dialog.compare.isEnabled()
    dialog.notes.setValue(20)
    dialog.questions.setChecked(True)
    job = dialog.run()
    with qtbot.waitSignal(job.progress, timeout=WAIT_MS):
        pass
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT_MS)
    assert dialog.results is None and dialog.status.text() == "Stopped."
    assert not dialog.table.isVisible()


def test_the_settings_button_hands_over_the_weights_being_edited(qtbot, app_settings):
    asked = []
    weights = {"semantic": 0.6, "lexical": 0.4}
    dialog = SettingsDialog(app_settings, weights, None, lambda w, parent: asked.append(w))
    qtbot.addWidget(dialog)
    dialog.weights["lexical"].setValue(0.9)
    dialog.check_quality.click()
    assert asked[0]["lexical"] == 0.9 and asked[0]["semantic"] == 0.6
    without = SettingsDialog(app_settings, weights)
    qtbot.addWidget(without)
    assert not without.check_quality.isEnabled()


def test_the_main_window_opens_it_from_the_settings(qtbot, make_window, vault):
    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(
        lambda: window.host is not None and window.host.mindnet is not None, timeout=WAIT_MS
    )
    dialog = window.check_quality({"semantic": 1.0}, window)
    qtbot.addWidget(dialog)
    assert isinstance(dialog, QualityDialog) and dialog.edited == {"semantic": 1.0}
    dialog.reject()
