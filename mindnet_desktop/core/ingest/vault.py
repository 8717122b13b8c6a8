"""Which files of a vault are notes, and their stat (no reading, no parsing)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from mindnet_desktop.core.domain import FileProblem
from mindnet_desktop.core.errors import MindnetError

NOTE_SUFFIXES = (".md", ".ctxt")


def is_note_path(rel: str) -> bool:
    """Markdown and `.ctxt` files outside hidden folders (`.obsidian/`, `.trash/`, ...)."""
    # "/." anywhere in "/" + path: some folder or the file itself starts with a dot.
    return rel.lower().endswith(NOTE_SUFFIXES) and "/." not in f"/{rel}"


class VaultUnavailableError(MindnetError, FileNotFoundError):
    """The vault folder is missing or cannot be read (nothing is deleted then)."""


def scan_vault(
    root: Path,
    unreadable: list[str] | None = None,
    skipped: list[FileProblem] | None = None,
    indexed: int = 0,
) -> dict[str, tuple[int, int]]:
    """Vault-relative POSIX path -> (mtime_ns, size) of every note file.

    Symbolic links are never followed out of the vault: folder links are not entered at all
    (a link back into the vault would list its notes twice, a loop forever), and a file
    link counts only when it points at a file inside the vault; one pointing elsewhere is
    skipped with a warning, so nothing outside the folder the user chose is read or, through
    `edge add`, written.

    Args:
        root: The vault folder.
        unreadable: Receives the vault-relative folders that could not be listed.
        skipped: Receives a warning for each note file left out (a link out of the vault).
        indexed: How many notes the index holds (when the caller would delete the missing
            ones): a vault without a single note file then counts as unavailable, since an
            unmounted drive often leaves its empty mount point folder behind.

    Raises:
        VaultUnavailableError: The vault itself is missing or unreadable, or empty while
            `indexed` notes would be deleted.
    """
    check_vault(root)
    real_root = Path(os.path.realpath(root))
    found: dict[str, tuple[int, int]] = {}
    # os.scandir, not os.walk + os.stat: a directory entry says whether it is a folder or a
    # link without a system call, so a note costs one stat (two before: 20,000 notes took
    # ~0.35 s to scan, most of an edit's import).
    folders = [(str(root), "")]
    while folders:
        folder, base = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            if unreadable is not None:
                unreadable.append(base or ".")
            continue
        for entry in entries:
            rel = f"{base}/{entry.name}" if base else entry.name
            link = entry.is_symlink()
            try:
                is_folder = entry.is_dir()  # follows a link: a link to a folder is no note
            except OSError:
                continue
            if is_folder:
                if not link and not entry.name.startswith("."):  # links are not entered
                    folders.append((entry.path, rel))
                continue
            if not is_note_path(rel):
                continue
            if link and not inside(real_root, entry.path):
                if skipped is not None:
                    reason = "a symbolic link to a file outside the vault; not followed"
                    skipped.append(FileProblem(rel, f"{rel}: {reason}", "warning"))
                continue
            try:
                stat = entry.stat()  # follows a link (inside the vault)
            except OSError:
                continue  # vanished between listing and stat, or a dangling link
            found[rel] = (stat.st_mtime_ns, stat.st_size)
    if indexed and not found and not unreadable:
        raise VaultUnavailableError(
            f"The vault folder {root} holds no notes, but the index has {indexed} "
            "(an unmounted drive?); nothing was changed. If you emptied the vault on purpose, "
            "`mindnet import --rebuild` starts an empty index."
        )
    return found


def check_vault(root: Path) -> None:
    """Raises VaultUnavailableError when the vault folder is missing or unreadable."""
    if not root.is_dir() or not os.access(root, os.R_OK | os.X_OK):
        raise VaultUnavailableError(
            f"The vault folder {root} is missing or unreadable (unmounted?); nothing was changed."
        )


def stat_paths(
    root: Path, rels: Iterable[str], skipped: list[FileProblem] | None = None
) -> dict[str, tuple[int, int]]:
    """`scan_vault` for the given vault-relative POSIX paths only: the (mtime_ns, size) of
    those that are note files now, by the same rules (hidden folders, folder links never
    entered, a file link only to a file inside the vault). A path that is gone, a folder or
    no note is left out.

    Raises:
        VaultUnavailableError: The vault itself is missing or unreadable.
    """
    check_vault(root)
    real_root = Path(os.path.realpath(root))
    found: dict[str, tuple[int, int]] = {}
    for rel in rels:
        if not is_note_path(rel):
            continue
        path = root / rel
        # Under a linked folder (which a scan does not enter), or a path like "a/../b".
        if Path(os.path.realpath(path.parent)) != real_root / PurePosixPath(rel).parent:
            continue
        try:
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                if not inside(real_root, path):
                    if skipped is not None:
                        reason = "a symbolic link to a file outside the vault; not followed"
                        skipped.append(FileProblem(rel, f"{rel}: {reason}", "warning"))
                    continue
                info = os.stat(path)
        except OSError:
            continue  # gone (deleted, moved away), or a dangling link
        if not stat.S_ISDIR(info.st_mode):
            found[rel] = (info.st_mtime_ns, info.st_size)
    return found


def inside(real_root: Path, path: str | Path) -> bool:
    """`path`, with every symbolic link resolved, lies inside `real_root` (itself resolved)."""
    return Path(os.path.realpath(path)).is_relative_to(real_root)
