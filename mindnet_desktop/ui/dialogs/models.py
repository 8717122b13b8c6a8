"""The Settings' "Detected models…" button: the GGUF chat models found on the machine
(Ollama, LM Studio, a folder the user picks), by name; choosing one fills the path field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMenu, QPushButton, QWidget

from mindnet_desktop.core.models.local import LocalModel, chat_models


def model_label(model: LocalModel) -> str:
    """`llama3.2:3b — 1.9 GB, Q4_K_M (Ollama)`."""
    size = f"{model.size_bytes / 2**30:.1f} GB" if model.size_bytes else ""
    sources = {"ollama": "Ollama", "lmstudio": "LM Studio", "folder": model.source}
    details = ", ".join(x for x in (size, model.quant or "") if x)
    return f"{model.name} — {details} ({sources.get(model.source, model.source)})"


class DetectedModelsButton(QPushButton):
    """Opens a menu of the detected chat models (scanned each time it opens: only headers
    are read); `chosen` gets the model's GGUF path."""

    def __init__(self, chosen: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Detected models…"), parent)
        self.setToolTip(
            self.tr("GGUF chat models found in Ollama, LM Studio or a folder you choose")
        )
        self.chosen = chosen
        self.folders: list[Path] = []
        self.models: list[LocalModel] = []
        self.picker = QMenu(self)
        self.picker.aboutToShow.connect(self.refresh)
        self.setMenu(self.picker)

    def refresh(self) -> None:
        """Scan again and rebuild the menu."""
        self.picker.clear()
        self.models = chat_models(self.folders)
        for model in self.models:
            action = self.picker.addAction(model_label(model))
            action.setToolTip(str(model.path))
            action.triggered.connect(lambda _=False, p=str(model.path): self.chosen(p))
        if not self.models:
            self.picker.addAction(self.tr("No models found in Ollama or LM Studio")).setEnabled(
                False
            )
        self.picker.addSeparator()
        self.picker.addAction(self.tr("Scan a folder…")).triggered.connect(self.pick_folder)

    def pick_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Folder with GGUF models"))
        if path:
            self.add_folder(Path(path))
            self.showMenu()

    def add_folder(self, folder: Path) -> None:
        if folder not in self.folders:
            self.folders.append(folder)
