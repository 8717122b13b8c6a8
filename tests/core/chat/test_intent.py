"""Intent routing: keywords in German and English first, the model second, FACT last."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.chat.intent import load_decision_engine, parse_label
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


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        # Everyday question words: plain look-ups, no model call.
        ("Warum hat das Budget die Cloud-Option ausgeschlossen?", "FACT"),
        ("Wieso ist Fach 2 blockiert?", "FACT"),
        ("Weshalb nutze ich Qdrant?", "FACT"),
        ("Wie viel Platz braucht der Drucker?", "FACT"),
        ("Wie viele Seiten schafft der Toner?", "FACT"),
        ("Why did we drop the hosted option?", "FACT"),
        ("How many pages does the cartridge last?", "FACT"),
        ("How much did the benchmark cost?", "FACT"),
        # A question about a decision already taken is a look-up, not advice.
        ("What pros and cons did I write down for Chroma?", "FACT"),
        # Advice on a choice, without "soll ich" / "should I".
        ("Würdest du eher pgvector nehmen?", "DECISION"),
        ("Would it make sense to move the LLM to the cloud?", "DECISION"),
        ("Does a hosted database fit my principles?", "DECISION"),
        # Feelings without "feel".
        ("Ich bin echt frustriert wegen meines Knies.", "EMPATHY"),
        ("Kind of disappointed in myself today.", "EMPATHY"),
        # Code in the question outweighs a question word.
        ("Warum meckert der Borrow-Checker hier?", "CODING"),
        ("Why does `let x = &mut y;` fail?", "CODING"),
    ],
)
def test_new_keywords_route_fast(question, intent):
    routing = ENGINE.route(question, classify=lambda q: pytest.fail("the model was asked"))
    assert (routing.intent, routing.source) == (intent, "keyword"), routing.matched


def test_a_why_question_is_fact_even_when_the_model_would_say_decision():
    routing = ENGINE.route(
        "Warum wurde die Cloud-Variante verworfen?", classify=lambda q: "DECISION"
    )
    assert (routing.intent, routing.source) == ("FACT", "keyword")
    assert "warum" in routing.matched


def test_an_unsure_model_leaves_the_question_with_the_facts():
    assert parse_label("FACT") == "FACT" and parse_label(" decision.") == "DECISION"
    assert parse_label("DECISION or FACT") is None  # two labels: unsure
    assert parse_label("not sure") is None
    routed = ENGINE.route_by_model("Papierstau im Lager", lambda q: "EMPATHY, maybe DECISION")
    assert (routed.intent, routed.source) == ("FACT", "default")


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


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        # A feeling with a request for help asks for support, even with "soll ich" in it.
        ("Ich bin total gestresst wegen der Abgabe, was hilft mir?", "EMPATHY"),
        ("Ich bin total überfordert mit dem Umzug, was soll ich tun?", "EMPATHY"),
        ("Ich habe Angst vor der Präsentation, was kann ich tun?", "EMPATHY"),
        ("I'm completely stressed out by the Alpha deadline, what helps me?", "EMPATHY"),
        ("I'm so stressed about the Alpha deadline, what should I do?", "EMPATHY"),
        ("What helps when I'm stressed or anxious?", "EMPATHY"),
        # The same message weighing options asks for a choice, the feeling notwithstanding.
        ("Ich bin gestresst, was hilft mir mehr: Yoga oder Laufen?", "DECISION"),
        ("Ich bin überfordert, was soll ich tun, soll ich das Projekt abgeben?", "DECISION"),
        ("I'm worried about the exam, what should I do: study tonight or sleep early?", "DECISION"),
        ("I'm stressed, what would help, a day off or a shorter week?", "DECISION"),
    ],
)
def test_a_feeling_with_a_request_for_help_is_empathy_unless_it_weighs_options(question, intent):
    routing = ENGINE.route(question, classify=lambda q: pytest.fail("the model was asked"))
    assert (routing.intent, routing.source) == (intent, "keyword"), routing.matched


def test_a_feeling_with_a_request_for_help_about_code_goes_the_usual_way():
    question = "I'm frustrated, this regex never matches, what should I do?"
    assert ENGINE.keywords(question) == ENGINE.most_keywords(question)


@pytest.mark.parametrize(
    "question",
    [
        "Was kann ich tun, um dafür zu sorgen, dass Chroma schneller startet?",
        "Allein der Import dauert zehn Minuten, was kann ich tun?",
        "I have a feeling the index is stale, what should I do?",
    ],
)
def test_words_that_only_sometimes_name_a_feeling_do_not_make_a_request_for_help_empathy(
    question,
):
    assert ENGINE.feeling_with_help(question) is None
    assert ENGINE.strategies["EMPATHY"].matches(" ".join(question.casefold().split())) == ()


def test_a_bad_feeling_and_help_rule_names_file_and_key(tmp_path: Path):
    text = (bundled_config_dir() / "decision_engine.yaml").read_text(encoding="utf-8")
    (tmp_path / "decision_engine.yaml").write_text(
        text.replace("option_patterns: ['", "option_patterns: ['(unclosed"), encoding="utf-8"
    )
    with pytest.raises(ConfigError) as err:
        load_decision_engine(tmp_path)
    assert "feeling_and_help.option_patterns" in str(err.value)
