"""Find links in a note body and resolve link targets the way Obsidian does."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from mindnet_desktop.core.domain import KIND_ALIASES, normalize_kind  # noqa: F401 - re-exported
from mindnet_desktop.core.ingest.markdown import read_markdown
from mindnet_desktop.core.ingest.mdlinks import extract_md_links

LinkRule = Literal["inline", "callout", "wikilink", "mdlink", "property"]
REL = re.compile(r"^rel:([A-Za-z][\w-]*)\s+(.+)$", re.DOTALL)
NOTE_EXTENSIONS = (".md", ".ctxt")


@dataclass(frozen=True)
class Link:
    """One link as written: `target` without alias or heading, `heading` after `#`."""

    rule: LinkRule
    kind: str
    target: str
    heading: str
    offset: int

    @property
    def ref(self) -> str:
        """The link target as stored on the edge (`Target` or `Target#Heading`)."""
        return f"{self.target}#{self.heading}" if self.heading else self.target


def split_target(raw: str) -> tuple[str, str]:
    """`Note#Heading|alias` -> (`Note`, `Heading`); `Note#^block` -> (`Note`, `^block`).

    In a table the alias bar is escaped (`[[Note\\|alias]]`); the backslash is not the
    target's.
    """
    target = raw.split("|", 1)[0].strip().removesuffix("\\")
    target, _, heading = target.partition("#")
    heading = heading.strip()
    if not heading.startswith("^"):
        heading = heading.split("^", 1)[0].strip()
    return target.strip(), heading


def extract_links(body: str, source_path: str = "") -> list[Link]:
    """All references in `body`, in document order, as the Markdown reader finds them
    (never in code, escapes, HTML or `%%comments%%`; embeds skipped).

    Inline `[[rel:kind T]]` and links in a `> [!edge]` callout line that names a kind carry
    their written kind; every other wikilink and every Markdown link to a note
    (`[text](Note.md)`, `[text][label]`) is `references`.

    Args:
        body: The note body (or a `.ctxt` chunk's text).
        source_path: Vault path of the note, to make relative Markdown links vault paths.
    """
    links = []
    for wikilink in read_markdown(body).wikilinks:
        if wikilink.embed:
            continue
        inner, offset = wikilink.inner, wikilink.start
        rel = REL.match(inner.strip())
        if rel:
            target, heading = split_target(rel.group(2))
            links.append(Link("inline", normalize_kind(rel.group(1)), target, heading, offset))
            continue
        target, heading = split_target(inner)
        if not target and not heading:
            continue
        if wikilink.callout == "edge" and wikilink.callout_kind:
            kind = normalize_kind(wikilink.callout_kind)
            links.append(Link("callout", kind, target, heading, offset))
        else:
            links.append(Link("wikilink", "references", target, heading, offset))
    for md in extract_md_links(body, source_path):
        links.append(Link("mdlink", "references", md.target, md.heading, md.offset))
    return sorted(links, key=lambda link: link.offset)


def slug(heading: str) -> str:
    """The anchor GitHub and mdBook give a heading: lower case, words joined by `-`."""
    kept = "".join(c for c in heading.lower() if c.isalnum() or c in " -_")
    return "-".join(kept.split()) if kept.strip() else ""


def block_ids(text: str) -> list[str]:
    """Block ids (`^id` closing a paragraph, list item or heading) in `text`, as `^id`."""
    if "^" not in text:
        return []
    return ["^" + block for block, _ in read_markdown(text).block_ids]


def _norm(text: str) -> str:
    # NFC: file names synced from macOS are often decomposed (NFD), typed links are not.
    text = unicodedata.normalize("NFC", text).strip().replace("\\", "/").strip("/")
    for ext in NOTE_EXTENSIONS:
        if text.lower().endswith(ext):
            text = text[: -len(ext)]
    return text.casefold()


class NoteKey(NamedTuple):
    """What the resolver needs to know of a note (a named tuple: an edit's import compares
    every note's key twice, and a dataclass's `__eq__` in Python cost ~0.14 s of it at
    50,000 notes; a tuple's is C)."""

    note_id: str
    path: str
    aliases: tuple[str, ...] = ()
    headings: tuple[tuple[str, int], ...] = ()  # (heading text or `^block-id`, chunk seq)


class Resolver:
    """Resolves link targets to note ids like Obsidian: path, file name, alias.

    Ambiguous names prefer a note in the linking note's folder, then the shortest path.
    """

    def __init__(self, notes: Iterable[NoteKey]) -> None:
        self._notes: dict[str, NoteKey] = {}
        self._by_path: dict[str, str] = {}
        self._by_name: dict[str, list[str]] = defaultdict(list)
        self._by_alias: dict[str, list[str]] = defaultdict(list)
        for key in notes:
            self._notes[key.note_id] = key
            stem = _norm(key.path)
            self._by_path[stem] = key.note_id
            self._by_name[stem.rsplit("/", 1)[-1]].append(key.note_id)
            for alias in key.aliases:
                self._by_alias[_norm(alias)].append(key.note_id)
        self._by_suffix: dict[str, list[str]] | None = None  # built when first needed

    def __contains__(self, note_id: str) -> bool:
        return note_id in self._notes

    def _ends(self) -> dict[str, list[str]]:
        """Note ids by every shorter end of their path (`b/c` of `a/b/c`): a link by a partial
        path looked through every path of the vault, once per link (n² for a vault of them)."""
        if self._by_suffix is None:
            self._by_suffix = defaultdict(list)
            for stem, note_id in self._by_path.items():
                parts = stem.split("/")
                for i in range(1, len(parts)):
                    self._by_suffix["/".join(parts[i:])].append(note_id)
        return self._by_suffix

    def _pick(self, candidates: list[str], source_path: str) -> str | None:
        if not candidates:
            return None
        folder = source_path.rsplit("/", 1)[0] if "/" in source_path else ""

        def rank(note_id: str) -> tuple[int, int, str]:
            path = self._notes[note_id].path
            same = (path.rsplit("/", 1)[0] if "/" in path else "") == folder
            return (0 if same else 1, path.count("/"), path)

        return min(candidates, key=rank)

    def resolve_note(self, target: str, source_path: str = "") -> str | None:
        """The note id `target` points to, or None.

        A path is tried as a vault path, then relative to the linking note's folder (how
        Markdown links are written with Obsidian's "relative path" setting), then as the
        end of a longer path; a bare name by file name, then alias.
        """
        norm = _norm(target)
        if not norm:
            return None
        if "/" in norm:
            if norm in self._by_path:
                return self._by_path[norm]
            folder = _norm(source_path.rsplit("/", 1)[0]) if "/" in source_path else ""
            if folder and f"{folder}/{norm}" in self._by_path:
                return self._by_path[f"{folder}/{norm}"]
            return self._pick(self._ends().get(norm, []), source_path)
        # A bare name: the linking note's folder first, then the shortest path.
        return self._pick(self._by_name.get(norm, []), source_path) or self._pick(
            self._by_alias.get(norm, []), source_path
        )

    def resolve(self, ref: str, source_note_id: str) -> tuple[str | None, str]:
        """Resolve an edge's `target_ref` from note `source_note_id`.

        Returns:
            (target_note_id or None, target_id): the note id, the chunk holding `#Heading`,
            or the link text itself when nothing matches.
        """
        target, _, heading = ref.partition("#")
        source = self._notes.get(source_note_id)
        note_id = (
            source_note_id
            if not target and source
            else self.resolve_note(target, source.path if source else "")
        )
        if note_id is None:
            return None, ref
        if heading:
            seq = self._chunk_of(note_id, heading)
            if seq is not None:
                return note_id, f"{note_id}#{seq}"
        return note_id, note_id

    def _chunk_of(self, note_id: str, heading: str) -> int | None:
        """The chunk holding `heading` (its text, else its URL slug) or block `^id`."""
        known = self._notes[note_id].headings
        wanted = heading.casefold()
        for text, seq in known:
            if text.casefold() == wanted:
                return seq
        if wanted.startswith("^"):
            return None
        # Exported docs and mdBook link to slugs: `#defining-an-enum` for "Defining an Enum".
        wanted = slug(heading)
        if not wanted:
            return None
        return next((seq for text, seq in known if slug(text) == wanted), None)


class ResolverCache:
    """The last resolver built, used again while the notes' keys stay the same: an edit of a
    note's body changes none (building one took ~0.2 s of every edit at 20,000 notes)."""

    def __init__(self) -> None:
        self._keys: frozenset[NoteKey] | None = None
        self._resolver: Resolver | None = None
        # Note id -> the manifest entry the resolver was last settled with (see `settle`).
        self._entries: dict[str, object] | None = None

    def get(self, keys: list[NoteKey]) -> Resolver:
        frozen = frozenset(keys)
        if self._resolver is None or frozen != self._keys:
            self._keys, self._resolver = frozen, Resolver(keys)
            self._entries = None
        return self._resolver

    def settle(self, entries: Mapping[str, object], resolver: Resolver) -> None:
        """`resolver` resolves against exactly the notes of `entries` (note id -> manifest
        entry, as an import left them): the next import that starts from these very entry
        objects may use it without comparing every note's key."""
        if resolver is self._resolver:
            self._entries = dict(entries)

    def settled(self, entries: Mapping[str, object]) -> Resolver | None:
        """The resolver last settled with `entries` (the same objects, by identity: ~5 ms
        at 50,000 notes, against ~0.2 s for comparing their keys); None otherwise."""
        kept = self._entries
        if self._resolver is None or kept is None or len(kept) != len(entries):
            return None
        if any(kept.get(note_id) is not entry for note_id, entry in entries.items()):
            return None
        return self._resolver
