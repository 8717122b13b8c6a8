"""`folder` narrows a hybrid search to the notes in a folder and below it (`mindnet search
--folder`, the MCP `search` tool)."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.service.search.hybrid import hybrid_search
from tests.conftest import run_import


def test_folder_keeps_only_its_notes(vault: Path, open_mindnet) -> None:
    mn = open_mindnet(vault)
    run_import(mn)
    query = "Papierstau im Drucker KI-Projekt Alpha"
    everywhere = hybrid_search(mn, query, 10, log=False, per_note=True)
    assert {h.path.split("/")[0] for h in everywhere.hits} - {"Erfahrungen"}  # others too
    inside = hybrid_search(mn, query, 10, log=False, per_note=True, folder="Erfahrungen/")
    assert inside.hits and all(h.path.startswith("Erfahrungen/") for h in inside.hits)
    nested = hybrid_search(mn, query, 10, log=False, per_note=True, folder="Persönlich")
    assert nested.hits and all(h.path.startswith("Persönlich/") for h in nested.hits)
    assert {h.path.count("/") for h in nested.hits} - {1}  # subfolders' notes too
    assert hybrid_search(mn, query, 10, log=False, folder="Nirgends").hits == []
