"""Which files of a vault are notes, and their stat (no reading, no parsing)."""

from __future__ import annotations

import os
from pathlib import Path

from mindnet_desktop.core.errors import MindnetError

NOTE_SUFFIXES = (".md", ".ctxt")


def is_note_path(rel: str) -> bool:
    """Markdown and `.ctxt` files outside hidden folders (`.obsidian/`, `.trash/`, ...)."""
    parts = rel.split("/")
    return not any(part.startswith(".") for part in parts) and rel.lower().endswith(NOTE_SUFFIXES)


class VaultUnavailableError(MindnetError, FileNotFoundError):
    """The vault folder is missing or cannot be read (nothing is deleted then)."""


def scan_vault(root: Path, unreadable: list[str] | None = None) -> dict[str, tuple[int, int]]:
    """Vault-relative POSIX path -> (mtime_ns, size) of every note file.

    Args:
        root: The vault folder.
        unreadable: Receives the vault-relative folders that could not be listed.

    Raises:
        VaultUnavailableError: The vault itself is missing or unreadable.
    """
    if not root.is_dir() or not os.access(root, os.R_OK | os.X_OK):
        raise VaultUnavailableError(
            f"The vault folder {root} is missing or unreadable (unmounted?); nothing was changed."
        )

    def failed(error: OSError) -> None:
        if unreadable is not None and error.filename:
            unreadable.append(Path(error.filename).relative_to(root).as_posix())

    found: dict[str, tuple[int, int]] = {}
    for folder, dirs, files in os.walk(root, onerror=failed):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        base = Path(folder).relative_to(root).as_posix()
        for name in files:
            rel = name if base == "." else f"{base}/{name}"
            if is_note_path(rel):
                try:
                    stat = os.stat(os.path.join(folder, name))
                except OSError:
                    continue  # vanished between listing and stat
                found[rel] = (stat.st_mtime_ns, stat.st_size)
    return found
