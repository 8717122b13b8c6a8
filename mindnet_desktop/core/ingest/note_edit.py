"""Writing an edge into a note as a `> [!edge] kind: [[Target]]` callout line.

The note's bytes stay as they are except for the inserted line (and the blank line that
separates it), written atomically (temp file + rename, permissions kept).
"""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core import files
from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.errors import MindnetError


class NoteEditError(MindnetError, RuntimeError):
    """The note could not be changed (it changed on disk, or it cannot be written)."""


def callout_line(kind: str, link: str) -> str:
    return f"> [!edge] {kind}: [[{link}]]"


def insertion_offset(text: str, note: Note, chunk: Chunk | None) -> int:
    """Where in the file's text (newlines normalised) the callout goes: after the chunk's
    last character, or at the end of the note."""
    if chunk is None or not note.body:
        return len(text.rstrip("\n"))
    from mindnet_desktop.core.ingest.parse import FRONTMATTER_BLOCK

    block = FRONTMATTER_BLOCK.match(text)
    start = text.find(note.body, block.end() if block else 0)  # never inside the frontmatter
    if start < 0:
        raise NoteEditError(f"{note.path} changed on disk since it was imported; import and retry")
    return start + len(note.body[: chunk.end].rstrip())


def insert_callout(raw: bytes, note: Note, chunk: Chunk | None, line: str) -> bytes:
    """`raw` with `line` inserted as its own paragraph after `chunk` (or at the end)."""
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    crlf = "\r\n" in text
    norm = text.replace("\r\n", "\n")
    at = insertion_offset(norm, note, chunk)
    block = f"\n\n{line}"
    if at == len(norm.rstrip("\n")) and not norm[at:]:
        block += "\n"  # a file that ended without a newline now ends with one
    out = norm[:at] + block + norm[at:]
    if crlf:
        out = out.replace("\n", "\r\n")
    return (b"\xef\xbb\xbf" if bom else b"") + out.encode("utf-8")


def write_atomic(path: Path, data: bytes, vault: Path) -> None:
    """Replace `path` with `data` so that readers see the old or the new file, never half.
    A symlinked note is written where the link points (the link stays), but only inside
    `vault`: a note replaced by a link out of the vault since its import is refused."""
    real = path.resolve()
    if not real.is_relative_to(vault.resolve()):
        raise NoteEditError(f"{path} now links to {real}, outside the vault; nothing was written")
    files.write_atomic(real, data, preserve_mode=True)
