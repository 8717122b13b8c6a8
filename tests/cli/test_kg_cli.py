"""The knowledge-graph commands of `mindnet` as a user scripts them: `--json` output, and
bad input ending with exit code 2, one clear message on stderr and nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main

LASERJET = "Produkte/LaserJet 500"
ALPHA = "Projekte/KI-Projekt Alpha"
AUTONOMIE = "Persönlich/Werte/Autonomie"
QDRANT = "Wissen/Qdrant Vektordatenbank"


@pytest.fixture(autouse=True)
def _test_embedder(monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")


@pytest.fixture
def mindnet(vault, capsys):
    """`mindnet(*argv)` -> parsed `--json` output of a successful run on the imported vault."""

    def run(*argv: str) -> dict:
        code = main(["--vault", str(vault), *argv, "--json"])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        return json.loads(captured.out)

    run("import")
    return run


def state(vault: Path, data: Path) -> dict[str, bytes | None]:
    """Every vault file plus the overlay, audit log and user config, byte for byte."""
    files: dict[str, bytes | None] = {
        p.relative_to(vault).as_posix(): p.read_bytes() for p in vault.rglob("*") if p.is_file()
    }
    for name in ("overlay.json", "audit.jsonl", "config/edge_types.yaml"):
        path = data / name
        files[f"data/{name}"] = path.read_bytes() if path.exists() else None
    return files


def node_ids(result: dict) -> list[str]:
    return [item["node"]["id"] for item in result["items"]]


def edge_id(mindnet, note: str, kind: str, target: str) -> str:
    edges = mindnet("edges", "--note", note, "--kind", kind)["edges"]
    [found] = [e["id"] for e in edges if e["target_id"] == target and e["rule_id"] == "inline:rel"]
    return found


def test_edge_add_by_alias_is_a_callout_and_a_neighbour(mindnet, vault):
    path = vault / "Persönlich" / "Werte" / "Autonomie.md"
    old = path.read_bytes()
    made = mindnet("edge", "add", "Selbstbestimmung", "DependsOn", "Qdrant")
    assert made["stored"] == "note"
    edge = made["edge"]
    assert (edge["kind"], edge["note_id"], edge["target_id"]) == ("depends_on", AUTONOMIE, QDRANT)
    assert (edge["rule_id"], edge["deleted"], edge["deleted_at"]) == ("callout:edge", False, None)
    assert path.read_bytes() == old + b"\n> [!edge] depends_on: [[Qdrant Vektordatenbank]]\n"
    nb = mindnet("neighbors", "Selbstbestimmung", "--direction", "out", "--kind", "DependsOn")
    assert nb["node"]["id"] == AUTONOMIE and node_ids(nb) == [QDRANT]
    assert [e["id"] for e in nb["items"][0]["edges"]] == [edge["id"]]
    mindnet("import", "--sync-deletes")
    again = mindnet("neighbors", "Autonomie", "--direction", "out", "--kind", "depends_on")
    assert [e["id"] for e in again["items"][0]["edges"]] == [edge["id"]]
    [event] = mindnet("audit")["events"]
    assert (event["event"], event["edge_id"], event["stored"]) == ("create", edge["id"], "note")


def test_read_only_vault_puts_the_edge_in_the_overlay(mindnet, vault, tmp_path):
    before = {k: v for k, v in state(vault, tmp_path / "data").items() if "data/" not in k}
    made = mindnet("--read-only-vault", "edge", "add", "LJ500", "RelatesTo", "Projekt Alpha")
    assert made["stored"] == "overlay"
    assert (made["edge"]["provenance"], made["edge"]["target_id"]) == ("user", ALPHA)
    after = {k: v for k, v in state(vault, tmp_path / "data").items() if "data/" not in k}
    assert after == before
    overlay = json.loads((tmp_path / "data" / "overlay.json").read_text(encoding="utf-8"))
    assert [e["id"] for e in overlay["user_edges"]] == [made["edge"]["id"]]
    nb = mindnet("neighbors", "Projekt Alpha", "--direction", "in", "--kind", "related_to")
    assert LASERJET in node_ids(nb)
    edges = mindnet("edges", "--note", "LJ500")["edges"]
    assert made["edge"]["id"] in [e["id"] for e in edges]


def test_delete_restore_and_the_audit_log(mindnet, vault):
    before = {p: p.read_bytes() for p in vault.rglob("*.md")}
    eid = edge_id(mindnet, "LJ500", "resolves", "Support/Toner wechseln")
    gone = mindnet("edge", "delete", eid)["edge"]
    assert (gone["id"], gone["deleted"]) == (eid, True) and gone["deleted_at"]
    nb = mindnet("neighbors", "LJ500", "--direction", "out", "--kind", "resolves")
    assert node_ids(nb) == ["Support/Papierstau beheben"]
    shown = mindnet(
        "neighbors", "LJ500", "--direction", "out", "--kind", "resolves", "--include-deleted"
    )
    toner = shown["items"][1]
    assert toner["node"]["id"] == "Support/Toner wechseln"
    assert [(e["id"], e["deleted"]) for e in toner["edges"]] == [(eid, True)]
    assert eid not in [e["id"] for e in mindnet("edges")["edges"]]
    listed = [e for e in mindnet("edges", "--include-deleted")["edges"] if e["id"] == eid]
    assert [e["deleted"] for e in listed] == [True]
    walked = mindnet("traverse", "LJ500", "--depth", "1", "--kind", "resolves")
    assert [n["node"]["id"] for n in walked["nodes"]] == [LASERJET, "Support/Papierstau beheben"]

    back = mindnet("edge", "restore", eid)["edge"]
    assert (back["deleted"], back["deleted_at"]) == (False, None)
    nb = mindnet("neighbors", "LJ500", "--direction", "out", "--kind", "resolves")
    assert node_ids(nb) == ["Support/Papierstau beheben", "Support/Toner wechseln"]
    audit = mindnet("audit")
    assert audit["count"] == 2
    assert [(e["event"], e["edge_id"]) for e in audit["events"]] == [
        ("delete", eid),
        ("restore", eid),
    ]
    assert all(e["time"] for e in audit["events"])
    assert {p: p.read_bytes() for p in vault.rglob("*.md")} == before


@pytest.mark.parametrize("page_size", ["1", "2", "50"])
def test_neighbors_pages_via_cursor(mindnet, page_size):
    full = mindnet("neighbors", ALPHA, "--page-size", "500")
    seen, cursor, pages = [], None, 0
    while pages < 60:  # a cursor that never ends fails instead of hanging
        extra = ["--cursor", cursor] if cursor else []
        page = mindnet("neighbors", "Projekt Alpha", "--page-size", page_size, *extra)
        assert page["total"] == full["total"] and len(page["items"]) <= int(page_size)
        seen += node_ids(page)
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == node_ids(full) and len(set(seen)) == full["total"] >= 10
    assert pages == -(-full["total"] // int(page_size))


def test_traverse_and_rag_json(mindnet):
    root = mindnet("traverse", "LJ500", "--depth", "0")
    assert root["count"] == 1 and root["nodes"] == [{"node": root["root"], "depth": 0, "path": []}]
    two = mindnet("traverse", "Projekt Alpha", "--depth", "2")
    assert {n["depth"] for n in two["nodes"]} == {0, 1, 2}
    assert all(len(n["path"]) == n["depth"] for n in two["nodes"])
    rag = mindnet("rag", "LJ500", "Toner Kassette", "--depth", "1", "--k", "2")
    assert (rag["root"]["id"], rag["depth"], rag["count"]) == (LASERJET, 1, 2)
    allowed = {"Support/Toner wechseln", "Support/Papierstau beheben", f"{LASERJET} Handbuch"}
    for hit in rag["hits"]:
        assert hit["note_id"] in allowed
        assert hit["via"][0]["from"].startswith(f"{LASERJET}#")
    found = mindnet("search", "Toner Kassette", "--root", "LJ500", "--depth", "1", "--k", "50")
    assert found["root"]["id"] == LASERJET and {h["note_id"] for h in found["hits"]} == allowed
    assert all("via" not in h for h in found["hits"])


BAD_INPUT = {
    "unknown kind": (
        ["edge", "add", "LJ500", "dependz_on", "Projekt Alpha"],
        ["unknown edge kind 'dependz_on'", "did you mean", "depends_on"],
    ),
    "unknown target": (
        ["edge", "add", "LJ500", "depends_on", "Nirgendwo"],
        ["No note matches 'Nirgendwo'"],
    ),
    "unknown source": (["edge", "add", "Nirgendwo", "references", "LJ500"], ["'Nirgendwo'"]),
    "unknown node": (["neighbors", "Nirgendwo"], ["No note matches 'Nirgendwo'"]),
    "unknown kind filter": (["neighbors", "LJ500", "--kind", "Resolvs"], ["did you mean resolves"]),
    "bad cursor": (["neighbors", "LJ500", "--cursor", "bogus"], ["invalid cursor 'bogus'"]),
    "bad page size": (["neighbors", "LJ500", "--page-size", "0"], ["page size"]),
    "unknown edge id": (["edge", "delete", "e_0000000000000000"], ["unknown edge id"]),
    "restore active": (["edge", "restore", "{active}"], ["is not deleted"]),
    "delete twice": (["edge", "delete", "{deleted}"], ["is deleted already", "edge restore"]),
    "existing edge": (["edge", "add", "LJ500", "Resolves", "Paper jam"], ["exists already"]),
    "negative depth": (["traverse", "LJ500", "--depth", "-1"], ["depth must be 0 or more"]),
    "rag unknown root": (["rag", "Nirgendwo", "Toner"], ["No note matches 'Nirgendwo'"]),
    "builtin kind": (["edge-types", "add", "DependsOn", "--description", "x"], ["built-in"]),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_input_exits_2_with_a_message_and_changes_nothing(
    mindnet, vault, tmp_path, capsys, case, as_json
):
    argv, expected = BAD_INPUT[case]
    active = edge_id(mindnet, "LJ500", "resolves", "Support/Papierstau beheben")
    deleted = edge_id(mindnet, "LJ500", "resolves", "Support/Toner wechseln")
    mindnet("edge", "delete", deleted)
    argv = [a.format(active=active, deleted=deleted) for a in argv]
    before = state(vault, tmp_path / "data")
    code = main(["--vault", str(vault), *argv, *(["--json"] if as_json else [])])
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mindnet: error: ")
    for text in expected:
        assert text in lines[0]
    if as_json:
        assert json.loads(captured.out) == {"error": lines[0].removeprefix("mindnet: error: ")}
    else:
        assert captured.out == ""
    assert state(vault, tmp_path / "data") == before
