"""Writing an edge into a note as a `> [!edge] kind: [[Target]]` callout line.

The note's bytes stay as they are except for the inserted line (and the blank line that
separates it), written atomically (temp file + rename, permissions kept). The temp file's
name is recorded in a journal in the data dir first: a write killed halfway (kill -9, a
power cut) leaves the journal, and the next writer removes the temp file it names from the
vault (`clean_interrupted_edit`).
"""

from __future__ import annotations

import contextlib
import json
import secrets
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


EDIT_JOURNAL = "note_edit.json"  # in the data dir: the temp file of a note write under way


def write_atomic(path: Path, data: bytes, vault: Path, journal: Path | None = None) -> None:
    """Replace `path` with `data` so that readers see the old or the new file, never half.
    A symlinked note is written where the link points (the link stays), but only inside
    `vault`: a note replaced by a link out of the vault since its import is refused.

    Args:
        journal: Where the temp file's name is kept while the note is written (removed
            after); a journal left behind names a temp file to clean up.
    """
    real = path.resolve()
    if not real.is_relative_to(vault.resolve()):
        raise NoteEditError(f"{path} now links to {real}, outside the vault; nothing was written")
    if journal is None:
        files.write_atomic(real, data, preserve_mode=True)
        return
    temp = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    files.write_atomic(journal, json.dumps({"temp": str(temp)}))
    try:
        files.write_atomic(real, data, preserve_mode=True, temp=temp)
    finally:
        journal.unlink(missing_ok=True)


def clean_interrupted_edit(journal: Path, vault: Path) -> Path | None:
    """Remove the temp file of a note write that was killed halfway (named by `journal`,
    only a hidden `.tmp` file inside `vault`) and the journal; the removed file, if any.
    Call it holding the data dir's writer lock (no other write is under way then)."""
    try:
        temp = Path(json.loads(journal.read_text(encoding="utf-8"))["temp"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):  # unreadable: it names nothing
        temp = None
    removed = None
    try:
        if (
            temp is not None
            and temp.name.startswith(".")
            and temp.name.endswith(".tmp")
            and temp.parent.resolve().is_relative_to(vault.resolve())
            and temp.is_file()
        ):
            temp.unlink()
            removed = temp
    except (OSError, RuntimeError):  # kept, and so is the journal: the next start tries again
        return None
    with contextlib.suppress(OSError):
        journal.unlink(missing_ok=True)
    return removed
