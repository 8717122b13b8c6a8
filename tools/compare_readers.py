"""Compare two versions of the Markdown reader on real vaults: edges and chunks per note.

Each version (a checkout) imports each vault with the `hash` embedder into its own data dir
through the CLI (`mindnet import`), then dumps what the store holds: every note's chunks (text)
and edges (source, target, kind, provenance, rule). The dumps are then diffed note by note.

    python tools/compare_readers.py --old /path/to/old/checkout --new . \
        --vault resources/example_vault --vault resources/qa_vaults/rust-book-en --out /tmp/cmp

Run with the project's Python; each checkout is put first on PYTHONPATH in a child process.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

DUMP = """
import json, sys
from pathlib import Path
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
mn = Mindnet(Path(sys.argv[1]), data_dir=sys.argv[2], embedder=make_embedder("hash"))
out = {}
for note_id, record in sorted(mn.records.items()):
    out[note_id] = {
        "chunks": [c.text for c in sorted(mn.store.chunks(note_id), key=lambda c: c.seq)],
        "edges": sorted(
            [e.source_id, e.target_id, e.kind, e.provenance, e.rule_id] for e in record.edges
        ),
    }
json.dump(out, open(sys.argv[3], "w"), ensure_ascii=False, indent=0)
"""


def run(tree: Path, vault: Path, data: Path, dump: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "MINDNET_EMBEDDER": "hash",
        "ANONYMIZED_TELEMETRY": "False",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    cli = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    # The checkout's folder as working directory too: `python -m` puts it first on sys.path.
    subprocess.run([*cli, "--data-dir", str(data), "import"], env=env, cwd=tree, check=True)
    dump_cmd = [sys.executable, "-c", DUMP, str(vault), str(data), str(dump)]
    subprocess.run(dump_cmd, env=env, cwd=tree, check=True)


def diff(old: dict, new: dict) -> dict:
    """Per note: chunks changed?, edges only in old, edges only in new."""
    notes = {}
    for note_id in sorted(set(old) | set(new)):
        before, after = old.get(note_id, {}), new.get(note_id, {})
        edges_before = Counter(map(tuple, before.get("edges", [])))
        edges_after = Counter(map(tuple, after.get("edges", [])))
        gone, added = edges_before - edges_after, edges_after - edges_before
        chunks_changed = before.get("chunks") != after.get("chunks")
        if gone or added or chunks_changed:
            notes[note_id] = {
                "chunks_before": len(before.get("chunks", [])),
                "chunks_after": len(after.get("chunks", [])),
                "chunks_changed": chunks_changed,
                "edges_gone": sorted(gone.elements()),
                "edges_added": sorted(added.elements()),
            }
    return notes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, required=True)
    parser.add_argument("--vault", type=Path, action="append", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for vault in args.vault:
        dumps = {}
        for label, tree in (("old", args.old), ("new", args.new)):
            base = args.out / vault.name / label
            base.mkdir(parents=True, exist_ok=True)
            dumps[label] = base / "dump.json"
            if not dumps[label].exists():
                run(tree.resolve(), vault.resolve(), base / "data", dumps[label])
        old = json.loads(dumps["old"].read_text(encoding="utf-8"))
        new = json.loads(dumps["new"].read_text(encoding="utf-8"))
        notes = diff(old, new)
        (args.out / vault.name / "diff.json").write_text(
            json.dumps(notes, ensure_ascii=False, indent=1), encoding="utf-8"
        )
        edges = [sum(len(n["edges"]) for n in dump.values()) for dump in (old, new)]
        chunks = [sum(len(n["chunks"]) for n in dump.values()) for dump in (old, new)]
        print(
            f"{vault.name}: notes {len(old)} -> {len(new)}; chunks {chunks[0]} -> {chunks[1]}; "
            f"edges {edges[0]} -> {edges[1]}; notes with a difference {len(notes)} "
            f"(chunks changed in {sum(n['chunks_changed'] for n in notes.values())})"
        )


if __name__ == "__main__":
    main()
