"""The text of known-item probes, made from a note's own words (pure: strings in, strings out).

A probe is a query whose right answer is known: the note it was made from. Two kinds:

- a *sentence* probe: a sentence (two when the first is short) of the note's prose with the
  note's title words (title, file name, aliases) taken out, so that it finds the note by its
  content and not by its name;
- a *question* probe: a question the local chat model writes about one chunk of the note
  (`question_messages`; its answer is read by `parse_question`), told not to name the note.

Which notes are probed, and which sentence, is decided by a seeded hash (`stable_order`), so
the same vault gives the same probes, and adding or removing one note changes only that
note's probes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from mindnet_desktop.core.domain import name_words
from mindnet_desktop.core.store.stopwords import STOP_WORDS

MIN_NOTE_WORDS = 40  # notes with fewer words of prose are too small to probe
MIN_WORDS = 6  # a sentence probe keeps at least this many words once the title words are out
TARGET_WORDS = 12  # a shorter sentence takes the next one along
MAX_WORDS = 40
MAX_PASSAGE_CHARS = 900  # of a chunk shown to the chat model (the prefill is the slow part)
PREFIX_MIN = 5  # a title word this long also takes out words starting with it ("Neugierde")

WORD = re.compile(r"\w(?:[\w+#/'-]|\.(?=\w))*")
FENCE = re.compile(r"^\s*(```|~~~)")
WIKILINK = re.compile(r"\[\[(?:rel:\w+\s+)?([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]")
MDLINK = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'„“(]?[A-ZÄÖÜ0-9])")
ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
SKIPPED_LINE = re.compile(r"^(?:#|\||\[!|\[[^\]]+\]:\s|<|`[^`]*`$|---|\*\*\*|===)")


def stable_order(keys: Iterable[str], seed: int) -> list[str]:
    """`keys` in a seeded pseudo-random order that does not depend on the other keys: a
    sample is the first n, and adding or removing one key moves no other."""
    return sorted(keys, key=lambda k: hashlib.sha1(f"{seed}:{k}".encode()).hexdigest())


def pick(options: int, seed: int, key: str) -> int:
    """A seeded choice among `options` (> 0) for `key`."""
    return int(hashlib.sha1(f"{seed}:{key}".encode()).hexdigest()[:12], 16) % options


def title_words(names: Iterable[str]) -> frozenset[str]:
    """The content words of a note's names (title, file name, aliases), casefolded, with the
    parts of compounds (`KI-Projekt` gives `ki-projekt`, `ki`, `projekt`); stop words are
    kept in the probe, since they do not name the note."""
    words: set[str] = set()
    for name in names:
        for word in name_words(name):
            for part in (word, *re.split(r"[-./+#_]", word)):
                part = part.strip(".")
                if len(part) >= 2 and part not in STOP_WORDS:
                    words.add(part)
    return frozenset(words)


def names_note(token: str, words: frozenset[str]) -> bool:
    """Whether `token` (a word of the text) is one of the title `words`, holds one as a
    compound part, or starts with a long one (an inflected form)."""
    folded = token.casefold()
    for part in (folded, *re.split(r"[-./+#_']", folded)):
        if part in words or any(len(w) >= PREFIX_MIN and part.startswith(w) for w in words):
            return True
    return False


def without_title(text: str, words: frozenset[str]) -> str:
    """`text` with every word that names the note taken out (punctuation tidied)."""
    out = WORD.sub(lambda m: "" if names_note(m.group(), words) else m.group(), text)
    out = re.sub(r"\(\s*\)|\[\s*\]|„\s*“|\"\s*\"", "", out)
    out = re.sub(r"\s+([,.;:!?)\]])", r"\1", out)
    out = re.sub(r"([(\[„])\s+", r"\1", out)
    out = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip(" ,;:-–")


def word_count(text: str) -> int:
    return len(WORD.findall(text))


def inline(text: str) -> str:
    """One line of Markdown as plain text: links become their text, embeds and markup go."""
    text = re.sub(r"!\[\[[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)", "", text)
    text = WIKILINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)
    text = MDLINK.sub(r"\1", text)
    text = re.sub(r"\s\^[\w-]+$|\[\^[^\]]*\]|<[^>]+>", "", text)
    return re.sub(r"\*\*|__|[*`]|==", "", text).strip()


def prose_units(text: str) -> list[str]:
    """The paragraphs and list items of a Markdown text as plain text: headings, code
    blocks, tables, callouts, link definitions and `.ctxt` meta lines left out."""
    units: list[str] = []
    current: list[str] = []
    in_code = False

    def close() -> None:
        if current:
            units.append(" ".join(current))
            current.clear()

    for raw in text.splitlines():
        if FENCE.match(raw):
            in_code = not in_code
            close()
            continue
        line = re.sub(r"^(?:>\s?)+", "", raw.strip()).strip()
        if in_code or not line or SKIPPED_LINE.match(line):
            close()
            continue
        if ITEM.match(line):
            close()
            line = ITEM.sub("", line)
        plain = inline(line)
        if plain:
            current.append(plain)
    close()
    return units


def sentences(text: str) -> list[list[str]]:
    """The sentences of each prose unit of `text`."""
    return [[s.strip() for s in SENTENCE_END.split(u) if s.strip()] for u in prose_units(text)]


def prose_word_count(text: str) -> int:
    return sum(word_count(u) for u in prose_units(text))


def sentence_probe(texts: list[str], words: frozenset[str], seed: int, key: str) -> str | None:
    """A sentence of `texts` (a note's chunks) with the title `words` out: one of those
    keeping at least MIN_WORDS words, chosen by `key`; a short one takes the next sentence
    of its paragraph along. None when no sentence is long enough."""
    options: list[tuple[str, list[str]]] = []
    for text in texts:
        for unit in sentences(text):
            for i, sentence in enumerate(unit):
                cleaned = without_title(sentence, words)
                if word_count(cleaned) >= MIN_WORDS:
                    options.append((cleaned, [without_title(s, words) for s in unit[i + 1 :]]))
    if not options:
        return None
    probe, following = options[pick(len(options), seed, key)]
    if word_count(probe) < TARGET_WORDS and following:
        probe = f"{probe} {following[0]}".strip()
    tokens = list(WORD.finditer(probe))
    if len(tokens) > MAX_WORDS:
        probe = probe[: tokens[MAX_WORDS - 1].end()]
    return probe


def passage(text: str) -> str:
    """A chunk's prose for the chat model (no headings: the title is not to be asked)."""
    joined = "\n".join(prose_units(text))
    if len(joined) <= MAX_PASSAGE_CHARS:
        return joined
    cut = joined[:MAX_PASSAGE_CHARS]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def question_messages(text: str, title: str, lang: str) -> list[dict[str, str]]:
    """The chat messages that ask for one question about the passage `text`, in `lang`."""
    if lang == "de":
        system = (
            "Du schreibst Quizfragen zu Notizen. Antworte nur mit einer einzigen Frage auf Deutsch."
        )
        user = (
            f"Abschnitt:\n{text}\n\nSchreibe eine kurze Frage auf Deutsch, die dieser "
            f"Abschnitt beantwortet. Nenne dabei nicht den Titel „{title}“. Antworte nur mit "
            "der Frage."
        )
    else:
        system = "You write quiz questions about notes. Reply with one single question only."
        user = (
            f"Passage:\n{text}\n\nWrite one short question in English that this passage "
            f'answers. Do not name the title "{title}". Reply with the question only.'
        )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse_question(answer: str, words: frozenset[str]) -> str | None:
    """The question in the model's `answer` (its first line that asks one, else its first
    line), title words out; None when fewer than three words are left."""
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    if not lines:
        return None
    line = next((x for x in lines if "?" in x), lines[0])
    line = re.sub(r"^(?:\d+[.)]\s*|[-*]\s+|(?:question|frage)\s*\d*\s*:\s*)", "", line, flags=re.I)
    line = inline(line).strip(" \"'„“”«»")
    if "?" in line:
        line = line[: line.index("?") + 1]
    cleaned = without_title(line, words)
    return cleaned if word_count(cleaned) >= 3 else None
