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


def test_closing_while_another_thread_generates_waits_for_it_to_end() -> None:
    """Guards the crash of changing the chat model while the app preloads it (issue 31's
    closing note): `close` from another thread during a generation must not free the model
    under it; the generation ends normally and the model is freed after it (shown to fail,
    with a segmentation fault, by closing the llama.cpp model at once)."""
    import threading

    chat = LlamaChat("test", n_ctx=512, max_tokens=48)
    chat.warm_up()
    started, tokens, errors = threading.Event(), [], []

    def generate() -> None:
        try:
            for token in chat.stream([{"role": "user", "content": "Count from one to ten."}]):
                started.set()
                tokens.append(token.text)
        except Exception as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)
        finally:
            started.set()

    worker = threading.Thread(target=generate)
    worker.start()
    assert started.wait(60)
    chat.close()  # the model is someone else's until the stream ends
    assert not chat.loaded
    worker.join(120)
    assert not worker.is_alive() and not errors and len(tokens) > 1
    assert chat.count_tokens("hello") > 0  # the next call loads it again
    chat.close()
