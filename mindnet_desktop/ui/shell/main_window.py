"""The main window: chat and graph side by side, index status dock, menus, status bar.

The window owns one `ServiceHost` per open vault (the GUI is the data dir's writer) and a
`VaultIndexer` that imports on open, on request and when the watcher sees changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QWidget,
)

from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.config.retriever import load_retriever_config
from mindnet_desktop.core.config.type_registry import ConfigError
from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.ingest.watcher import DEBOUNCE
from mindnet_desktop.core.models.embedders import Embedder, make_embedder
from mindnet_desktop.core.service.ask.pipeline import expansion_mode
from mindnet_desktop.ui.chat.panel import ChatPanel
from mindnet_desktop.ui.dialogs.note_preview import PreviewDock
from mindnet_desktop.ui.dialogs.probe import QualityDialog, open_quality_dialog
from mindnet_desktop.ui.dialogs.ratings import RatingsDialog
from mindnet_desktop.ui.dialogs.settings import SettingsDialog
from mindnet_desktop.ui.graph.view import GraphView
from mindnet_desktop.ui.index.indexer import ERROR, IMPORTING, STOPPED, VaultIndexer
from mindnet_desktop.ui.index.ops import IndexStats
from mindnet_desktop.ui.index.panel import IndexPanel
from mindnet_desktop.ui.shell import ops
from mindnet_desktop.ui.shell.geometry import restore_geometry
from mindnet_desktop.ui.shell.menu import build_menus
from mindnet_desktop.ui.shell.status_bar import IndexStatusBar
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.settings import AppSettings
from mindnet_desktop.ui.support.workers import ServiceHost

EmbedderFactory = Callable[[str, int], Embedder]
CHAT_SHARE, GRAPH_SHARE = 11, 9  # of the central splitter's width
GRAPH_MIN_WIDTH = 280  # the graph view stays usable beside the chat
translate = QCoreApplication.translate


@dataclass(frozen=True)
class VaultLocation:
    """Where a vault's index and config live (None: the defaults)."""

    data_dir: Path | None = None
    config_dir: Path | None = None


class MainWindow(QMainWindow):
    """Args:
    settings: The app settings.
    location: `--data-dir` / `--config` overrides.
    embedder_factory: Makes the embedder from (name, threads); tests pass a HashEmbedder.
    example_vault: Offered by File > Open vault.
    """

    def __init__(
        self,
        settings: AppSettings,
        location: VaultLocation | None = None,
        embedder_factory: EmbedderFactory | None = None,
        example_vault: Path | None = None,
        debounce: float = DEBOUNCE,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.ui_language = settings.language  # a change takes effect at the next start
        self.location = location or VaultLocation()
        self.embedder_factory = embedder_factory or (
            lambda name, threads: make_embedder(name, threads)
        )
        self.example_vault = example_vault
        self.debounce = debounce
        self.vault: Path | None = None
        self.host: ServiceHost | None = None
        self.indexer: VaultIndexer | None = None
        self.chat: ChatPanel | None = None
        self.graph: GraphView | None = None
        self._graph_stale = False  # an import changed notes while the graph was hidden
        self.stats: IndexStats | None = None
        self.last_error = ""
        self._effective_weights: dict[str, float] | None = None
        self.setWindowTitle(self.tr("Mindnet"))
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("centralSplitter")
        self.setCentralWidget(self.splitter)
        self.index_panel = IndexPanel()
        self.index_panel.note_selected.connect(self.show_note)
        self.index_dock = QDockWidget(self.tr("Index status"), self)
        self.index_dock.setObjectName("indexDock")
        self.index_dock.setWidget(self.index_panel)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.index_dock)
        self.preview_dock = PreviewDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.preview_dock)
        self.preview_dock.hide()
        build_menus(self)
        self._build_status_bar()
        self._restore_geometry()

    # Building
    def _build_status_bar(self) -> None:
        self.status = IndexStatusBar(self)
        self.setStatusBar(self.status)
        self.status.cancel_requested.connect(self._cancel_import)
        # The parts tests and the screenshot script look at.
        self.progress_bar = self.status.progress_bar
        self.cancel_button = self.status.cancel_button
        self.watch_label = self.status.watch_label
        self.counts_label = self.status.counts_label
        self._show_state(STOPPED)

    # Opening a vault
    def open_vault(self, vault: Path, force: bool = False, reembed: bool = False) -> None:
        """Open `vault` (closing the current one), import it, then watch it; `reembed`:
        the index was built with another embedding model, embed every note anew."""
        self.close_vault()
        self.vault = vault.resolve()
        self.setWindowTitle(fill(self.tr("Mindnet – %1"), self.vault.name))
        s = self.settings
        opener = partial(
            ops.open_writer,
            **self._index_place(),
            read_only_vault=s.read_only_vault,
            reembed=reembed,
            weights=s.retriever_weights,
        )
        self.host = ServiceHost(opener, self)
        # Readable: the snapshots answer, and the start's import checks the vault before the
        # store opens in the background (`opened`). Connected first: the check and the
        # counts go ahead of the panels' loads.
        self.host.readable.connect(lambda _mn: self._on_opened(force))
        self.chat = ChatPanel(self.host)
        self.graph = GraphView(self.host)
        self.splitter.addWidget(self.chat)
        self.splitter.addWidget(self.graph)
        self.splitter.setStretchFactor(0, CHAT_SHARE)  # the chat a bit wider than the graph
        self.splitter.setStretchFactor(1, GRAPH_SHARE)
        # The split starts in that ratio too, not by the panes' size hints (the graph's is
        # wide); sizes in a ratio are spread over whatever width the splitter gets.
        self.splitter.setSizes([CHAT_SHARE * 100, GRAPH_SHARE * 100])
        self.splitter.setChildrenCollapsible(False)  # the View menu hides the graph
        self.graph.setMinimumWidth(GRAPH_MIN_WIDTH)
        self.graph.setVisible(self.graph_action.isChecked())
        self.preview_dock.attach(self.host)
        self.chat.open_note_at.connect(self.show_note)
        self.chat.answer_finished.connect(self.graph.show_answer)  # the graph follows
        self.graph.note_selected.connect(
            lambda note_id: self.statusBar().showMessage(note_id, 5000)
        )
        self.graph.error.connect(lambda message: self.statusBar().showMessage(message, 15000))
        self._configure_chat()
        self.indexer = VaultIndexer(self.host, self.debounce, self)
        self.indexer.embed_workers = self.settings.embed_workers
        self.indexer.progress.connect(self._on_progress)
        self.indexer.imported.connect(self._on_imported)
        self.indexer.stats_ready.connect(self._on_stats)
        self.indexer.state_changed.connect(self._show_state)
        self.indexer.failed.connect(lambda m: self.show_error(self.tr("Import failed"), m))
        self.host.open_failed.connect(self._on_open_failed)
        self.host.open()

    def _index_place(self) -> dict[str, Any]:
        """What opening the vault's index takes, a writer or a reader: the vault, its data
        and config dirs, and the embedder of the settings as they are now."""
        s, loc = self.settings, self.location
        return {
            "vault": self.vault,
            "data_dir": loc.data_dir,
            "config_dir": loc.config_dir,
            "embedder": partial(
                ops.settings_embedder,
                self.embedder_factory,
                s.embedder,
                s.threads,
                self.vault,
                loc.data_dir,
            ),
        }

    def _on_opened(self, force: bool) -> None:
        if self.indexer is None or self.host is None:
            return
        self.settings.vault = self.vault  # remembered (and recent) once it opened
        self.indexer.refresh_stats()
        job = self.host.submit(ops.retriever_weights, "weights")
        job.done.connect(self._remember_weights)
        job.failed.connect(lambda m: self.show_error(self.tr("Settings"), m))
        self.indexer.import_now(
            ImportOptions(sync_deletes=True, force=force), then=self._after_first_import
        )
        self.indexer.start_watching()  # beside the import: no change between them is missed

    def _remember_weights(self, weights: dict[str, float]) -> None:
        self._effective_weights = weights

    def _after_first_import(self) -> None:
        if self.host is not None and not self.host.closed:  # checked: the store opens now
            self.host.submit(ops.open_store, "open store")
        if self.indexer is not None and self.indexer.state != ERROR:
            self.indexer.start_watching()
        self._configure_chat()  # preloads the chat model now that the import is done

    def _on_open_failed(self, message: str) -> None:
        if self.indexer is not None:  # the store failed after the snapshots answered
            self.indexer.stop()
        self._show_state(ERROR)
        self.show_error(self.tr("The vault cannot be opened"), message)

    def close_vault(self) -> None:
        """Stop the watcher and every job, shut the panels down, release the data dir."""
        if self.indexer is not None:
            self.indexer.stop()
            self.indexer.deleteLater()
            self.indexer = None
        for panel in (self.chat, self.graph):
            if panel is not None:
                panel.shutdown()
        if self.host is not None:
            self.host.close()
            self.host.deleteLater()
            self.host = None
        for panel in (self.chat, self.graph):
            if panel is not None:
                panel.setParent(None)
                panel.deleteLater()
        self.chat = self.graph = None
        self._graph_stale = False
        self._hide_progress()

    # Import feedback
    def _on_progress(self, progress: IndexProgress) -> None:
        self.status.show_progress(progress)

    def _hide_progress(self) -> None:
        self.status.hide_progress()

    def _on_imported(self, summary: object) -> None:
        self._hide_progress()
        self.index_panel.show_summary(summary)  # type: ignore[arg-type]
        changed = sum(getattr(summary, n, 1) for n in ("added", "changed", "deleted"))
        if changed:
            self.preview_dock.refresh()
        if self.graph is not None and (changed or not self.graph.reloads):
            if self.graph_action.isChecked():
                self.graph.reload()
            else:  # hidden: read again when shown, not after every save
                self._graph_stale = True

    def _on_stats(self, stats: IndexStats) -> None:
        self.stats = stats
        self.status.show_counts(stats)
        self.index_panel.show_stats(stats)

    def _show_state(self, state: str) -> None:
        self.status.show_state(state)
        self.reimport_action.setEnabled(state != IMPORTING and self.host is not None)

    def _cancel_import(self) -> None:
        if self.indexer is not None:
            self.indexer.cancel()

    def reimport(self, force: bool = False) -> None:
        if self.indexer is not None and not self.indexer.importing:
            self.indexer.import_now(
                ImportOptions(sync_deletes=True, force=force), then=self._after_first_import
            )

    # Menus
    def choose_vault(self) -> None:
        from mindnet_desktop.ui.dialogs.vault_picker import pick_vault

        vault = pick_vault(self.settings.recent_vaults, self.example_vault, self)
        if vault is not None:
            self.open_vault(vault)

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_vaults:
            action = self.recent_menu.addAction(str(path))
            action.setEnabled(path.is_dir())
            action.triggered.connect(lambda _c=False, p=path: self.open_vault(p))

    def show_note(self, note_id: str, highlight: str = "") -> None:
        """Preview a note in the app (its text in the preview dock; `highlight`: a sentence
        to scroll to and mark) and focus it in the graph view (shown if hidden)."""
        if self.graph is None:
            return
        self.preview_dock.show_note(note_id, highlight)
        if not self.graph_action.isChecked():
            self.graph_action.setChecked(True)
            self.toggle_graph()
        self.graph.focus_note(note_id)

    def toggle_graph(self) -> None:
        if self.graph is not None:
            shown = self.graph_action.isChecked()
            self.graph.setVisible(shown)
            if shown and self._graph_stale:
                self._graph_stale = False
                self.graph.reload()

    def focus_input(self) -> None:
        """Ctrl+F: the chat panel's first editable text field gets the focus."""
        if self.chat is None:
            return
        for kind in (QLineEdit, QPlainTextEdit, QTextEdit):
            for field in self.chat.findChildren(kind):
                if not field.isReadOnly() and field.isVisibleTo(self.chat):
                    field.setFocus(Qt.FocusReason.ShortcutFocusReason)
                    return
        self.chat.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def about(self) -> None:
        from mindnet_desktop import __version__

        QMessageBox.about(
            self,
            self.tr("About Mindnet"),
            fill(
                self.tr(
                    "Mindnet Desktop %1\n\nA local second brain over your Obsidian vault: "
                    "typed knowledge graph, hybrid search and a local chat model. "
                    "Nothing leaves your machine."
                ),
                __version__,
            ),
        )

    def open_ratings(
        self,
        parent: QWidget | None = None,
        on_applied: Callable[[dict[str, float]], None] | None = None,
        learn: bool = False,
    ) -> None:
        """Your ratings: list, forget, learn the weights from them (`RatingsDialog`), over
        `parent` (default: the window); `on_applied` is also told of weights the user applies;
        `learn`: start learning at once (Settings → Learn from my ratings)."""
        if self.host is None or self.vault is None:
            self.show_error(
                translate("RatingsDialog", "Ratings"),
                translate("Workers", "The vault is not open."),
            )
            return
        reader = partial(ops.open_reader, **self._index_place())

        def applied(weights: dict[str, float]) -> None:
            self.remember_weights(weights)
            if on_applied is not None:
                on_applied(weights)

        dialog = RatingsDialog(self.host, reader, applied, parent or self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        if learn:
            dialog.learn()

    def remember_weights(self, weights: dict[str, float]) -> None:
        """Weights written by the app (tuning): the app's own setting must not undo them."""
        if self.settings.retriever_weights is not None:
            self.settings.retriever_weights = weights
        self._effective_weights = weights

    def open_settings(self) -> None:
        weights = self._effective_weights or load_retriever_config().weights
        check = self.check_quality if self.host is not None else None
        learn = partial(self.open_ratings, learn=True) if self.host is not None else None
        configured = self._configured_expansion()
        dialog = SettingsDialog(self.settings, weights, self, check, learn, configured)
        if dialog.exec():
            self.apply_settings(dialog.apply())

    def _configured_expansion(self) -> str:
        """The ask-time expansion of the open vault's `prompts.yaml` (else the bundled's)."""
        mn = self.host.mindnet if self.host is not None else None
        try:
            return expansion_mode(mn) if mn is not None else load_prompts().expansion
        except ConfigError:
            return "none"  # the next question reports the file's error

    def check_quality(self, weights: dict[str, float], parent: QWidget) -> QualityDialog | None:
        """Settings → Check search quality, with `weights` being edited (`probe_dialog`)."""
        return open_quality_dialog(
            self.host, self.settings, weights, self._effective_weights, parent
        )

    def apply_settings(self, changed: set[str]) -> None:
        """React to changed settings (names as in `SettingsDialog.apply`)."""
        chat = {"chat_model", "threads", "context_size", "link_target", "preload_chat_model"}
        if changed & (chat | {"expansion"}):
            self._configure_chat()
        if "embed_workers" in changed and self.indexer is not None:
            self.indexer.embed_workers = self.settings.embed_workers  # from the next import
        if "language" in changed:
            self.statusBar().showMessage(self.tr("The language changes at the next start."), 8000)
        if "embedder" in changed and self.vault is not None:
            answer = QMessageBox.question(
                self,
                self.tr("Embedding model changed"),
                self.tr("Re-index the vault with the new embedding model now?"),
            )
            if answer == QMessageBox.StandardButton.Yes:
                self.open_vault(self.vault, reembed=True)
                return
            if self.host is not None and self.host.mindnet is not None:
                self.settings.embedder = self.host.mindnet.embedder.name  # the index's model
        if "vault" in changed and self.settings.vault is not None:
            self.open_vault(self.settings.vault)
            return
        if "read_only_vault" in changed and self.vault is not None:
            self.open_vault(self.vault)
            return
        weights = self.settings.retriever_weights
        if "retriever_weights" in changed and weights is not None and self.host is not None:
            job = self.host.submit(partial(ops.set_weights, weights=weights), "set weights")
            job.failed.connect(lambda m: self.show_error(self.tr("Settings"), m))
            self._effective_weights = weights

    def _configure_chat(self) -> None:
        s = self.settings
        if self.chat is not None:
            self.chat.configure(
                s.chat_model_path, s.threads, s.context_size, s.link_target, s.expansion
            )
            self.chat.language = self.ui_language  # the reasons speak the UI's language
            if s.preload_chat_model:  # once the vault is open (not while it is imported)
                self.chat.preload()

    def show_error(self, title: str, message: str) -> None:
        """A visible, non-blocking message (and the status bar keeps it too)."""
        self.last_error = message
        self.statusBar().showMessage(message, 15000)
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, parent=self)
        box.setObjectName("errorMessage")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # Geometry and closing
    def _restore_geometry(self) -> None:
        restore_geometry(self, self.settings.store, self.index_dock)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.store.setValue("window/geometry", self.saveGeometry())
        self.settings.store.setValue("window/state", self.saveState())
        self.settings.sync()
        self.close_vault()
        super().closeEvent(event)
