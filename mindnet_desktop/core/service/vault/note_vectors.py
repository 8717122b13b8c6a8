"""Every note's vector, kept in memory by `VaultState`: brought in step with an import, and
the notes of some types nearest to a question (DECISION injects values, principles, goals)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.ingest.importer import ImportOutcome
from mindnet_desktop.core.store.protocol import Store


def refreshed_vectors(
    kept: tuple[list[str], Any] | None, store: Store, outcome: ImportOutcome
) -> tuple[list[str], Any] | None:
    """The note vectors `kept` in memory, brought in step with an import: the written notes'
    read anew, the deleted and renamed ones dropped (reading all took ~1.2 s from Chroma at
    6,500 notes); None stays None (read when first needed)."""
    if kept is None:
        return None
    fresh = store.note_vectors([r.note.note_id for r in outcome.written])
    replaced = set(outcome.deleted) | set(outcome.renamed) | set(fresh[0])
    rows = [i for i, note_id in enumerate(kept[0]) if note_id not in replaced]
    ids = [kept[0][i] for i in rows] + list(fresh[0])
    return ids, np.concatenate([kept[1][rows], fresh[1]]).astype(np.float32, copy=False)


def nearest_notes(
    ids: list[str],
    matrix: Any,
    notes: Mapping[str, Note],
    vector: Any,
    types: set[str],
    n: int,
    exclude: set[str],
) -> list[str]:
    """The `n` notes of `types` (not in `exclude`) whose vectors (`ids`, `matrix`) are the
    most similar to `vector`."""
    if not ids:
        return []
    scores = matrix @ vector
    picked = []
    # NumPy's stable sort, not sorted() with a key: the same order (ties by position), but
    # a Python call per note cost a DECISION question ~130 ms at 50,000 notes.
    for i in np.argsort(-scores, kind="stable"):
        note = notes.get(ids[i])
        if note and note.type in types and ids[i] not in exclude:
            picked.append(ids[i])
            if len(picked) == n:
                break
    return picked
