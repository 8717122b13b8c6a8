"""The local chat model through llama-cpp-python: loaded once (lazily), streamed, cancellable."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mindnet_desktop.core.models.local import resolve_chat_model
from mindnet_desktop.core.models.prefix_states import PrefixStates
from mindnet_desktop.core.models.weights import ALIASES, PACKAGED, ModelError

MIN_ANSWER_TOKENS = 256
# llama-cpp-python's own cache of whole model states kept after each answer (0: none). Off by
# default: each state holds a copy of the logits (~300 MiB for a 150k-token vocabulary),
# measured +950 MiB of peak memory; the answer prompts' beginnings are kept as sequence
# states instead (`prefix_states.py`, a few MiB each).
PROMPT_CACHE_MB = 0


def prompt_cache_bytes() -> int:
    """`MINDNET_PROMPT_CACHE_MB` (0: no cache) or the default."""
    raw = os.environ.get("MINDNET_PROMPT_CACHE_MB", "")
    return int(raw) * 2**20 if raw.strip().isdigit() else PROMPT_CACHE_MB * 2**20


@dataclass(frozen=True)
class Token:
    """One streamed piece of the answer."""

    text: str


class LlamaChat:
    """A GGUF chat model.

    Args:
        model: A GGUF path, a packaged model name (`default`, `test`) or the name of a
            model detected on the machine (`mindnet models`).
        n_ctx: Context size in tokens.
        threads: CPU threads (default: all cores).
        max_tokens: Longest answer.
        temperature: Sampling temperature (0: greedy, the same answer every time).
    """

    def __init__(
        self,
        model: str | None = None,
        n_ctx: int = 4096,
        threads: int | None = None,
        max_tokens: int = 512,
        temperature: float = 0.2,
    ) -> None:
        self.spec = model
        self.n_ctx, self.max_tokens, self.temperature = n_ctx, max_tokens, temperature
        self.threads = threads or max(1, os.cpu_count() or 1)
        self._llama: Any = None
        self._lock = threading.Lock()  # loading and closing
        # One generation at a time (a primer, an answer); a Lock, not an RLock: a stream
        # closed by another thread than the one that began it must still release it.
        self._busy = threading.Lock()
        self.path: Path | None = None
        self.prefixes = PrefixStates()  # the answer prompts' beginnings, read once

    @property
    def name(self) -> str:
        spec = self.spec
        if (
            spec
            and spec not in ALIASES
            and spec not in PACKAGED
            and not Path(spec).expanduser().exists()
        ):
            return spec  # a detected model's name (an Ollama blob's file name says nothing)
        return self.path.name if self.path else str(spec or "default")

    def warm_up(self) -> Any:
        """Resolve, verify and load the model once (ModelError with a clear message); the
        loaded llama.cpp model. A caller that generates holds on to it: `close` from another
        thread meanwhile leaves it to be freed when the caller lets it go."""
        with self._lock:
            if self._llama is not None:
                return self._llama
            self.path = resolve_chat_model(self.spec)
            # Idle OpenMP threads sleep instead of spinning: on a busy machine spinning
            # threads steal the cores the working ones need (measured: ~2x tokens/s with two
            # threads on a loaded 2-core machine). Read when llama.cpp starts its threads.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            try:
                from llama_cpp import Llama, LlamaRAMCache
            except ImportError as exc:
                raise ModelError("llama-cpp-python is not installed (see docs/install.md)") from exc
            try:
                self._llama = Llama(
                    model_path=str(self.path),
                    n_ctx=self.n_ctx,
                    n_threads=self.threads,
                    # Prompt reading too (llama-cpp-python's default: every core, whatever
                    # n_threads says, so a 1-thread setting still read prompts on 2).
                    n_threads_batch=self.threads,
                    # Read, not mapped: llama.cpp repacks most weights into a faster
                    # layout (~600 MiB for the bundled model) and the mapped file stays
                    # resident beside the copy (measured: 1,864 -> 1,273 MiB RSS).
                    use_mmap=False,
                    verbose=False,
                )
            except Exception as exc:  # llama.cpp reports a corrupt file as a ValueError
                raise ModelError(f"Cannot load the chat model {self.path}: {exc}") from exc
            if prompt_cache_bytes():
                self._llama.set_cache(LlamaRAMCache(capacity_bytes=prompt_cache_bytes()))
            return self._llama

    @property
    def loaded(self) -> bool:
        return self._llama is not None

    @property
    def cached_prompts(self) -> int:
        """How many model states the prompt cache holds (0 without one)."""
        cache = getattr(self._llama, "cache", None)
        return len(getattr(cache, "cache_state", ())) if cache is not None else 0

    def close(self) -> None:
        """Free the model's memory (the next call loads it again): now, or, while another
        thread generates with it (a preload's primer when the user picks another model),
        when that generation ends and lets it go. Freeing it under a running generation
        crashed the process."""
        with self._lock:
            llama, self._llama = self._llama, None
        if llama is not None and self._busy.acquire(blocking=False):
            try:
                llama.close()
            finally:
                self._busy.release()

    def count_tokens(self, text: str) -> int:
        llama = self.warm_up()
        return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    @property
    def prompt_budget(self) -> int:
        """Tokens the prompt may use: the context minus room for a whole answer."""
        return self.n_ctx - max(self.max_tokens, MIN_ANSWER_TOKENS)

    def stream(
        self,
        messages: list[dict[str, str]],
        cancel: threading.Event | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        prefix: str | None = None,
    ) -> Iterator[Token]:
        """Stream the answer to `messages`; stops early when `cancel` is set. Another
        thread's generation (a `prime` under way) is waited for. `prefix`: how the system
        message begins (an answer prompt's system prompt): the model's state after it is
        kept, and put back before a later prompt that begins with it."""
        system = messages[0] if messages and messages[0].get("role") == "system" else None
        if prefix is not None and (system is None or not system["content"].startswith(prefix)):
            prefix = None
        with self._busy:
            llama = self.warm_up()  # loaded again if closed since: it is ours until the end
            if prefix is not None:
                self.prefixes.restore(llama, prefix)
            try:
                yield from self._stream(llama, messages, cancel, max_tokens, temperature)
            finally:
                if prefix is not None:
                    self.prefixes.save(llama, prefix)

    def _stream(
        self,
        llama: Any,
        messages: list[dict[str, str]],
        cancel: threading.Event | None,
        max_tokens: int | None,
        temperature: float | None,
    ) -> Iterator[Token]:
        try:
            chunks = llama.create_chat_completion(
                messages=messages,
                stream=True,
                max_tokens=max_tokens or self.max_tokens,
                temperature=self.temperature if temperature is None else temperature,
            )
            first = next(chunks, None)
        except ValueError as exc:  # llama.cpp: prompt longer than the context, bad template
            raise ModelError(f"The chat model could not take this prompt: {exc}") from exc
        if first is None:
            return
        try:
            for chunk in itertools.chain([first], chunks):
                if cancel is not None and cancel.is_set():
                    break
                piece = chunk["choices"][0].get("delta", {}).get("content")
                if piece:
                    yield Token(piece)
        finally:
            close = getattr(chunks, "close", None)
            if close:
                close()

    @property
    def tokens_in_context(self) -> int:
        """Tokens of the last prompt (and answer) the model holds: a next prompt that starts
        the same way reads only the rest."""
        return int(self._llama.n_tokens) if self._llama is not None else 0

    def prime(self, system_prefix: str) -> None:
        """Load the model and read `system_prefix` (how every answer's prompt begins), so
        the first question reads only its sources and itself."""
        self.warm_up()
        message = {"role": "system", "content": system_prefix}
        for _ in self.stream([message], max_tokens=1, temperature=0.0, prefix=system_prefix):
            pass

    def yes_no(self, messages: list[dict[str, str]]) -> float:
        """How much likelier the model's reply to `messages` begins with "yes" than with
        "no": the log-odds of the first token (greedy; one step, no text decoded). A
        prompt that begins like the last one reads only what differs."""
        ids: dict[str, set[int]] = {"yes": set(), "no": set()}
        seen: list[Any] = []

        def capture(_input_ids: Any, scores: Any) -> Any:
            if not seen:
                seen.append(scores.copy())
            return scores

        with self._busy:
            llama = self.warm_up()
            for word in ids:
                for form in (word, word.capitalize(), " " + word, " " + word.capitalize()):
                    tokens = llama.tokenize(form.encode("utf-8"), add_bos=False, special=False)
                    if len(tokens) == 1:
                        ids[word].add(tokens[0])
            try:
                llama.create_chat_completion(
                    messages=messages, max_tokens=1, temperature=0.0, logits_processor=[capture]
                )
            except ValueError as exc:
                raise ModelError(f"The chat model could not take this prompt: {exc}") from exc
        if not seen or not ids["yes"] or not ids["no"]:
            return 0.0
        logits = np.asarray(seen[0], dtype=np.float64)
        top = float(logits.max())

        def mass(which: set[int]) -> float:
            return float(np.log(np.exp(logits[sorted(which)] - top).sum()))

        return mass(ids["yes"]) - mass(ids["no"])

    def complete(self, messages: list[dict[str, str]], max_tokens: int = 8) -> str:
        """A short, non-streamed answer (used to classify intents)."""
        return "".join(
            t.text for t in self.stream(messages, max_tokens=max_tokens, temperature=0.0)
        )
