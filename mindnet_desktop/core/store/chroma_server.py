"""The index on a Chroma server: `--chroma-url http://host:port` (or `MINDNET_CHROMA_URL`;
`MINDNET_CHROMA_TOKEN`, `MINDNET_CHROMA_TENANT`, `MINDNET_CHROMA_DATABASE` optional) puts the
notes and chunks collections on the server; everything else (graph snapshots, lexical index,
manifest, overlay, logs) stays in the local data dir.

Collections are named after the vault (`mn-<vault name>-<hash of its path>-notes`, or
`MINDNET_CHROMA_COLLECTION` for a team that shares one index), so two vaults never share
collections by accident. Transient failures (connection refused or reset, timeouts, 5xx) are
retried with back-off; Chroma's writes are upserts and deletes by id, so a retried call has
the same effect as one. A call that still fails raises `StoreError`; the importer has removed
the manifest before writing, so the next import finds the store as it is and mends it.

The writer lock is the local data dir's: one writer per data dir. Two machines (two data
dirs) writing the same server collections are not prevented (a documented limit).
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

from mindnet_desktop.core.store.protocol import StoreError

T = TypeVar("T")
RETRIES = 4
BACKOFF_SECONDS = 0.25  # doubled after each failed attempt: 0.25, 0.5, 1, 2
TIMEOUT_SECONDS = 30


@dataclass(frozen=True)
class ChromaServer:
    """Where the server is and how to reach it."""

    url: str
    token: str | None = None
    tenant: str | None = None
    database: str | None = None
    collection: str | None = None  # the collections' name key (default: from the vault)

    @classmethod
    def from_env(cls, url: str | None = None) -> ChromaServer | None:
        """`url` (the CLI's `--chroma-url`) beats `MINDNET_CHROMA_URL`; None: embedded."""
        url = url or os.environ.get("MINDNET_CHROMA_URL")
        if not url:
            return None
        parsed = urlparse(url if "://" in url else f"http://{url}")
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise StoreError(f"--chroma-url must look like http://host:port, not '{url}'")
        return cls(
            parsed.geturl(),
            os.environ.get("MINDNET_CHROMA_TOKEN") or None,
            os.environ.get("MINDNET_CHROMA_TENANT") or None,
            os.environ.get("MINDNET_CHROMA_DATABASE") or None,
            os.environ.get("MINDNET_CHROMA_COLLECTION") or None,
        )

    def prefix(self, vault: Path) -> str:
        """The collections' name prefix for `vault` (Chroma: [a-zA-Z0-9._-], alnum ends)."""
        if self.collection:
            key = re.sub(r"[^A-Za-z0-9._-]+", "-", self.collection).strip("-._")
        else:
            resolved = vault.expanduser().resolve()
            slug = re.sub(r"[^A-Za-z0-9_-]+", "-", resolved.name).strip("-_")[:40] or "vault"
            digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:10]
            key = f"{slug}-{digest}"
        return f"mn-{key}"

    def connect(self) -> Any:
        """A `chromadb.HttpClient` that answered a heartbeat (retried with back-off)."""
        import chromadb
        from chromadb.config import Settings

        parsed = urlparse(self.url)
        ssl = parsed.scheme == "https"
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        extra: dict[str, str] = {}
        if self.tenant:
            extra["tenant"] = self.tenant
        if self.database:
            extra["database"] = self.database

        def open_client() -> Any:
            client = chromadb.HttpClient(
                host=parsed.hostname or "localhost",
                port=parsed.port or (443 if ssl else 8000),
                ssl=ssl,
                headers=headers,
                settings=Settings(anonymized_telemetry=False),
                **extra,
            )
            client.heartbeat()
            return client

        return retrying(open_client, f"Cannot reach the Chroma server at {self.url}")


def transient(exc: BaseException) -> bool:
    """A failure worth another try: the network or an overloaded server, not a bad call."""
    import httpx

    if isinstance(exc, (httpx.TransportError, ConnectionError, TimeoutError)):
        return True
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return isinstance(status, int) and (status >= 500 or status == 429)


def retrying(call: Callable[[], T], what: str, sleep: Callable[[float], None] = time.sleep) -> T:
    """`call()`, tried again after transient failures; StoreError once they persist."""
    delay = BACKOFF_SECONDS
    for attempt in range(RETRIES + 1):
        try:
            return call()
        except Exception as exc:  # chromadb and httpx raise many types
            if not transient(exc) and not _connect_error(exc):
                raise
            if attempt == RETRIES:
                raise StoreError(
                    f"{what}: {exc}. Is the server running (`chroma run --path DIR --port "
                    "PORT`) and reachable? Nothing local was changed; retry when it answers."
                ) from exc
            sleep(delay)
            delay *= 2
    raise AssertionError("unreachable")


def _connect_error(exc: BaseException) -> bool:
    # chromadb wraps a refused connection of its first call in a plain ValueError/Exception.
    text = str(exc).lower()
    return "could not connect" in text or "connection refused" in text


class RetryingCollection:
    """A Chroma collection whose calls are retried (see `retrying`)."""

    def __init__(self, collection: Any, url: str) -> None:
        self._collection = collection
        self._url = url

    @property
    def metadata(self) -> Any:
        return self._collection.metadata

    @property
    def configuration(self) -> Any:
        return self._collection.configuration

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._collection, name)
        if not callable(method):
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            return retrying(
                lambda: method(*args, **kwargs), f"The Chroma server at {self._url} failed"
            )

        return call
