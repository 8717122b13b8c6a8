"""The graph view's filter bar: what to show (a note's neighbourhood, the whole vault, the
last answer's notes) and search by title or alias always in sight; under a "Filters" button,
folded by default so the graph gets the room, kind, direction, depth, colour by type, folder
or community and Obsidian-like filters (folder, tag, unresolved links, notes without links,
rule-made edges, deleted edges); the status line."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.graph.queries import Direction
from mindnet_desktop.core.graph.slice_tools import SliceFilter
from mindnet_desktop.ui.graph.side import swatch
from mindnet_desktop.ui.graph.style import colour_for
from mindnet_desktop.ui.support.flow_layout import FlowLayout
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.status_label import StatusLabel

ALL = ""  # the "all kinds / folders / tags" entry of a filter


class GraphControls(QWidget):
    """Filters of the graph view; `changed` whenever one of them changes."""

    changed = Signal()  # the slice to draw changed
    colour_changed = Signal()
    search_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.focus_box = QComboBox(self)
        self.focus_box.addItem(self.tr("Neighbourhood"), "neighbourhood")
        self.focus_box.addItem(self.tr("Whole vault"), "vault")
        self.focus_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.focus_box.setToolTip(
            self.tr("A note's neighbourhood, the whole vault, or the last answer's sources")
        )
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
        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText(self.tr("Find a note (title or alias)"))
        self.search_edit.setClearButtonEnabled(True)
        self._names = QStringListModel(self)
        completer = QCompleter(self._names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.search_edit.setCompleter(completer)
        self.colour_box = QComboBox(self)
        self.colour_box.addItem(self.tr("Type"), "type")
        self.colour_box.addItem(self.tr("Folder"), "folder")
        self.colour_box.addItem(self.tr("Community"), "community")
        self.folder_box = QComboBox(self)
        self.tag_box = QComboBox(self)
        self.set_choices([], [])
        self.unresolved_check = QCheckBox(self.tr("Unresolved links"), self)
        self.unresolved_check.setChecked(True)
        self.orphans_check = QCheckBox(self.tr("Notes without links"), self)
        self.orphans_check.setChecked(True)
        self.rule_check = QCheckBox(self.tr("Rule-made edges"), self)
        self.rule_check.setChecked(True)
        self.status = StatusLabel(self)
        self.fold_button = QToolButton(self)
        self.fold_button.setCheckable(True)  # unchecked: folded
        self.fold_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.fold_button.setToolTip(self.tr("Show or hide the filters and colours"))
        self.fold_button.toggled.connect(self._fold)
        # The controls wrap to the pane's width (a label stays with its box), so none is cut
        # when the pane is narrow beside the chat; the status line comes below them.
        rows = QVBoxLayout(self)
        rows.setContentsMargins(4, 4, 4, 0)
        rows.setSpacing(2)
        # A widget, not a nested layout: the column then gives the wrapped rows their height.
        bar = QWidget(self)
        top = FlowLayout(bar, spacing=6)
        top.setContentsMargins(0, 0, 0, 0)
        self.search_edit.setMinimumWidth(160)
        for label, widget in (
            ("", self.fold_button),
            (self.tr("Show:"), self.focus_box),
            ("", self.search_edit),
        ):
            top.addWidget(self._pair(label, widget, bar))
        rows.addWidget(bar)
        self.filters_panel = QWidget(self)
        flow = FlowLayout(self.filters_panel, spacing=6)
        flow.setContentsMargins(0, 0, 0, 0)
        for label, widget in (
            (self.tr("Kind:"), self.kind_box),
            (self.tr("Direction:"), self.direction_box),
            ("", self.depth_spin),
            (self.tr("Colour:"), self.colour_box),
            (self.tr("Folder:"), self.folder_box),
            (self.tr("Tag:"), self.tag_box),
            (self.tr("Show also:"), self.unresolved_check),
            ("", self.orphans_check),
            ("", self.rule_check),
            ("", self.deleted_check),
        ):
            flow.addWidget(self._pair(label, widget, self.filters_panel))
        rows.addWidget(self.filters_panel)
        rows.addWidget(self.status)
        self._fold(False)
        self.changed.connect(self._count_filters)
        self.focus_box.currentIndexChanged.connect(self._focus_changed)
        self.kind_box.currentIndexChanged.connect(self.changed)
        self.direction_box.currentIndexChanged.connect(self.changed)
        self.depth_spin.valueChanged.connect(self.changed)
        self.deleted_check.toggled.connect(self.changed)
        for check in (self.unresolved_check, self.orphans_check, self.rule_check):
            check.toggled.connect(self.changed)
        self.folder_box.currentIndexChanged.connect(self.changed)
        self.tag_box.currentIndexChanged.connect(self.changed)
        self.colour_box.currentIndexChanged.connect(self.colour_changed)
        self.search_edit.returnPressed.connect(self._search)
        completer.activated.connect(self.search_requested)

    def _pair(self, label: str, widget: QWidget, parent: QWidget | None = None) -> QWidget:
        """`widget` with its label (if any) as one piece of the flow."""
        piece = QWidget(parent or self)
        row = QHBoxLayout(piece)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        if label:
            row.addWidget(QLabel(label, piece))
        row.addWidget(widget)
        return piece

    def _search(self) -> None:
        text = self.search_edit.text().strip()
        if text:
            self.search_requested.emit(text)

    def _focus_changed(self, *_: Any) -> None:
        neighbourhood = self.mode() == "neighbourhood"
        self.direction_box.setEnabled(neighbourhood)
        self.depth_spin.setEnabled(neighbourhood)
        self.changed.emit()

    def _fold(self, unfolded: bool) -> None:
        self.filters_panel.setVisible(unfolded)
        arrow = Qt.ArrowType.DownArrow if unfolded else Qt.ArrowType.RightArrow
        self.fold_button.setArrowType(arrow)
        self._count_filters()
        self._rewrap()

    def _rewrap(self) -> None:
        """The bar takes the height its wrapped rows need at its width. Set here, not left
        to the graph pane's layout: in the window that kept an older height (measured at
        1366 x 768), and the last rows hid under the canvas."""
        layout = self.layout()
        if layout is not None:
            layout.invalidate()
            self.setFixedHeight(layout.totalHeightForWidth(self.width()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._rewrap()

    def folded(self) -> bool:
        return not self.fold_button.isChecked()

    def active_filters(self) -> int:
        """How many filters hide something now (kind, direction, depth, folder, tag, the
        "show also" boxes): the folded button says so."""
        defaults = (
            (self.kind_box.currentData(), ALL),
            (self.direction_box.currentIndex(), 0),
            (self.depth_spin.value(), 1),
            (self.folder_box.currentData() or ALL, ALL),
            (self.tag_box.currentData() or ALL, ALL),
            (self.unresolved_check.isChecked(), True),
            (self.orphans_check.isChecked(), True),
            (self.rule_check.isChecked(), True),
            (self.deleted_check.isChecked(), False),
        )
        return sum(value != default for value, default in defaults)

    def _count_filters(self) -> None:
        active = self.active_filters()
        text = self.tr("Filters")
        self.fold_button.setText(fill(self.tr("Filters (%1)"), active) if active else text)

    def mode(self) -> str:
        """What the view shows: "neighbourhood", "vault" or "answer"."""
        return str(self.focus_box.currentData())

    def set_mode(self, mode: str) -> None:
        """Show `mode` ("answer" is offered from the first answer on); emits `changed` when
        it is another one."""
        if mode == "answer" and self.focus_box.findData("answer") < 0:
            self.focus_box.addItem(self.tr("Last answer"), "answer")
        self.focus_box.setCurrentIndex(self.focus_box.findData(mode))
        self._rewrap()

    def whole_vault(self) -> bool:
        return self.mode() == "vault"

    def depth(self) -> int:
        return self.depth_spin.value()

    def direction(self) -> Direction:
        return self.direction_box.currentData()  # type: ignore[no-any-return]

    def kinds(self) -> set[str] | None:
        kind = self.kind_box.currentData()
        return {kind} if kind else None

    def show_deleted(self) -> bool:
        return self.deleted_check.isChecked()

    def colour_mode(self) -> str:
        return str(self.colour_box.currentData())

    def filters(self) -> SliceFilter:
        return SliceFilter(
            folder=self.folder_box.currentData() or "",
            tag=self.tag_box.currentData() or "",
            hide_unresolved=not self.unresolved_check.isChecked(),
            hide_orphans=not self.orphans_check.isChecked(),
            rule_edges=self.rule_check.isChecked(),
        )

    def set_choices(self, folders: list[str], tags: list[str]) -> None:
        """Offer these folders and tags; a current choice stays when it still exists."""
        for box, items, everything in (
            (self.folder_box, folders, self.tr("All folders")),
            (self.tag_box, tags, self.tr("All tags")),
        ):
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(everything, ALL)
            for item in items:
                box.addItem(("#" if box is self.tag_box else "") + item, item)
            box.setCurrentIndex(max(box.findData(current), 0))
            box.blockSignals(False)
        self._rewrap()  # a box as wide as its longest entry may wrap the rows anew

    def set_names(self, names: list[str]) -> None:
        """Titles and aliases the search field completes."""
        self._names.setStringList(names)

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
        self._rewrap()

    def set_status(self, text: str, error: bool = False) -> None:
        if error:
            self.status.show_error(text)
        else:
            self.status.show_text(text)
