"""Snapshots of every note record and of the built graph in the data dir, so that a fresh
process is ready without reading every record from the store or rebuilding the graph.

A snapshot is only a cache: it carries the signature of what it was built from (the bytes
of the manifest, and for the graph also of the edge overlay) and is ignored whenever that
differs; the importer removes the manifest before it writes the store, so a snapshot never
outlives a change of the store. Files are pickles written atomically by this program into
the user's own data dir (trusted like the index itself); a broken one is ignored.
"""

from __future__ import annotations

import gc
import hashlib
import pickle
from pathlib import Path
from typing import Any

from mindnet_desktop.core.files import atomic_writer, file_stamp
from mindnet_desktop.core.gcpause import paused_gc
from mindnet_desktop.core.graph.knowledge_graph import KnowledgeGraph
from mindnet_desktop.core.store.overlay import EdgeOverlay
from mindnet_desktop.core.store.protocol import NoteRecord

SNAPSHOT_SCHEMA = 1
RECORDS_FILE = "records.snapshot"
GRAPH_FILE = "graph.snapshot"


def _digest(*paths: Path) -> str | None:
    """A hash of the files' bytes (None when the first, the manifest, is missing)."""
    sha = hashlib.sha1()
    for i, path in enumerate(paths):
        try:
            sha.update(path.read_bytes())
        except OSError:
            if i == 0:
                return None
        sha.update(b"\0")
    return sha.hexdigest()


class Snapshots:
    """The snapshot files of one data dir (`manifest.json` and `overlay.json` beside them)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.manifest = data_dir / "manifest.json"
        self.overlay = data_dir / "overlay.json"
        # The last digest of each list of files, with the files' stamps then: a 21 MB
        # manifest (50,000 notes) took 20 ms a read, and an import asks up to five times.
        self._digests: dict[tuple[Path, ...], tuple[tuple[Any, ...], str | None]] = {}

    def signatures(self) -> tuple[str | None, str | None]:
        """(records', graph's): taken before the data are read, saved with them. They
        follow the manifest, which the importer checks against the store on every import
        (reading no store here lets a graph query start without opening it)."""
        return self._signature(self.manifest), self._signature(self.manifest, self.overlay)

    def _signature(self, *paths: Path) -> str | None:
        """`_digest(*paths)`, read again only when a file's stamp changed (every file here
        is replaced whole, a new inode, when it is written)."""
        stamps = tuple(file_stamp(path) for path in paths)
        kept = self._digests.get(paths)
        if kept is not None and kept[0] == stamps:
            return kept[1]
        digest = _digest(*paths)
        if stamps == tuple(file_stamp(path) for path in paths):  # none changed while read
            self._digests[paths] = (stamps, digest)
        return digest

    def records_in_step(self, signature: str | None) -> bool:
        """The records snapshot on disk was taken at `signature` (its header alone is read)."""
        if signature is None:
            return False
        try:
            with open(self.data_dir / RECORDS_FILE, "rb") as handle:
                return bool(pickle.load(handle) == (SNAPSHOT_SCHEMA, signature))
        except Exception:  # noqa: BLE001 - missing or broken: not in step
            return False

    def load_records(self, signature: str | None) -> dict[str, NoteRecord] | None:
        data = self._load(RECORDS_FILE, signature)
        return data if isinstance(data, dict) else None

    def load_graph(self, signature: str | None, overlay: EdgeOverlay) -> KnowledgeGraph | None:
        data = self._load(GRAPH_FILE, signature)
        return KnowledgeGraph.from_state(data, overlay) if isinstance(data, tuple) else None

    def save_records(self, records: dict[str, NoteRecord], signature: str | None) -> None:
        self._save(RECORDS_FILE, records, signature)

    def save_graph(self, graph: KnowledgeGraph, signature: str | None) -> None:
        self._save(GRAPH_FILE, graph.state(), signature)

    def _load(self, name: str, signature: str | None) -> Any:
        if signature is None:
            return None
        # Millions of small objects: the cyclic GC would scan them again and again while
        # they are created (measured: 2.7x slower loads), and none of them is garbage.
        with paused_gc():
            try:
                with open(self.data_dir / name, "rb") as handle:
                    header = pickle.load(handle)
                    if header != (SNAPSHOT_SCHEMA, signature):
                        return None  # out of step: the caller rebuilds from the store
                    data = pickle.load(handle)
            except Exception:  # noqa: BLE001 - any broken or foreign file is just no snapshot
                return None
            # Out of the cyclic GC's sight: once it is on again, its next full pass would
            # scan every loaded object in one go with the GIL held (measured at 6,500 notes:
            # a 0.7-1.2 s freeze of the app's window just after the load; frozen, the longest
            # hold is ~40 ms). `Mindnet.close` hands them back (`gc.unfreeze`).
            gc.freeze()
            return data

    def _save(self, name: str, data: Any, signature: str | None) -> None:
        if signature is None:
            return
        try:
            with atomic_writer(self.data_dir / name) as handle:
                pickle.dump((SNAPSHOT_SCHEMA, signature), handle, pickle.HIGHEST_PROTOCOL)
                pickle.dump(data, handle, pickle.HIGHEST_PROTOCOL)
        except OSError:
            pass  # a read-only or full data dir: the next start rebuilds, nothing is lost
