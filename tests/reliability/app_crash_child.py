"""Runs the app's main window (offscreen) on a vault, creates an edge the way a user does in
the graph view (focus the source note, pick source and target, a kind, click "Create edge")
and kills itself with SIGKILL at a chosen point of the note write (the app's crash test).

Usage: python app_crash_child.py POINT VAULT DATA SETTINGS SOURCE KIND TARGET
  POINT     note-replace or note-replaced (see crash_child.py)
  SETTINGS  the app's settings file (never the user's)
  SOURCE, TARGET  notes by title; KIND an edge kind
Exits 3 when it was not killed in time, 4 when the app reported an error (on stderr), 5
when the edge was created without passing the kill point.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DEADLINE_MS = 240_000  # a bound against hanging, far above the normal cost


def main(argv: list[str]) -> int:
    point, vault, data, settings_file, source, kind, target = argv
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.ui.index.indexer import WATCHING
    from mindnet_desktop.ui.shell.main_window import MainWindow, VaultLocation
    from mindnet_desktop.ui.support.settings import AppSettings
    from tests.reliability.crash_child import install

    install(point, 1)
    app = QApplication([sys.argv[0]])
    window = MainWindow(
        AppSettings.from_file(Path(settings_file)),
        VaultLocation(Path(data)),
        embedder_factory=lambda name, threads: HashEmbedder(),
        debounce=0.2,
    )
    window.resize(1200, 800)
    window.show()

    def fail(code: int, message: str) -> None:
        print(message, file=sys.stderr, flush=True)
        window.close()  # stops the watcher and the jobs, releases the data dir
        app.exit(code)

    clicked: list[bool] = []

    def create(ids: tuple[str, str]) -> None:
        graph = window.graph
        if graph is None or clicked:  # once, on the first drawing of the source's neighbours
            return
        clicked.append(True)
        graph.set_edge_source(ids[0])
        graph.set_edge_target(ids[1])
        graph.side.kind_box.setCurrentText(kind)
        if graph.side.kind_box.currentText() != kind:
            fail(4, f"the kind {kind} is not offered")
        graph.side.create_button.click()  # the edge job: callout written, then the import
        QTimer.singleShot(100, created)

    def created() -> None:  # still alive with the edge made: the kill point was never hit
        if window.graph is not None and window.graph.last_created:
            fail(5, f"the edge {window.graph.last_created} was created without a kill")
        else:
            QTimer.singleShot(100, created)

    def when_watching() -> None:
        if window.indexer is None or window.indexer.state != WATCHING or not window.stats:
            QTimer.singleShot(100, when_watching)
            return
        assert window.host is not None and window.graph is not None
        job = window.host.submit(
            lambda mn, job: tuple(mn.find_note(ref).note.note_id for ref in (source, target))
        )
        job.failed.connect(lambda message: fail(4, message))
        job.done.connect(
            lambda ids: (
                window.graph.drawn.connect(lambda: create(ids)),
                window.graph.focus_note(ids[0]),
            )
        )

    window.open_vault(Path(vault))
    assert window.graph is not None
    window.graph.error.connect(lambda message: fail(4, message))
    window.indexer.failed.connect(lambda message: fail(4, message))
    QTimer.singleShot(100, when_watching)
    QTimer.singleShot(DEADLINE_MS, lambda: fail(3, f"not killed; last error: {window.last_error}"))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
