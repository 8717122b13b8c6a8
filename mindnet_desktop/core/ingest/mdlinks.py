"""Markdown links to notes: inline `[text](target)` and reference-style `[text][label]`.

Obsidian writes these when "Use [[Wikilinks]]" is off; Notion, Bear, Logseq and mdBook
exports use nothing else. A target is a note when it has no URL scheme and its extension is
a note's (`.md`, `.ctxt`), an exported page's (`.html`: its stem is the note) or none.
Images (`![alt](x.png)`), external URLs and links to attachments are not notes.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from mindnet_desktop.core.ingest.markdown import read_markdown

SCHEME = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)")
NOTE_SUFFIXES = (".md", ".ctxt")
PAGE_SUFFIXES = (".html", ".htm")
OTHER_SUFFIX = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


@dataclass(frozen=True)
class MdLink:
    """A Markdown link to a note: vault path or name (decoded), heading, offset of `[`."""

    target: str
    heading: str
    offset: int


def note_target(raw: str, source_path: str) -> tuple[str, str] | None:
    """(target, heading) of a link destination, or None when it is not a note.

    Relative paths (`../B/Note.md`, `./Note.md`) are made vault paths against the linking
    note's folder; `/Folder/Note.md` is vault-absolute; `Folder/Note.md` and `Note.md` are
    kept as written (the resolver tries them relative to the note first, then as vault
    path, then by name). `%20` and friends are decoded; `.html` stems name the note.

    Args:
        raw: The destination as written (`<...>` allowed).
        source_path: Vault path of the linking note.
    """
    raw = raw.strip()
    if raw.startswith("<") and raw.endswith(">"):
        raw = raw[1:-1].strip()
    if not raw or SCHEME.match(raw):
        return None
    path, _, heading = raw.partition("#")
    path = unquote(path.split("?", 1)[0]).strip()
    heading = unquote(heading).strip()
    lower = path.lower()
    if lower.endswith(PAGE_SUFFIXES):
        path = path.rsplit(".", 1)[0]
    elif not lower.endswith(NOTE_SUFFIXES) and OTHER_SUFFIX.search(path.rsplit("/", 1)[-1]):
        return None  # an attachment: picture.png, paper.pdf, main.rs
    if path.startswith("/"):
        path = path.lstrip("/")
    elif path.startswith(("./", "../")) or "/./" in path or "/../" in path:
        folder = source_path.rsplit("/", 1)[0] if "/" in source_path else ""
        path = posixpath.normpath(posixpath.join(folder, path))
        if path.startswith("../") or path == "..":
            path = "/" + path  # outside the vault: never resolves, kept for what it says
    elif path in (".", ""):
        path = ""
    if not path and not heading:
        return None
    return path, heading


def extract_md_links(body: str, source_path: str = "") -> list[MdLink]:
    """Markdown links to notes in `body`, in order: inline, reference (full, collapsed,
    shortcut) and autolinks as CommonMark reads them; images are not links.

    Args:
        body: The note body (offsets are the body's).
        source_path: Vault path of the note, for relative links.
    """
    found = []
    for link in read_markdown(body).links:
        target = None if link.image else note_target(link.href, source_path)
        if target is not None:
            found.append(MdLink(target[0], target[1], link.start))
    return found
