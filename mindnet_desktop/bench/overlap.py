"""How many content words a question shares with its gold note's names: the title, the
aliases, the file name and the headings.

A question written by reading the note shares them ("What does `Rc<T>` count?" over the
chapter "Rc<T>, the Reference Counted Smart Pointer"), and lexical matching finds it; a user
who describes a need does not. `bench quality` reports the overlap per question and per set,
so a set's difficulty is stated next to its scores.

Content words are word tokens of three or more characters that are not function words
(`core/store/stopwords.py`, German and English). Two words count as shared when they are
equal, when one begins with the other and the shorter has four or more characters
(`borrow` / `borrowing`, `Referenz` / `Referenzen`), or when they begin with the same six
characters (`ownership` / `owners`): stricter than a stemmer, never kinder.

`python -m mindnet_desktop.bench.overlap SET.yaml …` prints each question's shared words.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mindnet_desktop.core.ingest.markdown import read_markdown
from mindnet_desktop.core.ingest.parse import parse_markdown
from mindnet_desktop.core.store.stopwords import STOP_WORDS

WORD = re.compile(r"\w+", re.UNICODE)
MIN_WORD = 3
PREFIX = 4  # one word begins with the other, the shorter at least this long
COMMON = 6  # or both begin with the same this many characters


def content_words(text: str) -> set[str]:
    """The content words of `text`, case-folded."""
    return {
        w
        for w in (m.group(0).casefold() for m in WORD.finditer(text.replace("_", " ")))
        if len(w) >= MIN_WORD and w not in STOP_WORDS and not w.isdigit()
    }


def same_word(a: str, b: str) -> bool:
    """`a` and `b` count as one word (see the module docstring)."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if len(short) >= PREFIX and long.startswith(short):
        return True
    return len(short) >= COMMON and a[:COMMON] == b[:COMMON]


def note_names(vault: Path, gold: str) -> list[str]:
    """The title, aliases, file name and headings of the note at vault-relative `gold`
    (only the file name when the file cannot be read as Markdown)."""
    path = vault / gold
    stem = Path(gold).stem
    if path.suffix.lower() != ".md" or not path.is_file():
        return [stem]
    note = parse_markdown(gold, path.read_text(encoding="utf-8"), "")
    headings = read_markdown(note.body).headings
    names = [note.title, *note.aliases, stem, *(h.text for h in headings)]
    return list(dict.fromkeys(names))  # the first heading is often the title


def shared_words(question: str, names: Iterable[str]) -> list[str]:
    """The question's content words that one of `names` also has, sorted."""
    named = set().union(*(content_words(n) for n in names))
    return sorted(w for w in content_words(question) if any(same_word(w, n) for n in named))


def question_overlap(vault: Path, question: str, gold: Iterable[str]) -> list[str]:
    """Shared words with the gold note that shares the fewest (any gold note is a hit)."""
    found = [shared_words(question, note_names(vault, g)) for g in gold]
    return min(found, key=len) if found else []


def set_overlap(vault: Path, questions: Iterable[Any]) -> dict[str, Any]:
    """Per question (`id` → shared words) and the set's median and maximum count, for
    questions with `id`, `q` and `gold` attributes."""
    per = {q.id: question_overlap(vault, q.q, q.gold) for q in questions}
    counts = [len(words) for words in per.values()]
    return {
        "median": statistics.median(counts) if counts else 0,
        "max": max(counts, default=0),
        "per_question": per,
    }


def main(argv: list[str] | None = None) -> int:
    from mindnet_desktop.bench.quality import load_qa_set

    parser = argparse.ArgumentParser(prog="python -m mindnet_desktop.bench.overlap")
    parser.add_argument("sets", nargs="+", type=Path, help="question set YAML files")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository")
    args = parser.parse_args(argv)
    for path in args.sets:
        qa = load_qa_set(path, args.root)
        report = set_overlap(qa.vault, qa.questions)
        for q in qa.questions:
            words = report["per_question"][q.id]
            print(f"{q.id}\t{len(words)}\t{' '.join(words)}\t{q.q}")
        print(f"# {qa.name}: median {report['median']}, max {report['max']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
