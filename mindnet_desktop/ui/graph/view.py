"""The graph view pane: the knowledge graph around the selected note, the whole vault, or
the last answer's sources and how they link (the cited ones ringed), filtered by kind,
direction, depth, folder, tag and more; hover a node to highlight its neighbourhood, click
it for its text (Markdown), neighbours and related notes, double-click for its local view;
search by title or alias; colour by type, folder or community; delete, restore and create
edges, link a related note with one click.

Every service call runs on the `ServiceHost`'s core thread, the layout on the global pool
(`run_pure`, on copied ids); the GUI thread only builds the scene. A generation counter
drops results of requests that a newer one has replaced.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QMenu, QSplitter, QVBoxLayout, QWidget

from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.support import answer_notes
from mindnet_desktop.core.graph.slice import GraphSlice
from mindnet_desktop.core.graph.slice_tools import find_node
from mindnet_desktop.ui.graph import ops
from mindnet_desktop.ui.graph.answer import legend as answer_legend
from mindnet_desktop.ui.graph.answer import mark_answer
from mindnet_desktop.ui.graph.canvas import GraphCanvas
from mindnet_desktop.ui.graph.colours import colours
from mindnet_desktop.ui.graph.controls import GraphControls
from mindnet_desktop.ui.graph.layout import Positions
from mindnet_desktop.ui.graph.ops import Fetched, SliceRequest
from mindnet_desktop.ui.graph.related import RelatedNotes
from mindnet_desktop.ui.graph.side import GraphSidePanel
from mindnet_desktop.ui.support.i18n import fill
from mindnet_desktop.ui.support.workers import JobGroup, ServiceHost


class GraphView(QWidget):
    """The graph pane of the main window.

    Args:
        host: The window's open `ServiceHost`.
    """

    note_selected = Signal(str)
    drawn = Signal()  # the scene shows the latest request (tests, benchmarks)
    error = Signal(str)

    def __init__(self, host: ServiceHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.root: str | None = None
        self.selected: str | None = None
        self.edge_source: str | None = None
        self.edge_target: str | None = None
        self.layout_seconds = 0.0
        self._generation = 0
        self._jobs = JobGroup(host, self)
        self._jobs.failed.connect(self._failed)
        self._kinds: list[str] = []
        self.last_created: str | None = None
        self._positions: Positions = {}  # of the last layout
        self._communities: dict[str, int] | None = None  # of the drawn slice, once asked for
        self._answer_drawn = False  # the scene shows an answer's notes, ringed
        self.answer_notes: tuple[str, ...] = ()  # the last answer's sources (their notes)
        self.cited: frozenset[str] = frozenset()  # those of them the answer cites

        self.controls = GraphControls(self)
        self.canvas = GraphCanvas(self)
        self.side = GraphSidePanel(self)
        left = QWidget(self)
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.controls)
        column.addWidget(self.canvas, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(splitter)

        self.controls.changed.connect(self.reload)
        self.canvas.node_clicked.connect(self.select_node)
        self.canvas.node_double_clicked.connect(self.open_local)
        self.canvas.menu_requested.connect(self._show_menu)
        self.controls.colour_changed.connect(self._recolour)
        self.controls.search_requested.connect(self.search)
        self.side.neighbour_activated.connect(self.focus_note)
        self.related = RelatedNotes(self._jobs, self.side, lambda: self.selected, self)
        self.related.linked.connect(self._edge_linked)
        self.side.create_requested.connect(self.create_edge)
        self.side.clear_requested.connect(self._clear_new_edge)
        if host.mindnet is None:
            host.readable.connect(self.reload)  # the snapshots answer before the store opens
        else:
            self.reload()

    # -- public interface ------------------------------------------------------------------
    @Slot(str)
    def focus_note(self, note_id: str) -> None:
        """Centre the view on a note: in neighbourhood mode its neighbourhood is redrawn; the
        whole vault and an answer's notes stay when they hold it (else its neighbourhood)."""
        self.root = note_id
        self.selected = note_id
        mode = self.controls.mode()
        if mode != "neighbourhood" and note_id in self.canvas.nodes:
            self.canvas.mark("selected", note_id, "#ffb000")
            self.canvas.center_on(note_id)
            self._load_details(note_id)
        elif mode == "answer":
            self.controls.set_mode("neighbourhood")  # emits `changed`: reloads
        else:
            self.reload()

    def show_answer(self, result: AskResult) -> None:
        """Follow the conversation: draw an answer's sources and how they link, the cited
        ones ringed (an answer without sources changes nothing)."""
        notes, cited = answer_notes(result)
        if not notes or self._closed:
            return
        self.answer_notes, self.cited = tuple(notes), frozenset(cited)
        self.selected = next((n for n in notes if n in cited), notes[0])  # its side panel
        self.controls.blockSignals(True)  # one reload, also when the mode stays "answer"
        self.controls.set_mode("answer")
        self.controls.blockSignals(False)
        self.reload()

    @Slot(str)
    def open_local(self, note_id: str) -> None:
        """The local view of a note: its neighbourhood (double-click)."""
        self.root = self.selected = note_id
        if self.controls.mode() != "neighbourhood":
            self.controls.set_mode("neighbourhood")  # emits `changed`: reloads
        else:
            self.reload()

    @Slot(str)
    def search(self, text: str) -> None:
        """Find a note by title or alias (exact, else the start, else a part of it, case
        ignored), select it and centre it; a note not drawn opens in its local view."""
        found = find_node(self.canvas.slice, text)
        if found is not None:
            self.select_node(found)
            self.canvas.zoom_to_read(found)
            return
        self._jobs.submit(partial(ops.find_note, text=text), "find note", self.open_local)

    @property
    def reloads(self) -> int:
        """How often the view read the graph again (tests and the status bar)."""
        return self._generation

    @Slot()
    def reload(self, *_: object) -> None:
        """Read the graph again (the store changed, a filter changed)."""
        if self._closed or self.host.mindnet is None:
            return
        self._generation += 1
        generation = self._generation
        c = self.controls
        request = SliceRequest(
            c.whole_vault(),
            self.root,
            c.depth(),
            c.direction(),
            c.kinds(),
            c.show_deleted(),
            c.filters(),
            self.answer_notes if c.mode() == "answer" else None,
        )
        self.controls.set_status(self.tr("Loading the graph…"))
        # An answer's picture is small and ringed by the answer: always drawn anew, and the
        # next picture after it too.
        kept = self.canvas.nodes and request.notes is None and not self._answer_drawn
        drawn = self.canvas.slice if kept else None
        self._jobs.submit(
            partial(ops.fetch_slice, request=request, drawn=drawn),
            "graph slice",
            lambda result: self._slice_ready(generation, result),
        )

    def node_count(self) -> int:
        """Nodes drawn."""
        return len(self.canvas.nodes)

    def edge_count(self) -> int:
        """Edges drawn."""
        return len(self.canvas.edges)

    def shutdown(self) -> None:
        """Cancel every job; results that still arrive are dropped."""
        self._jobs.close()

    @property
    def _closed(self) -> bool:
        return self._jobs.closed

    # -- loading ---------------------------------------------------------------------------
    def _slice_ready(self, generation: int, fetched: Fetched) -> None:
        if self._closed or generation != self._generation:
            return
        graph, kinds = fetched.graph, fetched.kinds
        self.controls.set_choices(fetched.folders, fetched.tags)
        self.controls.set_names(fetched.names)
        if kinds != self._kinds:
            self._kinds = kinds
            self.controls.set_kinds(kinds)
            self.side.set_kinds(kinds)
        if graph.root is not None:
            self.root = graph.root
        if fetched.unchanged:
            # The store changed but not this picture (most edits of a note's text; an edge's
            # id names its chunk, so a link that moved to another chunk redraws), or a filter
            # left the same notes: the scene, zoom and colours stay; rebuilding them would
            # hold the window for 0.1-0.4 s at 6,500 notes, 0.9 s at 50,000, after a save.
            self._layout_ready(generation, graph, self._positions, 0.0, keep=True, redraw=False)
            return
        ids = list(graph.nodes)
        if ids and all(node in self._positions for node in ids):
            # Same notes as the last layout (a filter or "show deleted" changed, or an edge):
            # keep them where they are, so the picture does not jump.
            kept = {node: self._positions[node] for node in ids}
            self._layout_ready(generation, graph, kept, 0.0, keep=True)
            return
        pairs = [(e.source, e.target) for e in graph.edges]
        # A note or two more or less: the old positions stay and the new notes are placed
        # beside their neighbours (`compute_layout` decides what "a little" is).
        previous = dict(self._positions)
        self.controls.set_status(fill(self.tr("Laying out %1 notes…"), len(ids)))
        self._jobs.run_pure(
            partial(
                ops.lay_out, ids=ids, pairs=pairs, previous=previous, cache=fetched.layout_file
            ),
            "graph layout",
            lambda result: self._layout_ready(generation, graph, *result),
        )

    def _layout_ready(
        self,
        generation: int,
        graph: GraphSlice,
        positions: Positions,
        seconds: float,
        keep: bool = False,
        redraw: bool = True,
    ) -> None:
        if self._closed or generation != self._generation:
            return
        if redraw:
            self._draw(graph, positions, seconds, keep)
        answer = self.controls.mode() == "answer"
        if answer:
            mark_answer(self.canvas, self.answer_notes, self.cited)
            if self.selected in self.canvas.nodes:
                self.select_node(self.selected, announce=False)
        if redraw:
            self._answer_drawn = answer
            self._recolour()
        self.canvas.mark("source", self.edge_source, "#d62728")
        counts = fill(self.tr("%1 notes, %2 edges"), self.node_count(), self.edge_count())
        if answer:
            cited = len(self.cited & set(self.canvas.nodes))
            counts = fill(self.tr("Last answer, %1 cited: %2"), cited, counts)
        self.controls.set_status(counts)
        if graph.root and self.selected in (None, graph.root):
            self.select_node(graph.root, announce=False)
        elif not answer and self.selected in self.canvas.nodes:
            # A save may have changed the selected note's text or links: its details again
            # (the side panel keeps its scroll when the text is the same).
            self._load_details(self.selected, related=False)
        self.drawn.emit()

    def _draw(self, graph: GraphSlice, positions: Positions, seconds: float, keep: bool) -> None:
        """Replace the scene; the zoom stays when the notes drawn before kept their place."""
        self.layout_seconds = seconds
        # Notes that were drawn before and kept their place: the user's zoom and pan stay.
        moved = not any(n in self._positions for n in positions) or any(
            n in self._positions and positions[n] != self._positions[n] for n in positions
        )
        if keep or (self._positions and not moved):
            transform, centre = self.canvas.transform(), self.canvas.centre()
            self.canvas.show_slice(graph, positions)
            self.canvas.setTransform(transform)
            self.canvas.centerOn(centre)
            self.canvas.update_labels()
        else:
            self.canvas.show_slice(graph, positions)
            self.canvas.fit()
        if not keep:
            self._positions = positions
        self._communities = None

    def _recolour(self, *_: Any) -> None:
        """Colour the nodes by the chosen mode; communities are computed off the GUI thread
        the first time they are asked for."""
        graph, mode = self.canvas.slice, self.controls.colour_mode()
        if mode == "community" and self._communities is None:

            def found(result: dict[str, int]) -> None:
                # The communities of the drawn slice: still right after a reload that kept it.
                if graph is self.canvas.slice and not self._closed:
                    self._communities = result
                    self._recolour()

            self._jobs.run_pure(partial(ops.find_communities, graph=graph), "communities", found)
            return
        brushes, groups, kinds = colours(graph, mode, self._communities)
        self.canvas.set_brushes(brushes)
        named = [(name or self.tr("unresolved link"), colour) for name, colour in groups]
        marks = answer_legend() if self.controls.mode() == "answer" else None
        self.side.set_legend(named, kinds, marks)

    def _failed(self, message: str) -> None:
        if self._closed:
            return
        self.controls.set_status(message, error=True)
        self.error.emit(message)

    # -- selection and details ---------------------------------------------------------------
    @Slot(str)
    def select_node(self, node_id: str, announce: bool = True) -> None:
        """Select a drawn node: outline it, list its neighbours, show a preview."""
        self.selected = node_id
        self.canvas.mark("selected", node_id, "#ffb000")
        node = self.canvas.slice.nodes.get(node_id)
        if node is None or node.kind != "note":
            self.side.show_details(None, [], "")
            return
        if announce:
            self.note_selected.emit(node_id)
        self._load_details(node_id)

    def _load_details(self, node_id: str, related: bool = True) -> None:
        c = self.controls
        details = partial(
            ops.node_details,
            node_id=node_id,
            direction=c.direction(),
            kinds=c.kinds(),
            deleted=c.show_deleted(),
        )
        self._jobs.submit(
            details, "graph details", lambda result: self._details_ready(node_id, *result)
        )
        if related:
            self.related.load(node_id)

    def _details_ready(
        self, node_id: str, info: dict[str, Any], neighbours: list[dict[str, Any]], text: str
    ) -> None:
        if self._closed or node_id != self.selected:
            return
        self.side.show_details(info, neighbours, text)

    # -- context menus -------------------------------------------------------------------------
    def menu_for(self, role: str, item_id: str) -> QMenu:
        """The context menu of a node or an edge (built here, shown by `_show_menu`)."""
        menu = QMenu(self)
        if role == "edge":
            edge = self.canvas.edge_data[item_id]
            if edge.deleted:
                action = menu.addAction(self.tr("Restore edge"))
                action.triggered.connect(lambda: self.restore_edge(item_id))
            else:
                action = menu.addAction(self.tr("Delete edge"))
                action.triggered.connect(lambda: self.delete_edge(item_id))
            return menu
        note = self.canvas.slice.nodes[item_id].kind == "note"
        focus = menu.addAction(self.tr("Show its neighbourhood"))
        focus.triggered.connect(lambda: self.focus_note(item_id))
        start = menu.addAction(self.tr("Start edge from here"))
        start.triggered.connect(lambda: self.set_edge_source(item_id))
        connect = menu.addAction(self.tr("Connect to here"))
        connect.triggered.connect(lambda: self.set_edge_target(item_id))
        for action in (focus, start, connect):
            action.setEnabled(note)
        connect.setEnabled(note and self.edge_source not in (None, item_id))
        return menu

    def _show_menu(self, role: str, item_id: str, where: QPoint) -> None:
        menu = self.menu_for(role, item_id)
        menu.exec(where)
        menu.deleteLater()

    @staticmethod
    def action(menu: QMenu, text: str) -> QAction:
        """The menu's action with this text (tests drive menus through it)."""
        return next(a for a in menu.actions() if a.text() == text)

    # -- edge actions ---------------------------------------------------------------------------
    def delete_edge(self, edge_id: str) -> None:
        self._jobs.submit(partial(ops.delete_edge, edge_id=edge_id), "delete", self.reload)

    def restore_edge(self, edge_id: str) -> None:
        self._jobs.submit(partial(ops.restore_edge, edge_id=edge_id), "restore", self.reload)

    def set_edge_source(self, node_id: str) -> None:
        self.edge_source = node_id
        if self.edge_target == node_id:
            self.edge_target = None
        self.canvas.mark("source", node_id, "#d62728")
        self._show_new_edge()

    def set_edge_target(self, node_id: str) -> None:
        self.edge_target = node_id
        self._show_new_edge()

    def _show_new_edge(self) -> None:
        nodes = self.canvas.slice.nodes

        def title(node_id: str | None) -> str:
            return nodes[node_id].title if node_id in nodes else (node_id or "")

        self.side.show_new_edge(title(self.edge_source), title(self.edge_target))

    def _clear_new_edge(self) -> None:
        self.edge_source = self.edge_target = None
        self.canvas.mark("source", None, "#d62728")
        self.side.show_new_edge("", "")

    @Slot(str)
    def create_edge(self, kind: str) -> None:
        """Create `edge_source -[kind]-> edge_target` through the core (a callout in the
        note, or the overlay in read-only-vault mode), then redraw."""
        source, target = self.edge_source, self.edge_target
        if source is None or target is None or not kind:
            self._failed(self.tr("Pick a source note, a target note and a kind first."))
            return
        create = partial(ops.create_edge, source=source, kind=kind, target=target)
        self._jobs.submit(create, "create edge", self._edge_created)

    def _edge_linked(self, edge_id: str) -> None:
        self.last_created = edge_id
        self.reload()

    def _edge_created(self, edge_id: str) -> None:
        self.last_created = edge_id
        self._clear_new_edge()
        self.reload()
