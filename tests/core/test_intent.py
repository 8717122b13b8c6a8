"""Intent routing: keywords in German and English first, the model second, FACT last."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.chat.intent import load_decision_engine
from mindnet_desktop.core.config.type_registry import ConfigError, bundled_config_dir

ENGINE = load_decision_engine()


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Soll ich Qdrant oder Chroma für Alpha nehmen?", "DECISION"),
        ("Should I move my notes to the cloud?", "DECISION"),
        ("Lohnt es sich, ein größeres Modell zu nehmen?", "DECISION"),
        ("Ich fühle mich heute völlig überfordert.", "EMPATHY"),
        ("I feel stressed about the release", "EMPATHY"),
        ("Schreib mir eine Python Funktion für den Import", "CODING"),
        ("How do I write a regex for dates?", "CODING"),
        ("Was ist HNSW?", "FACT"),
        ("What is a vector database?", "FACT"),
    ],
)
def test_keywords_route_fast(question, intent):
    routing = ENGINE.route(question, classify=lambda q: pytest.fail("the model was asked"))
    assert (routing.intent, routing.source) == (intent, "keyword")
    assert routing.matched


def test_keywords_match_whole_words_only():
    assert ENGINE.route("Barcode-Scanner für das Lager").source == "default"


def test_no_keyword_asks_the_model_and_accepts_only_the_four_labels():
    assert ENGINE.route("Papierstau im Lager", classify=lambda q: " decision.").intent == "DECISION"
    routed = ENGINE.route("Papierstau im Lager", classify=lambda q: "EMPATHY")
    assert (routed.intent, routed.source) == ("EMPATHY", "model")
    fallback = ENGINE.route("Papierstau im Lager", classify=lambda q: "I think it is a SUMMARY")
    assert (fallback.intent, fallback.source) == ("FACT", "default")
    assert ENGINE.route("Papierstau im Lager").source == "default"


def test_decision_injects_values_principles_goals():
    assert set(ENGINE.strategies["DECISION"].inject_types) >= {"value", "principle", "goal"}


def test_bad_decision_engine_names_file_and_key(tmp_path: Path):
    text = (bundled_config_dir() / "decision_engine.yaml").read_text(encoding="utf-8")
    (tmp_path / "decision_engine.yaml").write_text(
        text.replace("prompt: coding", "prompt: 7"), encoding="utf-8"
    )
    with pytest.raises(ConfigError) as err:
        load_decision_engine(tmp_path)
    assert "strategies.CODING.prompt" in str(err.value) and str(tmp_path) in str(err.value)
