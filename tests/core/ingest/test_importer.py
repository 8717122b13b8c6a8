"""Import of a real vault copy into real Chroma: idempotency, edits, deletes, renames."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest import write_stage
from mindnet_desktop.core.ingest.ctxt import MAX_CHUNK_CHARS
from mindnet_desktop.core.ingest.importer import scan_vault
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import

ALPHA = "Projekte/KI-Projekt Alpha"


def chunk_snapshot(mn) -> dict[str, str]:
    rows = mn.store.chunk_rows(mn.store.chunk_ids())
    return {cid: row.chunk.text for cid, row in rows.items()}


def test_example_vault_imports_every_note_and_ignores_hidden_and_other_files(vault, open_mindnet):
    mn = open_mindnet(vault)
    summary = run_import(mn).summary
    paths = {r.note.path for r in mn.records.values()}
    assert paths == set(scan_vault(vault))
    assert not any(p.startswith((".trash", ".obsidian")) or p.endswith(".txt") for p in paths)
    assert "Support/drucker-faq.ctxt" in paths
    assert summary.added == summary.notes == len(paths)
    assert (
        summary.chunks
        == len(mn.store.chunk_ids())
        == sum(r.chunk_count for r in mn.records.values())
    )
    assert summary.errors == []
    broken = [w for w in summary.warnings if w.path == "Inbox/Kaputtes YAML.md"]
    assert len(broken) == 1 and "broken YAML" in broken[0].message
    assert mn.find_note("Inbox/Kaputtes YAML.md").note.type == "default"


def test_second_import_writes_nothing(vault, open_mindnet, monkeypatch):
    mn = open_mindnet(vault)
    first = run_import(mn).summary
    before_chunks, before_records = chunk_snapshot(mn), mn.store.note_records()
    calls = mn.embedder.calls
    writes: list[str] = []
    for name in ("write_notes", "update_edges", "delete_notes", "delete_chunks_of"):
        original = getattr(mn.store, name)
        monkeypatch.setattr(
            mn.store,
            name,
            lambda *a, _n=name, _o=original, **k: (writes.append(_n), _o(*a, **k))[1],
        )
    second = run_import(mn).summary
    assert (second.added, second.changed, second.deleted) == (0, 0, 0)
    assert second.unchanged == first.scanned
    assert (second.notes, second.chunks, second.edges) == (first.notes, first.chunks, first.edges)
    assert writes == [] and mn.embedder.calls == calls
    assert chunk_snapshot(mn) == before_chunks
    assert {k: [e.id for e in r.edges] for k, r in mn.store.note_records().items()} == {
        k: [e.id for e in r.edges] for k, r in before_records.items()
    }


def test_touched_but_identical_file_is_unchanged(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Wissen" / "Embeddings 101.md"
    os.utime(path, ns=(1, 1))
    summary = run_import(mn).summary
    assert summary.changed == 0 and summary.unchanged == summary.scanned


def test_editing_one_note_replaces_only_its_chunks_and_edges(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    before = chunk_snapshot(mn)
    edges_before = {k: [e.to_dict() for e in r.edges] for k, r in mn.records.items()}
    path = vault / "Wissen" / "Embeddings 101.md"
    path.write_text(
        path.read_text(encoding="utf-8") + "\n\nNeu: siehe [[HNSW]].\n", encoding="utf-8"
    )
    summary = run_import(mn).summary
    assert (summary.added, summary.changed) == (0, 1)
    after = chunk_snapshot(mn)
    note_id = "Wissen/Embeddings 101"
    assert {k: v for k, v in after.items() if not k.startswith(note_id + "#")} == {
        k: v for k, v in before.items() if not k.startswith(note_id + "#")
    }
    assert any("HNSW" in text for k, text in after.items() if k.startswith(note_id + "#"))
    edges_after = {k: [e.to_dict() for e in r.edges] for k, r in mn.records.items()}
    changed = {k for k in edges_after if edges_after[k] != edges_before.get(k)}
    assert changed == {note_id}
    assert any(e.target_note_id == "Glossar/HNSW" for e in mn.records[note_id].edges)


class CountingEmbedder(HashEmbedder):
    """The test embedder, counting the texts it embedded."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts += list(texts)
        return super().embed(texts)


def test_an_edit_embeds_only_the_chunks_whose_text_changed(vault, open_mindnet, tmp_path):
    """Guards the edit path's speed: appending a sentence to a long note embeds its last
    chunk, not every chunk (without `known_vectors` all of them are embedded again); the
    stored vectors equal those of a fresh import."""
    embedder = CountingEmbedder()
    mn = open_mindnet(vault, embedder=embedder)
    path = vault / "Wissen" / "Embeddings 101.md"
    long = "\n\n".join(f"## Teil {i}\n\n" + f"Satz {i} über Vektoren. " * 60 for i in range(6))
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + long, encoding="utf-8")
    run_import(mn)
    note_id = "Wissen/Embeddings 101"
    count = mn.records[note_id].chunk_count
    assert count >= 5
    embedder.texts.clear()
    path.write_text(path.read_text(encoding="utf-8") + "\nNeu: Quasar.\n", encoding="utf-8")
    summary = run_import(mn).summary
    assert summary.changed == 1 and 1 <= len(embedder.texts) < count
    assert summary.reused_vectors == count - len(embedder.texts)
    assert any("Quasar" in text for text in embedder.texts)
    ids = [f"{note_id}#{seq}" for seq in range(1, count + 1)]
    stored = mn.store.chunk_rows(ids, vectors=True)
    fresh = Mindnet(vault, tmp_path / "fresh", embedder=HashEmbedder(), write=True)
    try:
        run_import(fresh)
        again = fresh.store.chunk_rows(ids, vectors=True)
    finally:
        fresh.close()
    assert set(stored) == set(again) == set(ids)
    for cid in ids:
        assert np.allclose(stored[cid].vector, again[cid].vector), cid
    embedder.texts.clear()
    run_import(mn, force=True)  # --force embeds everything again
    assert len(embedder.texts) == sum(r.chunk_count for r in mn.records.values())


def test_shrinking_a_note_leaves_no_stale_chunks(vault, open_mindnet):
    for purge in (False, True):
        mn = open_mindnet(vault)
        run_import(mn, force=True)
        path = vault / "Wissen" / "Vector DB Basics.md"
        original = path.read_text(encoding="utf-8")
        path.write_text("---\ntype: concept\n---\nNur noch ein Satz.\n", encoding="utf-8")
        run_import(mn, purge_before_upsert=purge)
        ids = [c for c in mn.store.chunk_ids() if c.startswith("Wissen/Vector DB Basics#")]
        assert ids == ["Wissen/Vector DB Basics#1"], purge
        path.write_text(original, encoding="utf-8")
        mn.close()


def test_deleted_file_stays_until_sync_deletes_then_links_unresolve(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    (vault / "Wissen" / "Embeddings 101.md").unlink()
    kept = run_import(mn).summary
    assert kept.deleted == 0 and "Wissen/Embeddings 101" in mn.records
    gone = run_import(mn, sync_deletes=True).summary
    assert gone.deleted == 1 and "Wissen/Embeddings 101" not in mn.records
    assert not [c for c in mn.store.chunk_ids() if c.startswith("Wissen/Embeddings 101#")]
    alpha = [e for e in mn.records[ALPHA].edges if e.target_ref == "Embeddings 101"]
    assert alpha and all(
        e.target_note_id is None and e.target_id == "Embeddings 101" for e in alpha
    )


def test_link_resolves_when_its_note_appears_and_unresolves_when_deleted(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    journal = "Journal/2026-11-02"

    def edge():
        return next(
            e for e in mn.records[journal].edges if e.target_ref == "Noch nicht geschrieben"
        )

    assert edge().target_note_id is None
    calls = mn.embedder.calls
    (vault / "Inbox" / "Noch nicht geschrieben.md").write_text(
        "Jetzt geschrieben.\n", encoding="utf-8"
    )
    summary = run_import(mn).summary
    assert summary.added == 1 and summary.resolved_edges_updated >= 1
    assert edge().target_note_id == "Inbox/Noch nicht geschrieben"
    assert mn.store.note_records()[journal].edges == mn.records[journal].edges  # persisted
    assert mn.embedder.calls == calls + 1  # only the new note was embedded
    (vault / "Inbox" / "Noch nicht geschrieben.md").unlink()
    run_import(mn, sync_deletes=True)
    assert edge().target_note_id is None and edge().target_id == "Noch nicht geschrieben"


def test_rename_keeps_nothing_stale(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    (vault / "Wissen" / "HNSW-Neu").mkdir()
    os.rename(vault / "Glossar" / "HNSW.md", vault / "Wissen" / "HNSW-Neu" / "HNSW.md")
    summary = run_import(mn).summary  # no --sync-deletes: the rename alone removes the old id
    assert "Glossar/HNSW" not in mn.records and "Wissen/HNSW-Neu/HNSW" in mn.records
    assert summary.deleted == 1 and summary.added == 1
    assert not [c for c in mn.store.chunk_ids() if c.startswith("Glossar/HNSW#")]
    linking = [e for r in mn.records.values() for e in r.edges if e.target_ref.startswith("HNSW")]
    assert linking and all(e.target_note_id == "Wissen/HNSW-Neu/HNSW" for e in linking)


def test_failing_ctxt_keeps_previous_version_and_reports_file_and_chunk(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Support" / "drucker-faq.ctxt"
    before = [c for c in mn.store.chunk_ids() if c.startswith("Support/drucker-faq#")]
    path.write_text(
        path.read_text(encoding="utf-8") + "\n\n" + "x" * (MAX_CHUNK_CHARS + 1) + "\n",
        encoding="utf-8",
    )
    summary = run_import(mn).summary
    assert len(summary.errors) == 1
    message = summary.errors[0].message
    assert (
        "Support/drucker-faq.ctxt" in message
        and "Chunk too long" in message
        and "chunk 6" in message
    )
    assert [c for c in mn.store.chunk_ids() if c.startswith("Support/drucker-faq#")] == before
    assert run_import(mn).summary.errors == summary.errors  # reported again until fixed


def test_invalid_utf8_and_duplicate_ids_are_clear_errors(vault, open_mindnet):
    (vault / "Inbox" / "binary.md").write_bytes(b"\xff\xfe\x00bad")
    (vault / "Inbox" / "Zweite Entscheidung.md").write_text(
        "---\nid: dec-2026-001\n---\nText\n", encoding="utf-8"
    )
    mn = open_mindnet(vault)
    summary = run_import(mn).summary
    messages = {p.path: p.message for p in summary.errors}
    assert "not valid UTF-8" in messages["Inbox/binary.md"]
    assert "dec-2026-001" in messages["Inbox/Zweite Entscheidung.md"]
    assert mn.records["dec-2026-001"].note.path == "Entscheidungen/Qdrant statt Chroma.md"


def test_force_reimports_everything(vault, open_mindnet):
    mn = open_mindnet(vault)
    first = run_import(mn).summary
    forced = run_import(mn, force=True).summary
    assert forced.changed == first.notes and forced.chunks == first.chunks


def test_cancel_stops_between_files_and_leaves_a_consistent_store(vault, open_mindnet):
    mn = open_mindnet(vault)
    seen = []
    summary = drain(mn.import_vault(None, cancel=lambda: len(seen) >= 3), seen.append).summary
    assert summary.cancelled and summary.added < summary.scanned
    records = mn.store.note_records()
    assert sum(r.chunk_count for r in records.values()) == len(mn.store.chunk_ids())
    assert run_import(mn).summary.added == summary.scanned - summary.added


def test_progress_reaches_total(vault, open_mindnet):
    mn = open_mindnet(vault)
    gen = mn.import_vault()
    events = []
    with pytest.raises(StopIteration):
        while True:
            events.append(next(gen))
    scans = [e for e in events if e.phase == "scan"]
    assert scans[-1].done == scans[-1].total == len(scan_vault(Path(vault)))
    # Nothing changed: unchanged files report every SCAN_REPORT_EVERY files and at the end
    # (a report per file cost ~0.1 s of an edit at 20,000 notes).
    again: list = []
    drain(mn.import_vault(), again.append)
    assert [(e.done, e.total) for e in again if e.phase == "scan"] == [(len(scans),) * 2]


def test_cancel_while_writing_leaves_no_edge_to_an_unwritten_note(vault, open_mindnet, monkeypatch):
    monkeypatch.setattr(write_stage, "EMBED_BATCH_CHUNKS", 4)  # several batches to stop between
    mn = open_mindnet(vault)
    events = []
    gen = mn.import_vault(None, cancel=lambda: any(e.phase == "embed" for e in events))
    outcome = drain(gen, events.append)
    assert outcome.summary.cancelled and 0 < outcome.summary.added < outcome.summary.scanned
    stored = mn.store.note_records()
    targets = {e.target_note_id for r in stored.values() for e in r.edges if e.target_note_id}
    assert targets <= set(stored)
    assert run_import(mn).summary.added == outcome.summary.scanned - outcome.summary.added
    stored = mn.store.note_records()
    alpha = [e for e in stored[ALPHA].edges if e.target_ref == "Qdrant Vektordatenbank"]
    assert alpha and all(e.target_note_id == "Wissen/Qdrant Vektordatenbank" for e in alpha)


def test_an_import_parses_each_note_body_once(tmp_path, open_mindnet, monkeypatch):
    """Guards the importer's own CPU (issue 32: it bounds a cold import beside the
    embedding processes): the links found when a note is read are resolved in stage 2,
    not found again by parsing the body after the reader's cache let it go (shown to fail
    by deriving the edges without `Pending.links`: every body is parsed twice)."""
    from collections import Counter

    from mindnet_desktop.bench.vault_gen import generate_vault
    from mindnet_desktop.core.ingest import markdown

    vault = generate_vault(tmp_path / "gen", 60)  # more notes than the reader's cache holds
    parsed: Counter[str] = Counter()
    real = markdown._PARSER.parse  # noqa: SLF001

    def spy(text: str, *args: object) -> object:
        parsed[text] += 1
        return real(text, *args)

    monkeypatch.setattr(markdown._PARSER, "parse", spy)  # noqa: SLF001
    markdown.read_markdown.cache_clear()
    mn = open_mindnet(vault)
    summary = run_import(mn).summary
    bodies = [record.note.body for record in mn.records.values()]
    assert summary.added == len(bodies) == 60
    assert max(parsed[body] for body in bodies) == 1


def test_an_edit_of_a_body_reuses_the_link_resolver_and_a_new_note_builds_one(
    vault, open_mindnet, monkeypatch
):
    """Guards the edit path at scale (issue 32): the resolver of every note's name, alias and
    headings is built again only when those change (shown to fail by building it on every
    import); the edges an edit derives still resolve."""
    from mindnet_desktop.core.ingest import importer, links

    mn = open_mindnet(vault)
    run_import(mn)
    built: list[int] = []
    real = links.Resolver.__init__

    def counting(self, notes):  # type: ignore[no-untyped-def]
        built.append(1)
        real(self, notes)

    monkeypatch.setattr(links.Resolver, "__init__", counting)
    keyed: list[str] = []
    real_key = importer.entry_key

    def key_counting(entry):  # type: ignore[no-untyped-def]
        keyed.append(entry.note_id)
        return real_key(entry)

    # Nor are the keys of every note compared: the entries the resolver was settled with
    # are the ones the edit starts from (shown to fail by comparing every note's key).
    monkeypatch.setattr(importer, "entry_key", key_counting)
    alpha = vault / f"{ALPHA}.md"
    for n in range(2):
        alpha.write_text(
            alpha.read_text(encoding="utf-8") + f"\n\nNeu {n}: siehe [[Qdrant Vektordatenbank]].\n",
            "utf-8",
        )
        os.utime(alpha, ns=(alpha.stat().st_atime_ns, alpha.stat().st_mtime_ns + 10**9 * (n + 1)))
        assert run_import(mn).summary.changed == 1
    assert built == []  # the cold import's resolver serves both edits
    assert len(keyed) <= 2 < len(mn.records)  # the edited note's key, once an edit
    targets = {e.target_note_id for e in mn.records[ALPHA].edges if e.kind == "references"}
    assert "Wissen/Qdrant Vektordatenbank" in targets
    (vault / "Neu.md").write_text("# Neu\n", encoding="utf-8")
    run_import(mn)
    assert len(built) == 1


def test_an_import_of_given_paths_looks_at_those_alone(vault, open_mindnet):
    """What a watcher knows changed is imported; a change it did not name waits for an import
    of the whole vault; a deleted path leaves, and links resolve as after a full import."""
    mn = open_mindnet(vault)
    run_import(mn)
    named = vault / "Wissen" / "Embeddings 101.md"
    unnamed = vault / "Glossar" / "HNSW.md"
    named.write_text(named.read_text(encoding="utf-8") + "\nGenannt.\n", encoding="utf-8")
    unnamed.write_text(unnamed.read_text(encoding="utf-8") + "\nUngenannt.\n", encoding="utf-8")
    (vault / "Inbox" / "Noch nicht geschrieben.md").write_text("Jetzt.\n", encoding="utf-8")
    (vault / "Events" / "Vector Search Meetup München.md").unlink()
    paths = frozenset(
        {
            "Wissen/Embeddings 101.md",
            "Inbox/Noch nicht geschrieben.md",
            "Events/Vector Search Meetup München.md",
            "Gibt es nicht.md",  # named, but never there: nothing happens
        }
    )
    summary = run_import(mn, sync_deletes=True, paths=paths).summary
    assert (summary.changed, summary.added, summary.deleted) == (1, 1, 1)
    assert summary.scanned == len(mn.records)
    assert summary.unchanged == summary.scanned - 2
    text = " ".join(c.text for c in mn.store.chunks("Wissen/Embeddings 101"))
    assert "Genannt." in text
    assert "Ungenannt." not in " ".join(c.text for c in mn.store.chunks("Glossar/HNSW"))
    journal = mn.records["Journal/2026-11-02"].edges
    late = next(e for e in journal if e.target_ref == "Noch nicht geschrieben")
    assert late.target_note_id == "Inbox/Noch nicht geschrieben"
    assert "Events/Vector Search Meetup München" not in mn.store.note_records()
    again = run_import(mn, sync_deletes=True).summary  # the whole vault: the unnamed edit
    assert (again.changed, again.added, again.deleted) == (1, 0, 0)
    assert "Ungenannt." in " ".join(c.text for c in mn.store.chunks("Glossar/HNSW"))


def test_given_paths_follow_the_scans_rules(tmp_path):
    """Hidden folders, links out of the vault, folders and linked folders are no notes."""
    from mindnet_desktop.core.ingest.vault import VaultUnavailableError, stat_paths

    vault, outside = tmp_path / "vault", tmp_path / "outside"
    (vault / ".obsidian").mkdir(parents=True)
    outside.mkdir()
    (vault / "a.md").write_text("a", encoding="utf-8")
    (vault / ".obsidian" / "b.md").write_text("b", encoding="utf-8")
    (outside / "c.md").write_text("c", encoding="utf-8")
    (vault / "c.md").symlink_to(outside / "c.md")
    (vault / "d.md").symlink_to(vault / "a.md")
    (vault / "folder.md").mkdir()
    (vault / "linked").symlink_to(outside)
    rels = ["a.md", ".obsidian/b.md", "c.md", "d.md", "folder.md", "linked/c.md", "gone.md"]
    warnings: list = []
    found = stat_paths(vault, rels, warnings)
    assert set(found) == {"a.md", "d.md"} == set(scan_vault(vault))
    assert [w.path for w in warnings] == ["c.md"]
    with pytest.raises(VaultUnavailableError):
        stat_paths(tmp_path / "missing", ["a.md"])
