"""The sources beside an answer: title, type, score bar, injected marker, explanation
tooltip and thumbs up / down; above them the intent badge and the answer's thumbs."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.ui.chat.text import explanation_html, intent_text, intent_tooltip

ANSWER = "answer"  # the node_id of answer-level feedback (as `mindnet feedback` uses it)
CHECKED_STYLE = "QToolButton:checked { background: palette(highlight); }"


class FeedbackButtons(QWidget):
    """Thumbs up and down, at most one checked. `rated` says what the user did: `up`,
    `down`, or `clear` when they un-toggled their rating."""

    rated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.up = self._button("▲", self.tr("Helpful (thumbs up)"))
        self.down = self._button("▼", self.tr("Not helpful (thumbs down)"))
        layout.addWidget(self.up)
        layout.addWidget(self.down)
        self.up.clicked.connect(lambda checked: self._clicked(self.up, self.down, "up", checked))
        self.down.clicked.connect(
            lambda checked: self._clicked(self.down, self.up, "down", checked)
        )

    def _button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setCheckable(True)
        button.setStyleSheet(CHECKED_STYLE)
        return button

    def _clicked(self, button: QToolButton, other: QToolButton, rating: str, checked: bool) -> None:
        if checked:
            other.setChecked(False)
            self.rated.emit(rating)
        else:
            self.rated.emit("clear")

    def rating(self) -> str | None:
        if self.up.isChecked():
            return "up"
        return "down" if self.down.isChecked() else None

    def set_rating(self, rating: str | None) -> None:
        """Show a rating without recording it (restoring a turn, undoing a failed write)."""
        self.up.setChecked(rating == "up")
        self.down.setChecked(rating == "down")


class SourceRow(QFrame):
    """One source: its title (a link), type, score bar, injected marker and thumbs; its
    context menu shows it in the app or opens it in Obsidian."""

    opened = Signal()
    obsidian_requested = Signal()

    def __init__(
        self,
        n: int,
        hit: ScoredHit,
        best: float,
        parent: QWidget | None = None,
        excerpt: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.hit = hit
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setToolTip(explanation_html(hit, n, excerpt))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        top = QHBoxLayout()
        self.title = QLabel(f'[{n}] <a href="open">{html.escape(hit.title)}</a>', self)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.title.linkActivated.connect(lambda _href: self.opened.emit())
        top.addWidget(self.title, 1)
        self.feedback = FeedbackButtons(self)
        top.addWidget(self.feedback)
        layout.addLayout(top)
        bottom = QHBoxLayout()
        self.type_label = QLabel(hit.type, self)
        bottom.addWidget(self.type_label)
        self.injected = QLabel(self.tr("injected"), self)
        self.injected.setToolTip(self.tr("Added for a decision: a value, principle or goal"))
        self.injected.setStyleSheet("color: palette(link); font-style: italic;")
        self.injected.setVisible(hit.injected)
        bottom.addWidget(self.injected)
        self.score_bar = QProgressBar(self)
        self.score_bar.setRange(0, 100)
        self.score_bar.setValue(round(100 * max(hit.score, 0.0) / best) if best > 0 else 0)
        self.score_bar.setFormat(f"{hit.score:.3f}")
        self.score_bar.setMaximumHeight(14)
        bottom.addWidget(self.score_bar, 1)
        layout.addLayout(bottom)

    def menu(self) -> QMenu:
        """The row's context menu (built here, shown by `contextMenuEvent`)."""
        menu = QMenu(self)
        menu.addAction(self.tr("Show in the app"), self.opened.emit)
        menu.addAction(self.tr("Open in Obsidian"), self.obsidian_requested.emit)
        return menu

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 - Qt API
        menu = self.menu()
        menu.exec(event.globalPos())
        menu.deleteLater()


class SourcesPane(QWidget):
    """The intent badge, the answer's thumbs and the list of sources of one answer.

    Signals:
        rated(node_id, rating): a thumbs click on a source (its chunk id) or the answer.
        opened(n): the title of source n (1-based) was clicked.
        obsidian_requested(n): source n is to open in Obsidian (its context menu).
    """

    rated = Signal(str, str)
    opened = Signal(int)
    obsidian_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # The intent badge on a line of its own: beside the answer's thumbs it was cut off
        # in a pane of the minimum width.
        self.badge = QLabel(self)
        self.badge.setStyleSheet(
            "QLabel { background: palette(highlight); color: palette(highlighted-text);"
            " border-radius: 4px; padding: 2px 6px; font-weight: bold; }"
        )
        self.badge.hide()
        layout.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignLeft)
        head = QHBoxLayout()
        self.heading = QLabel(self.tr("Sources"), self)
        self.heading.setStyleSheet("font-weight: bold;")
        # Wraps rather than losing its count: "Ähnlichste Notizen (3)" beside the answer's
        # thumbs was cut to "Ähnlichste Notizen (" at 1366 x 768.
        self.heading.setWordWrap(True)
        head.addWidget(self.heading, 1)
        self.answer_label = QLabel(self.tr("This answer:"), self)
        head.addWidget(self.answer_label)
        self.answer_feedback = FeedbackButtons(self)
        self.answer_feedback.rated.connect(lambda rating: self.rated.emit(ANSWER, rating))
        head.addWidget(self.answer_feedback)
        layout.addLayout(head)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.list = QWidget(self.scroll)
        self.rows_layout = QVBoxLayout(self.list)
        self.rows_layout.addStretch(1)
        self.scroll.setWidget(self.list)
        layout.addWidget(self.scroll, 1)
        self.rows: list[SourceRow] = []
        self.query_id: str | None = None  # whose sources are shown
        self.show_result(None, {})

    def show_result(
        self, result: AskResult | None, ratings: dict[str, str], answering: bool = False
    ) -> None:
        """Show the sources of `result` (None: empty) with the ratings the user gave;
        `answering`: the answer is still being written (no thumbs for it yet). The rows of
        the sources already shown stay as they are (and where the user scrolled to)."""
        has_answer = result is not None
        self.answer_label.setVisible(has_answer)
        self.answer_feedback.setVisible(has_answer)
        self.answer_feedback.setEnabled(not answering)
        self.answer_feedback.set_rating(ratings.get(ANSWER))
        self.badge.setVisible(has_answer)
        excerpts = (result.excerpts or [None] * len(result.sources)) if result else []
        if result is not None:  # nothing in them answers: they are the closest notes
            n = len(result.sources)
            closest = self.tr("Closest notes (%n)", "", n)
            self.heading.setText(closest if result.not_found else self.tr("Sources (%n)", "", n))
        if result is not None and self._shows(result):
            for n, (row, excerpt) in enumerate(zip(self.rows, excerpts, strict=True), start=1):
                row.feedback.set_rating(ratings.get(row.hit.node_id))
                # The answer may have been packed since the rows were shown: what it read.
                row.setToolTip(explanation_html(row.hit, n, excerpt))
            return
        for row in self.rows:
            row.deleteLater()
        self.rows = []
        self.query_id = result.query_id if result else None
        if result is None:
            self.heading.setText(self.tr("Sources"))
            return
        self.badge.setText(intent_text(result.routing))
        self.badge.setToolTip(intent_tooltip(result.routing))
        best = max((h.score for h in result.sources), default=0.0)
        for n, (hit, excerpt) in enumerate(zip(result.sources, excerpts, strict=True), start=1):
            row = SourceRow(n, hit, best, self.list, excerpt)
            row.feedback.set_rating(ratings.get(hit.node_id))
            row.feedback.rated.connect(
                lambda rating, node=hit.node_id: self.rated.emit(node, rating)
            )
            row.opened.connect(lambda n=n: self.opened.emit(n))
            row.obsidian_requested.connect(lambda n=n: self.obsidian_requested.emit(n))
            self.rows_layout.insertWidget(self.rows_layout.count() - 1, row)
            self.rows.append(row)

    def _shows(self, result: AskResult) -> bool:
        ids = [h.node_id for h in result.sources]
        return result.query_id == self.query_id and ids == [r.hit.node_id for r in self.rows]

    def show_routing(self, routing: Routing) -> None:
        """While an answer streams: its intent, no sources yet."""
        self.show_result(None, {})
        self.badge.setText(intent_text(routing))
        self.badge.setToolTip(intent_tooltip(routing))
        self.badge.show()

    def buttons_for(self, node_id: str) -> FeedbackButtons | None:
        if node_id == ANSWER:
            return self.answer_feedback
        return next((r.feedback for r in self.rows if r.hit.node_id == node_id), None)
