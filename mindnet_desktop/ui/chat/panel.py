"""The chat panel: ask the vault, watch the answer stream in, follow its citations, see why
each source was used and rate the answer and its sources."""

from __future__ import annotations

import threading
import time
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QThreadPool, QUrl, Signal
from PySide6.QtGui import QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.models.llm import Token
from mindnet_desktop.core.retrieval.explain import system_language
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.ui.chat import ops
from mindnet_desktop.ui.chat.layout import ChatSplitter
from mindnet_desktop.ui.chat.opening import open_in_obsidian, opening
from mindnet_desktop.ui.chat.ops import (
    Answered,
    ModelKey,
    ModelSlot,
    Phase,
    SourcesReady,
    answer_job,
    preload_job,
)
from mindnet_desktop.ui.chat.sources import SourcesPane
from mindnet_desktop.ui.chat.state import Turn, cited, history_of
from mindnet_desktop.ui.chat.text import (
    SOURCES_HREF,
    citation_html,
    parse_citation,
    parse_evidence,
    transcript_html,
    underline_unfounded,
    unfounded_tooltip,
)
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.status_label import PhaseClock, StatusLabel
from mindnet_desktop.ui.support.workers import Job, JobGroup, ServiceHost, run_pure

SHUTDOWN_WAIT_S = 10.0


class ChatPanel(QWidget):
    """Ask questions over the vault with the local chat model.

    Args:
        host: The window's service host (already opened).
        parent: The parent widget.

    Signals:
        open_note_at(note_id, sentence): a source, citation or evidence sentence was
            clicked: the note is shown in the app at that sentence (for a source, the one the
            answer rests on). Sources and citations go to Obsidian instead when the link
            target is "obsidian" (and it opens).
        answer_finished(AskResult): an answer is complete (or stopped, or without model).
        feedback_recorded(dict): a thumbs click was written to the feedback log.
    """

    open_note_at = Signal(str, str)
    answer_finished = Signal(object)
    feedback_recorded = Signal(object)

    def __init__(self, host: ServiceHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.turns: list[Turn] = []
        self.shown_turn: int | None = None
        self.link_target = "preview"
        self.job: Job | None = None
        self._answering = False
        self.max_tokens = 512  # longest answer (tests ask for short ones)
        self._key: ModelKey = (None, 0, 4096, self.max_tokens)
        self._slot = ModelSlot()
        # The model's own thread: loading and streaming never hold the service thread, and
        # one model job runs at a time (an answer, or releasing the model).
        self._model_pool = QThreadPool(self)
        self._model_pool.setMaxThreadCount(1)
        self._cancel = threading.Event()
        self._other_jobs = JobGroup(host, self)  # feedback, releasing, preloading the model
        self._preload: Job | None = None
        self._plain = QTextCharFormat()
        self._build()
        self._other_jobs.failed.connect(self._show_error)

    language: str | None = None  # of the reasons ("de" / "en"; None: the system's)
    expansion: str | None = None  # ask-time expansion (None: prompts.yaml's)

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.splitter = ChatSplitter(self)  # the sources go under the transcript when narrow
        self.view = QTextBrowser(self.splitter)
        self.view.setOpenLinks(False)
        self.view.setPlaceholderText(self.tr("Ask a question about your notes."))
        self.view.anchorClicked.connect(self._link_clicked)
        self.view.viewport().installEventFilter(self)
        self.sources = SourcesPane(self.splitter)
        self.sources.rated.connect(self._rate)
        self.sources.opened.connect(self._source_opened)
        self.sources.obsidian_requested.connect(partial(self._source_opened, obsidian=True))
        self.splitter.set_panes(self.view, self.sources)
        layout.addWidget(self.splitter, 1)
        self.status = StatusLabel(self, wrap=True)
        self.clock = PhaseClock(self.status, self)  # what the answer job does, how long
        layout.addWidget(self.status)
        row = QHBoxLayout()
        self.input = QPlainTextEdit(self)
        self.input.setPlaceholderText(self.tr("Your question (Ctrl+Enter sends)"))
        self.input.setMaximumHeight(90)
        self.input.installEventFilter(self)
        row.addWidget(self.input, 1)
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setToolTip(self.tr("Send the question (Ctrl+Enter)"))
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setToolTip(self.tr("Stop the answer; what arrived stays"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        row.addLayout(buttons)
        layout.addLayout(row)

    # -- public interface -------------------------------------------------------------------

    def configure(
        self,
        model_path: Path | None,
        threads: int,
        n_ctx: int,
        link_target: str,
        expansion: str | None = None,
    ) -> None:
        """Model (None: the packaged default), threads, context size, where citations
        open ("obsidian" or "preview"), and the ask-time expansion (None: the config's). A
        new model is loaded by the next question."""
        self.link_target, self.expansion = link_target, expansion
        key: ModelKey = (str(model_path) if model_path else None, threads, n_ctx, self.max_tokens)
        if key != self._key and self._slot.llm is not None:
            release = partial(ops.release_model, slot=self._slot, keep=(*key[:3], self.max_tokens))
            # Not a model preloaded for the new settings meanwhile.
            self._other_jobs.run_pure(release, "release chat model", pool=self._model_pool)
        self._key = key

    def preload(self) -> Job | None:
        """Load the chat model in the background (`preload_job`): the first question need
        not wait for it; one asked meanwhile shows its sources, then waits for the load."""
        if self.host.closed or self.host.mindnet is None or self.preloading:
            return None
        key = (*self._key[:3], self.max_tokens)
        if self._slot.holds(key):
            return None
        fn = preload_job(self.host, self._slot, key, self.language or system_language())
        self._preload = self._other_jobs.run_pure(fn, "preload chat model")
        return self._preload

    @property
    def preloading(self) -> bool:
        return self._preload is not None and not self._preload.is_finished()

    @property
    def preloaded(self) -> bool:
        """A preload ran to its end (loaded, or failed: the first question says why)."""
        return self._preload is not None and self._preload.is_finished()

    @property
    def model_key(self) -> ModelKey:
        """(GGUF path or None for the packaged default, threads, n_ctx, max_tokens)."""
        return self._key

    def shutdown(self) -> None:
        """Stop a running answer, wait for the panel's jobs and free the model."""
        self._cancel.set()
        answer = self.job
        if answer is not None:
            answer.cancel()  # a job that has not begun returns at once when it starts
        self._other_jobs.close()
        deadline = time.monotonic() + SHUTDOWN_WAIT_S
        answered = answer is None or not answer.has_started() or answer.wait(SHUTDOWN_WAIT_S)
        if answered and self._other_jobs.wait(max(deadline - time.monotonic(), 0.0)):
            self._slot.release()  # no job of the panel runs: safe off the core thread

    # -- asking ------------------------------------------------------------------------------

    def send(self) -> None:
        """Ask the question in the input box (ignored while an answer is running)."""
        question = self.input.toPlainText().strip()
        if not question or self.busy:
            return
        history = history_of(self.turns)
        self._cancel = threading.Event()
        key = (*self._key[:3], self.max_tokens)
        if self.host.closed or self.host.mindnet is None:
            self._show_error(self.tr("The vault is not open."))
            return
        fn = answer_job(
            self.host,
            self._slot,
            key,
            question,
            history,
            self._cancel,
            self.language,
            self.expansion,
        )
        self.job = run_pure(fn, "chat answer", self._model_pool)
        self._connect_answer(self.job)
        self._answering = True
        self.turns.append(Turn(question))
        self.input.clear()
        self.send_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.clock.start(self.tr("Waiting for the vault…"))
        self._render()

    def _connect_answer(self, job: Job) -> None:
        job.progress.connect(self._on_progress)
        job.done.connect(self._on_done)
        job.failed.connect(self._on_failed)
        job.finished.connect(self._on_finished)

    def stop(self) -> None:
        """Stop the running answer: the model stops, what arrived stays (marked stopped)."""
        if self.busy and self.job is not None and not self.job.is_finished():
            self._cancel.set()
            self.stop_button.setEnabled(False)
            self.clock.show(self.tr("Stopping…"))

    @property
    def busy(self) -> bool:
        """An answer runs, or its last signals have not reached the panel yet."""
        return self._answering

    def _on_progress(self, item: object) -> None:
        if isinstance(item, Phase):
            if item.name == "loading":
                self._set_phase(self.tr("Loading the chat model…"))
            elif item.name == "reading":  # the model's prefill, until the first token
                one, many = self.tr("Reading 1 source…"), self.tr("Reading %1 sources…")
                self._set_phase(one if item.count == 1 else fill(many, item.count))
            else:
                self._set_phase(self.tr("Searching the notes and thinking…"))
        elif isinstance(item, Routing):
            self.shown_turn = None  # the sources pane shows the answer being written
            self.sources.show_routing(item)
        elif isinstance(item, SourcesReady) and self.turns:
            self._show_sources(item)
        elif isinstance(item, Token) and self.turns:
            self.turns[-1].answer += item.text
            writing = self.tr("Writing…")
            if self.clock.step != writing:
                self._set_phase(writing)
            cursor = QTextCursor(self.view.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(item.text, self._plain)
            bar = self.view.verticalScrollBar()
            bar.setValue(bar.maximum())

    def _set_phase(self, step: str) -> None:
        """The answer moved on to `step` (an error or a requested stop keeps its line)."""
        if not self.status.error and not self._cancel.is_set():
            self.clock.show(step)

    def _show_sources(self, ready: SourcesReady) -> None:
        """The sources, before the answer: shown with their thumbs (the query is logged)."""
        turn = self.turns[-1]
        turn.result = ready.result
        self.shown_turn = len(self.turns) - 1
        self.sources.show_result(ready.result, turn.ratings, answering=True)
        if ready.result.evidence and not turn.answer:
            self._render()  # "From your notes" above the answer still to come

    def _on_done(self, answered: Answered) -> None:
        turn, result = self.turns[-1], answered.result
        turn.result, turn.vault_name = result, answered.vault_name
        turn.answer = result.answer or turn.answer.strip()
        turn.state = "stopped" if result.cancelled else "done"
        turn.error = result.error
        seconds = round(self.clock.stop())
        if result.error:
            self._show_error(result.error)
        elif result.cancelled:
            self._set_status(fill(self.tr("Stopped after %1 s."), seconds))
        else:
            one, many = self.tr("Answered in %1 s from 1 source."), self.tr("Answered in %1 s.")
            many = self.tr("Answered in %1 s from %2 sources.") if result.sources else many
            n = len(result.sources)
            self._set_status(fill(one if n == 1 else many, seconds, n))
        self.shown_turn = len(self.turns) - 1
        self.sources.show_result(result, turn.ratings)
        self._render()
        self.answer_finished.emit(result)

    def _on_failed(self, message: str) -> None:
        self.clock.stop()
        if self.turns and self.turns[-1].state == "running":
            self.turns[-1].state, self.turns[-1].error = "failed", message
        self._show_error(message)
        self._render()

    def _on_finished(self) -> None:
        self.clock.stop()
        self._answering = False
        self.send_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        if self.turns and self.turns[-1].state == "running":  # cancelled without a result
            self.turns[-1].state = "stopped"
            self._render()

    # -- rendering ---------------------------------------------------------------------------

    def _render(self) -> None:
        self.view.setHtml(transcript_html(self.turns, lambda n: self.tr("Sources (%n)", "", n)))
        underline_unfounded(self.view.document())
        bar = self.view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _set_status(self, text: str) -> None:
        self.status.show_text(text)

    def _show_error(self, message: str) -> None:
        self.status.show_error(fill(self.tr("Error: %1"), message))

    # -- citations and sources ---------------------------------------------------------------

    def citation_hit(self, href: str) -> tuple[Turn, ScoredHit, int] | None:
        """The turn and source a `cite:<turn>/<n>` link points at."""
        return cited(self.turns, parse_citation(href))

    def citation_tooltip(self, href: str) -> str | None:
        return citation_html(self.citation_hit(href))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.input and event.type() == QEvent.Type.KeyPress:
            key = event if isinstance(event, QKeyEvent) else None
            if (
                key is not None
                and key.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and key.modifiers() & Qt.KeyboardModifier.ControlModifier
            ):
                self.send()
                return True
        if watched is self.view.viewport() and event.type() == QEvent.Type.ToolTip:
            href = self.view.anchorAt(event.pos())
            tip = self.citation_tooltip(href) or unfounded_tooltip(href)
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.view.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().eventFilter(watched, event)

    def _link_clicked(self, url: QUrl) -> None:
        href = url.toString()
        evidence = parse_evidence(href)
        if evidence is not None:
            i, k = evidence
            result = self.turns[i].result if 0 <= i < len(self.turns) else None
            if result is not None and 0 <= k < len(result.evidence):
                self.open_note_at.emit(result.evidence[k].note_id, result.evidence[k].sentence)
            return
        found = self.citation_hit(href)
        if found:
            self._open(found[0], found[2])
            return
        match = SOURCES_HREF.match(href)
        if match and int(match.group(1)) < len(self.turns):
            self._show_turn(int(match.group(1)))

    def _show_turn(self, i: int) -> None:
        self.shown_turn = i
        self.sources.show_result(self.turns[i].result, self.turns[i].ratings)

    def _source_opened(self, n: int, obsidian: bool | None = None) -> None:
        if self.shown_turn is not None:
            self._open(self.turns[self.shown_turn], n, obsidian)

    def _open(self, turn: Turn, n: int, obsidian: bool | None = None) -> None:
        """Open source `n` of `turn` in the app at its supporting sentence, or in Obsidian
        (`obsidian`; None: as the link target says), in the app when Obsidian does not open."""
        target = opening(turn, n)
        if target is None:
            return
        if self.link_target == "obsidian" if obsidian is None else obsidian:
            if open_in_obsidian(target):
                return
            self._set_status(fill(self.tr("Obsidian did not open (%1): shown here."), target.url))
        self.open_note_at.emit(target.note_id, target.sentence)

    # -- feedback ----------------------------------------------------------------------------

    def _rate(self, node_id: str, rating: str) -> None:
        if self.shown_turn is None or self.turns[self.shown_turn].result is None:
            return
        turn = self.turns[self.shown_turn]
        query_id = turn.result.query_id if turn.result else ""
        before = turn.ratings.get(node_id)
        if rating == "clear":
            turn.ratings.pop(node_id, None)
        else:
            turn.ratings[node_id] = rating

        def undo(message: str) -> None:
            if before is None:
                turn.ratings.pop(node_id, None)
            else:
                turn.ratings[node_id] = before
            buttons = self.sources.buttons_for(node_id)
            if buttons is not None and self.turns.index(turn) == self.shown_turn:
                buttons.set_rating(before)
            self._show_error(message)

        write = partial(ops.rate, query_id=query_id, node_id=node_id, rating=rating)
        job = self._other_jobs.submit(write, "feedback", self.feedback_recorded)
        if job is None:
            undo(self.tr("The feedback could not be saved."))
        else:
            job.failed.connect(undo)
