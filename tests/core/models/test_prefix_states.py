"""The answer prompts' beginnings kept as sequence states (`prefix_states.py`): a prompt whose
system prompt is not the last one read gets its state back and reads only the rest, with the
same answer as without it; a state is kept only for a context that holds its prefix."""

from __future__ import annotations

from typing import Any

import pytest

from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.models.prefix_states import PrefixStates, begins_with, shared_tokens

GERMAN = "Du antwortest nur aus den Notizen und zitierst sie als [1], [2]. " * 6
ENGLISH = "You answer from the notes only and cite them as [1], [2]. " * 6
NOTES = "\n\nNotes:\n\n[1] Vectors are lists of numbers.\n[2] Graphs have nodes and edges."


def _messages(prefix: str, question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": prefix + NOTES}, {"role": "user", "content": question}]


def _answer(chat: LlamaChat, prefix: str, question: str, keep: bool = True) -> str:
    pieces = chat.stream(
        _messages(prefix, question), max_tokens=12, temperature=0.0, prefix=prefix if keep else None
    )
    return "".join(t.text for t in pieces)


def _count_reads(chat: LlamaChat) -> list[int]:
    """The number of tokens each `eval` of the loaded model reads, from now on (the first:
    the prompt; then one per answer token)."""
    llama: Any = chat.warm_up()
    reads: list[int] = []
    original = llama.eval

    def counting(tokens: Any) -> None:
        reads.append(len(tokens))
        original(tokens)

    llama.eval = counting
    return reads


@pytest.fixture(scope="module")
def plain() -> Any:
    chat = LlamaChat("test", n_ctx=1024)
    yield chat
    chat.close()


def test_a_kept_beginning_is_read_once_and_changes_no_answer(plain: LlamaChat) -> None:
    chat = LlamaChat("test", n_ctx=1024)
    try:
        chat.prime(GERMAN)
        chat.prime(ENGLISH)  # the context now holds the English system prompt
        assert GERMAN in chat.prefixes and ENGLISH in chat.prefixes
        reads = _count_reads(chat)
        german = _answer(chat, GERMAN, "Was ist ein Vektor?")
        prompt = chat.count_tokens(GERMAN + NOTES + "Was ist ein Vektor?")
        # The prompt's read (the first): the notes and the question, not the system prompt.
        assert reads[0] < prompt - chat.count_tokens(GERMAN) + 16
        assert german == _answer(plain, GERMAN, "Was ist ein Vektor?", keep=False)
        reads.clear()
        english = _answer(chat, ENGLISH, "What is a graph?")
        assert reads[0] < chat.count_tokens(NOTES + "What is a graph?") + 16
        assert english == _answer(plain, ENGLISH, "What is a graph?", keep=False)
    finally:
        chat.close()


def test_without_a_kept_beginning_the_prompt_is_read_whole() -> None:
    """Guards the test above: it can fail. Without a kept state, switching languages reads
    the other system prompt again."""
    chat = LlamaChat("test", n_ctx=1024)
    try:
        _answer(chat, ENGLISH, "What is a graph?", keep=False)
        reads = _count_reads(chat)
        _answer(chat, GERMAN, "Was ist ein Vektor?", keep=False)
        assert reads[0] >= chat.count_tokens(GERMAN)
        assert len(chat.prefixes) == 0
    finally:
        chat.close()


def test_a_state_is_kept_only_when_the_context_holds_its_prefix() -> None:
    chat = LlamaChat("test", n_ctx=1024)
    try:
        # A system message that does not begin with the prefix: the prefix is ignored.
        messages = _messages(ENGLISH, "What is a graph?")
        list(chat.stream(messages, max_tokens=2, temperature=0.0, prefix=GERMAN))
        assert GERMAN not in chat.prefixes
        # Saved against a context that holds another prompt: refused.
        assert not chat.prefixes.save(chat.warm_up(), GERMAN)
        assert chat.prefixes.save(chat.warm_up(), ENGLISH)
        # Loaded again (another model chosen, then this one): its states are gone.
        chat.close()
        _answer(chat, GERMAN, "Was ist ein Vektor?")
        assert GERMAN in chat.prefixes and ENGLISH not in chat.prefixes
    finally:
        chat.close()


def test_the_least_recently_used_state_goes_first() -> None:
    chat = LlamaChat("test", n_ctx=1024)
    chat.prefixes = PrefixStates(capacity=2)
    third = "Answer in one sentence. " * 6
    try:
        for prefix in (GERMAN, ENGLISH):
            chat.prime(prefix)
        _answer(chat, GERMAN, "Was ist ein Vektor?")  # used again: the English one is older
        chat.prime(third)
        assert len(chat.prefixes) == 2
        assert GERMAN in chat.prefixes and third in chat.prefixes
        assert ENGLISH not in chat.prefixes
    finally:
        chat.close()


def test_shared_tokens_and_begins_with() -> None:
    assert shared_tokens([1, 2, 3], [1, 2, 4]) == 2
    assert shared_tokens([], [1]) == 0
    assert shared_tokens([5, 6], [5, 6, 7]) == 2
    head = [100, 101, 102]  # the chat template's first tokens
    prefix = [7, 8, 9, 10, 11]
    assert begins_with(head + prefix + [12], prefix)
    assert begins_with(head + prefix[:-2] + [99], prefix)  # the edge may merge
    assert not begins_with(head + prefix[:-3] + [99, 98], prefix)
    assert not begins_with(list(range(200, 220)) + prefix, prefix)  # too far in
