"""Parse a Markdown note: frontmatter, title, tags, aliases, status, id."""

from __future__ import annotations

import re
from typing import Any

import frontmatter
import yaml

from mindnet_desktop.core.domain import Note
from mindnet_desktop.core.ingest.markdown import headings, mask_code

FRONTMATTER_BLOCK = re.compile(
    r"\A---[ \t]*\r?\n(.*?)(?:\r?\n)?^(?:---|\.\.\.)[ \t]*$\r?\n?", re.DOTALL | re.MULTILINE
)
WIKILINK_SPAN = re.compile(r"!?\[\[[^\[\]\n]*\]\]")
NOT_LINK_PROPERTIES = frozenset({"tags", "tag", "aliases", "alias", "cssclasses", "cssclass"})
INLINE_TAG = re.compile(r"(?<![\w/#&\[\]])#([^\s#.,;:!?()\[\]{}\"'`]+)")


def default_note_id(path: str) -> str:
    """The vault-relative path without extension (`Projekte/KI-Projekt Alpha`)."""
    return path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path


def _as_list(value: Any) -> list[str]:
    """Frontmatter lists come as a list, a comma-separated string, or a single scalar."""
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        items = [str(v) for v in value if v is not None]
    else:
        items = str(value).split(",")
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


def _split_frontmatter(text: str, path: str) -> tuple[dict[str, Any], str, str | None]:
    """Metadata, body and the YAML error (None when the frontmatter is fine or absent)."""
    block = FRONTMATTER_BLOCK.match(text)
    try:
        post = frontmatter.loads(text)
    except yaml.YAMLError as exc:
        error = " ".join(str(exc).split())
        body = text[block.end() :] if block else text
        warning = f"{path}: broken YAML frontmatter, imported with type 'default': {error}"
        return {}, body.strip(), warning
    if block and not post.metadata:
        # python-frontmatter silently turns a list or scalar into {}; say so.
        raw = yaml.safe_load(block.group(1))
        if raw is not None and not isinstance(raw, dict):
            return {}, post.content, f"{path}: frontmatter is not a mapping, ignored"
    return dict(post.metadata), post.content, None


def inline_tags(masked_body: str) -> list[str]:
    """`#tags` in text (code already masked); headings (`# X`) and pure numbers are not tags."""
    tags = []
    without_links = WIKILINK_SPAN.sub(lambda m: " " * len(m.group()), masked_body)
    for match in INLINE_TAG.finditer(without_links):
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
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    meta, body, warning = _split_frontmatter(text, path)
    masked = mask_code(body)
    name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    title = str(meta.get("title") or "").strip()
    if not title:
        h1 = next((h.text for h in headings(masked) if h.level == 1), "")
        title = h1 or name
    tags: list[str] = []
    for tag in _as_list(meta.get("tags")) + inline_tags(masked):
        if tag not in tags:
            tags.append(tag)
    raw_id = meta.get("id")
    note_id = str(raw_id).strip() if raw_id not in (None, "") else default_note_id(path)
    raw_type = meta.get("type")
    return Note(
        note_id=note_id,
        path=path,
        title=title,
        type=str(raw_type).strip().lower() if raw_type else "default",
        body=body,
        content_hash=content_hash,
        tags=tuple(tags),
        aliases=tuple(_as_list(meta.get("aliases") or meta.get("alias"))),
        status=str(meta.get("status") or "").strip().lower(),
        warnings=(warning,) if warning else (),
        property_links=property_links(meta),
    )
