"""End to end with the default chat model (Qwen2.5-Coder-1.5B, GGUF joined from its PyPI
parts and sha256-checked): a German question gets a German answer that cites its sources."""

from __future__ import annotations

import re

import pytest

from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.service.ask.pipeline import ask
from tests.conftest import run_import
from tests.core.chat.test_chat import finish

pytestmark = pytest.mark.e2e


def test_default_model_answers_in_german_with_citations(vault, open_mindnet, tmp_path, monkeypatch):
    monkeypatch.setenv("MINDNET_MODEL_CACHE", str(tmp_path / "models"))  # joins the parts anew
    mn = open_mindnet(vault)
    run_import(mn)
    llm = LlamaChat("default", n_ctx=3072, max_tokens=160, temperature=0.0)
    tokens, result = finish(ask(mn, "Welche Datenbank nutzt KI-Projekt Alpha?", llm, k=4))
    assert result.error is None and result.answer and len(tokens) > 5
    assert "Qdrant" in result.answer
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", result.answer)]
    assert cited and set(cited) <= set(range(1, len(result.sources) + 1))
    cited_notes = {result.sources[n - 1].note_id for n in cited}
    assert cited_notes & {
        "Projekte/KI-Projekt Alpha",
        "dec-2026-001",
        "Wissen/Qdrant Vektordatenbank",
    }
    assert (tmp_path / "models" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf").is_file()
