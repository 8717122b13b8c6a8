"""The ask pipeline chooses evidence before the model: quotable at its place in the note,
cited by the sources' numbers (before and after packing), timed, and in `ask --json`."""

from __future__ import annotations

import json

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.chat.evidence import Evidence
from mindnet_desktop.core.service.ask.pipeline import retrieve
from mindnet_desktop.core.service.ask.stages import renumber_evidence
from tests.conftest import run_import

QUESTION = "Wie viel Platz muss hinter dem LaserJet 500 frei bleiben?"


def test_evidence_stands_in_the_note_where_it_says_and_cites_its_source(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    result = retrieve(mn, QUESTION, None).result
    facts = [h for h in result.sources if not h.injected]
    assert result.evidence and 1 <= len(result.evidence) <= 3
    assert result.evidence_seconds is not None and result.evidence_seconds > 0
    for e in result.evidence:
        assert facts[e.citation - 1].node_id == e.chunk_id
        body = mn.records[e.note_id].note.body
        assert body[e.start : e.end] == e.sentence
    listed = result.to_dict()
    assert listed["evidence"][0] == result.evidence[0].to_dict()
    assert set(listed["evidence"][0]) == {
        "citation",
        "note_id",
        "chunk_id",
        "sentence",
        "start",
        "end",
        "score",
    }


def test_packing_renumbers_evidence_and_drops_that_of_a_left_out_source(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    sources = retrieve(mn, QUESTION, None).result.sources[:3]
    evidence = [Evidence(n, h.note_id, h.node_id, "x", 0, 1, 1.0) for n, h in enumerate(sources, 1)]
    kept = [sources[2], sources[0]]  # the packer kept two, in another order
    renumbered = renumber_evidence(evidence, kept)
    assert [(e.chunk_id, e.citation) for e in renumbered] == [
        (sources[0].node_id, 2),
        (sources[2].node_id, 1),
    ]


def test_ask_shows_the_evidence_before_the_sources_and_lists_it_in_json(vault, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(vault), "ask", QUESTION, "--no-llm"]) == 0
    out = capsys.readouterr().out
    assert out.index("From your notes:") < out.index("Sources:")
    assert main(["--vault", str(vault), "ask", QUESTION, "--no-llm", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["evidence"] and data["evidence_seconds"] > 0
    assert all(1 <= e["citation"] <= len(data["sources"]) for e in data["evidence"])


@pytest.mark.e2e
def test_with_the_real_embedder_the_evidence_holds_the_answer(vault, open_mindnet):
    from mindnet_desktop.core.models.embedders import UseEmbedder

    mn = open_mindnet(vault, embedder=UseEmbedder(threads=2))
    run_import(mn)
    evidence = retrieve(mn, QUESTION, None).result.evidence
    assert any("10 cm" in e.sentence for e in evidence)
