"""Related notes ("related but not yet linked"): `--unlinked` never lists a note joined by an
edge either way; linking one adds the edge (one callout in the note) and drops it from the
list; the CLI's `--json` output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.notes.related import related
from tests.conftest import run_import

NOTES = ["Produkte/LaserJet 500", "Projekte/KI-Projekt Alpha", "Wissen/Embeddings 101"]


def joined(mn, note_id: str) -> set[str]:  # noqa: ANN001
    """Notes with an active edge to or from `note_id`, straight from the edge list."""
    found = set()
    for edge in mn.edges():
        if edge.target_note_id is None or edge.note_id == edge.target_note_id:
            continue
        if edge.note_id == note_id:
            found.add(edge.target_note_id)
        if edge.target_note_id == note_id:
            found.add(edge.note_id)
    return found


def test_unlinked_never_lists_a_joined_note(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    for note in NOTES:
        everything = related(mn, note, k=50)
        assert any(r.linked for r in everything), "the plain list includes linked notes"
        assert {r.note_id for r in everything if r.linked} <= joined(mn, note)
        unlinked = related(mn, note, k=50, unlinked=True)
        assert unlinked and not {r.note_id for r in unlinked} & joined(mn, note)
        assert note not in {r.note_id for r in unlinked}
        assert all(r.reasons and not r.linked for r in unlinked)
        assert [r.score for r in unlinked] == sorted((r.score for r in unlinked), reverse=True)
    support = related(mn, NOTES[0], k=50, folder="Support")
    assert support and all(r.path.startswith("Support/") for r in support)


def test_linking_one_adds_the_edge_once_and_drops_it_from_the_list(
    vault: Path, open_mindnet
) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    source = NOTES[0]
    first = related(mn, source, unlinked=True)[0]
    edge, stored = edge_actions.add_edge(mn, source, "related_to", first.note_id)
    assert stored == "note" and edge.kind == "related_to"
    assert first.note_id in joined(mn, source)
    assert first.note_id not in {r.note_id for r in related(mn, source, k=50, unlinked=True)}
    text = (vault / mn.records[source].note.path).read_text(encoding="utf-8")
    callouts = [line for line in text.splitlines() if "[!edge] related_to:" in line]
    assert len(callouts) == 1
    assert first.note_id.rsplit("/", 1)[-1] in callouts[0]
    with pytest.raises(Exception, match="exists already"):
        edge_actions.add_edge(mn, source, "related_to", first.note_id)


def test_cli_related_json(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import", "--json"]) == 0
    capsys.readouterr()
    code = main(
        ["--vault", str(vault), "related", "LaserJet 500", "--unlinked", "--k", "3", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["note"]["id"] == NOTES[0] and out["unlinked"] is True
    assert out["count"] == len(out["related"]) <= 3
    row = out["related"][0]
    assert {
        "note_id",
        "title",
        "type",
        "path",
        "score",
        "similarity",
        "bm25",
        "linked",
        "reasons",
    } <= row.keys()
    assert row["linked"] is False


def test_a_vault_too_big_to_name_its_notes_lists_the_same(vault: Path, open_mindnet, monkeypatch):
    """Guards related notes at 50,000 notes, where Chroma cannot take every allowed note's id
    ("too many SQL variables"): asked without them, the list is the same, scores and all
    (shown to fail by asking for no more candidates than before, and by a lexical filter
    that adds to the scores it lets through)."""
    from mindnet_desktop.core.service.notes import related as module

    mn = open_mindnet(vault)
    run_import(mn)
    expected = {n: related(mn, n, k=8, unlinked=True) for n in NOTES}
    monkeypatch.setattr(module, "MAX_LISTED_NOTES", 1)
    for note, want in expected.items():
        got = related(mn, note, k=8, unlinked=True)
        assert [r.to_dict() for r in got] == [r.to_dict() for r in want]
