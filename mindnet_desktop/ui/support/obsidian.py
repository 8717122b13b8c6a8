"""Links that open a note in Obsidian."""

from __future__ import annotations

from urllib.parse import quote


def obsidian_url(vault_name: str, path: str) -> str:
    """`obsidian://open?vault=…&file=…` for a note's vault-relative path (`.md` dropped)."""
    file = path[:-3] if path.lower().endswith(".md") else path
    return f"obsidian://open?vault={quote(vault_name, safe='')}&file={quote(file, safe='')}"
