"""Bad environments: a data dir that cannot be written, a full disk during a write, corrupt
or incompatible store files, a broken model, hostile files in the vault. Every case ends in
one clear message (never a traceback) and loses nothing.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.models import weights
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from tests.conftest import EXAMPLE_VAULT, run_import
from tests.reliability.support import cli, snapshot


def run(vault: Path, data: Path, *argv: str) -> tuple[int, str, str]:
    """`mindnet` in this process; an exception escaping `main` fails the test (a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    full = ["--vault", str(vault), "--data-dir", str(data), "--embedder", "hash", *argv]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(full)
    return code, out.getvalue(), err.getvalue()


def fresh_snapshot(vault: Path, data: Path) -> dict:
    with Mindnet(vault, data, embedder=HashEmbedder(), write=True) as mn:
        run_import(mn)
    return snapshot(data, vault)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, target)
    return target


def test_data_dir_that_cannot_be_created_gives_a_clear_error(copy, tmp_path) -> None:
    """Guards: an unusable data dir (here: below a regular file, which even root cannot
    write into) is one clear message and exit code 2. Shown to fail by letting OSError out
    of `user_message` (errors.USER_FIXABLE without OSError): `main` then raises."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(copy, blocker / "data", "import")
    assert code == 2 and err.startswith("mindnet: error: ") and "data" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_data_dir_gives_a_clear_error(copy, tmp_path) -> None:
    """Guards: the same for a data dir without write permission."""
    data = tmp_path / "ro"
    data.mkdir()
    data.chmod(0o500)
    try:
        code, _, err = run(copy, data, "import")
    finally:
        data.chmod(0o700)
    assert code == 2 and "mindnet: error:" in err


@pytest.mark.parametrize("where", ["chunks", "lexical", "manifest"])
def test_disk_full_during_an_import_keeps_the_previous_index_usable(
    copy, tmp_path, monkeypatch, where
) -> None:
    """Guards: ENOSPC in the middle of writing is one clear message; the index stays
    searchable, and once there is space again the next import equals a fresh import.

    Shown to fail by removing the lexical `pending` marker handling from
    ChromaStore.write_notes (the `lexical` case then ends with stale lexical documents).
    """
    data = tmp_path / "data"
    assert run(copy, data, "import")[0] == 0
    note = copy / "Projekte" / "KI-Projekt Alpha.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n\nNeuer Absatz.\n", encoding="utf-8")
    (copy / "Neue Notiz.md").write_text("# Neu\n\n[[KI-Projekt Alpha]]\n", encoding="utf-8")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    from chromadb.api.models.Collection import Collection

    from mindnet_desktop.core.ingest.manifest import Manifest
    from mindnet_desktop.core.store.lexical import LexicalIndex

    target = {"chunks": (Collection, "upsert"), "lexical": (LexicalIndex, "commit")}
    owner, name = target.get(where, (Manifest, "save"))
    with monkeypatch.context() as patch:
        patch.setattr(owner, name, full)
        code, _, err = run(copy, data, "import")
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    code, out, _ = run(copy, data, "search", "Papierstau", "--json")
    assert code == 0 and json.loads(out)["hits"]
    code, _, err = run(copy, data, "import")
    assert code == 0, err
    assert snapshot(data, copy) == fresh_snapshot(copy, tmp_path / "fresh")


@pytest.mark.parametrize(
    "damage",
    [
        "chroma.sqlite3",
        "lexical segments",
        pytest.param("lexical meta.json", marks=pytest.mark.slow),
        pytest.param("lexical version", marks=pytest.mark.slow),
    ],
)
def test_corrupt_store_files_offer_a_rebuild_that_works(copy, tmp_path, damage) -> None:
    """Guards: corrupt or incompatible store files give one message that offers
    `mindnet import --rebuild` (never a traceback); the rebuild moves the broken index aside,
    keeps the user's edges, and ends equal to a fresh import.

    Every command runs in its own process, as a user runs them (chromadb caches one client
    per path and process, so an in-process reopen would not see the files change). Shown to
    fail by removing the `--rebuild` option (the rebuild then exits 2 from argparse) and,
    before this suite, by the messages that only said "move the folder away".
    """
    data = tmp_path / "data"
    assert cli(copy, data, "import").returncode == 0
    assert cli(copy, data, "edge", "add", "Papierstau beheben", "related_to", "KI-Projekt Alpha",
               "--read-only-vault").returncode == 0  # fmt: skip
    overlay = (data / "overlay.json").read_bytes()
    if damage == "chroma.sqlite3":
        (data / "chroma" / "chroma.sqlite3").write_bytes(os.urandom(8192))
    elif damage == "lexical meta.json":
        (data / "lexical" / "meta.json").write_text("garbage{", encoding="utf-8")
    elif damage == "lexical segments":
        for path in (data / "lexical").glob("*.idx"):
            path.write_bytes(os.urandom(300))
    else:
        (data / "lexical" / "mindnet.json").write_text('{"schema": 999}', encoding="utf-8")
    if damage == "chroma.sqlite3":
        # A search, and an import that finds nothing changed, are answered from the chunk
        # snapshot and the manifest without Chroma (its last good state); `doctor` and the
        # next command that opens Chroma (an import with a note to write) name the rebuild.
        assert cli(copy, data, "import").returncode == 0
        checked = cli(copy, data, "doctor")
        assert checked.returncode == 1 and "mindnet import --rebuild" in checked.stdout
        note = copy / "Support" / "Papierstau beheben.md"
        note.write_text(note.read_text(encoding="utf-8") + "\nNeu.\n", encoding="utf-8")
        done = cli(copy, data, "import")
    else:
        done = cli(copy, data, "search", "Papierstau")
    assert done.returncode == 2 and "mindnet import --rebuild" in done.stderr
    assert "Traceback" not in done.stderr
    done = cli(copy, data, "import", "--rebuild")
    assert done.returncode == 0, done.stderr
    assert "moved to" in done.stderr and list(data.glob("broken-*"))
    assert (data / "overlay.json").read_bytes() == overlay
    assert snapshot(data, copy) == fresh_snapshot(copy, tmp_path / "fresh")


def test_model_with_a_wrong_sha256_is_refused_and_search_still_works(
    copy, tmp_path, monkeypatch
) -> None:
    """Guards: a chat model whose sha256 does not match is refused with a clear message;
    `ask` still returns its sources (exit 2) and search works. Shown to fail by removing the
    final sha256 check from weights.packaged_gguf (the tampered model then loads)."""
    data = tmp_path / "data"
    assert run(copy, data, "import")[0] == 0
    tampered = weights.PackagedModel(**{**weights.TEST_CHAT.__dict__, "sha256": "0" * 64})
    monkeypatch.setitem(weights.PACKAGED, weights.TEST_CHAT.name, tampered)
    code, out, err = run(
        copy, data, "ask", "Was hilft bei Papierstau?", "--model", "test", "--json"
    )
    assert code == 2 and "sha256" in err and "Traceback" not in err
    assert json.loads(out)["sources"]
    code, _, err = run(copy, data, "ask", "x", "--model", str(tmp_path / "missing.gguf"))
    assert code == 2 and "does not exist" in err
    assert run(copy, data, "search", "Papierstau")[0] == 0


def test_hostile_files_import_without_a_traceback(copy, tmp_path, monkeypatch) -> None:
    """Guards: non-UTF-8, empty, a 1 MB one-line note, a YAML bomb, a symlink loop, a file
    that vanishes between scan and read and an unreadable file are reported per file; the
    rest of the vault imports and equals a fresh import of the same files.

    Shown to fail by narrowing the importer's `except OSError` around `read_bytes` to
    `except FileNotFoundError` (the permission error then escapes the import).
    """
    (copy / "latin1.md").write_bytes("Grüße aus Köln".encode("latin-1"))
    (copy / "leer.md").write_bytes(b"")
    (copy / "gross.md").write_text("# Groß\n\n" + "wort " * 200_000, encoding="utf-8")
    bomb = "\n".join(['a: &a ["x","x","x","x","x","x","x","x","x"]'] + [
        f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]" for p, c in zip("abcdefgh", "bcdefghi")
    ])  # fmt: skip
    (copy / "bombe.md").write_text(f"---\n{bomb}\ntitle: *i\ntags: *i\n---\nText", "utf-8")
    (copy / "schleife").symlink_to(copy, target_is_directory=True)
    (copy / "weg.md").write_text("verschwindet", encoding="utf-8")
    (copy / "gesperrt.md").write_text("geheim", encoding="utf-8")
    real_read = Path.read_bytes

    def read(self: Path) -> bytes:
        if self.name == "weg.md":
            self.unlink()  # vanished after the scan saw it
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(self))
        if self.name == "gesperrt.md":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read)
    code, out, err = run(copy, tmp_path / "data", "import", "--json")
    assert code == 0, err
    summary = json.loads(out)
    problems = {p["path"]: p["message"] for p in summary["errors"]}
    assert "not valid UTF-8" in problems["latin1.md"]
    assert "Permission denied" in problems["gesperrt.md"]
    assert "weg.md" in problems
    monkeypatch.setattr(Path, "read_bytes", real_read)
    (copy / "gesperrt.md").unlink()
    stored = snapshot(tmp_path / "data", copy)
    assert "schleife/latin1" not in " ".join(stored["notes"])
    assert {"leer", "gross", "bombe"} <= set(stored["notes"])
    assert stored == fresh_snapshot(copy, tmp_path / "fresh")
