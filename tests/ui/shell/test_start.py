"""The window's start on an indexed vault: the snapshots answer the first search and the
start's check before the store opens in the background; then the window switches to the
store, and a search finds the same."""

from __future__ import annotations

import time
from pathlib import Path

from mindnet_desktop.cli.vault import import_for_readers
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chunk_snapshot import ROWS_FILE
from mindnet_desktop.core.store.reader_store import ReaderStore
from mindnet_desktop.ui.index.indexer import WATCHING

LONG = 120_000


def _index(vault: Path, data: Path) -> None:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)


def _search(mn: Mindnet, job: object) -> tuple[type, list[tuple[str, str, float]]]:
    hits = hybrid_search(mn, "Entscheidung Datenbank", 8, log=False).hits
    return type(mn.store), [(h.node_id, h.text, round(h.score, 4)) for h in hits]


def test_first_search_from_the_snapshots_then_the_store_finds_the_same(
    qtbot, make_window, vault: Path, tmp_path: Path
) -> None:
    """Guards the start's reader phase (shown to fail by a window whose first search waits
    for Chroma: the store's type in the first answer) and the switch (the second)."""
    _index(vault, tmp_path / "data")
    window = make_window()
    window.show()
    opened: list[object] = []
    window.open_vault(vault)
    window.host.opened.connect(opened.append)
    first = window.host.submit(_search)  # asked at once, as a user would
    qtbot.waitUntil(first.is_finished, timeout=LONG)
    assert first.error is None
    kind, hits = first.result
    assert kind is ReaderStore and hits
    qtbot.waitUntil(lambda: bool(opened), timeout=LONG)  # the store opened, switched to
    # The start's check may still run on it (a busy machine): it ends watching.
    qtbot.waitUntil(lambda: window.indexer.state == WATCHING, timeout=LONG)
    assert window.stats is not None and window.stats.notes > 10
    again = window.host.submit(_search)
    qtbot.waitUntil(again.is_finished, timeout=LONG)
    assert again.result == (ChromaStore, hits)


def test_a_start_without_a_snapshot_opens_the_store_first(
    qtbot, make_window, vault: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    _index(vault, data)
    (data / ROWS_FILE).write_bytes(b"broken")
    window = make_window()
    window.open_vault(vault)
    first = window.host.submit(_search)
    qtbot.waitUntil(first.is_finished, timeout=LONG)
    assert first.error is None and first.result[0] is ChromaStore and first.result[1]
    qtbot.waitUntil(lambda: window.indexer.state == WATCHING, timeout=LONG)
    assert window.stats is not None and window.stats.notes > 10


def test_after_an_app_edit_the_snapshots_follow_and_a_fresh_search_reads_them(
    qtbot, make_window, vault: Path, tmp_path: Path
) -> None:
    """Guards the app's share of the reader snapshots (issue 32): after the window imported
    an edit, its quiet-time save (a child process) leaves the chunk snapshot and the note
    index in step, so a fresh search answers from them without Chroma (shown to fail by a
    save that keeps only the records and the graph: `index_status` stays `stale`)."""
    from mindnet_desktop.core.graph.note_index import NoteIndex
    from mindnet_desktop.core.graph.snapshot import Snapshots
    from mindnet_desktop.core.service.vault.freshness import index_status
    from mindnet_desktop.core.store.chunk_snapshot import ChunkSnapshot

    data = tmp_path / "data"
    _index(vault, data)
    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: window.indexer.state == WATCHING, timeout=LONG)
    window.indexer._snapshot_timer.setInterval(300)
    before = window.stats.notes
    note = vault / "Wissen" / "Embeddings 101.md"
    note.write_text("# Embeddings 101\n\nQuokkas embed sentences.\n", "utf-8")
    (vault / "Inbox" / "Neue Idee.md").write_text("# Neue Idee\n\nWombats.\n", "utf-8")
    qtbot.waitUntil(lambda: window.stats.notes == before + 1, timeout=LONG)

    def edit_on_disk() -> bool:
        signatures = Snapshots(data).signatures()
        chunks = ChunkSnapshot.load(data, signatures[0], "hash")
        if chunks is None or index_status(data, "hash").state != "ready":
            return False
        index = NoteIndex.load(data, signatures[1])
        if index is None:
            return False
        index.close()
        rows = chunks.chunk_rows(["Wissen/Embeddings 101#1"]).values()
        return any("Quokkas" in row.chunk.text for row in rows)

    qtbot.waitUntil(edit_on_disk, timeout=LONG)
    with Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True) as reader:
        hits = hybrid_search(reader, "Quokkas embed sentences", 3, log=False).hits
        assert hits[0].note_id == "Wissen/Embeddings 101"
        assert isinstance(reader.store, ReaderStore) and not reader.store.delegated
    assert not window.host.mindnet.state.stale


def test_a_store_that_cannot_open_behind_good_snapshots_is_reported(
    qtbot, make_window, vault: Path, tmp_path: Path
) -> None:
    """The snapshots answer, then Chroma fails to open (a corrupt file): the window says so,
    lets go of the vault and stops watching, as when the store failed at once."""
    data = tmp_path / "data"
    _index(vault, data)
    (data / "chroma" / "chroma.sqlite3").write_bytes(b"not a database" * 100)
    window = make_window()
    window.open_vault(vault)
    qtbot.waitUntil(lambda: bool(window.last_error), timeout=LONG)
    assert "Cannot open the index" in window.last_error
    qtbot.waitUntil(lambda: window.host.mindnet is None, timeout=LONG)
    assert window.watch_label.property("state") == "error"
    assert window.indexer.state != WATCHING


def test_the_start_bench_waits_for_the_model_and_reports_the_apps_memory(
    qtbot, vault: Path, tmp_path: Path
) -> None:
    """Guards `bench all`'s "the app with the model loaded" figure: the window preloads the
    chat model as by default, the run waits for it and reports the app's own memory, the
    model's weights in it (shown to fail by a run that does not wait: no `model` mark)."""
    from mindnet_desktop.core.models.weights import resolve_model_path
    from mindnet_desktop.ui.bench.start import run

    data = tmp_path / "data"
    _index(vault, data)
    model = resolve_model_path("test")
    without = run(vault, data, "hash", time.time())
    got = run(vault, data, "hash", time.time(), with_model=True, model=str(model))
    assert got["error"] is None and "model" not in without
    assert got["model"] >= got["ready"] and got["model"] >= got["usable"]
    assert got["peak_rss_mib"] >= got["rss_mib"] > 0
