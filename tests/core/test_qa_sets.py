"""The retrieval QA sets in resources/qa/ are well-formed and point at notes that exist.

Fast: reads YAML and lists vault files; nothing is imported or embedded.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from mindnet_desktop.core.ingest.vault import is_note_path, scan_vault

REPO = Path(__file__).resolve().parents[2]
QA_DIR = REPO / "resources" / "qa"
EXAMPLE_VAULT = "resources/example_vault"
QA_FILES = sorted(QA_DIR.glob("*.yaml"))
TOP_KEYS = {"name", "vault", "licence", "questions"}
QUESTION_KEYS = {"id", "q", "lang", "kind", "gold"}


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_both_sets_are_shipped() -> None:
    names = {path.stem for path in QA_FILES}
    assert "example_vault" in names
    assert len(names) >= 2, names


@pytest.mark.parametrize("path", QA_FILES, ids=lambda p: p.stem)
def test_schema(path: Path) -> None:
    data = _load(path)
    assert set(data) == TOP_KEYS
    assert data["name"] == path.stem
    assert isinstance(data["licence"], str) and data["licence"].strip()
    assert (REPO / data["vault"]).is_dir(), data["vault"]
    for question in data["questions"]:
        assert set(question) == QUESTION_KEYS, question
        assert isinstance(question["q"], str) and question["q"].strip(), question
        assert question["lang"] in {"de", "en"}, question
        assert question["kind"] in {"fact", "relation", "decision"}, question
        gold = question["gold"]
        assert isinstance(gold, list) and gold, question
        assert len(set(gold)) == len(gold), question
        assert all(isinstance(g, str) for g in gold), question


@pytest.mark.parametrize("path", QA_FILES, ids=lambda p: p.stem)
def test_size_ids_and_mix(path: Path) -> None:
    questions = _load(path)["questions"]
    assert len(questions) >= 60
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    texts = [q["q"].casefold() for q in questions]
    assert len(set(texts)) == len(texts), "duplicate question text"
    assert {q["lang"] for q in questions} == {"de", "en"}
    kinds = Counter(q["kind"] for q in questions)
    assert set(kinds) == {"fact", "relation", "decision"}
    assert kinds["relation"] >= 15 and kinds["decision"] >= 10, kinds


@pytest.mark.parametrize("path", QA_FILES, ids=lambda p: p.stem)
def test_gold_notes_exist_in_the_vault(path: Path) -> None:
    data = _load(path)
    notes = set(scan_vault(REPO / data["vault"]))
    missing = [
        (q["id"], g)
        for q in data["questions"]
        for g in q["gold"]
        if not is_note_path(g) or g not in notes
    ]
    assert not missing


def test_second_vault_is_larger_than_the_example_vault() -> None:
    example_notes = len(scan_vault(REPO / EXAMPLE_VAULT))
    others = [_load(p) for p in QA_FILES if _load(p)["vault"] != EXAMPLE_VAULT]
    assert others, "no QA set over a vault other than the example vault"
    for data in others:
        assert (REPO / data["vault"]).resolve() != (REPO / EXAMPLE_VAULT).resolve()
        assert len(scan_vault(REPO / data["vault"])) > example_notes, data["name"]
