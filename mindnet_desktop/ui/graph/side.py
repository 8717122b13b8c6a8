"""The graph view's side panel: the legend (following the colour mode), the selected note
rendered as Markdown (its links open the linked note in the view), its neighbours, the notes
related to it but not yet linked (each with its reasons and a one-click "Link"), and the
new-edge box."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.service.notes.text import note_of_url
from mindnet_desktop.ui.support.i18n import fill


def swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(colour)
    return QIcon(pixmap)


class GraphSidePanel(QWidget):
    """Legend, details of the selected note, related notes and the new-edge box."""

    neighbour_activated = Signal(str)
    create_requested = Signal(str)  # the kind
    clear_requested = Signal()
    link_requested = Signal(str, str)  # related note id, kind
    related_changed = Signal()  # the "only unlinked" choice

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.legend = QListWidget(self)
        self.legend.setMaximumHeight(140)
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.preview = QTextBrowser(self)
        self._shown: tuple[str, str] | None = None  # the note id and Markdown shown
        self.preview.setOpenLinks(False)  # our links name notes; external ones go out
        self.preview.anchorClicked.connect(self._link_clicked)
        self.neighbours = QListWidget(self)
        self.related = QListWidget(self)
        self.unlinked_check = QCheckBox(self.tr("Only not yet linked"), self)
        self.unlinked_check.setChecked(True)
        self.link_button = QPushButton(self.tr("Link"), self)
        self.link_button.setToolTip(self.tr("Create a related_to edge to the chosen note"))
        self.source_label = QLabel(self)
        self.target_label = QLabel(self)
        self.kind_box = QComboBox(self)
        self.create_button = QPushButton(self.tr("Create edge"), self)
        self.clear_button = QPushButton(self.tr("Clear"), self)
        new_edge = QGroupBox(self.tr("New edge"), self)
        form = QFormLayout(new_edge)
        form.addRow(self.tr("From:"), self.source_label)
        form.addRow(self.tr("To:"), self.target_label)
        form.addRow(self.tr("Kind:"), self.kind_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.create_button)
        buttons.addWidget(self.clear_button)
        form.addRow(buttons)
        related_box = QWidget(self)
        related_column = QVBoxLayout(related_box)
        related_column.setContentsMargins(0, 0, 0, 0)
        related_row = QHBoxLayout()
        related_row.addWidget(QLabel(self.tr("Related"), self), 1)
        related_row.addWidget(self.unlinked_check)
        related_row.addWidget(self.link_button)
        related_column.addLayout(related_row)
        related_column.addWidget(self.related)
        neighbours_box = QWidget(self)
        neighbours_column = QVBoxLayout(neighbours_box)
        neighbours_column.setContentsMargins(0, 0, 0, 0)
        neighbours_column.addWidget(QLabel(self.tr("Neighbours"), self))
        neighbours_column.addWidget(self.neighbours)
        parts = QSplitter(Qt.Orientation.Vertical, self)
        for part in (self.preview, neighbours_box, related_box):
            parts.addWidget(part)
        parts.setStretchFactor(0, 3)
        parts.setSizes([340, 120, 180])  # the note's text gets the most room
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(QLabel(self.tr("Legend"), self))
        column.addWidget(self.legend)
        column.addWidget(self.title)
        column.addWidget(parts, 1)
        column.addWidget(new_edge)
        self.neighbours.itemActivated.connect(self._activated)
        self.related.itemActivated.connect(self._activated)
        self.related.currentItemChanged.connect(self._related_current)
        self.link_button.clicked.connect(self._link)
        self.unlinked_check.toggled.connect(self.related_changed)
        self.create_button.clicked.connect(self._create)
        self.clear_button.clicked.connect(self.clear_requested)
        self.show_new_edge("", "")
        self.show_related([])

    def _activated(self, item: QListWidgetItem) -> None:
        node = item.data(Qt.ItemDataRole.UserRole)
        if node:
            self.neighbour_activated.emit(str(node))

    def _link_clicked(self, url: QUrl) -> None:
        note = note_of_url(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))
        if note:
            self.neighbour_activated.emit(note)

    def _create(self, *_: Any) -> None:
        self.create_requested.emit(self.kind_box.currentText())

    def _related_current(self, *_: Any) -> None:
        item = self.related.currentItem()
        self.link_button.setEnabled(
            item is not None and not item.data(Qt.ItemDataRole.UserRole + 1)
        )

    def _link(self, *_: Any) -> None:
        item = self.related.currentItem()
        if item is not None:
            self.link_requested.emit(str(item.data(Qt.ItemDataRole.UserRole)), "related_to")

    def only_unlinked(self) -> bool:
        return self.unlinked_check.isChecked()

    def set_kinds(self, kinds: list[str]) -> None:
        current = self.kind_box.currentText() or "related_to"
        self.kind_box.clear()
        self.kind_box.addItems(kinds)
        self.kind_box.setCurrentIndex(max(self.kind_box.findText(current), 0))

    def set_legend(
        self,
        groups: list[tuple[str, QColor]],
        kinds: list[tuple[str, QColor]],
        marks: list[tuple[QIcon, str]] | None = None,
    ) -> None:
        """Node colour groups (types, folders or communities) and edge kinds, after the
        `marks` of the view (an answer's rings) when there are any."""
        self.legend.clear()
        for icon, text in marks or []:
            self.legend.addItem(QListWidgetItem(icon, text))
        for name, colour in groups:
            self.legend.addItem(QListWidgetItem(swatch(colour), name))
        for kind, colour in kinds:
            self.legend.addItem(QListWidgetItem(swatch(colour), "→ " + kind))
        self.legend.addItem(self.tr("- - dashed: made by a rule"))

    def show_details(
        self, info: dict[str, Any] | None, neighbours: list[dict[str, Any]], markdown: str
    ) -> None:
        """The selected note's title and type, its text as Markdown, its neighbours."""
        self.neighbours.clear()
        if info is None:
            self.title.setText("")
            self.preview.clear()
            self._shown = None
            self.show_related([])
            return
        self.title.setText(
            fill(self.tr("%1\nType: %2"), info.get("title", info["id"]), info.get("type"))
        )
        if self._shown != (info["id"], markdown):  # the same text again keeps its scroll
            self._shown = (info["id"], markdown)
            self.preview.setMarkdown(markdown)
        for node in neighbours:
            label = str(node.get("title") or node["id"])
            if node.get("type"):
                label += f"  [{node['type']}]"
            item = QListWidgetItem(label)
            if node.get("kind") == "note":
                item.setData(Qt.ItemDataRole.UserRole, node["id"])
            self.neighbours.addItem(item)

    def show_related(self, rows: list[dict[str, Any]]) -> None:
        """Related notes (`RelatedNote.to_dict()`), best first; reasons in the tooltip."""
        self.related.clear()
        for row in rows:
            text = f"{row['title']}  ({row['score']:.2f})"
            if row["linked"]:
                text += "  " + self.tr("[linked]")
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, row["note_id"])
            item.setData(Qt.ItemDataRole.UserRole + 1, row["linked"])
            item.setToolTip("\n".join(row["reasons"]))
            self.related.addItem(item)
        if rows:
            self.related.setCurrentRow(0)
        self._related_current()

    def show_new_edge(self, source: str, target: str) -> None:
        self.source_label.setText(source or self.tr("(context menu: Start edge from here)"))
        self.target_label.setText(target or self.tr("(context menu: Connect to here)"))
        self.create_button.setEnabled(bool(source and target))
