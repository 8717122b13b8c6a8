"""A chat model can be released (the desktop app does so when the user picks another)."""

from __future__ import annotations

from mindnet_desktop.core.models.llm import LlamaChat


def test_close_frees_the_model_and_the_next_call_loads_it_again() -> None:
    chat = LlamaChat("test", n_ctx=512)
    assert not chat.loaded
    chat.warm_up()
    assert chat.loaded
    chat.close()
    assert not chat.loaded
    assert chat.count_tokens("hello world") > 0  # loads again on demand
    assert chat.loaded
    chat.close()
    chat.close()  # closing twice is harmless
