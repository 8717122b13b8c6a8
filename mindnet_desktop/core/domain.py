"""Domain dataclasses shared by every stage: note, chunk, edge, import results.

The words follow docs/architecture.md ("The words"). Everything here is plain data (frozen
where it can be), so stages stay small functions that can be tested alone.
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any, Literal, TypeVar

Provenance = Literal["explicit", "rule", "structure", "user"]
NoteFormat = Literal["markdown", "ctxt"]


@dataclass(frozen=True)
class Note:
    """One Markdown or `.ctxt` file, parsed.

    Attributes:
        note_id: Stable id: frontmatter `id`, else the vault-relative path without extension.
        path: Vault-relative POSIX path with extension.
        title: Frontmatter title, else first H1, else file name.
        type: Frontmatter type, lower-cased (`default` when missing or the YAML is broken);
            an unknown type is kept as written and gets the `default` type's settings.
        body: Text without frontmatter (for `.ctxt`: the chunk texts joined by blank lines).
        content_hash: sha256 of the raw file bytes.
        warnings: Problems that did not stop the import (e.g. broken YAML).
        source_meta: Custom header keys of a `.ctxt` file (url, ...).
        property_links: (property name, value) of each frontmatter value that may hold
            links (`related: "[[A]]"`); read when deriving edges, not stored.
    """

    note_id: str
    path: str
    title: str
    type: str
    body: str
    content_hash: str
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    status: str = ""
    format: NoteFormat = "markdown"
    warnings: tuple[str, ...] = ()
    source_meta: dict[str, str] = field(default_factory=dict)
    property_links: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """File name without extension (what `[[Name]]` links match)."""
        base = self.path.rsplit("/", 1)[-1]
        return base.rsplit(".", 1)[0] if "." in base else base


@dataclass(frozen=True)
class Chunk:
    """A window of one note. `chunk_id = "<note_id>#<seq>"`, seq 1..N.

    `start`/`end` are character offsets of the window in `Note.body` (Markdown only);
    `headings` are the headings whose lines lie inside the window.
    """

    note_id: str
    seq: int
    text: str
    heading_path: tuple[str, ...] = ()
    headings: tuple[str, ...] = ()
    meta: dict[str, str] = field(default_factory=dict)
    start: int = 0
    end: int = 0

    @property
    def chunk_id(self) -> str:
        return chunk_id(self.note_id, self.seq)


def chunk_id(note_id: str, seq: int) -> str:
    """Id of chunk `seq` of note `note_id`."""
    return f"{note_id}#{seq}"


def note_id_of_chunk(node_id: str) -> str:
    """The note id part of a chunk id (`a/b#3` -> `a/b`)."""
    head, sep, tail = node_id.rpartition("#")
    return head if sep and tail.isdigit() else node_id


@dataclass(frozen=True)
class Edge:
    """A directed, typed edge.

    `target_ref` is the link as written (without alias), kept so that a later import can
    resolve or unresolve the edge without parsing its note again. `target_id` is the
    resolved note or chunk id, or the link text while unresolved.
    """

    kind: str
    source_id: str
    target_id: str
    target_note_id: str | None
    note_id: str
    provenance: Provenance
    rule_id: str
    confidence: float
    target_ref: str = ""
    scope: str = "chunk"
    deleted: bool = False

    @cached_property
    def id(self) -> str:
        """Stable id; independent of whether the target currently resolves."""
        ref = self.target_ref or self.target_id
        raw = "\x1f".join((self.source_id, ref, self.kind, self.scope, self.rule_id))
        return "e_" + hashlib.sha1(raw.encode("utf-8")).hexdigest()[:16]

    @property
    def dedup_key(self) -> tuple[str, str, str, str, str]:
        return (self.source_id, self.target_id, self.kind, self.scope, self.rule_id)

    @property
    def resolved(self) -> bool:
        return self.target_note_id is not None

    def to_dict(self) -> dict[str, Any]:
        """All fields of an edge (docs/notes.md) plus `target_ref` (the stable CLI/JSON shape)."""
        return {"id": self.id, **{name: getattr(self, name) for name in EDGE_FIELDS}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edge:
        return cls(**{name: data[name] for name in EDGE_FIELDS if name in data})


EDGE_FIELDS = tuple(f.name for f in fields(Edge))


@dataclass(frozen=True)
class FileProblem:
    """A file that could not be (fully) imported, with a message a person can act on."""

    path: str
    message: str
    severity: Literal["error", "warning"] = "error"


@dataclass(frozen=True)
class IndexProgress:
    """Yielded by the importer after each file: `done` of `total`, current `path`."""

    done: int
    total: int
    path: str
    phase: str = "import"


Y = TypeVar("Y")
R = TypeVar("R")


def drain(gen: Generator[Y, None, R], on_item: Callable[[Y], object] | None = None) -> R:
    """Run a progress generator to its end (handing each item to `on_item`); its return
    value."""
    while True:
        try:
            item = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_item is not None:
            on_item(item)


def throttled(
    report: Callable[[IndexProgress], object], interval: float
) -> Callable[[IndexProgress], None]:
    """`report`, called at most every `interval` seconds, but always for a new phase and for
    a phase's last item (each report costs its receiver: a GUI thread, a pipe)."""
    last, phase = 0.0, ""

    def maybe(progress: IndexProgress) -> None:
        nonlocal last, phase
        now = time.monotonic()
        if now - last > interval or progress.phase != phase or progress.done == progress.total:
            last, phase = now, progress.phase
            report(progress)

    return maybe


@dataclass
class ImportSummary:
    """What one import did (the `import --json` schema)."""

    scanned: int = 0
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    deleted: int = 0
    notes: int = 0
    chunks: int = 0
    edges: int = 0
    resolved_edges_updated: int = 0
    reused_vectors: int = 0  # chunks of edited notes whose text was unchanged: not embedded
    embed_workers: int = 0  # embedding processes the import used (0: it embedded in-process)
    errors: list[FileProblem] = field(default_factory=list)
    warnings: list[FileProblem] = field(default_factory=list)
    seconds: float = 0.0
    cancelled: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


KIND_ALIASES = {"relates_to": "related_to"}  # PascalCase `RelatesTo` of the vocabulary


def normalize_kind(kind: str) -> str:
    """`DependsOn` / `depends-on` / `depends_on` -> `depends_on`; `RelatesTo` -> `related_to`."""
    kind = kind.strip().replace("-", "_")
    kind = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", kind).lower()
    return KIND_ALIASES.get(kind, kind)


def name_words(text: str) -> list[str]:
    """The words of a name or question, casefolded, punctuation between words dropped."""
    return re.findall(r"\w[\w.+#/-]*", unicodedata.normalize("NFC", text).casefold())
