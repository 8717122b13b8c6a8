"""A note's text for reading in the app: its Markdown body with every `[[wikilink]]` turned
into a Markdown link to the note it resolves to (`mindnet-note:` URLs the graph view follows),
so a Markdown renderer shows headings, lists and clickable links instead of raw text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote, unquote

from mindnet_desktop.core.ingest.links import split_target
from mindnet_desktop.core.ingest.markdown import read_markdown
from mindnet_desktop.core.ingest.parse import parse_markdown
from mindnet_desktop.core.service.notes.lookup import FindsNotes, NoteNotFoundError

if TYPE_CHECKING:
    from mindnet_desktop.core.domain import Chunk, Note

SCHEME = "mindnet-note"
INLINE_RELATION = re.compile(r"^rel:(\S+)\s+(.+)$")


class NoteFiles(FindsNotes, Protocol):
    """What a note's text reads of an open vault (`Mindnet`): the folder, the notes and
    their stored chunks."""

    @property
    def vault(self) -> Path: ...

    def note(self, note_id: str) -> Note: ...

    def chunks(self, note_id: str) -> list[Chunk]: ...


def note_url(note_id: str) -> str:
    return f"{SCHEME}:{quote(note_id, safe='')}"


def note_of_url(url: str) -> str | None:
    """The note id of a `note_url`, None for any other URL."""
    prefix = SCHEME + ":"
    return unquote(url[len(prefix) :]) if url.startswith(prefix) else None


def _escape(text: str) -> str:
    return re.sub(r"([\[\]\\*_`])", r"\\\1", text)


def linked_markdown(mn: FindsNotes, note_id: str, body: str) -> str:
    """`body` with wikilinks as Markdown links (unresolved ones as plain text, embeds as
    their name in italics); `[[...]]` in code, comments or after an escape stays as it is."""

    def link(embed: bool, inner: str) -> str:
        relation = INLINE_RELATION.match(inner)
        kind = ""
        if relation:
            kind, inner = relation.group(1) + " ", relation.group(2)
        raw, _, alias = inner.partition("|")
        target, heading = split_target(raw)
        label = alias.strip() or (f"{target} › {heading}" if target and heading else target)
        label = label or heading
        if embed:
            return f"*{_escape(label)}*"
        if not target:  # [[#Heading]]: a place in this note
            return _escape(kind + label)
        try:
            found = mn.find_note_id(target)
        except NoteNotFoundError:
            return _escape(kind + label)
        return f"{_escape(kind)}[{_escape(label)}](<{note_url(found)}>)"

    parts, pos = [], 0
    for wikilink in read_markdown(body).wikilinks:
        parts += [body[pos : wikilink.start], link(wikilink.embed, wikilink.inner)]
        pos = wikilink.end
    return "".join(parts) + body[pos:]


def note_body(mn: NoteFiles, note_id: str) -> str:
    """The note's body: read from the vault when the file is there, else as imported (a
    `.ctxt` file's: its chunks, joined as the importer joins them)."""
    note = mn.note(note_id)
    path = mn.vault / note.path
    if note.format == "markdown" and path.is_file():
        return parse_markdown(note.path, path.read_text(encoding="utf-8"), "").body
    return note.body or "\n\n".join(c.text for c in mn.chunks(note_id))


def note_markdown(mn: NoteFiles, note_id: str) -> str:
    """The note's body (`note_body`) with resolved links."""
    return linked_markdown(mn, note_id, note_body(mn, note_id))


def note_section(body: str, heading: str) -> str | None:
    """The section of `body` under `heading` (case-insensitive, leading `#`s ignored), from
    its heading line to the next heading of the same or a higher level (its subsections
    stay in); the first match when several do; None when no heading matches."""
    found = read_markdown(body).headings  # not a `# comment` in a code block
    wanted = heading.strip().lstrip("#").strip().casefold()
    for i, head in enumerate(found):
        if head.text.casefold() == wanted:
            end = next((h.start for h in found[i + 1 :] if h.level <= head.level), len(body))
            return body[head.start : end].rstrip()
    return None
