"""A new Markdown reader re-imports every note once, and embeds only the chunks it changed."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.ingest import chunk, manifest
from tests.conftest import run_import
from tests.core.ingest.test_importer import CountingEmbedder

LINES = "".join(f"    let value_{i} = compute({i});\n" for i in range(5))
# The intro and the code's first half fit one chunk (medium: 1,200 characters), the whole
# code block does not: the old reader cut at the code's blank line, the new one before it.
CODE_NOTE = (
    "# Build\n\n"
    + "Intro sentence about the build. " * 30
    + f"\n\n```rust\nfn main() {{\n{LINES}\n{LINES}}}\n```\n\n"
    + "After the code. " * 30
    + "\n"
)


def test_a_reader_change_reembeds_only_changed_chunks_once(
    vault: Path, open_mindnet, monkeypatch, tmp_path: Path
) -> None:
    """The old reader cut paragraphs at a code block's blank line; the new one does not. With
    the edge rules' version bumped (manifest.EDGE_RULES), every note is read again, but only
    the note whose chunks changed is embedded again, and a further import embeds nothing."""
    (vault / "Build.md").write_text(CODE_NOTE, encoding="utf-8")
    paragraphs = chunk._paragraphs
    monkeypatch.setattr(chunk, "_paragraphs", lambda body, s, e, code: paragraphs(body, s, e, ()))
    monkeypatch.setattr(manifest, "EDGE_RULES", manifest.EDGE_RULES - 1)
    embedder = CountingEmbedder()
    mn = open_mindnet(vault, embedder=embedder)
    run_import(mn)
    before = {cid: row.chunk.text for cid, row in mn.store.chunk_rows(mn.store.chunk_ids()).items()}
    total = len(before)

    monkeypatch.undo()  # the new reader, the current rules' version
    embedder.texts.clear()
    summary = run_import(mn).summary
    after = {cid: row.chunk.text for cid, row in mn.store.chunk_rows(mn.store.chunk_ids()).items()}
    changed = {cid for cid, text in after.items() if before.get(cid) != text}
    assert summary.changed == len(mn.records)  # every note read again
    assert changed and all(cid.startswith("Build#") for cid in changed)
    assert 0 < len(embedder.texts) <= len(changed) < total
    assert summary.reused_vectors == len(after) - len(embedder.texts)

    embedder.texts.clear()
    assert run_import(mn).summary.changed == 0
    assert embedder.texts == []
