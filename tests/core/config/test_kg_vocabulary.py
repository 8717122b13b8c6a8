"""The edge vocabulary: PascalCase aliases, close-match hints, vault kinds, `edge-types add`."""

from __future__ import annotations

import json

import pytest
import yaml

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.config.vocabulary import EDGE_TYPES_FILE, UnknownKindError
from mindnet_desktop.core.service.notes import edge_actions
from tests.conftest import run_import

LOCAL_FIRST = "Persönlich/Prinzipien/Local First"
AUTONOMIE = "Persönlich/Werte/Autonomie"


@pytest.fixture
def cli_env(monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


@pytest.mark.parametrize(
    ("written", "kind"),
    [
        ("RelatesTo", "related_to"),
        ("DependsOn", "depends_on"),
        ("BelongsTo", "belongs_to"),
        ("References", "references"),
        ("depends-on", "depends_on"),
        ("derived_from", "derived_from"),
        ("beeinflusst_von", "beeinflusst_von"),
    ],
)
def test_resolve_accepts_aliases_and_custom_vault_kinds(vault, open_mindnet, written, kind):
    mn = open_mindnet(vault)
    run_import(mn)
    assert mn.vocabulary.resolve(written) == kind


def test_unknown_kind_error_lists_close_matches(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    with pytest.raises(UnknownKindError) as info:
        mn.vocabulary.resolve("dependz_on")
    message = str(info.value)
    assert "unknown edge kind 'dependz_on'" in message
    assert "did you mean" in message and "depends_on" in message
    with pytest.raises(UnknownKindError, match="beeinflusst_von"):
        mn.vocabulary.resolve("beeinflust_von")  # the vault's kind is a close match too
    with pytest.raises(UnknownKindError) as far:
        mn.vocabulary.resolve("zzzzqqqq")
    assert "did you mean" not in str(far.value)


def test_builtin_vocabulary_and_the_vault_kind_with_its_usage_count(vault, capsys, cli_env):
    run_json(capsys, "--vault", str(vault), "import")
    data = run_json(capsys, "--vault", str(vault), "edge-types")
    kinds = {k["kind"]: k for k in data["kinds"]}
    assert data["count"] == len(data["kinds"]) == len(kinds)
    builtin = {
        "references",
        "belongs_to",
        "related_to",
        "similar_to",
        "depends_on",
        "resolves",
        "contains",
        "causes",
        "caused_by",
        "derived_from",
        "next",
        "prev",
    }
    assert builtin <= set(kinds)
    assert all(kinds[k]["origin"] == "builtin" for k in builtin)
    assert kinds["related_to"]["symmetric"] is True and kinds["depends_on"]["symmetric"] is False
    custom = kinds["beeinflusst_von"]
    assert custom["origin"] == "vault" and custom["count"] == 1
    # `resolves` is used twice by LaserJet 500, nowhere else
    assert kinds["resolves"]["count"] == 2
    edges = run_json(capsys, "--vault", str(vault), "edges")["edges"]
    assert sum(e["kind"] == "depends_on" for e in edges) == kinds["depends_on"]["count"] > 0


def test_vault_kind_is_a_kind_of_the_graph(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    assert mn.vocabulary.kinds["beeinflusst_von"].origin == "vault"
    page = mn.queries.neighbors(LOCAL_FIRST, "out", {"beeinflusst_von"})
    assert [item.node["id"] for item in page.items] == [AUTONOMIE]
    back = mn.queries.neighbors(AUTONOMIE, "in", {"beeinflusst_von"})
    assert [item.node["id"] for item in back.items] == [LOCAL_FIRST]


def test_add_custom_kind_writes_config_and_survives_reopening(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    added = mn.vocabulary.add("IstTeilVon", "  Die Quelle ist ein Teil des Ziels.  ")
    assert (added.kind, added.origin) == ("ist_teil_von", "user")
    assert added.description == "Die Quelle ist ein Teil des Ziels."
    path = mn.config_dir / EDGE_TYPES_FILE
    saved = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert saved["schema_version"] == 1
    assert saved["kinds"] == {"ist_teil_von": {"description": "Die Quelle ist ein Teil des Ziels."}}
    mn.vocabulary.add("gehoert_zu_team", "Person gehört zum Team.")
    mn.close()

    again = open_mindnet(vault)
    kinds = again.vocabulary.kinds
    assert kinds["ist_teil_von"].origin == "user"
    assert kinds["ist_teil_von"].description == "Die Quelle ist ein Teil des Ziels."
    assert kinds["gehoert_zu_team"].origin == "user"
    assert again.vocabulary.resolve("IstTeilVon") == "ist_teil_von"
    # a user kind is usable at once for a new edge, and the edge shows up under it
    edge, stored = edge_actions.add_edge(again, "Local First", "IstTeilVon", "Autonomie")
    assert (edge.kind, stored) == ("ist_teil_von", "note")
    page = again.queries.neighbors(LOCAL_FIRST, "out", {"ist_teil_von"})
    assert [item.node["id"] for item in page.items] == [AUTONOMIE]


@pytest.mark.parametrize(
    ("kind", "description", "message"),
    [
        ("DependsOn", "schon da", "built-in"),
        ("related_to", "schon da", "built-in"),
        ("ist teil", "Leerzeichen", "not a valid kind name"),
        ("9lives", "Ziffer vorn", "not a valid kind name"),
        ("ist_teil_von", "   ", "needs a description"),
    ],
)
def test_add_rejects_bad_kinds_and_writes_nothing(vault, open_mindnet, kind, description, message):
    mn = open_mindnet(vault)
    run_import(mn)
    before = set(mn.vocabulary.kinds)
    with pytest.raises(UnknownKindError, match=message):
        mn.vocabulary.add(kind, description)
    assert not (mn.config_dir / EDGE_TYPES_FILE).exists()
    assert set(mn.vocabulary.kinds) == before


def test_cli_edge_types_add_persists_and_is_listed(vault, tmp_path, capsys, cli_env):
    run_json(capsys, "--vault", str(vault), "import")
    added = run_json(
        capsys,
        "--vault",
        str(vault),
        "edge-types",
        "add",
        "WidersprichtDem",
        "--description",
        "Die Quelle widerspricht dem Ziel.",
    )
    assert added["kind"] == {
        "kind": "widerspricht_dem",
        "description": "Die Quelle widerspricht dem Ziel.",
        "example": "",
        "symmetric": False,
        "origin": "user",
        "count": 0,
    }
    assert (tmp_path / "data" / "config" / EDGE_TYPES_FILE).is_file()
    listed = run_json(capsys, "--vault", str(vault), "edge-types")
    kinds = {k["kind"]: k for k in listed["kinds"]}
    assert kinds["widerspricht_dem"]["origin"] == "user"
    assert kinds["widerspricht_dem"]["count"] == 0
    made = run_json(
        capsys, "--vault", str(vault), "edge", "add", "Local First", "WidersprichtDem", "Neugier"
    )
    assert made["edge"]["kind"] == "widerspricht_dem" and made["stored"] == "note"
    recount = run_json(capsys, "--vault", str(vault), "edge-types")
    assert {k["kind"]: k["count"] for k in recount["kinds"]}["widerspricht_dem"] == 1


def test_cli_edge_types_add_builtin_fails_cleanly(vault, tmp_path, capsys, cli_env):
    run_json(capsys, "--vault", str(vault), "import")
    code = main(["--vault", str(vault), "edge-types", "add", "BelongsTo", "--description", "x"])
    captured = capsys.readouterr()
    assert code == 2
    assert "'belongs_to' is a built-in kind already" in captured.err
    assert not (tmp_path / "data" / "config" / EDGE_TYPES_FILE).exists()
