"""Ask-time expansion is used only where configured: `ask` with keywords or answer asks the
chat model once to rewrite the question and retrieves with both texts; `ask` with none, and
`search` always, never ask the model; `--expand` overrides the setting; no model means no
expansion and no error. The model is a stand-in that records its calls (what it writes does
not matter to this logic)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.config.type_registry import ConfigError, bundled_config_dir
from mindnet_desktop.core.models.llm import Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.retrieval.explain import text
from mindnet_desktop.core.retrieval.retriever import ScoredHit
from mindnet_desktop.core.service.ask import expansion as ask_expansion
from mindnet_desktop.core.service.ask import stages as ask_stages
from mindnet_desktop.core.service.ask.expansion import fuse
from mindnet_desktop.core.service.ask.pipeline import retrieve
from tests.conftest import run_import

QUESTION = "Wie behebe ich einen Papierstau im LaserJet 500?"  # FACT by keyword: no classifier
REWRITE = "Qdrant Vektordatenbank HNSW"  # the words of notes the question does not find
PROMPTS = load_prompts()
EXPANSION_PROMPTS = {p for per in PROMPTS.expansion_prompts.values() for p in per.values()}


class RecordingChat:
    """Stands in for `LlamaChat`: records every call; rewrites every question as `REWRITE`
    and answers with one cited sentence."""

    made: list[RecordingChat] = []

    def __init__(self, model: str | None = None, **options: Any) -> None:
        self.calls: list[tuple[str, str, int]] = []  # (system prompt, user message, max tokens)
        self.name, self.loaded, self.n_ctx, self.max_tokens = "fake.gguf", False, 4096, 64
        self.threads = 2
        RecordingChat.made.append(self)

    def close(self) -> None:
        self.loaded = False

    def warm_up(self) -> None:
        self.loaded = True

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        self.calls.append((messages[0]["content"], messages[-1]["content"], max_tokens))
        return REWRITE if messages[0]["content"] in EXPANSION_PROMPTS else "FACT"

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def prompt_budget(self) -> int:
        return 3000

    def stream(self, messages: list[dict[str, str]], *args: Any, **kw: Any) -> Iterator[Token]:
        self.calls.append((messages[0]["content"], messages[-1]["content"], 0))
        yield Token("Fach 2 öffnen [1].")

    def rewrites(self) -> list[tuple[str, str, int]]:
        return [call for call in self.calls if call[0] in EXPANSION_PROMPTS]


class MissingChat(RecordingChat):
    def warm_up(self) -> None:
        raise ModelError("The chat model nowhere.gguf does not exist")


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts `ask` retrieves with (every `hybrid_search` it runs, in order)."""
    texts: list[str] = []
    real = ask_stages.hybrid_search

    def spy(mn: Any, query: str, *args: Any, **kw: Any) -> Any:
        texts.append(query)
        return real(mn, query, *args, **kw)

    monkeypatch.setattr(ask_stages, "hybrid_search", spy)
    monkeypatch.setattr(ask_expansion, "hybrid_search", spy)
    return texts


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[RecordingChat]:
    """Every chat model a command makes is a `RecordingChat` (the list of them)."""
    RecordingChat.made = []
    monkeypatch.setattr("mindnet_desktop.core.models.llm.LlamaChat", RecordingChat)
    return RecordingChat.made


def config_with(tmp_path: Path, expansion: str) -> Path:
    """A config dir whose prompts.yaml is the bundled one with `expansion` set."""
    folder = tmp_path / f"config-{expansion}"
    folder.mkdir()
    bundled = (bundled_config_dir() / "prompts.yaml").read_text(encoding="utf-8")
    assert "\nexpansion: none\n" in bundled
    changed = bundled.replace("\nexpansion: none\n", f"\nexpansion: {expansion}\n")
    (folder / "prompts.yaml").write_text(changed, encoding="utf-8")
    return folder


def cli(vault: Path, *args: str) -> list[str]:
    return ["--vault", str(vault), *args]


def test_ask_with_none_never_asks_the_model_to_rewrite(vault, open_mindnet, searched):
    mn = open_mindnet(vault)
    run_import(mn)
    llm = RecordingChat()
    result = retrieve(mn, QUESTION, llm, k=4).result  # the shipped setting: none
    assert PROMPTS.expansion == "none"
    assert llm.rewrites() == [] and searched == [QUESTION]
    assert result.expansion.to_dict() == {
        "mode": "none",
        "text": "",
        "seconds": 0.0,
        "skipped": None,
    }
    assert not any("rewritten" in r for h in result.sources for r in h.reasons)


@pytest.mark.parametrize("mode", ["keywords", "answer"])
def test_ask_rewrites_once_and_retrieves_with_both_texts(vault, open_mindnet, searched, mode):
    mn = open_mindnet(vault)
    run_import(mn)
    plain = retrieve(mn, QUESTION, None, k=4).result
    searched.clear()
    llm = RecordingChat()
    result = retrieve(mn, QUESTION, llm, k=4, language="en", expansion=mode).result
    # One call, with the mode's prompt in the question's language, short and greedy.
    assert llm.rewrites() == [
        (PROMPTS.expansion_prompt(mode, "de"), QUESTION, {"keywords": 48, "answer": 96}[mode])
    ]
    assert searched == [QUESTION, REWRITE]
    assert result.expansion.mode == mode and result.expansion.text == REWRITE
    assert result.expansion.seconds >= 0 and result.expansion.skipped is None
    assert len(result.sources) == 4 and result.error is None
    # The question's best note stays; a note only the rewrite found joins, saying so.
    assert plain.sources[0].note_id in [h.note_id for h in result.sources]
    added = [h for h in result.sources if h.note_id not in {p.note_id for p in plain.sources}]
    assert added, "the rewrite added no source"
    for hit in added:
        assert hit.reasons[0].startswith("Found only via the rewritten question (rank ")


def test_search_never_rewrites_even_where_ask_does(vault, tmp_path, capsys, recorded):
    config = config_with(tmp_path, "keywords")
    assert main(cli(vault, "--embedder", "hash", "import", "--json")) == 0
    capsys.readouterr()
    code = main(cli(vault, "--config", str(config), "--embedder", "hash", "search", QUESTION))
    assert code == 0 and "rewritten" not in capsys.readouterr().out
    assert recorded == []  # no chat model was even made
    assert (
        main(
            cli(vault, "--config", str(config), "--embedder", "hash", "search", QUESTION, "--json")
        )
        == 0
    )
    assert "expansion" not in json.loads(capsys.readouterr().out)
    # The same config does make `ask` rewrite: the setting is in effect, search ignores it.
    assert (
        main(cli(vault, "--config", str(config), "--embedder", "hash", "ask", QUESTION, "--json"))
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["expansion"]["mode"] == "keywords" and data["expansion"]["text"] == REWRITE
    assert len(recorded) == 1 and len(recorded[0].rewrites()) == 1


@pytest.mark.parametrize(
    ("configured", "flag", "rewrites"),
    [("keywords", "none", 0), ("none", "answer", 1), ("answer", None, 1), ("none", None, 0)],
)
def test_expand_overrides_the_setting_for_one_question(
    vault, tmp_path, capsys, recorded, configured, flag, rewrites
):
    config = config_with(tmp_path, configured)
    assert main(cli(vault, "--embedder", "hash", "import", "--json")) == 0
    capsys.readouterr()
    args = ["--config", str(config), "--embedder", "hash", "ask", QUESTION, "--json"]
    assert main(cli(vault, *args, *(["--expand", flag] if flag else []))) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expansion"]["mode"] == (flag or configured)
    assert len(recorded[0].rewrites()) == rewrites
    assert bool(data["expansion"]["text"]) == bool(rewrites)
    # The contract: the fields `ask --json` had are all still there.
    assert {"query_id", "answer", "sources", "error", "not_found"} <= set(data)


def test_no_model_means_no_expansion_and_no_error(vault, open_mindnet, searched, capsys):
    mn = open_mindnet(vault)
    run_import(mn)
    result = retrieve(mn, QUESTION, None, k=4, expansion="keywords").result
    assert result.expansion.to_dict() == {
        "mode": "keywords",
        "text": "",
        "seconds": 0.0,
        "skipped": "no chat model",
    }
    assert result.error is None and result.sources and searched == [QUESTION]
    missing = MissingChat()
    result = retrieve(mn, QUESTION, missing, k=4, expansion="answer").result
    assert result.error is None and missing.calls == []
    assert "nowhere.gguf does not exist" in result.expansion.skipped
    mn.close()
    args = ["--embedder", "hash", "ask", QUESTION, "--no-llm", "--expand", "keywords"]
    assert main(cli(vault, *args)) == 0
    assert "Not rewritten (keywords): no chat model" in capsys.readouterr().out


def _hit(note: str) -> ScoredHit:
    return ScoredHit(note + "#1", note, note, note + ".md", "concept", "", 0.5, reasons=["r"])


def test_fusion_keeps_the_question_s_ranking_on_ties_and_names_the_rewrite_s_rank():
    own = [_hit(n) for n in ("a", "b", "c")]
    other = [_hit(n) for n in ("c", "x", "a")]
    fused = fuse(own, other, 4, "en")
    # a and c tie (1/61 + 1/63): a, ranked better by the question, first; b and x tie
    # (1/62): b, the question's, first.
    assert [h.note_id for h in fused] == ["a", "c", "b", "x"]
    assert fused[0].reasons == ["r", text("expansion_also", "en", rank=3)]
    assert fused[1].reasons == ["r", text("expansion_also", "en", rank=1)]
    assert fused[2].reasons == ["r"]
    assert fused[3].reasons == [text("expansion_only", "en", rank=2), "r"]
    assert [h.note_id for h in fuse(own, [], 3, "en")] == ["a", "b", "c"]


def test_prompts_yaml_checks_the_expansion(tmp_path):
    assert PROMPTS.expansion == "none" and set(PROMPTS.expansion_prompts) == {"keywords", "answer"}
    assert all(set(per) == {"de", "en"} for per in PROMPTS.expansion_prompts.values())
    bad = config_with(tmp_path, "synonyms")
    with pytest.raises(ConfigError, match="expansion"):
        load_prompts(bad)
    # An override written before expansion existed still loads, with the bundled prompts.
    old = tmp_path / "old"
    old.mkdir()
    bundled = (bundled_config_dir() / "prompts.yaml").read_text(encoding="utf-8")
    cut = re.split(r"\n# Ask-time expansion", bundled)[0]
    (old / "prompts.yaml").write_text(cut, encoding="utf-8")
    loaded = load_prompts(old)
    assert loaded.expansion == "none" and loaded.expansion_prompts == PROMPTS.expansion_prompts
