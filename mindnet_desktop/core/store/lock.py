"""One writer per data dir: an exclusive, non-blocking file lock (readers do not lock)."""

from __future__ import annotations

import os
from pathlib import Path

from mindnet_desktop.core.errors import MindnetError


class DataDirLockedError(MindnetError, RuntimeError):
    """Another process has the data dir open for writing."""


class WriterLock:
    """Held while a process may write to the data dir; released on `release()` or exit."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "writer.lock"
        self._fd: int | None = None
        self._shared = False  # inherited from the process that locked it (`inherited`)

    @classmethod
    def inherited(cls, data_dir: Path, fd: int) -> WriterLock:
        """The lock a parent process holds, passed down as the open file `fd` (a child that
        writes for its parent, see `import_child`): held at once; `release` only closes the
        file, so the parent keeps its lock."""
        lock = cls(data_dir)
        mine, given = os.stat(lock.path), os.fstat(fd)
        if (mine.st_dev, mine.st_ino) != (given.st_dev, given.st_ino):
            raise DataDirLockedError(f"The lock handed down is not the one of {data_dir}.")
        lock._fd, lock._shared = fd, True
        return lock

    @property
    def held(self) -> bool:
        return self._fd is not None

    @property
    def fileno(self) -> int | None:
        """The locked file (to hand down to a child process), None when not held."""
        return self._fd

    def acquire(self) -> None:
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 64).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DataDirLockedError(
                f"The data dir {self.path.parent} is already open for writing by another "
                f"Mindnet process (pid {holder}). Close it (or stop `mindnet watch`) and retry."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            import fcntl

            if not self._shared:  # unlocking a shared file would unlock it for the parent
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
