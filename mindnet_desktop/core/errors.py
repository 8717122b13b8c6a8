"""One base for every error a user can act on.

Each layer raises its own subclass (`ConfigError`, `StoreError`, `ModelError`, ...), each with
a message written for the user; the CLI prints it as one line and the window shows it in its
error display. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class MindnetError(Exception):
    """A problem the user can fix (bad input, a missing model, a locked data dir, ...)."""


# Problems of the machine rather than of Mindnet (a missing file, no permission, a full
# disk) are also the user's to fix: their message is shown as it is.
USER_FIXABLE: tuple[type[BaseException], ...] = (MindnetError, OSError)


def user_message(exc: BaseException) -> str | None:
    """The message for an error a user can act on; None for a bug."""
    return str(exc) if isinstance(exc, USER_FIXABLE) and str(exc) else None
