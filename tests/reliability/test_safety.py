"""Safety: nothing outside the vault is read or written through a symbolic link, and
`edge add` changes a CRLF note by exactly one callout, keeping its line endings and every
other byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import EXAMPLE_VAULT
from tests.reliability.support import snapshot
from tests.reliability.test_environments import run


def test_symlinks_out_of_the_vault_are_not_followed(tmp_path: Path) -> None:
    """Guards: nothing outside the vault is read through a symbolic link. A symlinked folder
    is not entered (os.walk in vault.scan_vault does not follow folder links); a symlinked
    *file* pointing outside the vault is skipped with a warning naming it in the import
    report; a link to a file inside the vault is still a note. Shown to fail by passing
    `followlinks=True` to that os.walk (`ordner-link/geheim` is then imported) and by
    removing the `inside(real_root, path)` check of scan_vault (`geheim-link` is then
    imported and no warning is given).
    """
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    shutil.copytree(EXAMPLE_VAULT, vault)
    outside.mkdir()
    (outside / "geheim.md").write_text("# Geheim\n\nPasswort 1234\n", encoding="utf-8")
    (vault / "ordner-link").symlink_to(outside, target_is_directory=True)
    (vault / "schleife").symlink_to(vault, target_is_directory=True)
    (vault / "geheim-link.md").symlink_to(outside / "geheim.md")
    (vault / "Inbox" / "innen-link.md").symlink_to(vault / "Projekte" / "KI-Projekt Alpha.md")
    code, out, err = run(vault, tmp_path / "data", "import", "--json")
    assert code == 0, err
    warnings = {w["path"]: w["message"] for w in json.loads(out)["warnings"]}
    assert "outside the vault; not followed" in warnings["geheim-link.md"]
    assert not [p for p in warnings if p.startswith(("ordner-link/", "schleife/"))]
    notes = snapshot(tmp_path / "data", vault)["notes"]
    assert not [n for n in notes if n.startswith(("ordner-link/", "schleife/", "geheim"))]
    assert "Inbox/innen-link" in notes
    code, out, _ = run(vault, tmp_path / "data", "search", "Passwort", "--json")
    assert code == 0 and "1234" not in out


def test_edge_add_never_writes_through_a_link_out_of_the_vault(tmp_path: Path) -> None:
    """Guards: a note replaced by a link to a file outside the vault after its import (same
    bytes, so the content-hash check passes) is not written through; the outside file stays
    as it was. Shown to fail by dropping the vault check of note_edit.write_atomic (the
    callout then lands in `outside/Alpha.md`)."""
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    shutil.copytree(EXAMPLE_VAULT, vault)
    data = tmp_path / "data"
    assert run(vault, data, "import")[0] == 0
    note = vault / "Projekte" / "KI-Projekt Alpha.md"
    outside.mkdir()
    target = outside / "Alpha.md"
    target.write_bytes(note.read_bytes())
    before = target.read_bytes()
    note.unlink()
    note.symlink_to(target)
    code, _, err = run(vault, data, "edge", "add", "KI-Projekt Alpha", "causes", "Local First")
    assert code == 2 and "outside the vault" in err and "Traceback" not in err
    assert target.read_bytes() == before and note.is_symlink()


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
