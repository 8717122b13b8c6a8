"""The prompt cache (`MINDNET_PROMPT_CACHE_MB`, off by default): states kept after answers
make a later prompt with the same start skip that part of its prefill, and never change what
the model answers; `prime` reads the system prompt ahead of the first question."""

from __future__ import annotations

import os

from mindnet_desktop.core.models.llm import LlamaChat

SYSTEM = "You answer from the notes only. Cite them as [1], [2]. " * 8


def _answer(chat: LlamaChat, question: str) -> str:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    return "".join(t.text for t in chat.stream(messages, max_tokens=12, temperature=0.0))


def test_cached_states_do_not_change_the_answers(monkeypatch) -> None:
    cached = LlamaChat("test", n_ctx=1024)
    plain = LlamaChat("test", n_ctx=1024)
    plain.warm_up()  # the default: no cache
    monkeypatch.setenv("MINDNET_PROMPT_CACHE_MB", "384")
    cached.warm_up()
    try:
        first = _answer(cached, "What is a vector?")
        assert cached.cached_prompts == 1 and plain.cached_prompts == 0
        cached.complete([{"role": "user", "content": "Say yes."}])  # another prompt between
        second = _answer(cached, "What is a graph?")  # starts like the first: a cache hit
        assert cached.cached_prompts == 3
        assert first == _answer(plain, "What is a vector?")
        assert second == _answer(plain, "What is a graph?")
        assert os.environ.get("OMP_WAIT_POLICY") == "PASSIVE"
    finally:
        cached.close()
        plain.close()


def test_prime_reads_the_prompts_beginning_ahead_of_the_first_question() -> None:
    """Guards `prime` (the app's preload): the model is loaded and holds the system prompt's
    beginning before any question, and the first answer is what it would be without it
    (without `prime` nothing is loaded or read before the question)."""
    primed = LlamaChat("test", n_ctx=1024)
    plain = LlamaChat("test", n_ctx=1024)
    try:
        primed.prime(SYSTEM)
        assert primed.loaded and primed.tokens_in_context > primed.count_tokens(SYSTEM)
        assert primed.cached_prompts == 0  # no cache by default: llama.cpp's context holds it
        assert _answer(primed, "What is a vector?") == _answer(plain, "What is a vector?")
    finally:
        primed.close()
        plain.close()


def test_the_thread_setting_covers_prompt_reading_too() -> None:
    """Guards `threads`: llama-cpp-python reads prompts with every core unless told, so a
    1-thread setting (a busy machine) must set both thread counts."""
    chat = LlamaChat("test", n_ctx=512, threads=1)
    try:
        chat.warm_up()
        llama = chat._llama  # noqa: SLF001 - the runtime's own settings are the evidence
        assert llama.n_threads == 1 and llama.n_threads_batch == 1
    finally:
        chat.close()
