"""Whole vaults linked by Markdown links: a converted example vault and the Rust book."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from urllib.parse import quote

from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.resources import EXAMPLE_VAULT, QA_VAULTS_DIR
from tests.conftest import run_import

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")


def to_markdown_links(vault: Path) -> int:
    """Rewrite every `[[link]]` of the vault as the Markdown link Obsidian would write.

    Links to a file name become paths relative to the linking note (Obsidian's "relative
    path" setting), every other one (alias, missing note) stays a bare `Name.md`; one link
    in three is written vault-absolute (`/Folder/Note.md`) to exercise that form too.

    Returns:
        How many links were rewritten.
    """
    files = {p.stem.casefold(): p for p in vault.rglob("*") if p.suffix in (".md", ".ctxt")}
    count = 0
    for path in [p for p in vault.rglob("*") if p.suffix in (".md", ".ctxt")]:
        text = path.read_text(encoding="utf-8")

        def convert(match: re.Match[str], path: Path = path) -> str:
            nonlocal count
            count += 1
            embed, inner = match.groups()
            inner = re.sub(r"^rel:\S+\s+", "", inner.strip())
            target, _, shown = inner.partition("|")
            target, _, heading = target.partition("#")
            anchor = f"#{quote(heading.strip())}" if heading.strip() else ""
            name = target.strip().rsplit("/", 1)[-1]
            found = files.get(name.casefold())
            if not target.strip() or embed:
                dest = quote(target.strip())  # `![[x.png]]` -> `![x.png](x.png)`
            elif found is None:
                dest = quote(f"{target.strip()}.md")
            elif count % 3 == 0:
                dest = "/" + quote(found.relative_to(vault).as_posix())
            else:
                dest = quote(Path(os.path.relpath(found, path.parent)).as_posix())
            return f"{embed}[{shown.strip() or name}]({dest}{anchor})"

        path.write_text(WIKILINK.sub(convert, text), encoding="utf-8")
    return count


def note_graph(mn) -> tuple[set[tuple[str, str]], int]:
    """(source note, target note) of the resolved explicit edges; how many are unresolved."""
    explicit = [e for r in mn.records.values() for e in r.edges if e.provenance == "explicit"]
    pairs = {(e.note_id, e.target_note_id) for e in explicit if e.target_note_id}
    return pairs, len({(e.note_id, e.target_ref) for e in explicit if not e.target_note_id})


def test_markdown_link_twin_of_the_example_vault_has_the_same_graph(tmp_path):
    wiki, md = tmp_path / "wiki", tmp_path / "md"
    shutil.copytree(EXAMPLE_VAULT, wiki)
    shutil.copytree(EXAMPLE_VAULT, md)
    assert to_markdown_links(md) > 40
    assert "[[" not in "".join(p.read_text("utf-8") for p in md.rglob("*.md"))
    graphs = []
    for vault in (wiki, md):
        with Mindnet(
            vault, tmp_path / f"data-{vault.name}", embedder=HashEmbedder(), write=True
        ) as mn:
            run_import(mn)
            graphs.append(
                (note_graph(mn), {e.rule_id for r in mn.records.values() for e in r.edges})
            )
    (wiki_pairs, wiki_unresolved), _ = graphs[0]
    (md_pairs, md_unresolved), rules = graphs[1]
    assert len(wiki_pairs) > 40
    assert md_pairs == wiki_pairs
    assert md_unresolved == wiki_unresolved
    assert "explicit:mdlink" in rules and "explicit:wikilink" not in rules


def test_rust_book_chapters_are_linked(tmp_path, open_mindnet):
    book = tmp_path / "rust-book-en"
    shutil.copytree(QA_VAULTS_DIR / "rust-book-en", book)
    mn = open_mindnet(book)
    run_import(mn)
    edges = [e for r in mn.records.values() for e in r.edges if e.rule_id == "explicit:mdlink"]
    between = [e for e in edges if e.target_note_id and e.target_note_id != e.note_id]
    chapters = [e for e in between if e.note_id != "SUMMARY"]
    # mdBook's chapters link each other by reference-style `.html` links; SUMMARY.md is the
    # book's table of contents (inline `.md` links to every chapter).
    assert len(between) >= 200, len(between)
    assert len(chapters) >= 150, len(chapters)
    to_chunks = [e for e in chapters if e.target_id != e.target_note_id]
    assert len(to_chunks) >= 50  # `#anchor` slugs find the chunk of their heading
    # What stays unresolved points outside the book (std docs, the reference).
    unresolved = [e for e in edges if not e.target_note_id]
    assert all(e.target_ref.startswith("/../") for e in unresolved), unresolved[:3]
