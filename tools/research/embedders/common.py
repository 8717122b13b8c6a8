"""Shared helpers for the embedder research (dev halves only).

Question sets are read through the product's loader and filtered to `split: dev`
immediately: test questions never leave `load_dev`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

MAIN = Path(__file__).resolve().parents[3]  # the checkout
HERE = Path(__file__).resolve().parent
DATA = HERE / "data"  # product indexes (one per vault and embedder)
OUT = HERE / "out"  # results (JSON) and caches (npy)
sys.path.insert(0, str(MAIN))
# the extra packages (model weights) live outside the product's venv
sys.path.insert(
    0, os.environ.get("MINDNET_RESEARCH_PKGS", str(Path.home() / ".cache/mindnet-research/pkgs"))
)

from mindnet_desktop.bench.quality import Scores, load_qa_set  # noqa: E402

NEED_SETS = ["rust-book-en", "pydocs", "rust-book-de", "example_vault"]
SETS = {
    **{f"needs/{s}": MAIN / "resources/qa/needs" / f"{s}.yaml" for s in NEED_SETS},
    **{f"old/{s}": MAIN / "resources/qa" / f"{s}.yaml" for s in NEED_SETS},
}


def load_dev(key: str):
    """(vault path, [dev questions]) of one set: test questions are dropped here."""
    qa = load_qa_set(SETS[key], MAIN)
    dev = [q for q in qa.questions if q.split == "dev"]
    return qa.vault, dev


def vault_name(vault: Path) -> str:
    return vault.name


def open_mindnet(vault: Path, embedder_name: str, threads: int = 2):
    from mindnet_desktop.core.ingest.importer import ImportOptions
    from mindnet_desktop.core.models.embedders import make_embedder

    try:  # the package is being reorganised
        from mindnet_desktop.core.service.vault.mindnet import Mindnet
    except ImportError:
        from mindnet_desktop.core.service.mindnet import Mindnet
    from mindnet_desktop.core.domain import drain

    data = DATA / f"{vault.name}-{embedder_name}"
    emb = make_embedder(embedder_name, threads=threads)
    mn = Mindnet(vault, data, None, emb, write=True, read_only_vault=True)
    summary = drain(mn.import_vault(ImportOptions(sync_deletes=True)))
    return mn, summary


def dump_chunks(mn) -> list[dict]:
    """Every chunk: id, note id, vault path, and the text the product embeds."""
    from mindnet_desktop.core.ingest.embedding import embedding_text

    rows = []
    for nid in sorted(mn.records):
        rec = mn.records[nid]
        for c in mn.chunks(nid):
            rows.append(
                {
                    "chunk_id": f"{c.note_id}#{c.seq}",
                    "note_id": nid,
                    "path": rec.note.path,
                    "text": embedding_text(rec.note, c),
                }
            )
    return rows


def summarize(ranks: list) -> dict:
    s = Scores()
    s.ranks.extend(ranks)
    return s.summary()


def save_json(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(obj, indent=1, ensure_ascii=False))
    os.replace(tmp, path)


def load_json(path: Path):
    return json.loads(path.read_text())
