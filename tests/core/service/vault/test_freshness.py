"""A long-lived reader that writes nothing (`mindnet mcp`): the index's state as it finds it
(missing, being written, stale, ready), the vault files changed since the import, and a
reader opened with `keep_caches=False` that leaves the data dir as it is even when the
snapshots are out of step."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.search.view import keep_reader_snapshots
from mindnet_desktop.core.service.vault.freshness import changed_files, index_status
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import


def files(data: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data)): p.read_bytes() for p in data.rglob("*") if p.is_file()}


def test_index_status_follows_the_manifest_and_the_snapshots(
    vault: Path, tmp_path: Path, open_mindnet
) -> None:
    data, name = tmp_path / "data", HashEmbedder().name
    assert index_status(data, name).state == "missing"
    mn = open_mindnet(vault)
    run_import(mn)
    keep_reader_snapshots(mn)  # what `mindnet import` leaves for readers
    mn.close()
    assert index_status(data, name).state == "ready"
    assert index_status(data, "another-embedder").state == "stale"  # its chunk snapshot
    manifest = data / "manifest.json"
    manifest.write_bytes(manifest.read_bytes() + b" ")  # an import wrote the store anew
    assert index_status(data, name).state == "stale"
    manifest.unlink()  # removed while an import writes the store
    assert index_status(data, name).state == "writing"


def test_changed_files_counts_added_edited_and_removed_notes(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    assert changed_files(vault, mn.records) == 0
    (vault / "Inbox" / "Neu.md").write_text("# Neu\n", encoding="utf-8")
    note = vault / "Projekte" / "KI-Projekt Alpha.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nmehr\n", encoding="utf-8")
    (vault / "Glossar" / "HNSW.md").unlink()
    assert changed_files(vault, mn.records) == 3


def test_a_reader_without_caches_writes_nothing_when_the_snapshots_are_out_of_step(
    vault: Path, tmp_path: Path, open_mindnet
) -> None:
    """Guards `keep_caches=False`: with the default a reader that finds no snapshot in
    step saves the records and graph snapshots and the note index (checked below), so
    the same reader without caches would write them too were the flag ignored."""
    data = tmp_path / "data"
    run_import(open_mindnet(vault))
    for name in ("records.snapshot", "graph.snapshot", "notes.index.sqlite"):
        (data / name).unlink(missing_ok=True)
    before = files(data)
    reader = Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True, keep_caches=False)
    with reader:
        assert len(reader.records) > 10 and reader.graph
        assert hybrid_search(reader, "Papierstau", 3, log=False).hits
    after = files(data)
    assert after.keys() - before.keys() <= {"chroma"} | {k for k in after if "intent" in k}
    assert not {"records.snapshot", "graph.snapshot", "notes.index.sqlite"} & after.keys()
    with Mindnet(vault, data, embedder=HashEmbedder(), lazy_store=True) as caching:
        assert hybrid_search(caching, "Papierstau", 3, log=False).hits
        assert len(caching.records) > 10 and caching.graph
    assert {"records.snapshot", "notes.index.sqlite"} <= set(files(data))
