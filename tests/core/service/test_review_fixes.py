"""Defects found in review, each shown by a test that failed before its fix."""

from __future__ import annotations

import json
import os
import unicodedata

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.ingest.importer import VaultUnavailableError
from mindnet_desktop.core.ingest.links import extract_links
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import


def test_a_vanished_vault_never_wipes_the_index(vault, open_mindnet, tmp_path):
    mn = open_mindnet(vault)
    notes = run_import(mn).summary.notes
    os.rename(vault, tmp_path / "unmounted")
    with pytest.raises(VaultUnavailableError, match="missing or unreadable"):
        run_import(mn, sync_deletes=True)
    assert len(mn.store.note_records()) == notes


def test_a_callout_without_kind_does_not_inherit_the_previous_one():
    body = "> [!edge] depends_on: [[A]]\n\ntext\n\n> [!edge]\n> [[B]]\n\n> [!edge] see [[C]]"
    assert [(link.target, link.rule, link.kind) for link in extract_links(body)] == [
        ("A", "callout", "depends_on"),
        ("B", "wikilink", "references"),
        ("C", "wikilink", "references"),
    ]


def test_decomposed_unicode_file_names_resolve_and_are_found(vault, open_mindnet):
    nfd = unicodedata.normalize("NFD", "Größe Übung")
    (vault / "Inbox" / f"{nfd}.md").write_text("# Größe\nText\n", encoding="utf-8")
    (vault / "Inbox" / "Verweis.md").write_text("Siehe [[Größe Übung]].\n", encoding="utf-8")
    mn = open_mindnet(vault)
    run_import(mn)
    edge = next(e for e in mn.records["Inbox/Verweis"].edges if e.kind == "references")
    assert edge.target_note_id == f"Inbox/{nfd}"
    assert mn.find_note("Größe Übung").note.note_id == f"Inbox/{nfd}"


def test_edge_add_finds_the_body_after_frontmatter_that_repeats_it(vault, open_mindnet):
    path = vault / "Inbox" / "Short.md"
    path.write_text("---\ntitle: Short\n---\nShort\n", encoding="utf-8")
    mn = open_mindnet(vault)
    run_import(mn)
    edge, stored = edge_actions.add_edge(mn, "Inbox/Short#1", "related_to", "Local First")
    assert stored == "note" and edge.target_note_id == "Persönlich/Prinzipien/Local First"
    assert path.read_text(encoding="utf-8") == (
        "---\ntitle: Short\n---\nShort\n\n> [!edge] related_to: [[Local First]]\n"
    )


def test_edge_add_writes_through_a_symlinked_note(vault, open_mindnet):
    """A note that is a symbolic link to another file of the vault is written where the link
    points; the link stays. (This test used to link a file outside the vault; issue 14 made
    links out of the vault not followed at all: tests/reliability/test_safety.py.)"""
    real = vault / "Archiv" / "Linked.md"
    real.parent.mkdir(exist_ok=True)
    real.write_text("# Linked\nText\n", encoding="utf-8")
    link = vault / "Inbox" / "Linked.md"
    link.symlink_to(real)
    mn = open_mindnet(vault)
    run_import(mn)
    edge_actions.add_edge(mn, "Inbox/Linked", "related_to", "HNSW")
    assert link.is_symlink()
    assert "> [!edge] related_to: [[HNSW]]" in real.read_text(encoding="utf-8")


def test_show_marks_deleted_edges(vault, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import", "--json"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(vault), "show", "Local First", "--json"]) == 0
    edge = next(
        e for e in json.loads(capsys.readouterr().out)["edges"] if e["kind"] == "beeinflusst_von"
    )
    assert main(["--vault", str(vault), "edge", "delete", edge["id"], "--json"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(vault), "show", "Local First", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert next(e for e in shown["edges"] if e["id"] == edge["id"])["deleted"] is True


def test_deleting_one_copy_of_a_link_leaves_the_other(vault, open_mindnet):
    filler = "Ein längerer Absatz über lokale Software und Datenschutz. " * 8
    text = f"# Zwei\n\n## Eins\n{filler}[[Local First]]\n\n## Zwei\n{filler}[[Local First]]\n"
    path = vault / "Inbox" / "Zweimal.md"
    path.write_text(text, encoding="utf-8")
    mn = open_mindnet(vault)
    run_import(mn)

    def copies(include_deleted=False):
        return [
            e
            for e in mn.edges(include_deleted)
            if e.note_id == "Inbox/Zweimal" and e.rule_id == "explicit:wikilink"
        ]

    first, second = sorted(copies(), key=lambda e: e.source_id)
    assert first.source_id != second.source_id
    edge_actions.delete_edge(mn, first.id)
    assert [e.id for e in copies()] == [second.id]
    path.write_text(text.replace("## Eins\n", "## Eins\n" + filler + "\n\n"), encoding="utf-8")
    run_import(mn)  # both copies move to later chunks: the deleted one stays deleted
    assert len(copies()) == 1 and len(copies(include_deleted=True)) == 2
    deleted = next(e for e in copies(include_deleted=True) if e.deleted)
    edge_actions.restore_edge(mn, deleted.id)
    assert len(copies()) == 2


def test_links_that_resolve_later_dedupe_like_a_fresh_import(vault, open_mindnet):
    (vault / "Inbox" / "Zwei Namen.md").write_text(
        "Siehe [[Zed]] und [[Zeta Alias]].\n", encoding="utf-8"
    )
    mn = open_mindnet(vault)
    run_import(mn)
    (vault / "Wissen" / "Zed.md").write_text(
        "---\naliases: [Zeta Alias]\n---\nZed\n", encoding="utf-8"
    )
    run_import(mn)

    def refs():
        return sorted(
            (e.source_id, e.target_id, e.kind, e.rule_id)
            for e in mn.store.note_records()["Inbox/Zwei Namen"].edges
            if e.provenance == "explicit"
        )

    late = refs()
    assert late == [("Inbox/Zwei Namen#1", "Wissen/Zed", "references", "explicit:wikilink")]
    run_import(mn, force=True)
    assert refs() == late


def test_a_rename_keeps_deletions_and_the_users_edges(vault, open_mindnet):
    mn = open_mindnet(vault, read_only_vault=True)
    run_import(mn)
    alpha = "Projekte/KI-Projekt Alpha"
    inline = next(e for e in mn.records[alpha].edges if e.rule_id == "inline:rel")
    edge_actions.delete_edge(mn, inline.id)
    mine, stored = edge_actions.add_edge(mn, alpha, "causes", "HNSW")
    assert stored == "overlay"
    os.rename(vault / "Projekte" / "KI-Projekt Alpha.md", vault / "Projekte" / "Alpha.md")
    run_import(mn)
    assert "Projekte/Alpha" in mn.records and alpha not in mn.records
    moved = [e for e in mn.edges(include_deleted=True) if e.note_id == "Projekte/Alpha"]
    inline_now = next(e for e in moved if e.rule_id == "inline:rel")
    assert inline_now.deleted
    user = [e for e in moved if e.provenance == "user"]
    assert [(u.source_id, u.kind, u.target_note_id) for u in user] == [
        ("Projekte/Alpha", "causes", "Glossar/HNSW")
    ]
    causes = mn.queries.neighbors("Projekte/Alpha", "out", {"causes"})
    assert [item.node["id"] for item in causes.items] == ["Glossar/HNSW"]
    depends = mn.queries.neighbors("Projekte/Alpha", "out", {"depends_on"})
    assert "Wissen/Qdrant Vektordatenbank" not in [item.node["id"] for item in depends.items]
    assert mine.id not in {e.id for e in mn.edges()}


def test_note_edge_counts_leave_out_deleted_edges(vault, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import", "--json"]) == 0
    capsys.readouterr()

    def count() -> int:
        assert main(["--vault", str(vault), "notes", "--json"]) == 0
        notes = json.loads(capsys.readouterr().out)["notes"]
        return next(
            n["edges"] for n in notes if n["note_id"] == "Persönlich/Prinzipien/Local First"
        )

    before = count()
    assert main(["--vault", str(vault), "show", "Local First", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["note"]["edges"] == before == len(shown["edges"])
    edge = next(e for e in shown["edges"] if e["kind"] == "beeinflusst_von")
    assert main(["--vault", str(vault), "edge", "delete", edge["id"]]) == 0
    capsys.readouterr()
    assert count() == before - 1
