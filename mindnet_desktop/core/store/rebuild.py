"""Moving a broken index aside so that an import can build it anew (`import --rebuild`).

Only what is derived from the vault moves (Chroma, the lexical index, the manifest); what the
user made (edge overlay, audit log, query and feedback logs, config) stays in place. Nothing
is deleted: the broken files are kept in a `broken-<time>` folder for inspection.
"""

from __future__ import annotations

import time
from pathlib import Path

INDEX_PARTS = ("chroma", "lexical", "manifest.json")
REBUILD_HINT = (
    "Run `mindnet import --rebuild` to move the broken index aside and build it again from "
    "the vault (the vault, your edges and the logs are kept)."
)


def move_index_aside(data_dir: Path) -> Path | None:
    """Move the index files of `data_dir` into a new `broken-<time>` folder in it.

    The caller holds the data dir's writer lock.

    Returns:
        The folder they went to, or None when there was no index.
    """
    present = [data_dir / name for name in INDEX_PARTS if (data_dir / name).exists()]
    if not present:
        return None
    target = data_dir / time.strftime("broken-%Y%m%d-%H%M%S")
    suffix = 0
    while target.exists():
        suffix += 1
        target = target.with_name(f"{target.name.split('.')[0]}.{suffix}")
    target.mkdir()
    for path in present:
        path.rename(target / path.name)
    return target
