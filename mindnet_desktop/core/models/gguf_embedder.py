"""The user's own embedding model: a GGUF file run in llama.cpp's embedding mode
(`--embedder gguf:NAME` for a model `mindnet models --embedders` lists, `gguf:PATH` for a
file). Its dim, pooling, prefixes and name come from the file's header (`gguf_profile.py`);
the weights load lazily, on the first text.

A chat model (a decoder LLM without a pooling key) is allowed: llama.cpp embeds with any
model, here with its last token. It was not trained to embed, so expect its ranking to be
far below an embedding model's (a warning is logged); the tests use the packaged chat model
because no embedding GGUF installs from PyPI.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from mindnet_desktop.core.models.embedder_base import EmbedderError, LazyEmbedder, engine_threads
from mindnet_desktop.core.models.gguf_profile import PREFIX, GgufProfile, resolve_gguf

log = logging.getLogger(__name__)

MAX_CONTEXT = 2048  # tokens of a passage embedded (more is cut; chunks stay well below)
BATCH_TEXTS = 64  # texts handed to llama.cpp in one call


class GgufEmbedder(LazyEmbedder):
    """Embeds with a GGUF model in llama.cpp's embedding mode, as its profile says.

    Loaded lazily on first use, one call at a time; it pickles as its settings (`profile`,
    threads, context), so an embedding process loads its own copy.

    Args:
        profile: What the header says (`read_profile`, `resolve_gguf`).
        threads: The app's thread setting; the engine runs `engine_threads` of it.
        context: Tokens per passage at most (longer ones are cut); also the batch size.
    """

    def __init__(
        self, profile: GgufProfile, threads: int | None = None, context: int = MAX_CONTEXT
    ) -> None:
        super().__init__(threads)
        self.profile = profile
        self.name = profile.name
        self.dim = profile.dim
        self.context = min(context, profile.context_length or context)

    @property
    def spec(self) -> str:
        """What `--embedder` takes to make this embedder again (the file's path)."""
        return f"{PREFIX}{self.profile.path}"

    def __getstate__(self) -> dict[str, Any]:
        return {"profile": self.profile, "threads": self.threads, "context": self.context}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["profile"], state["threads"], state["context"])  # type: ignore[misc]

    def _load(self) -> Any:
        if self.profile.is_chat_model:
            log.warning(
                "%s is a chat model, not an embedding model: it embeds, but search ranks "
                "far worse than with an embedding model",
                self.profile.path.name,
            )
        # Idle OpenMP threads sleep instead of spinning (as for the chat model, llm.py).
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise EmbedderError(
                "llama-cpp-python is not installed: it runs GGUF embedding models "
                "(see docs/install.md)"
            ) from exc
        threads = engine_threads(self.threads)
        try:
            return Llama(
                model_path=str(self.profile.path),
                embedding=True,
                pooling_type=self.profile.pooling,
                n_ctx=self.context,
                # Encoders see a whole passage in one micro-batch (llama.cpp requires it).
                n_batch=self.context,
                n_ubatch=self.context,
                n_threads=threads,
                n_threads_batch=threads,
                verbose=False,
            )
        except Exception as exc:  # llama.cpp reports what it cannot load as a ValueError
            raise EmbedderError(
                f"llama.cpp cannot load {self.profile.path.name} "
                f"({self.profile.architecture}) as an embedding model: {exc}"
            ) from exc

    def _encode(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        # An empty input has no token to pool (a model without a BOS token).
        return self._batched(
            lambda batch: self._model.embed([prefix + t or " " for t in batch], truncate=True),
            texts,
            BATCH_TEXTS,
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors of passages (with the model's passage prefix)."""
        return self._encode(texts, self.profile.passage_prefix)

    def _embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Queries with the model's query prefix (`embed_query` remembers the last few)."""
        return self._encode(texts, self.profile.query_prefix)

    def close(self) -> None:
        """Free the model's memory now (the next text loads it again)."""
        with self._lock:
            model, self._model = self._model, None
        if model is not None:
            model.close()


def make_gguf_embedder(spec: str, threads: int | None = None) -> GgufEmbedder:
    """The embedder for `gguf:NAME|PATH` (see `resolve_gguf`)."""
    return GgufEmbedder(resolve_gguf(spec), threads)
