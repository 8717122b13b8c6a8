"""What the importer embeds per chunk, and the vectors it can take from the store instead.

Each chunk is embedded with the names of its note and its heading path as context
(`embedding_text`). Its vector is stored with a key of that exact text and the embedder
(`text_key`), so an edit embeds only the chunks whose embedded text changed
(`merge_vectors`).
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


def merge_vectors(keys: list[str], known: dict[str, np.ndarray], fresh: np.ndarray) -> np.ndarray:
    """The vectors of texts with `keys`: those whose key is `known` from there, the rest,
    in order, from `fresh` (appending a sentence to a long note embeds one chunk, not all)."""
    if not known:
        return fresh
    vectors = np.empty((len(keys), len(next(iter(known.values())))), dtype=np.float32)
    rows = iter(fresh)
    for i, key in enumerate(keys):
        vectors[i] = known[key] if key in known else next(rows)
    return vectors
