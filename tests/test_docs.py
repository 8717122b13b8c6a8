"""The documentation holds together: every relative link in README.md, CONTRIBUTING.md and
docs/*.md points at a file or folder that exists, and the README stays a short user guide.

Plain text checks: nothing of the package is imported.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README_MAX_LINES = 300
# `[text](target)` and `![alt](target)`; the target ends at the first blank or `)`, and may be
# followed by a title (`[t](a.md "title")`). Text may span lines; nested brackets are rare in
# these files and not supported.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
EXTERNAL = ("http://", "https://", "mailto:")


def doc_files() -> list[Path]:
    """The Markdown files whose links are checked."""
    files = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
    return [f for f in files if f.is_file()]


def prose(markdown: str) -> str:
    """The text outside fenced code blocks and inline code spans (links there are examples)."""
    lines, fenced = [], False
    for line in markdown.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(INLINE_CODE.sub("", line))
    return "\n".join(lines)


def relative_links(markdown: str) -> list[str]:
    """The link targets to check: neither external nor a pure `#anchor`, fragment stripped."""
    targets = []
    for match in LINK.finditer(prose(markdown)):
        target = match.group(1)
        if target.startswith(EXTERNAL) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


def broken_links(markdown: str, base: Path) -> list[str]:
    """The relative targets in `markdown` that name no file or folder below `base`."""
    return [t for t in relative_links(markdown) if not (base / t).exists()]


def test_the_extractor_finds_links_and_skips_the_rest(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("x", encoding="utf-8")
    (tmp_path / "pic.png").write_bytes(b"")
    text = (
        "See [here](docs/here.md#part), ![a picture](pic.png), [a folder](docs/),\n"
        '[gone](docs/missing.md#x), ![gone too](missing.png "title"), [web](https://x.org),\n'
        "[mail](mailto:a@b.c), [anchor](#top), `[code](nowhere.md)`.\n"
        "```\n[in a fence](also-nowhere.md)\n```\n"
    )
    assert relative_links(text) == [
        "docs/here.md",
        "pic.png",
        "docs/",
        "docs/missing.md",
        "missing.png",
    ]
    assert broken_links(text, tmp_path) == ["docs/missing.md", "missing.png"]


def test_a_link_across_lines_is_found() -> None:
    text = "![The main window: an answer\nwith its sources](docs/screenshot.png)"
    assert relative_links(text) == ["docs/screenshot.png"]


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(path: Path) -> None:
    broken = broken_links(path.read_text(encoding="utf-8"), path.parent)
    assert broken == [], f"{path.relative_to(REPO)}: broken links {broken}"


def test_the_docs_are_there() -> None:
    names = {p.relative_to(REPO).as_posix() for p in doc_files()}
    assert {"README.md", "CONTRIBUTING.md", "docs/architecture.md"} <= names


def test_readme_is_a_short_user_guide() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
