"""Settings → "Check search quality": `mindnet probe` in the window.

The probes come from the vault (`core/service/quality/probes.py`); hit@1, hit@5 and MRR of the
weights in effect, and optionally of the weights being edited in the settings dialog, side
by side. The job runs off the GUI thread: it reads the index and scores on the service
thread in small steps (`ServiceHost.call`), so the chat stays usable; the chat model writes
its questions on the job's own thread. Cancel stops after the current probe.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.core.service.quality.score import ConfigScores
from mindnet_desktop.ui.dialogs import ops
from mindnet_desktop.ui.dialogs.ops import ProbeRequest
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.settings import AppSettings
from mindnet_desktop.ui.support.workers import Job, JobGroup, ServiceHost

METRICS = ("hit@1", "hit@5", "mrr")


class QualityDialog(QDialog):
    """Runs the probe and shows the table.

    Args:
        host: The window's service host.
        settings: For the chat model and its threads.
        edited: The weights being edited in the settings dialog (None: compare nothing).
    """

    def __init__(
        self,
        host: ServiceHost,
        settings: AppSettings,
        edited: dict[str, float] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.host, self.settings, self.edited = host, settings, edited
        self.results: list[ConfigScores] | None = None
        self.error = ""
        self._running = False  # until `finished` reached the GUI thread, not the worker's end
        self.jobs = JobGroup(None, self)
        self.jobs.failed.connect(self._failed)
        self.setWindowTitle(self.tr("Check search quality"))
        intro = QLabel(
            self.tr(
                "Probes made from your own notes: a sentence of a note without its title "
                "words, and optionally a question the chat model writes about it. Shown: how "
                "often search finds the note first (hit@1), in the top 5 (hit@5), and the "
                "mean reciprocal rank (MRR). Your rated questions count too. The probes "
                "stay in the vault's data folder."
            )
        )
        intro.setWordWrap(True)
        form = QFormLayout()
        self.notes = QSpinBox()
        self.notes.setRange(1, 1000)
        self.notes.setValue(100)
        form.addRow(self.tr("Notes to probe:"), self.notes)
        self.questions = QCheckBox(
            self.tr("Questions by the chat model (slow the first time: about 30 s each)")
        )
        form.addRow("", self.questions)
        self.compare = QCheckBox(self.tr("Compare with the weights in the settings"))
        self.compare.setEnabled(edited is not None)
        self.compare.setChecked(edited is not None)
        form.addRow("", self.compare)
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.table = QTableWidget(0, 0)
        self.table.hide()
        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.run_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        for widget in (self.progress, self.status, self.table, buttons):
            layout.addWidget(widget)
        self.resize(640, 420)

    @property
    def running(self) -> bool:
        """A run began and its results (or its stop) are not shown yet."""
        return self._running or self.jobs.busy

    def request(self) -> ProbeRequest:
        s = self.settings
        return ProbeRequest(
            n=self.notes.value(),
            questions=self.questions.isChecked(),
            weights=self.edited if self.compare.isChecked() else None,
            model=str(s.chat_model_path) if s.chat_model_path else None,
            threads=s.threads,
        )

    def run(self) -> Job | None:
        if self.running:
            return None
        probe = partial(ops.probe, host=self.host, request=self.request())
        job = self.jobs.run_pure(probe, "probe", self._show)
        if job is None:
            return None
        self.results, self.error, self._running = None, "", True
        job.progress.connect(self._progress)
        job.finished.connect(self._finished)
        self.run_button.setEnabled(False)
        self.cancel_button.show()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(self.tr("Reading the notes…"))
        return job

    def cancel(self) -> None:
        self.jobs.cancel()
        self.status.setText(self.tr("Stopping after the current probe…"))

    def _progress(self, item: object) -> None:
        if not isinstance(item, IndexProgress):
            return
        self.progress.setRange(0, max(item.total, 1))
        self.progress.setValue(item.done)
        if item.phase == "probe":
            text = self.tr("The chat model writes questions: %1 of %2")
        else:
            text = self.tr("Searching for the probes: %1 of %2")
        self.status.setText(fill(text, item.done, item.total))

    def _finished(self) -> None:
        self._running = False
        self.run_button.setEnabled(True)
        self.cancel_button.hide()
        self.progress.hide()
        if self.results is None and not self.error:
            self.status.setText(self.tr("Stopped."))

    def _failed(self, message: str) -> None:
        self.error = message
        self.status.setText(message)

    def _show(self, results: list[ConfigScores] | None) -> None:
        if results is None:
            return
        self.results = results
        kinds = {"sentence": self.tr("Sentences"), "question": self.tr("Questions")}
        kinds["rated"] = self.tr("Your rated questions")
        names = {"current": self.tr("current"), "against": self.tr("edited")}
        headers = [self.tr("Probes"), self.tr("Count")]
        for r in results:
            headers += [f"{names[r.name]} {m.replace('mrr', 'MRR')}" for m in METRICS]
        rows = [k for k in kinds if k in results[0].scores]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(rows))
        for row, kind in enumerate(rows):
            cells = [kinds[kind], str(len(results[0].scores[kind].ranks))]
            for r in results:
                summary = r.scores[kind].summary()
                cells += [f"{summary[m]:.2f}" for m in METRICS]
            for column, cell in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(cell))
        self.table.resizeColumnsToContents()
        self.table.show()
        self.status.setText(
            fill(
                self.tr("%1 probes from your notes."),
                sum(len(s.ranks) for s in results[0].scores.values()),
            )
        )

    def done(self, result: int) -> None:
        self.jobs.close()  # a running probe stops after its current step
        super().done(result)


def open_quality_dialog(
    host: ServiceHost | None,
    settings: AppSettings,
    weights: dict[str, float],
    effective: dict[str, float] | None,
    parent: QWidget,
) -> QualityDialog | None:
    """Open the dialog (window-modal) over `parent`, comparing the `weights` being edited
    with the `effective` ones when they differ; None without an open vault."""
    if host is None:
        return None
    dialog = QualityDialog(host, settings, weights if weights != effective else None, parent)
    dialog.open()
    return dialog
