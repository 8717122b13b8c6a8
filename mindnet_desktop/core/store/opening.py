"""A store opened on a thread of its own, while the caller goes on (the app's start: a
search is answered from the chunk snapshot while Chroma opens, see `Mindnet`).

Opening the embedded Chroma store costs ~0.8 s of CPU at 6,500 notes (chromadb's import, its
first look at each collection, the lexical index's check), nearly all of it with the GIL held.
The opening starts when asked (`start`): the app first checks the vault, a scan that makes
one system call per file and would wait for the GIL after each one beside the opening.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


class StoreOpening:
    """`open_store()`, run on a thread of its own once started.

    Args:
        open_store: Opens the store (any exception it raises is raised by `result`).
    """

    def __init__(self, open_store: Callable[[], Any]) -> None:
        self._open_store = open_store
        self._future: Future[Any] = Future()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start opening the store (nothing when it has started)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="mindnet-store-open", daemon=True
                )
                self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread is not None

    def _run(self) -> None:
        try:
            store = self._open_store()
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
            self._future.set_exception(exc)
        else:
            self._future.set_result(store)

    def done(self) -> bool:
        return self._future.done()

    def result(self) -> Any:
        """The store, once open (starts the opening if need be and waits); raises what
        opening it raised."""
        self.start()
        try:
            return self._future.result()
        finally:
            self._join()

    def _join(self) -> None:
        # Not from a `when_done` callback, which runs on the opening thread itself.
        thread = self._thread
        if thread is not None and threading.current_thread() is not thread:
            thread.join()

    def when_done(self, fn: Callable[[], None]) -> None:
        """Call `fn()` once the opening ended, opened or failed (at once if it has; else on
        the opening thread)."""
        self._future.add_done_callback(lambda _future: fn())

    def close(self) -> None:
        """Wait for an opening that started and close the store it opened (nobody took it)."""
        if self._thread is None:
            return
        self._join()
        if self._future.exception() is None:
            self._future.result().close()
