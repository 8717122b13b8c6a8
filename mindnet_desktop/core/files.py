"""Atomic file writes: readers see the old file or the new one, never half of either; and
the stamp by which a reader that kept a file's contents tells it was written since."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def atomic_writer(
    path: Path, text: bool = False, preserve_mode: bool = False, temp: Path | None = None
) -> Iterator[IO[Any]]:
    """A handle on a hidden temp file beside `path`; when the block ends without an error
    the file is flushed to disk and renamed over `path`, otherwise it is removed and `path`
    is untouched.

    Args:
        path: The file to replace (its folder is created if needed).
        text: Open in text mode (UTF-8) instead of binary.
        preserve_mode: Give the new file the permission bits of the one it replaces.
        temp: The temp file's path, beside `path` (created, must not exist; default: a
            fresh `.<name>.<random>.tmp`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if preserve_mode and path.exists() else None
    if temp is None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    else:
        fd, tmp = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), str(temp)
    os.close(fd)  # reopened by name, so `handle.name` is the temp file's path
    try:
        with open(tmp, "w" if text else "wb", encoding="utf-8" if text else None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_atomic(
    path: Path, data: bytes | str, preserve_mode: bool = False, temp: Path | None = None
) -> None:
    """Replace `path` with `data` atomically (see `atomic_writer`)."""
    with atomic_writer(path, isinstance(data, str), preserve_mode, temp) as handle:
        handle.write(data)


def file_stamp(path: Path) -> tuple[int, int, int, int] | None:
    """What changes when a file is written in place or replaced (an atomic write is a new
    inode): inode, modification and change times, size; None when it is missing."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns, info.st_ctime_ns, info.st_size
