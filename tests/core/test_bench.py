"""`mindnet bench` runs end to end on a small generated vault (speed is not asserted here)."""

from __future__ import annotations

import json

from mindnet_desktop.bench.vault_gen import generate_vault
from mindnet_desktop.cli.main import main
from mindnet_desktop.core.ingest.importer import scan_vault


def test_generated_vault_is_deterministic_and_linked(tmp_path):
    first = generate_vault(tmp_path / "a", 40)
    second = generate_vault(tmp_path / "b", 40)
    files = sorted(scan_vault(first))
    assert len(files) == 40 and files == sorted(scan_vault(second))
    text = "".join((first / f).read_text(encoding="utf-8") for f in files)
    assert text == "".join((second / f).read_text(encoding="utf-8") for f in files)
    assert "[[rel:" in text and "> [!edge] related_to:" in text and "[[Notiz " in text


def test_bench_import_and_graph_report_their_measurements(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MINDNET_EMBEDDER", "hash")
    work = str(tmp_path / "bench")
    assert main(["bench", "import", "--notes", "60", "--workdir", work, "--json"]) == 0
    result = json.loads(_json(capsys))
    assert result["notes"] == 60 and result["noop_changed"] == 0
    assert result["noop_ratio"] > 0 and result["cold_seconds"] > 0
    assert (
        main(["bench", "graph", "--notes", "60", "--workdir", work, "--repeat", "20", "--json"])
        == 0
    )
    graph = json.loads(_json(capsys))
    assert graph["notes"] == 60
    assert graph["neighbors"]["p50_ms"] > 0 and graph["rag_without_query_embedding"]["p95_ms"] > 0


def _json(capsys) -> str:
    out = capsys.readouterr().out
    return out[out.index("{") :]
