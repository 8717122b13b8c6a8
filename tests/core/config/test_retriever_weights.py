"""The app's retriever weights go into the vault's config dir and the retriever uses them."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.config.retriever import (
    FEEDBACK_WEIGHT,
    load_retriever_config,
    save_retriever_weights,
)
from mindnet_desktop.core.config.type_registry import ConfigError

WEIGHTS = {
    "semantic": 0.8,
    "lexical": 0.1,
    "name": 0.0,
    "edge": 0.05,
    "centrality": 0.0,
    "type": 0.05,
    "status": 0.0,
    "coverage": 0.2,
    "feedback": 0.3,
}
OLD_WEIGHTS = {"semantic": 0.9, "edge": 0.05, "centrality": 0.0, "type": 0.05, "status": 0.0}


def test_weights_replace_only_the_weights(tmp_path: Path) -> None:
    path = save_retriever_weights(tmp_path / "cfg", WEIGHTS)
    config = load_retriever_config(tmp_path / "cfg")
    bundled = load_retriever_config()
    assert config.source == str(path)
    assert config.weights == WEIGHTS
    assert config.edge_weights == bundled.edge_weights
    assert config.k == bundled.k


def test_weights_of_an_older_app_leave_the_newer_terms_off(tmp_path: Path) -> None:
    save_retriever_weights(tmp_path / "cfg", OLD_WEIGHTS)
    weights = load_retriever_config(tmp_path / "cfg").weights
    # The newer ranking terms stay off; the user's own ratings count with the bundled weight.
    assert weights == {
        **OLD_WEIGHTS,
        "lexical": 0.0,
        "name": 0.0,
        "coverage": 0.0,
        "feedback": FEEDBACK_WEIGHT,
    }


def test_bad_weight_is_refused_and_nothing_written(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        save_retriever_weights(tmp_path / "cfg", {**WEIGHTS, "edge": 42.0})
    assert not (tmp_path / "cfg" / "retriever.yaml").exists()


def test_mindnet_retriever_uses_new_weights(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    assert mn.retriever.config.weights != WEIGHTS
    mn.set_retriever_weights(WEIGHTS)
    assert mn.retriever.config.weights == WEIGHTS
    assert (mn.data_dir / "config" / "retriever.yaml").is_file()
