"""The ask pipeline as one sequence of stages: route → retrieve → choose evidence → pack →
generate → align → check, each run once and in that order, each timed in `AskResult.stages`
and in `ask --json`. The chat model is a fake: what is tested is the sequence and its times,
not what a model writes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.chat import stages as model_stages
from mindnet_desktop.core.chat.answer import AskResult
from mindnet_desktop.core.chat.intent import Routing
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.chat.rewrite import Expansion
from mindnet_desktop.core.chat.stages import STAGES, Packed, Question, Retrieved, Routed
from mindnet_desktop.core.models.llm import Token
from mindnet_desktop.core.models.weights import ModelError
from mindnet_desktop.core.service.ask import pipeline
from mindnet_desktop.core.service.ask import stages as vault_stages
from mindnet_desktop.core.service.ask.pipeline import ask
from tests.conftest import run_import

ANSWER = "Fach 2 öffnen und das Papier ziehen [1]."
QUESTION = "Wie behebe ich einen Papierstau im LaserJet 500?"  # FACT by keyword: no classifier


class FakeChat:
    """Stands in for `LlamaChat`: a word is a token; the answer is one cited sentence."""

    name, n_ctx, max_tokens, threads = "fake.gguf", 4096, 64, 2

    def __init__(self, model: str | None = None, **options: Any) -> None:
        self.loaded = False

    def warm_up(self) -> None:
        self.loaded = True

    def close(self) -> None:
        self.loaded = False

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        return "FACT"

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @property
    def prompt_budget(self) -> int:
        return 3000

    def stream(self, messages: list[dict[str, str]], *args: Any, **kw: Any) -> Iterator[Token]:
        yield from (Token(word + " ") for word in ANSWER.split())


class BrokenChat(FakeChat):
    def stream(self, messages: list[dict[str, str]], *args: Any, **kw: Any) -> Iterator[Token]:
        yield Token("Fach ")
        raise ModelError("the model stopped")


class Clock:
    """A clock that moves only when a stage is called: by 1 s for the first, 2 s for the
    second, 4 s for the third…, so each stage's time is its own and can be told apart."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def spy(name: str, real: Callable[..., Any], ran: list[str], clock: Clock) -> Any:
    """`real`, noting `name` in `ran` and moving `clock` when it is called (a generator
    stays a generator)."""
    took = float(2 ** STAGES.index(name))

    def stage(*args: Any, **kw: Any) -> Any:
        ran.append(name)
        clock.now += took
        return real(*args, **kw)

    def streaming(*args: Any, **kw: Any) -> Any:
        ran.append(name)
        clock.now += took
        return (yield from real(*args, **kw))

    return streaming if name == "generate" else stage


STAGE_FUNCTIONS = {
    "route": (vault_stages, "route"),
    "retrieve": (vault_stages, "retrieve"),
    "evidence": (vault_stages, "choose_evidence"),
    "pack": (vault_stages, "pack"),
    "generate": (model_stages, "generate"),
    "align": (model_stages, "align"),
    "check": (model_stages, "check"),
}


def watch(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every stage function notes its name when called, and takes 2^(its place) seconds on
    the clock the stages are timed by."""
    ran: list[str] = []
    clock = Clock()
    monkeypatch.setattr(model_stages, "time", clock)
    monkeypatch.setattr(pipeline, "time", clock)
    for name, (module, attribute) in STAGE_FUNCTIONS.items():
        monkeypatch.setattr(module, attribute, spy(name, getattr(module, attribute), ran, clock))
    return ran


def answered(mn: Any, chat: FakeChat) -> tuple[AskResult, str]:
    """`ask` run to its end: the result and the streamed text."""
    gen = ask(mn, QUESTION, chat)  # type: ignore[arg-type]
    tokens = []
    with pytest.raises(StopIteration) as done:
        while True:
            tokens.append(next(gen).text)
    return done.value.value, "".join(tokens)


def test_the_stages_run_once_each_in_their_order(vault, open_mindnet, monkeypatch):
    """Shown to fail by choosing the evidence after packing and by aligning after the
    check."""
    mn = open_mindnet(vault)
    run_import(mn)
    ran = watch(monkeypatch)
    result, streamed = answered(mn, FakeChat())
    assert ran == list(STAGES)
    assert streamed.strip() and result.answer


def test_each_stage_is_timed_on_its_own(vault, open_mindnet, monkeypatch):
    """Each stage is charged its own time, none of its neighbours', and the time to the
    evidence is that of the three stages before it. Shown to fail by timing each stage from
    the question (the times add up), and by recording a stage under its neighbour's name."""
    mn = open_mindnet(vault)
    run_import(mn)
    watch(monkeypatch)
    result, _ = answered(mn, FakeChat())
    assert result.stages == {name: float(2**i) for i, name in enumerate(STAGES)}
    assert result.to_dict()["stages"] == result.stages
    assert result.evidence_seconds == 1.0 + 2.0 + 4.0


def test_a_model_that_fails_leaves_the_later_stages_unrun(vault, open_mindnet):
    """Generation failed: its error is set, and align and check (which need an answer)
    did not run: `ask --json` gives them null, never a time."""
    mn = open_mindnet(vault)
    run_import(mn)
    result, _ = answered(mn, BrokenChat())
    assert result.error == "the model stopped"
    listed = result.to_dict()["stages"]
    assert list(listed) == list(STAGES)
    assert all(listed[s] is not None for s in ("route", "retrieve", "evidence", "pack"))
    assert listed["generate"] is None and listed["align"] is None and listed["check"] is None


def test_ask_json_reports_every_stage_beside_the_keys_it_had(vault, capsys, monkeypatch):
    """`ask --json` keeps its keys and gains `stages`: seconds of each stage, null for the
    stages a run without a model skips (it retrieves, and packs and generates nothing)."""
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import"]) == 0
    monkeypatch.setattr("mindnet_desktop.core.models.llm.LlamaChat", FakeChat)
    capsys.readouterr()
    assert main(["--vault", str(vault), "ask", QUESTION, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"answer", "sources", "evidence", "evidence_seconds", "expansion", "alignments"} <= set(
        data
    )
    assert list(data["stages"]) == list(STAGES)
    assert all(isinstance(s, float) for s in data["stages"].values())
    assert main(["--vault", str(vault), "ask", QUESTION, "--no-llm", "--json"]) == 0
    retrieved_only = json.loads(capsys.readouterr().out)["stages"]
    assert retrieved_only["align"] is None and retrieved_only["check"] is None
    assert isinstance(retrieved_only["evidence"], float)


def test_what_a_stage_hands_on_cannot_change_on_the_way():
    """Every stage's output is frozen: a later stage cannot alter what an earlier one chose."""
    question = Question(QUESTION)
    routed = Routed(question, load_prompts(), Routing("FACT", "keyword"), "de")
    retrieved = Retrieved(routed, "q", (), (), True, Expansion())
    packed = Packed(QUESTION, "FACT", "de", ())
    for done in (question, routed, retrieved, packed):
        assert dataclasses.is_dataclass(done)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(done, dataclasses.fields(done)[0].name, None)
