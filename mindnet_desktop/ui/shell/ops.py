"""What the main window runs in the background: opening the vault's service (the data dir's
writer, on the host's thread), a reader for the ratings' learning, and the retriever
weights."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mindnet_desktop.core.config.paths import resolve_data_dir
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.service.vault.embedder_choice import embedder_name
from mindnet_desktop.core.service.vault.mindnet import Mindnet
from mindnet_desktop.ui.support.workers import Job


def settings_embedder(
    factory: Callable[[str, int], Embedder],
    name: str,
    threads: int,
    vault: Path,
    data_dir: Path | None,
    fresh: bool = False,
) -> Embedder:
    """The embedder of the settings; `auto` is the one for this vault (its index's, or by
    the vault's language; `fresh`: the index is embedded anew, so by the language)."""
    return factory(embedder_name(name, vault, resolve_data_dir(data_dir, vault), fresh), threads)


def open_writer(
    vault: Path,
    data_dir: Path | None,
    config_dir: Path | None,
    embedder: Callable[..., Embedder],
    read_only_vault: bool,
    reembed: bool,
    weights: dict[str, float] | None,
) -> Mindnet:
    """The window's `Mindnet`: the data dir's writer, with the app's weights (None: the
    config's); `reembed`: the index was built with another embedding model. Its store opens
    in the background: a search meanwhile reads the snapshots, as a fresh CLI search does."""
    mn = Mindnet(
        vault,
        data_dir,
        config_dir,
        embedder(fresh=reembed),
        write=True,
        read_only_vault=read_only_vault,
        replace_embedder=reembed,
        background_store=True,
    )
    mn.chunk_snapshot = True  # what the close saves includes what a fresh search reads
    try:
        if weights is not None:
            mn.set_retriever_weights(weights)
    except BaseException:
        mn.close()
        raise
    return mn


def open_store(mn: Mindnet, job: Job) -> None:
    """Start opening the writer's store in the background (`Mindnet.open_store_in_background`);
    the host switches to it once open."""
    mn.open_store_in_background()


def open_reader(
    vault: Path, data_dir: Path | None, config_dir: Path | None, embedder: Callable[[], Embedder]
) -> Mindnet:
    """A reader of the vault's index beside the window's writer (the ratings' learning)."""
    return Mindnet(vault, data_dir, config_dir, embedder(), lazy_store=True)


def retriever_weights(mn: Mindnet, job: Job) -> dict[str, float]:
    """The weights in effect."""
    return mn.retriever_config.weights


def set_weights(mn: Mindnet, job: Job, weights: dict[str, float]) -> None:
    """Write the app's weights into the vault's config dir, where the retriever reads them."""
    mn.set_retriever_weights(weights)
