"""Helpers of the reliability suite: a hang guard, the fuzz example counter, running the CLI
in a child process, and a comparable snapshot of a data dir."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# Examples each fuzz test ran (printed at the end of the session by conftest.py).
FUZZ_EXAMPLES: Counter[str] = Counter()
# Figures measured by the tests for the table of docs/reliability.md (printed at the end too).
FIGURES: dict[str, float] = {}


class Hang(AssertionError):
    """An input took longer than the hang guard allows."""


@contextmanager
def hang_guard(seconds: int, what: str = "") -> Iterator[None]:
    """Fail (instead of hanging the run) when the block takes longer than `seconds`.

    Not a timing assertion: the bound is far above the normal cost (milliseconds) and only
    catches runaway work such as quadratic backtracking or unbounded expansion.
    """

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"no result after {seconds} s: {what[:200]!r}")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def count_example(name: str) -> None:
    FUZZ_EXAMPLES[name] += 1


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a CLI child: this worktree's code, the hash embedder."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "MINDNET_EMBEDDER": "hash"}
    env.update(extra)
    return env


def cli(vault: Path, data: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    """Run `mindnet --vault V --data-dir D ARGS` in a child process (never raises)."""
    env = kw.pop("env", None) or cli_env()
    cmd = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    cmd += ["--data-dir", str(data), *args]
    return subprocess.run(
        cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=kw.pop("timeout", 300)
    )


def start_watch(vault: Path, data: Path, debounce: str = "0.3") -> subprocess.Popen[str]:
    """`mindnet watch --json` as a child process, stopped with SIGINT (Ctrl+C) by the test.

    SIGINT is set back to its default in the child: a shell running the tests in the
    background hands its children SIGINT ignored, and Python then never raises
    KeyboardInterrupt (the child would not stop).
    """
    cmd = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    cmd += ["--data-dir", str(data), "watch", "--json", "--debounce", debounce]
    return subprocess.Popen(
        cmd,
        cwd=REPO,
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def cli_json(vault: Path, data: Path, *args: str) -> Any:
    done = cli(vault, data, *args, "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def snapshot(data: Path, vault: Path) -> dict[str, Any]:
    """What must be equal between two indexes of one vault: note ids, chunk ids, edges (by
    id, with their targets) and the lexical postings count. Opened read-only in-process."""
    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet

    with Mindnet(vault, data, embedder=HashEmbedder(), write=False) as mn:
        return snapshot_of(mn)


def snapshot_of(mn: Any) -> dict[str, Any]:
    """`snapshot` of an open Mindnet (the app's own, read on its service thread)."""
    records = mn.records
    edges = sorted(
        (e.id, e.kind, e.source_id, e.target_id, str(e.target_note_id), e.rule_id)
        for r in records.values()
        for e in r.edges
    )
    return {
        "notes": sorted(records),
        "paths": sorted(r.note.path for r in records.values()),
        "chunks": sorted(mn.store.chunk_ids()),
        "edges": edges,
        "lexical": mn.store.lexical.count(),
    }


# rule_id -> confidence of the explicit rules (docs/notes.md, "Edges").
EXPLICIT_RULES = {
    "inline:rel": 0.95,
    "callout:edge": 0.90,
    "explicit:wikilink": 1.0,
    "explicit:mdlink": 1.0,
}
STRUCTURE_KINDS = {"belongs_to", "next", "prev"}


def check_edges(edges: list[Any], note: Any, chunk_ids: set[str], known: set[str]) -> None:
    """The edge invariants of the edge rules (docs/notes.md), for the edges derived from one note.

    Args:
        edges: The note's edges.
        note: The note.
        chunk_ids: Its chunk ids.
        known: Every note id the resolver knew.
    """
    from mindnet_desktop.core.domain import EDGE_FIELDS, Edge, normalize_kind

    ids = [e.id for e in edges]
    assert len(ids) == len(set(ids)), "two edges share an id"
    for e in edges:
        data = e.to_dict()
        assert set(data) == {"id", *EDGE_FIELDS}
        assert Edge.from_dict(data) == e
        assert all(data[f] is not None for f in EDGE_FIELDS if f != "target_note_id")
        assert 0.0 <= e.confidence <= 1.0
        assert e.kind and e.kind == normalize_kind(e.kind) and not any(c.isspace() for c in e.kind)
        assert e.note_id == note.note_id and e.source_id in chunk_ids and e.scope == "chunk"
        assert not e.deleted
        if e.provenance == "structure":
            assert e.kind in STRUCTURE_KINDS and e.rule_id == f"structure:{e.kind}"
            assert e.confidence == 1.0
            continue
        if e.provenance == "explicit":
            if e.rule_id in EXPLICIT_RULES:
                assert e.confidence == EXPLICIT_RULES[e.rule_id]
            else:
                assert e.rule_id.startswith("property:"), e.rule_id
        else:
            assert e.provenance == "rule", e.provenance
            assert e.rule_id.startswith("edge_defaults:") and e.rule_id.endswith(f":{e.kind}")
            assert e.confidence == 0.7
        assert e.target_ref, "an explicit or rule edge keeps the link as written"
        if e.target_note_id is None:
            assert e.target_id == e.target_ref
        else:
            assert e.target_note_id in known
            assert e.target_id == e.target_note_id or e.target_id.startswith(e.target_note_id + "#")


TYPES = ["concept", "project", "journal", "task", "decision", "default"]


def note_text(i: int, n: int, paragraphs: int = 6, version: int = 0) -> str:
    """A note with frontmatter, headings, paragraphs, wikilinks, an inline relation and an
    edge callout to other notes of a vault of `n` generated notes."""
    lines = [f"---\ntype: {TYPES[i % len(TYPES)]}\ntags: [gen, v{version}]\n---", f"# Note {i}"]
    for p in range(paragraphs):
        other = (i * 7 + p * 3 + 1) % n
        lines.append(f"## Teil {p}" if p % 2 == 0 else "")
        lines.append(
            f"Absatz {p} von Note {i} (Version {version}) verweist auf [[Note {other}]]. "
            + "Ein Satz über Vektoren, Graphen und lokale Modelle. " * 8
        )
    lines.append(f"[[rel:depends_on Note {(i + 1) % n}]]")
    lines.append(f"> [!edge] related_to: [[Note {(i + 2) % n}]]")
    return "\n\n".join(lines) + "\n"


def make_vault(root: Path, n: int, paragraphs: int = 6) -> Path:
    """A vault of `n` generated notes in a few folders (`Ordner k/Note i.md`)."""
    for i in range(n):
        path = root / f"Ordner {i % 4}" / f"Note {i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note_text(i, n, paragraphs), encoding="utf-8")
    return root
