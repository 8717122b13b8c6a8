"""The graph view's filter bar (focus, kind, direction, depth, show deleted, status line) and
its side panel (legend, the selected note's preview and neighbours, the new-edge box)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.graph.queries import Direction
from mindnet_desktop.core.graph.slice import GraphSlice
from mindnet_desktop.ui.graph_style import UNRESOLVED, colour_for
from mindnet_desktop.ui.i18n import fill
from mindnet_desktop.ui.status_label import StatusLabel

ALL = ""  # the kind filter's "all kinds" entry


def swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(colour)
    return QIcon(pixmap)


class GraphControls(QWidget):
    """Filters of the graph view; `changed` whenever one of them changes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.focus_box = QComboBox(self)
        self.focus_box.addItem(self.tr("Neighbourhood"), "neighbourhood")
        self.focus_box.addItem(self.tr("Whole vault"), "vault")
        self.kind_box = QComboBox(self)
        self.kind_box.addItem(self.tr("All kinds"), ALL)
        self.direction_box = QComboBox(self)
        self.direction_box.addItem(self.tr("Both ways"), "both")
        self.direction_box.addItem(self.tr("Outgoing"), "out")
        self.direction_box.addItem(self.tr("Incoming"), "in")
        self.depth_spin = QSpinBox(self)
        self.depth_spin.setRange(1, 3)
        self.depth_spin.setPrefix(self.tr("Depth "))
        self.deleted_check = QCheckBox(self.tr("Show deleted"), self)
        self.status = StatusLabel(self)
        # Two rows, so the pane fits beside the chat on an ordinary screen.
        rows = QVBoxLayout(self)
        rows.setContentsMargins(4, 4, 4, 0)
        first, second = QHBoxLayout(), QHBoxLayout()
        for label, widget in (
            (self.tr("Show:"), self.focus_box),
            (self.tr("Kind:"), self.kind_box),
            (self.tr("Direction:"), self.direction_box),
        ):
            first.addWidget(QLabel(label, self))
            first.addWidget(widget)
        first.addStretch(1)
        second.addWidget(self.depth_spin)
        second.addWidget(self.deleted_check)
        second.addWidget(self.status, 1)
        rows.addLayout(first)
        rows.addLayout(second)
        self.focus_box.currentIndexChanged.connect(self._focus_changed)
        self.kind_box.currentIndexChanged.connect(self.changed)
        self.direction_box.currentIndexChanged.connect(self.changed)
        self.depth_spin.valueChanged.connect(self.changed)
        self.deleted_check.toggled.connect(self.changed)

    def _focus_changed(self, *_: Any) -> None:
        neighbourhood = not self.whole_vault()
        self.direction_box.setEnabled(neighbourhood)
        self.depth_spin.setEnabled(neighbourhood)
        self.changed.emit()

    def whole_vault(self) -> bool:
        return self.focus_box.currentData() == "vault"

    def depth(self) -> int:
        return self.depth_spin.value()

    def direction(self) -> Direction:
        return self.direction_box.currentData()  # type: ignore[no-any-return]

    def kinds(self) -> set[str] | None:
        kind = self.kind_box.currentData()
        return {kind} if kind else None

    def show_deleted(self) -> bool:
        return self.deleted_check.isChecked()

    def set_kinds(self, kinds: list[str]) -> None:
        """Offer the vocabulary's kinds; the current choice stays when it still exists."""
        current = self.kind_box.currentData()
        self.kind_box.blockSignals(True)
        self.kind_box.clear()
        self.kind_box.addItem(self.tr("All kinds"), ALL)
        for kind in kinds:
            self.kind_box.addItem(swatch(colour_for(kind)), kind, kind)
        self.kind_box.setCurrentIndex(max(self.kind_box.findData(current), 0))
        self.kind_box.blockSignals(False)

    def set_status(self, text: str, error: bool = False) -> None:
        if error:
            self.status.show_error(text)
        else:
            self.status.show_text(text)


class GraphSidePanel(QWidget):
    """Legend, details of the selected note and the new-edge box."""

    neighbour_activated = Signal(str)
    create_requested = Signal(str)  # the kind
    clear_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.legend = QListWidget(self)
        self.legend.setMaximumHeight(160)
        self.preview = QLabel(self)
        self.preview.setWordWrap(True)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.preview.setTextFormat(Qt.TextFormat.PlainText)
        self.neighbours = QListWidget(self)
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
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(QLabel(self.tr("Legend"), self))
        column.addWidget(self.legend)
        column.addWidget(QLabel(self.tr("Selected note"), self))
        column.addWidget(self.preview)
        column.addWidget(QLabel(self.tr("Neighbours"), self))
        column.addWidget(self.neighbours, 1)
        column.addWidget(new_edge)
        self.neighbours.itemActivated.connect(self._activated)
        self.create_button.clicked.connect(self._create)
        self.clear_button.clicked.connect(self.clear_requested)
        self.show_new_edge("", "")

    def _activated(self, item: QListWidgetItem) -> None:
        node = item.data(Qt.ItemDataRole.UserRole)
        if node:
            self.neighbour_activated.emit(str(node))

    def _create(self, *_: Any) -> None:
        self.create_requested.emit(self.kind_box.currentText())

    def set_kinds(self, kinds: list[str]) -> None:
        current = self.kind_box.currentText() or "related_to"
        self.kind_box.clear()
        self.kind_box.addItems(kinds)
        self.kind_box.setCurrentIndex(max(self.kind_box.findText(current), 0))

    def set_legend(self, graph: GraphSlice) -> None:
        """Note types (node colours) and edge kinds (line colours) in the drawn graph."""
        self.legend.clear()
        types = sorted({n.type or "default" for n in graph.nodes.values() if n.kind == "note"})
        for name in types:
            self.legend.addItem(QListWidgetItem(swatch(colour_for(name)), name))
        if any(n.kind != "note" for n in graph.nodes.values()):
            self.legend.addItem(QListWidgetItem(swatch(UNRESOLVED), self.tr("unresolved link")))
        for kind in sorted({e.kind for e in graph.edges}):
            self.legend.addItem(QListWidgetItem(swatch(colour_for(kind)), "→ " + kind))
        self.legend.addItem(self.tr("- - dashed: made by a rule"))

    def show_details(
        self, info: dict[str, Any] | None, neighbours: list[dict[str, Any]], text: str
    ) -> None:
        """The selected note's title, type and first chunk, and its neighbours."""
        self.neighbours.clear()
        if info is None:
            self.preview.setText("")
            return
        head = fill(self.tr("%1\nType: %2"), info.get("title", info["id"]), info.get("type"))
        self.preview.setText(head + ("\n\n" + text if text else ""))
        for node in neighbours:
            label = str(node.get("title") or node["id"])
            if node.get("type"):
                label += f"  [{node['type']}]"
            item = QListWidgetItem(label)
            if node.get("kind") == "note":
                item.setData(Qt.ItemDataRole.UserRole, node["id"])
            self.neighbours.addItem(item)

    def show_new_edge(self, source: str, target: str) -> None:
        self.source_label.setText(source or self.tr("(context menu: Start edge from here)"))
        self.target_label.setText(target or self.tr("(context menu: Connect to here)"))
        self.create_button.setEnabled(bool(source and target))
