"""A guard against a reference-count bug of PySide6 6.12.0 on Python 3.11.

There, Qt methods that return nothing (`setPos`, `setPen`, `QLabel.setText`, ...) hand back
`None` without taking a reference to it, so each call lowers None's reference count by one.
On Python 3.12+ None is immortal and nothing happens; on 3.11 the count reaches zero after a
few thousand calls and the interpreter aborts ("none_dealloc: deallocating None"). Drawing a
graph of thousands of nodes makes tens of thousands of such calls.

`keep_none_alive(reserve)` lends None `reserve` references before a block of GUI code (so the
count cannot reach zero inside it), measures how many the block lost, and takes back only the
unused part of the loan (less a small margin, since other threads move the count too). With
a fixed PySide6, or on Python 3.12+, nothing is lost and nothing changes.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
MARGIN = 8
DEFAULT_RESERVE = 5000
_AFFECTED = sys.version_info < (3, 12)
# ob_refcnt is the first field of every object (CPython 3.11 layout).
_refcnt = ctypes.c_ssize_t.from_address(id(None))


@contextmanager
def keep_none_alive(reserve: int = DEFAULT_RESERVE) -> Iterator[None]:
    """Give None back the references the Qt calls inside the block took from it.

    Args:
        reserve: More than the number of Qt calls the block makes.
    """
    if not _AFFECTED:
        yield
        return
    _refcnt.value += reserve
    before = sys.getrefcount(None)
    try:
        yield
    finally:
        lost = max(before - sys.getrefcount(None), 0)
        refund = reserve - lost - MARGIN
        if refund > 0:
            _refcnt.value -= refund


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorator form of `keep_none_alive` for slots and event handlers."""

    @wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        with keep_none_alive():
            return fn(*args, **kwargs)

    return call
