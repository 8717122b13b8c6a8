"""A second index of the vault, built with another embedder, for `mindnet probe
--against-embedder` to score side by side with the vault's own (`quality/score.py`, `compare`)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from mindnet_desktop.core.domain import IndexProgress
from mindnet_desktop.core.ingest.importer import ImportOptions
from mindnet_desktop.core.service.quality.probes import INDEX_PREFIX
from mindnet_desktop.core.service.quality.score import ProbeError
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.core.store.chroma_server import ChromaServer

if TYPE_CHECKING:
    from mindnet_desktop.core.models.embedders import Embedder


def open_comparison_index(
    mn: Mindnet,
    embedder: Embedder,
    chroma_url: str | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Generator[IndexProgress, None, Mindnet]:
    """The vault indexed with another `embedder`, in `<data dir>/probe-<name>`: imported
    (the first time the whole vault is embedded, later only what changed), with the same
    config and the same ratings as `mn`. The caller closes it."""
    if embedder.name == mn.embedder.name:
        raise ProbeError(f"the index already uses the embedder {embedder.name}")
    if ChromaServer.from_env(chroma_url) is not None:
        raise ProbeError(
            "a comparison with another embedder keeps its index in the data dir, not on a "
            "Chroma server: run it without --chroma-url / MINDNET_CHROMA_URL"
        )
    other = Mindnet(
        mn.vault, mn.data_dir / f"{INDEX_PREFIX}{embedder.name}", mn.config_lookup, embedder, True
    )
    try:
        other.query_log = mn.query_log  # the user's ratings count there too
        yield from other.import_vault(ImportOptions(sync_deletes=True), cancel)
    except BaseException:
        other.close()
        raise
    return other
