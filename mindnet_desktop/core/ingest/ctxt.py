"""Parser for Cognigy `.ctxt` knowledge files.

A `.ctxt` file is UTF-8 text: a header of `` `key: value` `` lines, a blank line, then chunks
separated by one or more blank lines. A chunk is text lines followed by an optional trailing
run of `` `key: value` `` lines (that chunk's metadata). Headings (`#`) are ordinary text.

Any violation of the format or of a limit fails the whole file with a `CtxtError`.
"""

from __future__ import annotations

import re

from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.errors import MindnetError

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_CHUNK_CHARS = 2000
MAX_CHUNKS = 1000
MAX_META_PAIRS = 20
MAX_META_CHARS = 1000
MAX_TAGS = 10
TAG_PATTERN = re.compile(r"[a-z0-9_-]+")

SUPPORTED_VERSION = "1"
DEFAULT_TYPE = "source"

_META_LINE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*:(.*)`")
_KNOWN_KEYS = frozenset({"version", "title", "url", "tags", "type", "aliases"})

Meta = list[tuple[str, str]]


class CtxtError(MindnetError, ValueError):
    """A `.ctxt` file that violates the format.

    Attributes:
        path: Vault-relative path of the file.
        chunk: 1-based number of the offending chunk, or None for file/header problems.
        reason: What is wrong, without file and chunk prefix.
    """

    def __init__(self, path: str, reason: str, chunk: int | None = None) -> None:
        self.path = path
        self.chunk = chunk
        self.reason = reason
        where = f"{path}: chunk {chunk}" if chunk is not None else path
        super().__init__(f"{where}: {reason}")


def _meta_pair(line: str) -> tuple[str, str] | None:
    """Return `(key, value)` if `line` is a `` `key: value` `` line, else None."""
    match = _META_LINE.fullmatch(line.strip())
    if match is None:
        return None
    return match.group(1), match.group(2).strip()


def _is_blank(line: str) -> bool:
    return not line.strip()


def _check_meta(path: str, pairs: Meta, chunk: int | None) -> None:
    """Enforce MAX_META_PAIRS and MAX_META_CHARS for one header or chunk."""
    where = "header" if chunk is None else "chunk"
    if len(pairs) > MAX_META_PAIRS:
        reason = f"too many metadata pairs in {where} ({len(pairs)}, limit {MAX_META_PAIRS})"
        raise CtxtError(path, reason, chunk)
    size = sum(len(key) + len(value) for key, value in pairs)
    if size > MAX_META_CHARS:
        reason = f"metadata too long in {where} ({size} characters, limit {MAX_META_CHARS})"
        raise CtxtError(path, reason, chunk)


def _split_list(value: str) -> list[str]:
    """Split `[a, b]`, `a, b` or `a` into items (surrounding quotes removed, empties dropped)."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    items = (item.strip().strip("\"'").strip() for item in value.split(","))
    return [item for item in items if item]


def _parse_tags(path: str, value: str) -> tuple[str, ...]:
    """Parse and validate the header `tags` value."""
    tags = _split_list(value)
    if len(tags) > MAX_TAGS:
        reason = f"too many tags ({len(tags)}, limit {MAX_TAGS}); first over: {tags[MAX_TAGS]!r}"
        raise CtxtError(path, reason)
    for tag in tags:
        if TAG_PATTERN.fullmatch(tag) is None:
            raise CtxtError(path, f"invalid tag {tag!r} (allowed: {TAG_PATTERN.pattern})")
    return tuple(dict.fromkeys(tags))


def _decode(path: str, raw: bytes) -> list[str]:
    """Check the size, decode UTF-8 (BOM stripped) and split into lines (CRLF accepted)."""
    if len(raw) > MAX_FILE_BYTES:
        raise CtxtError(path, f"file too large ({len(raw)} bytes, limit {MAX_FILE_BYTES})")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CtxtError(path, f"not valid UTF-8 (byte {exc.start})") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _split_header(path: str, lines: list[str]) -> tuple[Meta, list[str]]:
    """Split `lines` into header pairs and the remaining (chunk) lines."""
    pos = 0
    while pos < len(lines) and _is_blank(lines[pos]):
        pos += 1
    header: Meta = []
    while pos < len(lines) and (pair := _meta_pair(lines[pos])) is not None:
        header.append(pair)
        pos += 1
    if header and pos < len(lines) and not _is_blank(lines[pos]):
        raise CtxtError(path, f"line {pos + 1}: expected a blank line after the header")
    return header, lines[pos:]


def _blocks(lines: list[str]) -> list[list[str]]:
    """Group lines into blocks separated by one or more blank lines."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if _is_blank(line):
            if current:
                blocks.append(current)
                current = []
        else:
            current.append(line)
    if current:
        blocks.append(current)
    return blocks


def _parse_chunk(path: str, block: list[str], seq: int, note_id: str) -> Chunk:
    """Turn one block into a Chunk: trailing metadata lines are meta, the rest is text."""
    end = len(block)
    meta: Meta = []
    while end > 0 and (pair := _meta_pair(block[end - 1])) is not None:
        meta.append(pair)
        end -= 1
    meta.reverse()
    text = "\n".join(block[:end]).strip()
    if not text:
        raise CtxtError(path, "empty chunk text", seq)
    if len(text) > MAX_CHUNK_CHARS:
        reason = f"Chunk too long ({len(text)} characters, limit {MAX_CHUNK_CHARS})"
        raise CtxtError(path, reason, seq)
    _check_meta(path, meta, seq)
    return Chunk(note_id=note_id, seq=seq, text=text, meta=dict(meta))


def parse_ctxt(path: str, raw: bytes, content_hash: str, note_id: str) -> tuple[Note, list[Chunk]]:
    """Parse a Cognigy `.ctxt` file into a note and its chunks.

    Args:
        path: Vault-relative POSIX path (used in messages and as `Note.path`).
        raw: The raw file bytes.
        content_hash: sha256 of `raw`, stored on the note as given.
        note_id: Id of the note, chosen by the caller.

    Returns:
        The note (format "ctxt") and its chunks with seq 1..N.

    Raises:
        CtxtError: The file violates the format or one of the limits; nothing is returned.
    """
    header, rest = _split_header(path, _decode(path, raw))
    _check_meta(path, header, None)
    fields: dict[str, str] = {}
    source_meta: dict[str, str] = {}
    for key, value in header:
        lower = key.lower()
        if lower in _KNOWN_KEYS:
            fields[lower] = value
            if lower == "url":
                source_meta["url"] = value
        else:
            source_meta[key] = value
    if "version" not in fields:
        raise CtxtError(path, "missing version")
    if fields["version"] != SUPPORTED_VERSION:
        reason = f"unsupported version {fields['version']} (supported: {SUPPORTED_VERSION})"
        raise CtxtError(path, reason)
    tags = _parse_tags(path, fields.get("tags", ""))
    aliases = tuple(dict.fromkeys(_split_list(fields.get("aliases", ""))))

    blocks = _blocks(rest)
    if not blocks:
        raise CtxtError(path, "no chunks")
    if len(blocks) > MAX_CHUNKS:
        reason = f"too many chunks ({len(blocks)}, limit {MAX_CHUNKS})"
        raise CtxtError(path, reason, MAX_CHUNKS + 1)
    chunks = [_parse_chunk(path, block, seq, note_id) for seq, block in enumerate(blocks, 1)]

    base = path.rsplit("/", 1)[-1]
    stem = base.rsplit(".", 1)[0] if "." in base else base
    note = Note(
        note_id=note_id,
        path=path,
        title=fields.get("title") or stem,
        type=(fields.get("type") or DEFAULT_TYPE).lower(),
        body="\n\n".join(chunk.text for chunk in chunks),
        content_hash=content_hash,
        tags=tags,
        aliases=aliases,
        status="",
        format="ctxt",
        source_meta=source_meta,
    )
    return note, chunks
