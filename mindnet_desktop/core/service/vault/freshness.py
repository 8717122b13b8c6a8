"""Whether a vault's index is there and in step, for a long-lived reader that writes nothing
(`mindnet mcp`): a reader is served from the records and chunk snapshots that `import` and
`watch` leave beside the manifest, and re-opens when the manifest changes and they follow.

The manifest is removed while an import writes the store and saved when it is done, and the
snapshots carry the signature of the manifest they were taken from (`graph/snapshot.py`,
`store/chunk_snapshot.py`); `watch` saves them once the vault has been quiet for a while, so
for a few seconds after an import a reader finds them out of step ("stale")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mindnet_desktop.core.graph.snapshot import Snapshots
from mindnet_desktop.core.ingest.vault import scan_vault
from mindnet_desktop.core.store.chunk_snapshot import in_step
from mindnet_desktop.core.store.protocol import NoteRecord

IndexState = Literal["ready", "stale", "writing", "missing"]


@dataclass(frozen=True)
class IndexStatus:
    """What a reader finds in a data dir.

    Attributes:
        state: `ready` (manifest, records and chunk snapshots in step), `stale` (an index,
            but the snapshots do not follow its manifest yet), `writing` (a store but no
            manifest: an import is running, or one was interrupted), `missing` (no index).
        signatures: The manifest's signatures (records', graph's) when it was looked at.
    """

    state: IndexState
    signatures: tuple[str | None, str | None]


def index_status(data_dir: Path, embedder: str) -> IndexStatus:
    """The state of the index in `data_dir` for a reader with the embedder named `embedder`."""
    snapshots = Snapshots(data_dir)
    signatures = snapshots.signatures()
    if signatures[0] is None:
        state: IndexState = "writing" if (data_dir / "chroma").is_dir() else "missing"
        return IndexStatus(state, signatures)
    ready = snapshots.records_in_step(signatures[0]) and in_step(data_dir, signatures[0], embedder)
    return IndexStatus("ready" if ready else "stale", signatures)


def changed_files(vault: Path, records: Mapping[str, NoteRecord]) -> int:
    """How many note files were added, changed (size or mtime) or removed since the import
    that wrote `records` (one scan of the vault, nothing read)."""
    on_disk = scan_vault(vault)
    known = {r.note.path: (r.mtime_ns, r.size) for r in records.values()}
    changed = sum(1 for path, stamp in on_disk.items() if known.get(path) != stamp)
    return changed + sum(1 for path in known if path not in on_disk)
