"""The app's writer with its store behind the snapshots (`Mindnet(background_store=True)`):
searches and an import that finds nothing changed are answered from the chunk snapshot and
the note index until the store opens on a thread of its own; any write waits for it and the
searches then switch to it; with no snapshot in step the store opens at once."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.cli.vault import import_for_readers
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.chroma import ChromaStore
from mindnet_desktop.core.store.chunk_snapshot import ROWS_FILE, VECTORS_FILE
from mindnet_desktop.core.store.lock import WriterLock
from mindnet_desktop.core.store.reader_store import ReaderStore
from tests.conftest import run_import

QUERIES = ("Qdrant Vektordatenbank", "Entscheidung Datenbank", "Embeddings 101", "Projekt")


def _index(vault: Path, data: Path) -> None:
    """Import as `mindnet import` does: the chunk snapshot and the note index in step."""
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        import_for_readers(mn, ImportOptions(sync_deletes=True), False)


def _writer(vault: Path, data: Path) -> Mindnet:
    return Mindnet(vault, data, embedder=HashEmbedder(), write=True, background_store=True)


def _hits(mn: Mindnet, query: str) -> list[tuple[str, str, str, float]]:
    return [
        (h.node_id, h.title, h.text, round(h.score, 4))
        for h in hybrid_search(mn, query, 8, log=False).hits
    ]


def test_the_snapshots_answer_until_the_store_opens_then_the_store_alike(vault, tmp_path):
    """Guards the start's reader phase and the switch (shown to fail by a writer that opens
    Chroma at once: the first assertion; by a switch that keeps searching the snapshot:
    the store's type after `wait_for_store`)."""
    data = tmp_path / "data"
    _index(vault, data)
    with _writer(vault, data) as mn:
        assert isinstance(mn.store, ReaderStore)
        before = {q: _hits(mn, q) for q in QUERIES}
        outcome = run_import(mn, sync_deletes=True)  # the start's check: nothing changed
        assert outcome.summary.unchanged == outcome.summary.scanned > 10
        assert not mn._opening.started  # neither the searches nor the check needed Chroma
        assert isinstance(mn.store, ReaderStore)

        mn.open_store_in_background()
        mn.wait_for_store()
        assert isinstance(mn.store, ChromaStore)
        assert {q: _hits(mn, q) for q in QUERIES} == before  # the user sees no switch
        assert all(before.values())


def test_an_import_with_a_change_writes_to_the_store_and_searches_follow(vault, tmp_path):
    data = tmp_path / "data"
    _index(vault, data)
    with _writer(vault, data) as mn:
        assert isinstance(mn.store, ReaderStore)
        (vault / "Inbox" / "Quokka.md").write_text("# Quokka\n\nQuokkas lächeln.\n", "utf-8")
        outcome = run_import(mn, sync_deletes=True)
        assert outcome.summary.added == 1
        assert isinstance(mn.store, ChromaStore)  # the snapshot is behind the store now
        assert hybrid_search(mn, "Quokka", 3, log=False).hits[0].title == "Quokka"
        notes = mn.store.counts()["notes"]
    with Mindnet(vault, data, embedder=HashEmbedder()) as again:
        assert again.store.counts()["notes"] == notes


def test_without_a_snapshot_in_step_the_store_opens_at_once(vault, tmp_path):
    data = tmp_path / "data"
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn, sync_deletes=True)  # leaves no chunk snapshot
    with _writer(vault, data) as mn:
        assert isinstance(mn.store, ChromaStore)
        assert hybrid_search(mn, "Projekt", 3, log=False).hits


def test_a_broken_snapshot_falls_back_to_the_store_and_loses_nothing(vault, tmp_path):
    """A corrupt or half-missing chunk snapshot is no snapshot: the writer opens the store
    at once, searches and imports as before, and the index keeps every note."""
    data = tmp_path / "data"
    _index(vault, data)
    with Mindnet(vault, data, embedder=HashEmbedder()) as reader:
        counts, hits = reader.store.counts(), _hits(reader, "Projekt")
    (data / ROWS_FILE).write_bytes(b"\x80\x05 not a pickle")
    with _writer(vault, data) as mn:
        assert isinstance(mn.store, ChromaStore)
        assert _hits(mn, "Projekt") == hits
        assert run_import(mn, sync_deletes=True).summary.deleted == 0
        assert mn.store.counts() == counts
    _index(vault, data)  # written anew
    (data / VECTORS_FILE).unlink()
    with _writer(vault, data) as mn:
        assert isinstance(mn.store, ChromaStore)
        assert mn.store.counts() == counts


def test_closing_before_the_store_opened_leaves_nothing_behind(vault, tmp_path):
    data = tmp_path / "data"
    _index(vault, data)
    mn = _writer(vault, data)
    assert _hits(mn, "Projekt")
    mn.close()
    with WriterLock(data):  # released; no opening thread is left (the autouse fixture)
        pass
    mn = _writer(vault, data)
    mn.open_store_in_background()  # closed while it opens: waited for, then closed
    mn.close()
    with WriterLock(data):
        pass
