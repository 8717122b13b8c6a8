"""Questions a user might ask of each note, written by the bundled chat model (doc2query).

    .venv/bin/python tools/research/doc2query/generate.py VAULT OUT.json [--per 3]

For every Markdown note: its title, headings and first ~1,200 characters go to the model with
a prompt in the note's language asking for questions from a user who has the problem the note
solves but does not know its words. Greedy decoding, so a rerun gives the same questions.
OUT.json maps the note's path (relative to the vault) to its list of questions; notes already
in OUT.json are skipped, so the job can be stopped and resumed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

MAIN = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(MAIN))
from mindnet_desktop.core.chat.grounding import detect_language  # noqa: E402
from mindnet_desktop.core.models.weights import resolve_model_path  # noqa: E402

PROMPTS = {
    "en": (
        "Below is a note. Write {n} different questions that people would ask who have the "
        "problem this note solves but do not know its terms or the name of the feature. Each "
        "question describes their situation or goal in everyday words and does not use the "
        "note's title words. One question per line, nothing else."
    ),
    "de": (
        "Unten steht eine Notiz. Schreibe {n} verschiedene Fragen, die Menschen stellen würden, "
        "die das Problem haben, das diese Notiz löst, aber ihre Fachbegriffe und den Namen der "
        "Funktion nicht kennen. Jede Frage beschreibt ihre Lage oder ihr Ziel in Alltagssprache "
        "und benutzt nicht die Wörter des Titels. Eine Frage pro Zeile, sonst nichts. Schreibe "
        "auf Deutsch."
    ),
}
FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)


def excerpt(path: Path, limit: int = 1200) -> str:
    text = FRONT.sub("", path.read_text(encoding="utf-8", errors="replace"))
    headings = [line.strip("# ").strip() for line in text.splitlines() if line.startswith("#")]
    body = re.sub(r"```.*?```", " ", text, flags=re.S)
    body = re.sub(r"\s+", " ", body)[:limit]
    return f"Title: {path.stem}\nHeadings: {'; '.join(headings[:12])}\n\n{body}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("vault", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per", type=int, default=3)
    args = parser.parse_args()
    from llama_cpp import Llama

    done: dict[str, list[str]] = (
        json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    )
    llm = Llama(str(resolve_model_path("default")), n_ctx=2048, n_threads=2, verbose=False)
    notes = sorted(args.vault.rglob("*.md"))
    started = time.perf_counter()
    for i, path in enumerate(notes):
        key = str(path.relative_to(args.vault))
        if key in done:
            continue
        text = excerpt(path)
        lang = detect_language(text, default="en")
        reply = llm.create_chat_completion(
            messages=[
                {"role": "system", "content": PROMPTS[lang].format(n=args.per)},
                {"role": "user", "content": text},
            ],
            temperature=0.0,
            max_tokens=40 * args.per,
        )
        lines = [
            re.sub(r"^\s*(?:\d+[.)]|[-*•])\s*", "", line).strip().strip("*").strip()
            for line in str(reply["choices"][0]["message"]["content"]).splitlines()
        ]
        done[key] = [line for line in lines if len(line) > 8][: args.per]
        args.out.write_text(json.dumps(done, ensure_ascii=False, indent=1), encoding="utf-8")
        seconds = time.perf_counter() - started
        print(f"{i + 1}/{len(notes)} {seconds:.0f}s {key}: {done[key][:1]}", flush=True)


if __name__ == "__main__":
    main()
