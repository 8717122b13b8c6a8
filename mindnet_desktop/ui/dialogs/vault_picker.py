"""Choose a vault: recent vaults, the bundled example vault, or any folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.ui.support.i18n import fill


class VaultPicker(QDialog):
    """Lists the recent vaults that still exist and the example vault; `chosen` after OK."""

    def __init__(
        self, recent: list[Path], example: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Open a vault"))
        self.chosen: Path | None = None
        self.list = QListWidget()
        for path in recent:
            if path.is_dir():
                self._add(path, str(path))
        if example is not None and example.is_dir() and example not in recent:
            self._add(example, fill(self.tr("Example vault (%1)"), example))
        if self.list.count():
            self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        browse = QPushButton(self.tr("Choose folder…"))
        browse.clicked.connect(self._browse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Choose the Obsidian vault Mindnet should open:")))
        layout.addWidget(self.list)
        layout.addWidget(browse)
        layout.addWidget(self.buttons)

    def _add(self, path: Path, label: str) -> None:
        item = QListWidgetItem(label)
        item.setData(Qt.ItemDataRole.UserRole, str(path))
        self.list.addItem(item)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the vault folder"))
        if folder:
            self._add(Path(folder), folder)
            self.list.setCurrentRow(self.list.count() - 1)
            self.accept()

    def accept(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return  # nothing chosen yet: stay open
        self.chosen = Path(item.data(Qt.ItemDataRole.UserRole))
        super().accept()


def pick_vault(
    recent: list[Path], example: Path | None, parent: QWidget | None = None
) -> Path | None:
    """Show the picker (modal); the chosen folder or None."""
    dialog = VaultPicker(recent, example, parent)
    return dialog.chosen if dialog.exec() == QDialog.DialogCode.Accepted else None
