"""`mindnet models`: the chat models Mindnet can use — the packaged ones and the GGUF models
already on the machine (Ollama, LM Studio, folders given with --scan) — and, with
`--embedders`, the GGUF embedding models `--embedder gguf:NAME` can use. Needs no vault."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mindnet_desktop.cli.common import print_json


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    models = sub.add_parser(
        "models",
        parents=[common],
        help="chat models: packaged, Ollama, LM Studio, your folders",
        description="Lists the packaged chat models and the GGUF models found in Ollama's "
        "store, LM Studio's models folder and the folders given with --scan: name, size, "
        "quantisation, architecture and whether the bundled llama.cpp knows it. Use a name "
        "with `ask --model NAME` or `bench answers --model NAME`. With --embedders: the "
        "embedding models (bge-m3, multilingual-e5, nomic-embed, embeddinggemma, ...); embed "
        "the vault with one once: `mindnet --embedder gguf:NAME import --reembed`.",
    )
    models.add_argument(
        "--scan", action="append", default=[], metavar="DIR", help="also this folder (repeatable)"
    )
    models.add_argument(
        "--check", action="store_true", help="load each chat model for real (slow; one by one)"
    )
    models.add_argument("--all", action="store_true", help="embedding models and projectors too")
    models.add_argument(
        "--embedders",
        action="store_true",
        help="only the embedding models, each with its --embedder gguf:NAME",
    )


def _size(size: int | None) -> str:
    return (
        f"{size / 2**30:.1f} GB"
        if size and size >= 2**30
        else (f"{size / 2**20:.0f} MB" if size else "–")
    )


def cmd_models(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from mindnet_desktop.core.models.gguf_profile import embedder_spec
    from mindnet_desktop.core.models.local import check_load, discover

    found = discover([Path(d) for d in args.scan])
    embedding = [m for m in found if m.kind == "embedding"]
    if args.embedders:
        found = embedding
    elif not args.all:
        found = [m for m in found if m.kind in ("chat", "unknown")]
    if args.check:
        found = [
            replace(m, check=check_load(m.path))
            if m.path is not None and m.kind == "chat" and m.loadable is not False
            else m
            for m in found
        ]
    if args.json:
        # `embedder`: what --embedder takes for an embedding model (None for the others).
        rows = [
            {**m.as_dict(), "embedder": embedder_spec(m) if m.kind == "embedding" else None}
            for m in found
        ]
        print_json({"models": rows, "scanned": args.scan})
        return 0
    known = {True: "yes", False: "no", None: "?"}
    for m in found:
        usable = m.check if m.check is not None else known[m.loadable]
        print(
            f"{m.name:<44} {m.source:<9} {_size(m.size_bytes):>8} {m.quant or '–':<8} "
            f"{m.architecture or '–':<12} {usable}"
        )
        kind = f"{m.kind} model" if m.kind in ("embedding", "projector") else ""
        extra = " · ".join(x for x in (kind, m.title, m.note, str(m.path) if m.path else "") if x)
        if extra:
            print(f"    {extra}")
        if m.kind == "embedding" and (spec := embedder_spec(m)):
            print(f"    use: mindnet --embedder {spec} import --reembed")
    if not found:
        print("no embedding models found" if args.embedders else "no chat models found")
    elif embedding and not (args.embedders or args.all):
        print(f"{len(embedding)} embedding model(s) too: mindnet models --embedders")
    return 0


COMMANDS = {"models": cmd_models}


def run(args: argparse.Namespace) -> int:
    return COMMANDS[args.command](args)
