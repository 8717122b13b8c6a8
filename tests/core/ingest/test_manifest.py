"""The manifest makes a no-op import cheap, and never makes it wrong."""

from __future__ import annotations

import gc
import json
import shutil

from mindnet_desktop.core.config.type_registry import bundled_config_dir
from mindnet_desktop.core.ingest import manifest as manifest_module
from mindnet_desktop.core.ingest.manifest import Manifest
from tests.conftest import run_import


def test_noop_import_does_not_load_notes_from_the_store(vault, open_mindnet, monkeypatch):
    mn = open_mindnet(vault)
    first = run_import(mn).summary
    monkeypatch.setattr(
        mn.store, "note_records", lambda: (_ for _ in ()).throw(AssertionError("loaded"))
    )
    second = run_import(mn).summary
    assert second.unchanged == first.scanned
    assert (second.notes, second.chunks, second.edges) == (first.notes, first.chunks, first.edges)
    assert [w.path for w in second.warnings] == ["Inbox/Kaputtes YAML.md"]


def test_missing_or_corrupt_manifest_is_rebuilt_from_the_store(vault, open_mindnet, tmp_path):
    mn = open_mindnet(vault)
    first = run_import(mn).summary
    manifest = tmp_path / "data" / "manifest.json"
    for damage in (
        lambda: manifest.unlink(),
        lambda: manifest.write_text("{not json", encoding="utf-8"),
    ):
        damage()
        again = run_import(mn).summary
        assert (again.changed, again.added, again.edges) == (0, 0, first.edges)
        assert manifest.is_file() and manifest.read_text(encoding="utf-8").startswith("{")


def test_manifest_that_disagrees_with_the_store_is_ignored(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    mn.store.delete_notes(["Glossar/HNSW"])  # the store lost a note behind the manifest's back
    summary = run_import(mn).summary
    assert summary.added == 1 and "Glossar/HNSW" in mn.store.note_records()


def test_changing_a_types_settings_reimports_only_notes_of_that_type(vault, open_mindnet, tmp_path):
    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    mn = open_mindnet(vault, config_dir=config)
    run_import(mn)
    text = (config / "types.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "journal:    {chunk_profile: short,  retriever_weight: 0.80, edge_defaults: [references]}",
        "journal:    {chunk_profile: short,  retriever_weight: 0.80, edge_defaults: [related_to]}",
    )
    (config / "types.yaml").write_text(text, encoding="utf-8")
    mn.close()
    mn = open_mindnet(vault, config_dir=config)
    summary = run_import(mn).summary
    journals = [r for r in mn.records.values() if r.note.type == "journal"]
    assert summary.changed == len(journals) == 3
    rules = {e.rule_id for r in journals for e in r.edges if e.provenance == "rule"}
    assert rules == {"edge_defaults:journal:related_to"}


def test_a_watching_process_parses_the_manifest_once(vault, open_mindnet, tmp_path, monkeypatch):
    """Guards the kept entries: imports after the first in one process do not parse the
    manifest again (at 6,500 notes that was a second per edit), yet a file changed behind
    the process's back is read again (without the stamp check it would not be)."""
    import json

    mn = open_mindnet(vault)
    first = run_import(mn).summary
    parsed = []
    loads = json.loads
    # Only the manifest's parses count (the store parses its packed rows with json too).
    monkeypatch.setattr(
        json,
        "loads",
        lambda text, **kw: (parsed.append('"notes"' in text[:200]), loads(text, **kw))[1],
    )
    path = vault / "Wissen" / "Embeddings 101.md"
    path.write_text(path.read_text("utf-8") + "\nNeu.\n", "utf-8")
    assert run_import(mn).summary.changed == 1
    assert run_import(mn).summary.unchanged == first.scanned
    assert not any(parsed)
    manifest = tmp_path / "data" / "manifest.json"
    data = json.loads(manifest.read_text("utf-8"))
    data["notes"] = data["notes"][:-1]  # another writer's manifest, one note short
    manifest.write_text(json.dumps(data), "utf-8")
    parsed.clear()
    again = run_import(mn).summary
    assert any(parsed) and (again.changed, again.added) == (0, 0)  # read, refused, rebuilt


def test_the_manifest_is_read_with_the_gc_paused_and_the_gc_back_on_after(
    vault, open_mindnet, monkeypatch
):
    """Guards the load at scale (issue 32): the cyclic GC's collections, each scanning every
    object the process holds, made it 0.4-1.1 s at 20,000 notes (0.1 s paused)."""
    mn = open_mindnet(vault)
    notes = run_import(mn).summary.notes
    seen: list[bool] = []
    real = json.loads

    def spy(text, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(text, *args, **kwargs)

    monkeypatch.setattr(manifest_module.json, "loads", spy)
    entries = Manifest(mn.data_dir / "manifest.json").load(notes)
    assert entries is not None and len(entries) == notes
    assert seen == [False] and gc.isenabled()
    assert Manifest(mn.data_dir / "manifest.json").load(notes + 1) is None and gc.isenabled()


def test_the_entries_read_back_equal_those_written_and_a_field_missing_breaks_the_file(
    vault, open_mindnet
):
    """Guards the entries filled without `__init__` (`_entry`): read back they equal the
    notes' own (tuples where tuples were), and an entry with a field missing or unknown is
    a broken manifest, not an entry that fails later (shown to fail by dropping the fields'
    check)."""
    from mindnet_desktop.core.ingest.manifest import entry_of

    mn = open_mindnet(vault)
    notes = run_import(mn).summary.notes
    path = mn.data_dir / "manifest.json"
    entries = Manifest(path).load(notes)
    assert entries is not None
    assert entries == {r.note.path: entry_of(r) for r in mn.records.values()}
    one = next(iter(entries.values()))
    assert isinstance(one.headings, tuple) and all(isinstance(h, tuple) for h in one.headings)
    data = json.loads(path.read_text("utf-8"))
    for damage in (lambda raw: raw.pop("fingerprint"), lambda raw: raw.update(extra=1)):
        broken = json.loads(json.dumps(data))
        damage(broken["notes"][0])
        path.write_text(json.dumps(broken), "utf-8")
        assert Manifest(path).load(notes) is None
