"""The notes of some types nearest to a question (a DECISION question's injected notes)."""

from __future__ import annotations

import numpy as np

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.service.vault.note_vectors import nearest_notes


def note(note_id: str, type_: str) -> Note:
    return Note(note_id, f"{note_id}.md", note_id, type_, "", content_hash="h")


def test_the_nearest_notes_of_the_types_best_first_ties_by_position():
    rng = np.random.default_rng(3)
    ids = [f"n{i}" for i in range(300)]
    matrix = rng.normal(size=(300, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)  # unit length, as stored
    matrix[21] = matrix[12]  # a tie: the earlier note first
    types = ["value", "concept", "goal"]
    notes = {nid: note(nid, types[i % 3]) for i, nid in enumerate(ids)}
    vector = matrix[12]
    picked = nearest_notes(ids, matrix, notes, vector, {"value", "goal"}, 5, {"n30"})
    scores = matrix @ vector
    expected = [
        ids[i]
        for i in sorted(range(300), key=lambda i: -scores[i])
        if notes[ids[i]].type in {"value", "goal"} and ids[i] != "n30"
    ][:5]
    assert picked == expected and picked[:2] == ["n12", "n21"]
    assert nearest_notes([], matrix[:0], notes, vector, {"value"}, 3, set()) == []
