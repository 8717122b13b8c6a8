"""Parse a Markdown note: frontmatter, title, tags, aliases, status, id."""

from __future__ import annotations

import datetime
import re
from typing import Any

import frontmatter
import yaml

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.ingest.markdown import read_markdown

FRONTMATTER_BLOCK = re.compile(
    r"\A---[ \t]*\r?\n(.*?)(?:\r?\n)?^(?:---|\.\.\.)[ \t]*$\r?\n?", re.DOTALL | re.MULTILINE
)
NOT_LINK_PROPERTIES = frozenset({"tags", "tag", "aliases", "alias", "cssclasses", "cssclass"})
INLINE_TAG = re.compile(r"(?<![\w/#&\[\]])#([^\s#.,;:!?()\[\]{}\"'`]+)")


def default_note_id(path: str) -> str:
    """The vault-relative path without extension (`Projekte/KI-Projekt Alpha`)."""
    return path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path


# What a frontmatter field may hold to be read as text. A list or mapping is never turned
# into text with str(): YAML aliases share objects, so a "billion laughs" block of a few
# hundred bytes would expand to gigabytes.
SCALARS = (str, int, float, bool, datetime.date)


def _scalar(value: Any) -> str:
    """The text of a scalar frontmatter value; "" for a list, mapping or null."""
    return str(value).strip() if isinstance(value, SCALARS) else ""


def _as_list(value: Any) -> list[str]:
    """Frontmatter lists come as a list, a comma-separated string, or a single scalar
    (nested lists and mappings inside are skipped)."""
    if isinstance(value, (list, tuple, set)):
        items = [_scalar(v) for v in value]
    else:
        items = _scalar(value).split(",")
    return [item.strip().lstrip("#") for item in items if item.strip().lstrip("#")]


def property_links(meta: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """(property name, text) of each frontmatter string that may hold a link.

    Obsidian writes `related: "[[A]]"` or a list of such strings; an unquoted
    `related: [[A]]` is YAML for a list holding the list `["A"]`, which is read as `[[A]]`
    too, since that is what its author meant.
    """
    found = []
    for name, value in meta.items():
        if not isinstance(name, str) or name.strip().lower() in NOT_LINK_PROPERTIES:
            continue
        for item in value if isinstance(value, list) else [value]:
            while isinstance(item, list) and len(item) == 1:
                item = f"[[{item[0]}]]" if isinstance(item[0], str) else item[0]
            if isinstance(item, str) and "[" in item and ("]]" in item or "](" in item):
                found.append((name.strip(), item))
    return tuple(found)


# What YAML in a frontmatter can raise besides YAMLError: ValueError (an integer of more
# than 4300 digits), RecursionError (deep nesting).
YAML_ERRORS = (yaml.YAMLError, ValueError, RecursionError)


def _split_frontmatter(text: str, path: str) -> tuple[dict[str, Any], str, str | None]:
    """Metadata, body and the YAML error (None when the frontmatter is fine or absent)."""
    block = FRONTMATTER_BLOCK.match(text)
    try:
        # `parse`, not `loads`: a Post takes the metadata as keyword arguments, so a
        # non-string key (`2024: done`, `? x`) raised TypeError out of the import.
        metadata, content = frontmatter.parse(text)
        # python-frontmatter silently turns a list or scalar into {}; say so. (It also does
        # not know the `...` closer, which YAML allows.)
        raw = yaml.safe_load(block.group(1)) if block and not metadata else None
    except YAML_ERRORS as exc:
        error = " ".join(str(exc).split())
        body = text[block.end() :] if block else text
        warning = f"{path}: broken YAML frontmatter, imported with type 'default': {error}"
        return {}, body.strip(), warning
    if raw is not None and not isinstance(raw, dict):
        return {}, content, f"{path}: frontmatter is not a mapping, ignored"
    return dict(metadata), content, None


def inline_tags(body: str) -> list[str]:
    """`#tags` in the body's prose (never in code, links, comments or HTML); headings
    (`# X`) and pure numbers are not tags."""
    tags = []
    for text in read_markdown(body).prose:
        for match in INLINE_TAG.finditer(text):
            tag = match.group(1).rstrip("/-")
            if tag and not tag.isdigit():
                tags.append(tag)
    return tags


def parse_markdown(path: str, text: str, content_hash: str) -> Note:
    """Parse one Markdown file.

    Args:
        path: Vault-relative POSIX path.
        text: The file's text.
        content_hash: sha256 of the raw bytes.

    Returns:
        The note. Broken YAML never fails the note: it is imported from its body with type
        `default` and carries a warning naming the YAML error.
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    meta, body, warning = _split_frontmatter(text, path)
    doc = read_markdown(body)
    name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    title = _scalar(meta.get("title"))
    if not title:
        h1 = next((h.text for h in doc.headings if h.level == 1), "")
        title = h1 or name
    tags: list[str] = []
    for tag in _as_list(meta.get("tags")) + inline_tags(body):
        if tag not in tags:
            tags.append(tag)
    note_id = _scalar(meta.get("id")) or default_note_id(path)
    raw_type = _scalar(meta.get("type"))
    return Note(
        note_id=note_id,
        path=path,
        title=title,
        type=raw_type.lower() or "default",
        body=body,
        content_hash=content_hash,
        tags=tuple(tags),
        aliases=tuple(_as_list(meta.get("aliases") or meta.get("alias"))),
        status=_scalar(meta.get("status")).lower(),
        warnings=(warning,) if warning else (),
        property_links=property_links(meta),
    )
