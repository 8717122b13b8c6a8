"""Ask-time expansion with the default chat model (Qwen2.5-Coder-1.5B): one greedy rewrite,
the same text every time, a few seconds, and the answering note still among the sources."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.service.ask.pipeline import retrieve
from tests.conftest import run_import

pytestmark = pytest.mark.e2e

QUESTION = "Wie behebe ich einen Papierstau im LaserJet 500?"


@pytest.fixture(scope="module")
def default_model() -> Iterator[LlamaChat]:
    llm = LlamaChat("default", n_ctx=2048, threads=2)
    try:
        llm.warm_up()
    except ModelError as exc:
        pytest.skip(f"the default chat model cannot be loaded here: {exc}")
    yield llm
    llm.close()


def test_the_default_model_rewrites_a_question_into_keywords(vault, open_mindnet, default_model):
    mn = open_mindnet(vault)
    run_import(mn)
    first = retrieve(mn, QUESTION, default_model, k=4, expansion="keywords").result
    again = retrieve(mn, QUESTION, default_model, k=4, expansion="keywords").result
    expansion = first.expansion
    assert expansion.used and expansion.skipped is None and "," in expansion.text
    assert 0 < expansion.seconds < 60
    assert again.expansion.text == expansion.text  # greedy: the same rewrite
    assert [h.note_id for h in again.sources] == [h.note_id for h in first.sources]
    assert "Support/Papierstau beheben" in [h.note_id for h in first.sources]
    assert first.error is None
