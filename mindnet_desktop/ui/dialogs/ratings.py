"""Your ratings: the thumbs that stand (forget one question's or all), and "Learn from my
ratings", which runs `mindnet tune` off the GUI thread and applies its proposal on request."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.bench.tune import (
    PRIOR_GROUP,
    PROBES_GROUP,
    RATED_GROUP,
    TuneResult,
)
from mindnet_desktop.core.config.retriever import TERMS
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.dialogs import ops
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.terms import term_label
from mindnet_desktop.ui.support.workers import Job, JobGroup, ServiceHost

QUERY_ID = Qt.ItemDataRole.UserRole
translate = QCoreApplication.translate


class RatingsDialog(QDialog):
    """The ratings of the open vault.

    Args:
        host: The window's service (reads and forgets ratings, applies weights).
        reader: Opens a second, read-only `Mindnet` on the same vault for the tuning, which
            takes minutes and must not hold up the chat.
        on_applied: Called with the weights once they are written.
    """

    def __init__(
        self,
        host: ServiceHost,
        reader: Callable[[], Mindnet],
        on_applied: Callable[[dict[str, float]], None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Your ratings"))
        self.host, self.reader, self.on_applied = host, reader, on_applied
        self.jobs = JobGroup(host, self)
        self.jobs.failed.connect(self._failed)
        self.result: TuneResult | None = None
        self.tune_job: Job | None = None
        self._build()
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "A thumb on a source moves that note for the same and similar questions. "
                "Ratings stay in the vault's data folder; nothing leaves this computer."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("When"), self.tr("Rating"), self.tr("Note"), self.tr("Question")]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        layout.addWidget(self.table, 2)
        row = QHBoxLayout()
        self.forget_button = QPushButton(self.tr("Forget this question's ratings"))
        self.forget_button.clicked.connect(self.forget_selected)
        self.forget_all_button = QPushButton(self.tr("Forget all ratings…"))
        self.forget_all_button.clicked.connect(self.forget_all)
        self.learn_button = QPushButton(self.tr("Learn from my ratings"))
        self.learn_button.setToolTip(
            self.tr(
                "Tries other retriever weights on your rated questions (each without its own "
                "ratings), on probes made from your notes and on the example questions; "
                "proposes weights only when they rank your questions better and nothing worse."
            )
        )
        self.learn_button.clicked.connect(self.learn)
        for button in (self.forget_button, self.forget_all_button, self.learn_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        layout.addWidget(self.progress)
        self.report = QTextBrowser(self)
        self.report.setVisible(False)
        layout.addWidget(self.report, 3)
        bottom = QHBoxLayout()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        bottom.addWidget(self.status, 1)
        self.apply_button = QPushButton(self.tr("Apply these weights"))
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_proposal)
        self.cancel_button = QPushButton(self.tr("Stop"))
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.stop)
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.reject)
        for button in (self.apply_button, self.cancel_button, close):
            bottom.addWidget(button)
        layout.addLayout(bottom)
        self.resize(900, 620)

    # -- the list ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Load the ratings that stand (on the service thread)."""
        self.jobs.submit(ops.standing_ratings, "ratings", self._show)

    def _show(self, ratings: list[dict[str, Any]]) -> None:
        ratings = [r for r in ratings if r.get("node_id") != "answer"]
        self.table.setRowCount(len(ratings))
        for i, rating in enumerate(reversed(ratings)):  # newest first
            cells = (
                str(rating.get("time", ""))[:16].replace("T", " "),
                "▲" if rating.get("rating") == "up" else "▼",
                str(rating.get("note_id") or rating.get("node_id")),
                str(rating.get("query", "")),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(QUERY_ID, rating.get("query_id"))
                self.table.setItem(i, column, item)
        has = bool(ratings)
        self.forget_button.setEnabled(has)
        self.forget_all_button.setEnabled(has)
        if self.tune_job is not None:
            return  # the learning's progress keeps the status line
        if not has:
            self.status.setText(self.tr("No ratings yet."))
        elif len(ratings) == 1:
            self.status.setText(self.tr("1 rating stands."))
        else:
            self.status.setText(fill(self.tr("%1 ratings stand."), str(len(ratings))))

    def selected_query(self) -> str | None:
        items = self.table.selectedItems()
        return str(items[0].data(QUERY_ID)) if items else None

    def forget_selected(self) -> None:
        query_id = self.selected_query()
        if query_id is None:
            self.status.setText(self.tr("Select a rating first."))
            return
        self._forget(query_id)

    def forget_all(self) -> None:
        answer = QMessageBox.question(
            self, self.tr("Forget all ratings"), self.tr("Remove every rating of this vault?")
        )
        if answer == QMessageBox.StandardButton.Yes:
            self._forget(None)

    def _forget(self, query_id: str | None) -> None:
        forget = partial(ops.forget_ratings, query_id=query_id)
        self.jobs.submit(forget, "forget ratings", self._show)

    # -- learning ------------------------------------------------------------------------

    def learn(self) -> None:
        """Run the tuning on a reader of its own, with progress."""
        self.result = None
        self.apply_button.setEnabled(False)
        self.learn_button.setEnabled(False)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.cancel_button.setVisible(True)
        self.status.setText(self.tr("Preparing probes and the example questions…"))
        job = self.jobs.run_pure(
            partial(ops.learn_weights, reader=self.reader), "tune", self._tuned
        )
        if job is not None:
            job.progress.connect(self._progress)
            job.finished.connect(self._tune_finished)
        self.tune_job = job

    def _progress(self, item: object) -> None:
        phase, done, total = item  # type: ignore[misc]
        if phase == "weights":
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.status.setText(fill(self.tr("Trying weights %1 of %2…"), str(done), str(total)))

    def stop(self) -> None:
        if self.tune_job is not None:
            self.tune_job.cancel()

    def _tuned(self, result: TuneResult) -> None:
        self.result = result
        self.report.setVisible(True)
        self.report.setMarkdown(self.report_markdown(result))
        self.apply_button.setEnabled(result.better)
        if result.better:
            self.status.setText(
                self.tr("These weights rank your questions better and nothing worse.")
            )
        else:
            self.status.setText(
                self.tr("No weights rank your questions better without harm elsewhere.")
            )

    def report_markdown(self, result: TuneResult) -> str:
        """The scores of both weightings per group, then the weights that moved."""
        groups = {
            RATED_GROUP: self.tr("your rated questions"),
            PROBES_GROUP: self.tr("probes from your notes"),
            PRIOR_GROUP: self.tr("example questions (prior)"),
        }
        now, new = self.tr("current"), self.tr("proposed")
        asked, weight = self.tr("questions"), self.tr("weight")
        lines = [
            f"| {asked} | n | hit@5 {now} | hit@5 {new} | MRR {now} | MRR {new} |",
            "|---|---|---|---|---|---|",
        ]
        for name, before in result.before.items():
            after, n = result.after[name], result.groups.get(name, 0)
            lines.append(
                f"| {groups.get(name, name)} | {n} | {before['hit@5']:.2f} | "
                f"{after['hit@5']:.2f} | {before['mrr']:.2f} | {after['mrr']:.2f} |"
            )
        moved = [t for t in TERMS if result.proposed[t] != result.current[t]]
        if moved:
            lines += ["", f"| {weight} | {now} | {new} |", "|---|---|---|"]
            lines += [
                f"| {term_label(t)} | {result.current[t]:.2f} | {result.proposed[t]:.2f} |"
                for t in moved
            ]
        return "\n".join(lines)

    def _tune_finished(self) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.learn_button.setEnabled(True)
        if self.tune_job is not None and self.tune_job.cancelled() and self.result is None:
            self.status.setText(self.tr("Stopped."))
        self.tune_job = None

    def apply_proposal(self) -> None:
        result = self.result
        if result is None or not result.better:
            return
        self.apply_button.setEnabled(False)

        # Not one of the dialog's jobs: closing the dialog must not cancel a write that began
        # (it would go on unreported, and the window would later write its old weights over
        # it); the window hears of it through `on_applied` even after the dialog closed.
        try:
            job = self.host.submit(partial(ops.apply_weights, result=result), "apply weights")
        except RuntimeError as exc:  # the window is closing
            self._failed(str(exc))
            return
        job.done.connect(self._applied)
        job.failed.connect(self._failed)
        if self.on_applied is not None:
            job.done.connect(self.on_applied)

    def _applied(self, _weights: dict[str, float]) -> None:
        self.status.setText(self.tr("Applied; the old retriever.yaml is kept as a backup."))

    def _failed(self, message: str) -> None:
        self.status.setText(fill(self.tr("Error: %1"), message))

    def done(self, code: int) -> None:
        self.jobs.close()
        super().done(code)
