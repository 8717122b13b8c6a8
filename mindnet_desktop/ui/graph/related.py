"""The side panel's "Related" list: the notes most similar to the selected one (only those
not yet linked, unless the user unticks it), read on the core thread; "Link" creates a
`related_to` edge through the edge API and the list is read again."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from mindnet_desktop.ui.graph import ops
from mindnet_desktop.ui.graph.side import GraphSidePanel
from mindnet_desktop.ui.support.workers import JobGroup

RELATED = 10  # notes listed


class RelatedNotes(QObject):
    """Keeps the side panel's related list in step with the selected note."""

    shown = Signal()  # the list shows the selected note's related notes
    linked = Signal(str)  # the id of the edge a "Link" created

    def __init__(
        self,
        jobs: JobGroup,
        side: GraphSidePanel,
        selected: Callable[[], str | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._jobs, self._side, self._selected = jobs, side, selected
        side.link_requested.connect(self.link)
        side.related_changed.connect(lambda: self.load(self._selected()))

    def load(self, note_id: str | None) -> None:
        if note_id is None:
            return
        find = partial(
            ops.related_rows, note_id=note_id, n=RELATED, unlinked=self._side.only_unlinked()
        )

        def ready(rows: list[dict[str, Any]]) -> None:
            if not self._jobs.closed and note_id == self._selected():
                self._side.show_related(rows)
                self.shown.emit()

        self._jobs.submit(find, "related notes", ready)

    @Slot(str, str)
    def link(self, target: str, kind: str) -> None:
        """One click: `selected -[kind]-> target` through the edge API (a callout in the
        note, or the overlay in read-only-vault mode); then the list is read again."""
        source = self._selected()
        if source is None:
            return
        create = partial(ops.create_edge, source=source, kind=kind, target=target)

        def done(edge_id: str) -> None:
            self.linked.emit(edge_id)
            self.load(self._selected())

        self._jobs.submit(create, "link related note", done)
