"""A 10 MB note: parsed and chunked within the profile's maximum with no text lost (CI), and
imported end to end by `mindnet import` with its time and peak memory measured (`slow`).

The note is built like a real long note grown over years: headings, paragraphs with
wikilinks, code blocks, tables and, every 500 paragraphs, a 100 KB run without a blank.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mindnet_desktop.core.config.type_registry import load_types
from mindnet_desktop.core.ingest.chunk import chunk_note
from mindnet_desktop.core.ingest.parse import parse_markdown
from tests.conftest import EXAMPLE_VAULT
from tests.reliability.support import FIGURES, REPO, cli_env, hang_guard
from tests.reliability.test_fuzz_markdown import check_chunks

SIZE = 10 * 2**20
WORDS = ["Vektor", "Graph", "Notiz", "Papierstau", "Drucker", "Modell", "lokal", "Suche"]
WORDS += ["Kante", "Absatz", "Chroma"]
LAST_WORD = "Schlusswortzeichen"


def big_note(target: int = SIZE, seed: int = 10) -> str:
    """About `target` bytes of Markdown (type concept: the `medium` chunk profile)."""
    rng = random.Random(seed)
    parts = ["---\ntype: concept\ntags: [gross]\n---\n# Sehr große Notiz\n\n"]
    size, n = len(parts[0]), 0
    while size < target:
        n += 1
        if n % 40 == 1:
            block = f"## Abschnitt {n // 40}\n"
        elif n % 97 == 0:
            block = "```python\n" + "\n".join(f"x_{i} = {i} * 2" for i in range(60)) + "\n```\n"
        elif n % 131 == 0:
            rows = "".join(f"| {i} | {WORDS[i % len(WORDS)]} |\n" for i in range(50))
            block = "| a | b |\n|---|---|\n" + rows
        elif n % 500 == 0:
            block = "ohneLeerzeichen" * 7000 + "\n"  # ~100 KB without a blank
        else:
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 160)))
            block = f"Absatz {n}: {sentence} [[Local First]] und [[KI-Projekt Alpha]].\n"
        parts.append(block + "\n")
        size += len(block.encode()) + 1
    parts.append(f"Das letzte Wort ist {LAST_WORD}.\n")
    return "".join(parts)


def test_a_10_mb_note_chunks_within_the_maximum_and_loses_no_text() -> None:
    """Guards: parse and chunk of a 10 MB note finish (no quadratic path: the guard is far
    above the seconds it takes), every chunk is within the profile's max_chars, and the
    chunks hold every non-blank character of the body, in order. Shown to fail by letting
    chunk_note keep an over-long paragraph whole (the 100 KB runs then exceed 1,800)."""
    text = big_note()
    started = time.perf_counter()
    with hang_guard(300, "10 MB note"):
        note = parse_markdown("Groß.md", text, "hash")
        profile = load_types().profile(note.type)
        chunks = chunk_note(note, profile)
    FIGURES["10 MB note: parse + chunk (s)"] = round(time.perf_counter() - started, 1)
    FIGURES["10 MB note: chunks"] = len(chunks)
    assert len(text.encode()) >= SIZE and profile.max_chars == 1800
    check_chunks(note, chunks, profile.max_chars)
    assert LAST_WORD in chunks[-1].text


@pytest.mark.slow
def test_a_10_mb_note_imports_in_bounded_time_and_memory(tmp_path: Path) -> None:
    """Guards: `mindnet import` of the example vault plus a 10 MB note ends without an
    error; the stored chunks are within the maximum and hold the whole body; the last word
    is found by search; time and peak memory (the child's own maximum RSS) are recorded for
    docs/reliability.md. The bounds asserted are generous (they catch a runaway, not a slowdown)."""
    vault, data = tmp_path / "vault", tmp_path / "data"
    shutil.copytree(EXAMPLE_VAULT, vault)
    text = big_note()
    (vault / "Groß.md").write_text(text, encoding="utf-8")
    cmd = [sys.executable, "-m", "mindnet_desktop.cli.main", "--vault", str(vault)]
    cmd += ["--data-dir", str(data), "import", "--json"]
    started = time.perf_counter()
    out = tmp_path / "out.json"
    with open(out, "w") as handle:
        proc = subprocess.Popen(cmd, cwd=REPO, env=cli_env(), stdout=handle)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    assert proc.returncode == 0
    summary = json.loads(out.read_text())
    peak_mb = usage.ru_maxrss / 1024
    FIGURES["10 MB note: import wall (s)"] = round(seconds, 1)
    FIGURES["10 MB note: import CPU (s)"] = round(usage.ru_utime + usage.ru_stime, 1)
    FIGURES["10 MB note: import peak RSS (MB)"] = round(peak_mb)
    FIGURES["10 MB note: chunks stored (vault)"] = summary["chunks"]
    assert summary["errors"] == [] and seconds < 1800 and peak_mb < 4096

    from mindnet_desktop.core.models.embedders import HashEmbedder
    from mindnet_desktop.core.service.vault.mindnet import Mindnet

    with Mindnet(vault, data, embedder=HashEmbedder(), write=False) as mn:
        chunks = sorted(mn.store.chunks("Groß"), key=lambda c: c.seq)
    note = parse_markdown("Groß.md", text, "hash")
    check_chunks(note, chunks, 1800)
    done = subprocess.run(
        [*cmd[:7], "search", LAST_WORD, "--json"], cwd=REPO, env=cli_env(), capture_output=True
    )
    assert json.loads(done.stdout)["hits"][0]["note_id"] == "Groß"
