"""The beginnings of answer prompts kept as llama.cpp sequence states, so that a question in
another language or of another intent than the last one does not read its system prompt
again.

llama.cpp keeps the last prompt only: the next one reads what differs from it. A German
question after an English one (or a DECISION after a FACT, or after the model classified an
intent) differs from the first tokens on, and reads the whole system prompt again (~100-130
tokens, ~1.5 s on 2 cores). Here the state of the model after a prompt that began with a
given text (its KV cells: ~28 KiB a token for the default model) is saved once, keyed by that
text, and put back before a later prompt that begins with it and finds the context holding
another; llama-cpp-python's own prefix match then reads only the rest of the prompt.

Unlike llama-cpp-python's `LlamaRAMCache` (`MINDNET_PROMPT_CACHE_MB`), which copies the
logits with every state (~300 MiB for a 150k-token vocabulary), a state here is the
sequence's cells alone: a primed system prompt ~4 MiB, a whole answer's prompt ~15 MiB.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_STATES = 8  # two languages x four intents
SEQUENCE = 0  # llama-cpp-python's high-level API uses the one sequence
TEMPLATE_HEAD = 8  # tokens the chat template may put before the system message's text
EDGE = 2  # the prefix's last tokens may merge with the text that follows it


@dataclass(frozen=True)
class SavedPrefix:
    """The model's state after a prompt that began with a prefix.

    Attributes:
        tokens: The tokens the context held (the whole prompt it was saved after).
        data: The sequence's cells (`llama_state_seq_get_data`).
        own: The prefix's own tokens: a context that holds them near its start is left as
            it is.
    """

    tokens: tuple[int, ...]
    data: bytes
    own: tuple[int, ...]


def begins_with(held: Any, prefix: Any) -> bool:
    """Whether the context's tokens `held` hold the tokens `prefix` near their start (after
    the chat template's head), but for the last `EDGE` of them."""
    wanted = max(1, len(prefix) - EDGE)
    return any(shared_tokens(held[k:], prefix) >= wanted for k in range(TEMPLATE_HEAD + 1))


def shared_tokens(a: Any, b: Any) -> int:
    """How many tokens two token sequences share from their start."""
    n = min(len(a), len(b))
    if n == 0:
        return 0
    differ = np.flatnonzero(np.asarray(a[:n]) != np.asarray(b[:n]))
    return int(differ[0]) if differ.size else n


class PrefixStates:
    """Saved states of one loaded `llama_cpp.Llama`, by the text their prompts began with
    (the least recently used dropped beyond `capacity`). Call under the model's lock: a state
    is read from and written into its one context."""

    def __init__(self, capacity: int = MAX_STATES) -> None:
        self.capacity = capacity
        self._saved: OrderedDict[str, SavedPrefix] = OrderedDict()
        self._owner: Any = None  # the Llama the states belong to

    def __len__(self) -> int:
        return len(self._saved)

    def __contains__(self, prefix: object) -> bool:
        return prefix in self._saved

    def _mine(self, llama: Any) -> None:
        if self._owner is not llama:  # the model was loaded again: its states are gone
            self._saved.clear()
            self._owner = llama

    def save(self, llama: Any, prefix: str) -> bool:
        """Save what the context holds under `prefix` (a prompt beginning with it was just
        read), unless a state is saved for it already; whether it saved one."""
        import llama_cpp

        self._mine(llama)
        if prefix in self._saved:
            self._saved.move_to_end(prefix)
            return False
        own = llama.tokenize(prefix.encode("utf-8"), add_bos=False, special=False)
        count = int(llama.n_tokens)
        if not begins_with(llama.input_ids[:count], own):
            return False  # the prompt was not read (an error, a cancel before the model)
        ctx = llama.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, SEQUENCE)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, SEQUENCE)
        if not written:
            return False
        tokens = tuple(int(t) for t in llama.input_ids[:count])
        self._saved[prefix] = SavedPrefix(
            tokens, ctypes.string_at(buffer, written), tuple(int(t) for t in own)
        )
        while len(self._saved) > self.capacity:
            self._saved.popitem(last=False)
        return True

    def restore(self, llama: Any, prefix: str) -> bool:
        """Put the state saved under `prefix` into the context when the context does not hold
        the prefix already; whether it did. A state that does not load leaves the context
        empty (the prompt is then read whole, as without a state)."""
        import llama_cpp

        self._mine(llama)
        saved = self._saved.get(prefix)
        if saved is None:
            return False
        self._saved.move_to_end(prefix)
        if begins_with(llama.input_ids[: int(llama.n_tokens)], saved.own):
            return False  # holds it already: llama.cpp's prefix match reads only the rest
        llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(llama.ctx), True)
        source = (ctypes.c_uint8 * len(saved.data)).from_buffer_copy(saved.data)
        if not llama_cpp.llama_state_seq_set_data(llama.ctx, source, len(saved.data), SEQUENCE):
            llama.reset()
            return False
        llama.input_ids[: len(saved.tokens)] = saved.tokens
        llama.n_tokens = len(saved.tokens)
        return True
