"""The chat benches' scoring: what counts as a correct, cited, abstaining answer, and the
intent confusion matrix. Pure logic on hand-made results; the runs need the real models."""

from __future__ import annotations

from mindnet_desktop.bench.answers import AnswerQuestion, score, summarise
from mindnet_desktop.bench.intents import IntentQuestion, evaluate_intents
from mindnet_desktop.cli.bench_chat import spread
from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.intent import Routing, load_decision_engine
from mindnet_desktop.core.retrieval.retriever import ScoredHit


def _hit(path: str) -> ScoredHit:
    return ScoredHit("n#1", "n", "n", path, "concept", "text", 1.0)


def _question(kind: str = "fact") -> AnswerQuestion:
    answerable = kind != "unanswerable"
    return AnswerQuestion(
        "ans-x",
        "resources/example_vault",
        "Wie viel Platz muss hinter dem Drucker frei bleiben?",
        "de",
        kind,
        (r"\b10\s*cm\b",) if answerable else (),
        ("Produkte/LaserJet 500 Handbuch.md",) if answerable else (),
        "test",
    )


def _result(answer: str, not_found: bool = False) -> AskResult:
    sources = [_hit("Support/Toner wechseln.md"), _hit("Produkte/LaserJet 500 Handbuch.md")]
    return AskResult("q", "?", Routing("FACT", "keyword"), answer, sources, not_found=not_found)


def test_a_correct_cited_answer_in_german_passes_every_check():
    checks = score(_question(), _result("Hinter dem Drucker müssen 10 cm frei bleiben [2]."))
    assert checks["fact_and_cited"] and checks["language"] and checks["cites_exist"]
    assert checks["abstains"] is None and checks["false_abstain"] is False


def test_a_wrong_citation_an_unknown_source_and_english_fail():
    checks = score(_question(), _result("There must be 10 cm free behind it [1] [3]."))
    assert checks["fact"] and not checks["cites_gold"] and not checks["fact_and_cited"]
    assert not checks["cites_exist"] and not checks["language"]


def test_abstaining_is_right_only_for_unanswerable_questions():
    said = "Nicht in deinen Notizen gefunden."
    assert score(_question("unanswerable"), _result(said, True))["abstains"] is True
    assert score(_question(), _result(said, True))["false_abstain"] is True
    rows = [
        {"checks": score(_question(), _result(said, True)), "ttft_s": 2.0, "tokens_per_s": None},
        {"checks": score(_question(), _result("10 cm [2].")), "ttft_s": 4.0, "tokens_per_s": 9},
    ]
    summary = summarise(rows)
    assert summary["fact"] == 0.5 and summary["fact_n"] == 2 and summary["abstains"] is None
    assert summary["median_ttft_s"] == 3.0 and summary["median_tokens_per_s"] == 9


def test_a_made_up_figure_counts_as_a_warning_not_as_abstaining():
    """The user is told "not in your notes" when the answer names a figure no source holds:
    counted apart from abstaining, right on an unanswerable question, wrong otherwise."""
    made_up = _result("Er kostet 899 € [2].")
    made_up.unsupported_figures = ["899 €"]
    unanswerable = score(_question("unanswerable"), made_up)
    assert unanswerable["abstains"] is False and unanswerable["abstains_or_warns"] is True
    wrong = score(_question(), made_up)  # the expected fact is 10 cm
    assert wrong["false_abstain"] is False and wrong["warns_when_wrong"] is True
    assert wrong["false_warning"] is None
    right = _result("10 cm, und er kostet 899 € [2].")
    right.unsupported_figures = ["899 €"]
    assert score(_question(), right)["false_warning"] is True
    assert score(_question(), _result("10 cm [2]."))["false_warning"] is False


def test_intent_confusion_counts_each_router():
    engine = load_decision_engine()
    questions = [
        IntentQuestion("1", "Warum ist Fach 2 blockiert?", "de", "FACT", "test"),
        IntentQuestion("2", "Puh, was für ein Tag.", "de", "EMPATHY", "test"),
    ]
    result = evaluate_intents(engine, questions, classify=lambda q: "EMPATHY")
    assert result["routers"]["fast"]["accuracy"] == 0.5  # no keyword: FACT
    assert result["routers"]["slow"]["accuracy"] == 0.5  # the model says EMPATHY to both
    assert result["routers"]["both"]["accuracy"] == 1.0
    assert result["routers"]["slow"]["confusion"]["FACT"]["EMPATHY"] == 1


def test_a_limited_run_spreads_over_the_set():
    assert spread(list(range(10)), 3) == [0, 3, 6] and spread([1, 2], 0) == [1, 2]


def test_bench_intents_routes_the_answers_set_as_a_second_check():
    """Guards `bench intents`' second check: an answers-set decision is gold DECISION, every
    other kind gold FACT, and the summary counts what the app's router kept (shown to fail
    by mapping `why` questions to DECISION: the plain count drops)."""
    from mindnet_desktop.bench.intents import as_intents, second_check

    questions = [_question("fact"), _question("why"), _question("unanswerable")]
    decision = AnswerQuestion("ans-d", "v", "Soll ich den Drucker leasen oder kaufen?", "de",
                              "decision", (), (), "dev")  # fmt: skip
    routed = as_intents([*questions, decision])
    assert [q.intent for q in routed] == ["FACT", "FACT", "FACT", "DECISION"]
    result = evaluate_intents(load_decision_engine(None), routed, None)
    second = second_check(result)
    assert (second["plain"], second["decisions"]) == (3, 1)
    assert second["plain_at_fact"] == 3  # no keyword of another intent in these questions
    assert second["decisions_at_decision"] == 1  # "soll ich" is a DECISION keyword


def test_evidence_and_marks_are_scored_apart_from_the_answer():
    """The evidence is judged before the model (fact, gold note); a right answer with a
    sentence marked "not found" is a false mark; an unanswerable question is told by a mark."""
    from mindnet_desktop.core.chat.align import Alignment
    from mindnet_desktop.core.chat.evidence import Evidence

    manual = ScoredHit("m#1", "m", "m", "Produkte/LaserJet 500 Handbuch.md", "concept", "t", 1.0)
    toner = ScoredHit("t#1", "t", "t", "Support/Toner wechseln.md", "concept", "t", 1.0)
    result = AskResult("q", "?", Routing("FACT", "keyword"), "10 cm [1].", [manual, toner])
    result.evidence = [Evidence(2, "t", "t#1", "Toner wechseln dauert 30 Sekunden.", 0, 1, 0.5)]
    checks = score(_question(), result)
    assert checks["evidence_fact"] is False and checks["evidence_gold"] is False
    result.evidence.append(Evidence(1, "m", "m#1", "Hinten 10 cm frei lassen.", 0, 1, 0.4))
    checks = score(_question(), result)
    assert checks["evidence_fact"] is True and checks["evidence_gold"] is True
    assert checks["marked_right"] is False
    result.alignments = [Alignment("Der Mond ist aus Käse.", (), None, "", "unsupported")]
    assert score(_question(), result)["marked_right"] is True
    told = score(_question("unanswerable"), result)
    assert told["told_unanswerable"] is True and told["evidence_fact"] is None


def test_cited_claims_no_source_holds_are_counted_per_citation_and_per_set():
    """Guards issue 31's "citations pointing at a source that does not hold the cited claim"
    and the per-set report of several sets asked at once: a claim whose citation the
    alignment found unsupported counts against the cited claims of the answers given, an
    answer withheld as not found does not count (shown to fail by counting every alignment),
    and each set gets its own summary and column."""
    from mindnet_desktop.bench.answers import answers_table

    def row(set_name: str, actions: list[tuple[str, list[int]]], not_found: bool = False):
        alignments = [{"action": a, "cited": c} for a, c in actions]
        checks = score(_question(), _result("10 cm [2].", not_found))
        return {
            "set": set_name,
            "lang": "de",
            "not_found": not_found,
            "alignments": alignments,
            "checks": checks,
            "ttft_s": 1.0,
            "tokens_per_s": None,
        }

    rows = [
        row("fresh", [("kept", [1]), ("weak", [2]), ("weak", []), ("added", [])]),
        row("fresh", [("unsupported", [1])], not_found=True),  # withheld: no citation shown
        row("answers", [("replaced", [3]), ("unsupported", [2])]),
    ]
    summary = summarise(rows)
    assert summary["miscited_n"] == 5 and summary["miscited"] == 0.4
    assert summarise(rows[:2])["miscited"] == round(1 / 3, 3)
    result = {
        "models": {
            "m": {
                "summary": summary,
                "by_set": {"fresh": summarise(rows[:2]), "answers": summarise(rows[2:])},
            }
        }
    }
    table = answers_table(result)
    assert "| | m | m: fresh | m: answers |" in table
    assert (
        "| cited claims no source holds (of cited claims) | 0.40 (5) | 0.33 (3) | 0.50 (2) |"
        in table
    )
