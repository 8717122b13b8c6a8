"""DECISION injects value / principle / goal notes *after* the facts that answer the question:
the injection adds context for weighing, it never takes a fact's place."""

from __future__ import annotations

from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.service.ask import prepare
from mindnet_desktop.core.service.search import hybrid_search
from tests.conftest import run_import

QUESTION = "Soll ich für Alpha doch wieder von Qdrant auf Chroma zurückwechseln?"
ANSWERING_NOTE = "Entscheidungen/Qdrant statt Chroma.md"


def test_decision_injects_values_after_the_answering_note(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    prepared = prepare(mn, QUESTION, llm=None, k=4)
    result = prepared.result
    assert result.routing.intent == "DECISION"
    injected = [h for h in result.sources if h.injected]
    facts = [h for h in result.sources if not h.injected]
    assert injected, "DECISION injected no value, principle or goal note"
    assert {h.type for h in injected} <= {"value", "principle", "goal", "experience"}
    # Every fact comes before every injected note, and the note that answers is a fact.
    assert result.sources == facts + injected
    assert ANSWERING_NOTE in [h.path for h in facts]
    # The facts are exactly what a FACT routing of the same question retrieves.
    plain = hybrid_search(
        mn, QUESTION, 4, routing=Routing("FACT", "keyword"), log=False, per_note=True
    )
    assert [h.node_id for h in facts] == [h.node_id for h in plain.hits]
