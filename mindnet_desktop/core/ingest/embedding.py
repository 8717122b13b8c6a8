"""What the importer embeds per chunk, and the vectors it can take from the store instead.

Each chunk is embedded with the names of its note and its heading path as context
(`embedding_text`). Its vector is stored with a key of that exact text and the embedder
(`text_key`), so an edit embeds only the chunks whose embedded text changed (`embed_new`).
"""

from __future__ import annotations

import hashlib

import numpy as np

from mindnet_desktop.core.domain import Chunk, Note
from mindnet_desktop.core.models.embedders import Embedder


def embedding_text(note: Note, chunk: Chunk) -> str:
    """What is embedded: the chunk with the names of its note (title and aliases) and its
    heading path as context. Changing this recipe means bumping EMBED_RECIPE."""
    names = note.title + (f" ({', '.join(note.aliases)})" if note.aliases else "")
    context = " > ".join((names, *chunk.heading_path[-2:]))
    return f"{context}\n{chunk.text}"


def text_key(embedder: Embedder, text: str) -> str:
    """The key a chunk's vector is stored under: the embedder and the exact text."""
    return hashlib.sha256(f"{embedder.name}\0{text}".encode()).hexdigest()[:32]


def embed_new(
    embedder: Embedder, texts: list[str], keys: list[str], known: dict[str, np.ndarray]
) -> np.ndarray:
    """The texts' vectors: those whose key is `known` are taken from there, the rest
    embedded (appending a sentence to a long note embeds one chunk, not all of them)."""
    todo = [i for i, key in enumerate(keys) if key not in known]
    if len(todo) == len(texts):
        return embedder.embed(texts)
    fresh = embedder.embed([texts[i] for i in todo]) if todo else None
    dim = fresh.shape[1] if fresh is not None else len(next(iter(known.values())))
    vectors = np.empty((len(texts), dim), dtype=np.float32)
    for i, key in enumerate(keys):
        if key in known:
            vectors[i] = known[key]
    if fresh is not None:
        vectors[todo] = fresh
    return vectors
