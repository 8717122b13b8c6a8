"""Settings: the chat-model field offers the models detected on the machine by name; the
free path entry stays."""

from __future__ import annotations

import json
from pathlib import Path

from mindnet_desktop.core.config.retriever import load_retriever_config
from mindnet_desktop.ui.dialogs.models import DetectedModelsButton
from mindnet_desktop.ui.dialogs.settings import SettingsDialog
from mindnet_desktop.ui.support.settings import AppSettings
from tests.core.models.test_local_models import write_gguf


def _ollama(home: Path) -> Path:
    store = home / ".ollama" / "models"
    blob = write_gguf(store / "blobs" / "sha256-abcd", name="Tiny Llama")
    manifest = store / "manifests" / "registry.ollama.ai" / "library" / "tiny" / "1b"
    manifest.parent.mkdir(parents=True)
    layer = {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:abcd"}
    manifest.write_text(json.dumps({"layers": [layer]}))
    return blob


def test_detected_models_fill_the_path_field(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    blob = _ollama(tmp_path / "home")
    settings = AppSettings.from_file(tmp_path / "settings.ini")
    dialog = SettingsDialog(settings, load_retriever_config().weights)
    qtbot.addWidget(dialog)
    button = dialog.detected_models
    button.refresh()
    labels = [a.text() for a in button.picker.actions() if a.text()]
    assert labels[0].startswith("tiny:1b — ") and "Q4_K_M" in labels[0] and "Ollama" in labels[0]
    button.picker.actions()[0].trigger()
    assert dialog.chat_model.text() == str(blob)
    assert "chat_model" in dialog.apply() and settings.chat_model == str(blob)
    # A folder the user picks joins the list; the free path entry still works.
    write_gguf(tmp_path / "mine" / "Mine-Q8_0.gguf", name="Mine", file_type=7)
    button.add_folder(tmp_path / "mine")
    button.refresh()
    assert any(a.text().startswith("Mine-Q8_0 — ") for a in button.picker.actions())
    dialog.chat_model.setText("/models/my.gguf")
    dialog.apply()
    assert settings.chat_model_path == Path("/models/my.gguf")


def test_no_models_found_says_so(qtbot, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))
    monkeypatch.delenv("OLLAMA_MODELS", raising=False)
    button = DetectedModelsButton(lambda path: None)
    qtbot.addWidget(button)
    button.refresh()
    texts = [a.text() for a in button.picker.actions() if a.text()]
    assert texts[0].startswith("No models found") and not button.picker.actions()[0].isEnabled()
    assert texts[-1] == "Scan a folder…"
