"""The vaults a `mindnet mcp` server serves. Each is opened once as a reader that writes
nothing (no writer lock, no snapshot saved: `keep_caches=False`) and kept; when `import` or
`watch` changes its index, the next call re-opens it as soon as the snapshots follow the new
manifest, and serves the state read before until they do. `add_edge` opens a writer only
for its one change, so the app or `watch` is never kept from writing for longer."""

from __future__ import annotations

import argparse
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from mindnet_desktop.cli.common import CliError
from mindnet_desktop.core.config.paths import resolve_data_dir, resolve_vault
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.service.vault.embedder_choice import resolve_embedder
from mindnet_desktop.core.service.vault.freshness import IndexStatus, changed_files, index_status
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.lock import DataDirLockedError

log = logging.getLogger("mindnet.mcp")


class IndexNotReadyError(MindnetError):
    """The vault has no index a reader can serve yet; the message names the fix."""


@dataclass(frozen=True)
class VaultOptions:
    """What every vault of the server is opened with (the global options)."""

    config: str | None
    embedder: str | None
    chroma_url: str | None
    read_only_vault: bool


@dataclass
class ServedVault:
    """One vault: opened as a reader on first use, re-opened when its index changed.

    Args:
        name: How tools and `note://` URIs name it.
        path: The vault folder.
        data_dir: Its data dir.
        options: The server's options.
        embedder: Its embedder (shared by vaults that use the same model).
    """

    name: str
    path: Path
    data_dir: Path
    options: VaultOptions
    embedder: Embedder
    _reader: Mindnet | None = field(default=None, repr=False)
    _signatures: tuple[str | None, str | None] | None = None
    stale: bool = False  # the index changed; the state read before is served until in step

    def fix(self) -> str:
        """The command that brings the index in step."""
        return f"mindnet --vault '{self.path}' --data-dir '{self.data_dir}' import"

    def status(self) -> IndexStatus:
        return index_status(self.data_dir, self.embedder.name)

    def reader(self) -> Mindnet:
        """The open reader, re-opened first when the index changed and the snapshots follow.

        Raises:
            IndexNotReadyError: No index yet (or one being written) and none read before.
        """
        if not self.path.is_dir():
            raise IndexNotReadyError(f"The vault folder {self.path} does not exist (any more).")
        status = self.status()
        if self._reader is not None and status.signatures == self._signatures:
            return self._reader
        if status.state == "ready" or (self._reader is None and status.state == "stale"):
            # A stale index with nothing read before: served from the store (nothing saved).
            self.close()
            self._reader = self._open(status)
            self.stale = status.state == "stale"
            return self._reader
        if self._reader is not None:  # changed, but the snapshots do not follow yet
            self.stale = True
            return self._reader
        if status.state == "writing":
            raise IndexNotReadyError(
                f"The index of vault '{self.name}' is being written (an import is running, or "
                f"one was interrupted): wait for it, or run `{self.fix()}`."
            )
        raise IndexNotReadyError(
            f"Vault '{self.name}' has no index yet: run `{self.fix()}` (or start the server "
            "with --import)."
        )

    def _open(self, status: IndexStatus) -> Mindnet:
        mn = Mindnet(
            self.path,
            self.data_dir,
            self.options.config,
            self.embedder,
            write=False,
            read_only_vault=self.options.read_only_vault,
            chroma_url=self.options.chroma_url,
            lazy_store=True,
            keep_caches=False,
        )
        try:
            # Read now, at the signature just seen: what later calls read stays one state.
            _ = mn.records, mn.graph
        except BaseException:
            mn.close()
            raise
        self._signatures = status.signatures
        log.info("vault %s: read %d notes from %s", self.name, len(mn.records), self.data_dir)
        return mn

    def summary(self) -> dict[str, object]:
        """`list_vaults`'s entry: name, folder, notes, the index's state and its fix."""
        entry: dict[str, object] = {"vault": self.name, "path": str(self.path)}
        try:
            mn = self.reader()
        except MindnetError as exc:
            return {**entry, "state": self.status().state, "message": str(exc)}
        entry["notes"] = len(mn.records)
        try:
            behind = changed_files(self.path, mn.records)
        except MindnetError as exc:  # the folder went away since it was read
            return {**entry, "state": "stale", "message": str(exc)}
        entry["state"] = "stale" if self.stale or behind else "ready"
        if self.stale:
            entry["message"] = f"the index changed and is being saved; or run `{self.fix()}`"
        elif behind:
            entry["message"] = (
                f"{behind} note file(s) changed since the last import: run `{self.fix()}` "
                "or keep `mindnet watch` running"
            )
        return entry

    @contextmanager
    def writer(self) -> Iterator[Mindnet]:
        """The vault opened for writing for one change; the reader re-opens after it.

        Raises:
            DataDirLockedError: The app or `watch` has it open for writing.
        """
        try:
            mn = Mindnet(
                self.path,
                self.data_dir,
                self.options.config,
                self.embedder,
                write=True,
                read_only_vault=self.options.read_only_vault,
                chroma_url=self.options.chroma_url,
            )
        except DataDirLockedError as exc:
            raise DataDirLockedError(
                f"{exc} While the app or `mindnet watch` writes this vault's index, create "
                "the edge there."
            ) from None
        mn.chunk_snapshot = True  # saved at close with the snapshots: the reader follows
        with mn:
            yield mn

    def close(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()


def vault_names(paths: list[Path]) -> list[str]:
    """Each folder's name, made unique with a number where two are alike."""
    names: list[str] = []
    for path in paths:
        name, n = path.name or "vault", 1
        while name in names:
            n += 1
            name = f"{path.name}-{n}"
        names.append(name)
    return names


def served_vaults(args: argparse.Namespace) -> list[ServedVault]:
    """The vaults of `--vault` (repeatable; else MINDNET_VAULT), each with its data dir
    (`--data-dir` once per vault, in order; else each its default)."""
    given = list(getattr(args, "vaults", None) or [])
    if args.vault:  # `mindnet --vault A mcp`
        given.insert(0, args.vault)
    if not given:
        one = resolve_vault(None)
        given = [str(one)] if one else []
    if not given:
        raise CliError("no vault given: pass --vault PATH (repeatable) or set MINDNET_VAULT")
    paths = [Path(v).expanduser().resolve() for v in given]
    dirs = list(getattr(args, "data_dirs", None) or [])
    if args.data_dir:
        dirs.insert(0, args.data_dir)
    if len(paths) > 1 and not dirs and os.environ.get("MINDNET_DATA_DIR"):
        raise CliError(
            "MINDNET_DATA_DIR names one vault's index: with several vaults give --data-dir "
            "once per --vault (in the same order), or unset it"
        )
    if dirs and len(dirs) != len(paths):
        raise CliError(f"give --data-dir once per --vault ({len(paths)}), or not at all")
    options = VaultOptions(
        args.config, args.embedder, getattr(args, "chroma_url", None), args.read_only_vault
    )
    embedders: dict[str, Embedder] = {}
    served = []
    for i, (name, path) in enumerate(zip(vault_names(paths), paths, strict=True)):
        data_dir = resolve_data_dir(dirs[i] if dirs else None, path)
        embedder = resolve_embedder(args.embedder, path, data_dir)
        embedder = embedders.setdefault(embedder.name, embedder)  # one model in memory
        served.append(ServedVault(name, path, data_dir, options, embedder))
    return served


def import_first(vault: ServedVault) -> None:
    """`--import`: bring the vault's index in step before serving it; skipped, with a
    warning, when the app or `watch` writes it (they keep it in step)."""
    from mindnet_desktop.cli.vault import import_for_readers

    if not vault.path.is_dir():
        log.warning("vault %s: the folder %s does not exist; not imported", vault.name, vault.path)
        return
    try:
        with vault.writer() as mn:
            summary = import_for_readers(mn, ImportOptions(sync_deletes=True), show=False)
    except DataDirLockedError:
        log.warning("vault %s: another Mindnet process writes its index; not imported", vault.name)
        return
    except (MindnetError, OSError) as exc:  # served as it is; its calls say what is wrong
        log.error("vault %s: the import failed: %s", vault.name, exc)
        return
    log.info(
        "vault %s: imported in %.1f s: %d notes (%d added, %d changed, %d deleted)",
        vault.name,
        summary.seconds,
        summary.notes,
        summary.added,
        summary.changed,
        summary.deleted,
    )


class VaultSet:
    """The server's vaults by name, and the one lock its calls take (the core service is
    not thread-safe; the SDK runs each call of a plain function on a worker thread)."""

    def __init__(self, vaults: list[ServedVault]) -> None:
        self.vaults = {v.name: v for v in vaults}
        self.lock = threading.Lock()

    def get(self, name: str | None) -> ServedVault:
        """The vault named `name`; with one vault, `name` may be left out."""
        if name is None and len(self.vaults) == 1:
            return next(iter(self.vaults.values()))
        if name in self.vaults:
            return self.vaults[name]
        names = ", ".join(self.vaults)
        if name is None:
            raise CliError(f"name the vault: one of {names}")
        raise CliError(f"unknown vault '{name}': one of {names}")

    def close(self) -> None:
        for vault in self.vaults.values():
            vault.close()
