"""Safety: nothing outside the vault is read through a symlinked folder, and `edge add` changes a
CRLF note by exactly one callout, keeping its line endings and every other byte."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import EXAMPLE_VAULT
from tests.reliability.support import snapshot
from tests.reliability.test_environments import run


def test_symlinked_folders_out_of_the_vault_are_not_followed(tmp_path: Path) -> None:
    """Guards: a symlinked folder pointing outside the vault is not imported (os.walk in
    vault.scan_vault does not follow folder links). Shown to fail by passing
    `followlinks=True` to that os.walk (`ordner-link/geheim` is then imported).

    A symlinked *file* pointing outside the vault is imported on purpose today
    (tests/core/test_review_fixes.py::test_edge_add_writes_through_a_symlinked_note), which
    contradicts issue 14's "symlinks pointing outside the vault are not followed": left for
    a decision, see the README's Reliability section.
    """
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    shutil.copytree(EXAMPLE_VAULT, vault)
    outside.mkdir()
    (outside / "geheim.md").write_text("# Geheim\n\nPasswort 1234\n", encoding="utf-8")
    (vault / "ordner-link").symlink_to(outside, target_is_directory=True)
    (vault / "schleife").symlink_to(vault, target_is_directory=True)
    assert run(vault, tmp_path / "data", "import")[0] == 0
    notes = snapshot(tmp_path / "data", vault)["notes"]
    assert not [n for n in notes if n.startswith(("ordner-link/", "schleife/"))]


def test_edge_add_on_a_crlf_note_keeps_crlf_and_every_other_byte(tmp_path: Path) -> None:
    """Guards: note_edit.insert_callout keeps CRLF line endings and the BOM and changes
    nothing but the inserted callout. Shown to fail by removing the `crlf` branch of
    insert_callout (the new line then ends in a bare LF)."""
    vault = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, vault)
    note = vault / "Projekte" / "KI-Projekt Alpha.md"
    original = b"\xef\xbb\xbf" + note.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    note.write_bytes(original)
    data = tmp_path / "data"
    assert run(vault, data, "import")[0] == 0
    code, _, err = run(vault, data, "edge", "add", "KI-Projekt Alpha", "causes", "Local First")
    assert code == 0, err
    after = note.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") and b"\n" not in after.replace(b"\r\n", b"")
    line = b"\r\n\r\n> [!edge] causes: [[Local First]]"
    assert after.count(line) == 1 and after.replace(line, b"", 1) == original
