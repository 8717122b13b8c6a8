"""Start -> ready from snapshots: a fresh process reads no record from the store and builds
no graph when the snapshots match; any snapshot out of step is ignored and rebuilt."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.graph.snapshot import GRAPH_FILE, RECORDS_FILE
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import

EMBEDDINGS = "Wissen/Embeddings 101"


@pytest.fixture
def loads(monkeypatch):
    """Counts reads of every record from any store and graph builds from records."""
    from mindnet_desktop.core.store.chroma import ChromaStore

    calls = {"records": 0, "graph": 0}
    note_records, from_records = ChromaStore.note_records, KnowledgeGraph.from_records.__func__

    def counted_records(self):
        calls["records"] += 1
        return note_records(self)

    def counted_graph(cls, *args, **kw):
        calls["graph"] += 1
        return from_records(cls, *args, **kw)

    monkeypatch.setattr(ChromaStore, "note_records", counted_records)
    monkeypatch.setattr(KnowledgeGraph, "from_records", classmethod(counted_graph))
    return calls


def _expected(mn):
    stored = mn.store.note_records()
    return stored, KnowledgeGraph.from_records(stored.values(), mn.overlay).signature()


def _edges(records):
    return {k: [e.to_dict() for e in r.edges] for k, r in records.items()}


def _ready(open_mindnet, vault):
    """A fresh process's records and graph (as `neighbors` or the app needs them)."""
    mn = open_mindnet(vault, write=False)
    return mn, mn.records, mn.graph


def test_a_fresh_process_starts_from_the_snapshots(vault, open_mindnet, loads, tmp_path):
    mn = open_mindnet(vault)
    run_import(mn)
    assert (tmp_path / "data" / RECORDS_FILE).is_file()
    mn.close()
    _, _, _ = _ready(open_mindnet, vault)  # the first start builds the graph and saves it
    loads.update(records=0, graph=0)
    reader, records, graph = _ready(open_mindnet, vault)
    assert loads == {"records": 0, "graph": 0}
    stored, signature = _expected(reader)
    assert _edges(records) == _edges(stored) and graph.signature() == signature


def test_loaded_snapshots_stay_out_of_gc_passes_until_close(vault, open_mindnet):
    """The loaded records and graph are frozen out of the cyclic GC (no full pass over
    them freezes the app's window after a start) and handed back when the vault closes."""
    import gc

    mn = open_mindnet(vault)
    run_import(mn)
    mn.close()
    _ready(open_mindnet, vault)[0].close()  # the first start saves the graph snapshot
    gc.unfreeze()
    reader, records, graph = _ready(open_mindnet, vault)
    frozen = gc.get_freeze_count()
    assert frozen > sum(len(r.edges) for r in records.values())
    reader.close()
    assert gc.get_freeze_count() == 0


def test_an_edit_keeps_the_snapshots_in_step(vault, open_mindnet, loads):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.graph  # noqa: B018 - built once, so that both snapshots exist
    mn.close()
    mn = open_mindnet(vault)  # a fresh `mindnet import` after an edit
    path = vault / "Wissen" / "Embeddings 101.md"
    path.write_text(path.read_text("utf-8") + "\nSiehe [[Vendor Lock-in]].\n", "utf-8")
    loads.update(records=0, graph=0)
    run_import(mn)
    assert loads == {"records": 0, "graph": 0}  # updated from the snapshots of before
    mn.close()
    reader, records, graph = _ready(open_mindnet, vault)
    assert loads == {"records": 0, "graph": 0}
    stored, signature = _expected(reader)
    assert any(e.target_note_id == "Risiken/Vendor Lock-in" for e in records[EMBEDDINGS].edges)
    assert _edges(records) == _edges(stored) and graph.signature() == signature


def test_a_watcher_defers_the_snapshots_until_idle_or_close(vault, open_mindnet, loads):
    """Guards `defer_snapshots`: edits in a watching process do not save the snapshots each
    time (seconds of pickling on a large vault), yet a fresh process after `save_snapshots`
    or `close` starts from them, in step with every edit (without the save at close it would
    read the store)."""
    mn = open_mindnet(vault)
    run_import(mn)
    mn.graph  # noqa: B018
    mn.defer_snapshots = True
    path = vault / "Wissen" / "Embeddings 101.md"
    saved = []
    for word in ("Quasar", "Zebrafink"):
        path.write_text(path.read_text("utf-8") + f"\n{word}.\n", "utf-8")
        run_import(mn)
        signature = mn.snapshots.signatures()[0]
        saved.append(mn.snapshots.load_records(signature) is not None)
    assert saved == [False, False]  # deferred: the files are out of step
    assert mn.save_snapshots() and not mn.save_snapshots()  # saved once, then nothing to do
    assert mn.snapshots.load_records(mn.snapshots.signatures()[0]) is not None
    path.write_text(path.read_text("utf-8") + "\nSiehe [[Vendor Lock-in]].\n", "utf-8")
    run_import(mn)
    mn.close()  # saves what is still deferred
    loads.update(records=0, graph=0)
    reader, records, graph = _ready(open_mindnet, vault)
    assert loads == {"records": 0, "graph": 0}
    stored, signature = _expected(reader)
    assert any(e.target_note_id == "Risiken/Vendor Lock-in" for e in records[EMBEDDINGS].edges)
    assert "Zebrafink" in records[EMBEDDINGS].note.body
    assert _edges(records) == _edges(stored) and graph.signature() == signature


@pytest.mark.parametrize("damage", ["manifest", "store", "corrupt", "overlay"])
def test_a_snapshot_out_of_step_is_ignored_and_rebuilt(
    vault, open_mindnet, loads, tmp_path, damage
):
    data = tmp_path / "data"
    mn = open_mindnet(vault)
    run_import(mn)
    mn.graph  # noqa: B018
    mn.close()
    mn = open_mindnet(vault)
    if damage == "manifest":  # another import changed the index (its manifest differs)
        manifest = data / "manifest.json"
        manifest.write_text(manifest.read_text("utf-8").replace('"size": ', '"size": 1'), "utf-8")
    elif damage == "store":  # the store lost a note behind the manifest's back: the next
        mn.store.delete_notes([EMBEDDINGS])  # import (which checks) mends store and snapshots
        run_import(mn)
    elif damage == "corrupt":
        (data / RECORDS_FILE).write_bytes(b"\x80\x05garbage")
        (data / GRAPH_FILE).write_bytes(b"")
    else:  # a deleted edge changes the graph, not the records
        edge = next(e for e in mn.records["Projekte/KI-Projekt Alpha"].edges if e.resolved)
        edge_actions.delete_edge(mn, edge.id)
    mn.close()
    loads.update(records=0, graph=0)
    reader, records, graph = _ready(open_mindnet, vault)
    rebuilt = {"records": 0 if damage in ("overlay", "store") else 1, "graph": 1}
    if damage == "store":
        rebuilt["graph"] = 0  # the import brought the snapshots of before up to date
    assert loads == rebuilt
    stored, signature = _expected(reader)
    assert _edges(records) == _edges(stored) and graph.signature() == signature
    if damage == "overlay":
        assert any(d.get("deleted") for _, _, d in graph.graph.edges(data=True))
    loads.update(records=0, graph=0)
    _ready(open_mindnet, vault)  # the rebuilt snapshots are used from then on
    assert loads == {"records": 0, "graph": 0}


def test_a_graph_query_from_the_snapshots_opens_no_store(vault, open_mindnet, monkeypatch):
    from mindnet_desktop.core.store.chroma import ChromaStore

    mn = open_mindnet(vault)
    run_import(mn)
    expected = mn.queries.neighbors("Projekte/KI-Projekt Alpha", "both", None, 50)
    mn.close()

    def refuse(*args, **kw):
        raise AssertionError("a graph query opened the store")

    monkeypatch.setattr(ChromaStore, "__init__", refuse)
    reader = open_mindnet(vault, write=False, lazy_store=True)
    assert reader.queries.neighbors("Projekte/KI-Projekt Alpha", "both", None, 50) == expected
    with pytest.raises(AssertionError, match="opened the store"):
        reader.chunk_count()  # the store is still there for what needs it


def test_the_signatures_read_the_manifest_again_only_when_it_changed(tmp_path, monkeypatch):
    """Guards the kept digests (an import asked up to five times, 20 ms a read of a 50,000
    notes' manifest): asked again, no file is read; a manifest replaced, or written in
    place with the same size, is read again (shown to fail by keeping digests without the
    stamps, or by not keeping them)."""
    import os

    from mindnet_desktop.core.graph import snapshot
    from mindnet_desktop.core.graph.snapshot import Snapshots

    reads: list[int] = []
    digest = snapshot._digest  # noqa: SLF001

    def counted(*paths):  # type: ignore[no-untyped-def]
        reads.append(len(paths))
        return digest(*paths)

    monkeypatch.setattr(snapshot, "_digest", counted)
    (tmp_path / "manifest.json").write_text('{"notes": [1]}', "utf-8")
    snaps = Snapshots(tmp_path)
    first = snaps.signatures()
    assert first[0] and first[1] and reads == [1, 2]
    assert snaps.signatures() == first and reads == [1, 2]
    manifest = tmp_path / "manifest.json"
    with open(manifest, "r+b") as handle:  # in place: the same inode and size
        handle.write(b'{"notes": [2]}')
    os.utime(manifest, ns=(1, 1))  # even with an old time: the change time moved
    second = snaps.signatures()
    assert second[0] != first[0] and second[1] != first[1] and len(reads) == 4
    (tmp_path / "overlay.json").write_text("{}", "utf-8")  # the graph's alone changes
    third = snaps.signatures()
    assert third[0] == second[0] and third[1] != second[1] and len(reads) == 5
    manifest.unlink()
    assert snaps.signatures() == (None, None)
