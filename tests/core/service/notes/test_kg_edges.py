"""Creating edges: a callout written into the note (only those lines change), or the overlay
in read-only-vault mode and for `.ctxt` notes; one edge however often the note is imported."""

from __future__ import annotations

import difflib
import hashlib
import os
from pathlib import Path

import pytest

from mindnet_desktop.core.graph.queries import QueryError
from mindnet_desktop.core.ingest.note_edit import NoteEditError
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import

AUTONOMIE = "Persönlich/Werte/Autonomie"
QDRANT = "Wissen/Qdrant Vektordatenbank"
LASERJET = "Produkte/LaserJet 500"
ALPHA = "Projekte/KI-Projekt Alpha"
CALLOUT = "> [!edge] depends_on: [[Qdrant Vektordatenbank]]"


def vault_bytes(vault: Path) -> dict[str, bytes]:
    return {
        p.relative_to(vault).as_posix(): p.read_bytes() for p in vault.rglob("*") if p.is_file()
    }


def inserted_lines(old: bytes, new: bytes) -> list[str]:
    """The lines `new` adds to `old`; fails when any old line was changed or removed."""
    a = old.decode("utf-8").splitlines(keepends=True)
    b = new.decode("utf-8").splitlines(keepends=True)
    added = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        assert tag in ("equal", "insert"), (tag, a[i1:i2], b[j1:j2])
        if tag == "insert":
            added += b[j1:j2]
    return added


def callout_edges(mn, note_id: str, kind: str, target_note: str) -> list:
    return [
        e
        for e in mn.edges(include_deleted=True)
        if e.note_id == note_id
        and e.rule_id == "callout:edge"
        and e.kind == kind
        and e.target_note_id == target_note
    ]


def out_neighbours(mn, node: str, kind: str) -> dict[str, list[dict]]:
    page = mn.queries.neighbors(node, "out", {kind}, page_size=500)
    return {item.node["id"]: item.edges for item in page.items}


def test_add_by_alias_writes_only_the_callout_and_is_visible_at_once(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Persönlich" / "Werte" / "Autonomie.md"
    old, others = path.read_bytes(), vault_bytes(vault)
    assert QDRANT not in out_neighbours(mn, AUTONOMIE, "depends_on")

    edge, stored = edge_actions.add_edge(mn, "Selbstbestimmung", "DependsOn", "Qdrant")

    assert stored == "note"
    assert (edge.kind, edge.note_id, edge.target_note_id) == ("depends_on", AUTONOMIE, QDRANT)
    assert (edge.provenance, edge.rule_id, edge.confidence) == ("explicit", "callout:edge", 0.9)
    new = path.read_bytes()
    assert new == old + b"\n" + CALLOUT.encode() + b"\n"  # appended as its own paragraph
    assert inserted_lines(old, new) == ["\n", CALLOUT + "\n"]
    del others["Persönlich/Werte/Autonomie.md"]
    after = vault_bytes(vault)
    del after["Persönlich/Werte/Autonomie.md"]
    assert after == others  # no other file touched, no temp file left behind
    assert [e["id"] for e in out_neighbours(mn, AUTONOMIE, "depends_on")[QDRANT]] == [edge.id]
    assert edge_actions.edge_by_id(mn, edge.id) == edge
    assert mn.records[AUTONOMIE].note.content_hash == hashlib.sha256(new).hexdigest()
    assert run_import(mn).summary.changed == 0  # the add imported the note already


def test_add_to_a_chunk_inserts_the_callout_after_that_chunk(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Produkte" / "LaserJet 500.md"
    old = path.read_bytes()
    edge, stored = edge_actions.add_edge(mn, "LJ500#1", "caused_by", "Papierstau beheben")
    new = path.read_bytes()
    line = "> [!edge] caused_by: [[Papierstau beheben]]\n"
    assert stored == "note" and edge.source_id == f"{LASERJET}#1"
    assert inserted_lines(old, new) == [line, "\n"]
    assert new.index(line.encode()) < new.index(b"## H\xc3\xa4ufige Probleme")
    chunk = mn.queries.neighbors(f"{LASERJET}#1", "out", {"caused_by"}, level="chunk")
    assert [item.node["id"] for item in chunk.items] == ["Support/Papierstau beheben"]


def test_crlf_and_bom_are_kept(vault, open_mindnet):
    path = vault / "Support" / "Toner wechseln.md"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    mn = open_mindnet(vault)
    run_import(mn)
    old = path.read_bytes()
    edge, _ = edge_actions.add_edge(mn, "Toner wechseln", "references", "LaserJet 500 Handbuch#4")
    new = path.read_bytes()
    assert new.startswith(b"\xef\xbb\xbf") and b"\n" not in new.replace(b"\r\n", b"")
    assert inserted_lines(old[3:], new[3:]) == [
        "\r\n",
        "> [!edge] references: [[LaserJet 500 Handbuch#Wartung]]\r\n",
    ]
    assert edge.target_id == "Produkte/LaserJet 500 Handbuch#4"


def test_exactly_one_edge_after_touch_resave_and_reimports(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Persönlich" / "Werte" / "Autonomie.md"
    edge, _ = edge_actions.add_edge(mn, AUTONOMIE, "depends_on", QDRANT)
    written = path.read_bytes()

    def exactly_one() -> None:
        assert [e.id for e in callout_edges(mn, AUTONOMIE, "depends_on", QDRANT)] == [edge.id]
        hop_ids = [e["id"] for e in out_neighbours(mn, AUTONOMIE, "depends_on")[QDRANT]]
        assert hop_ids == [edge.id]
        assert path.read_bytes().count(CALLOUT.encode()) == 1

    exactly_one()
    later = path.stat().st_mtime_ns + 5_000_000_000
    os.utime(path, ns=(later, later))  # touched
    assert run_import(mn).summary.changed == 0
    exactly_one()
    path.write_bytes(written)  # re-saved by an editor, same bytes
    run_import(mn, sync_deletes=True)  # what the watcher runs
    exactly_one()
    assert run_import(mn, force=True).summary.changed > 0
    exactly_one()
    mn.close()
    reopened = open_mindnet(vault)
    assert [e["id"] for e in out_neighbours(reopened, AUTONOMIE, "depends_on")[QDRANT]] == [edge.id]


def test_adding_an_existing_edge_is_refused_without_writing(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    before = vault_bytes(vault)
    with pytest.raises(QueryError, match="exists already"):
        edge_actions.add_edge(mn, "LJ500", "resolves", "Papierstau")  # inline in the note
    with pytest.raises(QueryError, match="two different nodes"):
        edge_actions.add_edge(mn, "LJ500", "references", LASERJET)
    assert vault_bytes(vault) == before
    assert mn.overlay.audit_log() == []


def test_note_changed_on_disk_is_not_overwritten(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Produkte" / "LaserJet 500.md"
    edited = path.read_bytes() + b"\nNeuer Absatz, noch nicht importiert.\n"
    path.write_bytes(edited)
    with pytest.raises(NoteEditError, match="changed on disk"):
        edge_actions.add_edge(mn, "LJ500", "depends_on", "Qdrant")
    assert path.read_bytes() == edited
    assert QDRANT not in out_neighbours(mn, LASERJET, "depends_on")


def test_a_reader_cannot_create_edges(vault, open_mindnet):
    writer = open_mindnet(vault)
    run_import(writer)
    writer.close()
    reader = open_mindnet(vault, write=False)
    before = vault_bytes(vault)
    with pytest.raises(PermissionError):
        edge_actions.add_edge(reader, "LJ500", "depends_on", "Qdrant")
    assert vault_bytes(vault) == before


def test_read_only_vault_keeps_the_edge_in_the_overlay_across_reopening(vault, open_mindnet):
    mn = open_mindnet(vault, read_only_vault=True)
    run_import(mn)
    before = vault_bytes(vault)
    edge, stored = edge_actions.add_edge(mn, "LJ500", "RelatesTo", "Projekt Alpha")
    assert stored == "overlay"
    assert (edge.provenance, edge.rule_id, edge.source_id, edge.target_id) == (
        "user",
        "user:overlay",
        LASERJET,
        ALPHA,
    )
    assert vault_bytes(vault) == before
    assert set(mn.overlay.user_edges) == {edge.id}
    assert (mn.data_dir / "overlay.json").is_file()
    assert [e["id"] for e in out_neighbours(mn, LASERJET, "related_to")[ALPHA]] == [edge.id]
    # related_to is symmetric: the target reads it too
    assert edge.id in [e["id"] for e in out_neighbours(mn, ALPHA, "related_to")[LASERJET]]
    with pytest.raises(QueryError, match="exists already"):
        edge_actions.add_edge(mn, "Projekt Alpha", "related_to", "LJ500")
    run_import(mn, force=True)  # the source note re-imported: the user's edge stays
    assert edge.id in [e["id"] for e in out_neighbours(mn, LASERJET, "related_to")[ALPHA]]
    mn.close()

    reopened = open_mindnet(vault, write=False)
    assert [e["id"] for e in out_neighbours(reopened, LASERJET, "related_to")[ALPHA]] == [edge.id]
    assert edge.id in {e.id for e in reopened.edges()}
    assert vault_bytes(vault) == before


def test_a_ctxt_source_goes_to_the_overlay(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    before = vault_bytes(vault)
    edge, stored = edge_actions.add_edge(mn, "Drucker FAQ", "resolves", "Paper jam")
    assert stored == "overlay"
    assert (edge.source_id, edge.target_id) == ("Support/drucker-faq", "Support/Papierstau beheben")
    assert vault_bytes(vault) == before
    assert "Support/Papierstau beheben" in out_neighbours(mn, "Support/drucker-faq", "resolves")
    [event] = mn.overlay.audit_log()
    assert (event["event"], event["edge_id"], event["stored"]) == ("create", edge.id, "overlay")


def test_failed_add_leaves_the_note_unchanged(vault, open_mindnet):
    path = vault / "Inbox" / "Schnipsel.md"
    path.write_text("# Schnipsel\n\nCode:\n\n```python\nprint('hallo')\n", encoding="utf-8")
    mn = open_mindnet(vault)
    run_import(mn)
    old = path.read_bytes()
    try:
        edge, _ = edge_actions.add_edge(mn, "Inbox/Schnipsel", "references", "LJ500")
    except NoteEditError:
        assert path.read_bytes() == old  # a failed edit must not leave a stray line behind
    else:
        assert LASERJET in out_neighbours(mn, "Inbox/Schnipsel", "references")
        assert edge.target_note_id == LASERJET


def test_adding_a_deleted_edge_again_makes_it_visible(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Persönlich" / "Werte" / "Autonomie.md"
    edge, _ = edge_actions.add_edge(mn, AUTONOMIE, "depends_on", QDRANT)
    edge_actions.delete_edge(mn, edge.id)
    assert QDRANT not in out_neighbours(mn, AUTONOMIE, "depends_on")
    written = path.read_bytes()
    try:
        again, _ = edge_actions.add_edge(mn, AUTONOMIE, "depends_on", QDRANT)
    except QueryError as exc:  # refusing (pointing at `edge restore`) would be fine too
        assert "restore" in str(exc)
        assert path.read_bytes() == written
    else:
        assert QDRANT in out_neighbours(mn, AUTONOMIE, "depends_on")
        assert again.id in {e.id for e in mn.edges()}


def test_a_chunk_without_its_own_heading_is_not_silently_replaced_by_its_note(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    path = vault / "Persönlich" / "Werte" / "Autonomie.md"
    old = path.read_bytes()
    with pytest.raises(QueryError, match="no heading of its own"):
        edge_actions.add_edge(mn, AUTONOMIE, "references", "Drucker FAQ#3")
    assert path.read_bytes() == old
    mn.close()
    mn = open_mindnet(vault, read_only_vault=True)
    edge, stored = edge_actions.add_edge(mn, AUTONOMIE, "references", "Drucker FAQ#3")
    assert (stored, edge.target_id, edge.target_note_id) == (
        "overlay",
        "Support/drucker-faq#3",
        "Support/drucker-faq",
    )
    assert path.read_bytes() == old
