"""GGUF chat models already on the machine: Ollama's model store, LM Studio's models folder,
folders the user names, beside the packaged ones (`weights.py`).

- Ollama (`$OLLAMA_MODELS` or `~/.ollama/models`): each manifest under
  `manifests/<registry>/<namespace>/<model>/<tag>` is JSON naming its layers; the layer with
  media type `application/vnd.ollama.image.model` is the GGUF blob `blobs/sha256-<hex>`.
  Named as Ollama does: `llama3.2:3b` (`namespace/model:tag` outside `library`).
- LM Studio (`~/.lmstudio/models`, `~/.cache/lm-studio/models`):
  `<publisher>/<repo>/<file>.gguf`, named `<publisher>/<repo>/<file>`.
- A folder: every `*.gguf` below it, named by its path in the folder without `.gguf`.

Only headers are read (`gguf_header.py`); a real load is `check_load`, on request.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from mindnet_desktop.core.models.gguf_header import (
    GgufError,
    architecture_known,
    quant_from_name,
    read_gguf_header,
)
from mindnet_desktop.core.models.weights import (
    ALIASES,
    PACKAGED,
    ModelError,
    cache_dir,
    part_paths,
    resolve_model_path,
)

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
# A split model's later parts load through its first (`…-00001-of-00003.gguf`).
LATER_SPLIT = re.compile(r"-0*(?:[2-9]|[1-9]\d+)-of-\d+\.gguf$", re.IGNORECASE)
MAX_FOLDER_FILES = 2000


@dataclass(frozen=True)
class LocalModel:
    """A chat model the user can pick, by `name` (or its path)."""

    name: str
    source: str  # packaged | ollama | lmstudio | folder
    path: Path | None  # None: a packaged model that is not installed or not joined yet
    size_bytes: int | None
    quant: str | None
    architecture: str | None
    title: str | None  # the GGUF's general.name
    kind: str  # chat | embedding | projector | unknown
    loadable: bool | None  # the architecture is known to the bundled llama.cpp (None: unknown)
    note: str = ""  # why it cannot be used, or how to install it
    check: str | None = None  # `check_load`: "ok" or what went wrong

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["path"] = str(self.path) if self.path else None
        return data


def ollama_root() -> Path:
    return Path(os.environ.get("OLLAMA_MODELS") or Path.home() / ".ollama" / "models")


def lmstudio_roots() -> list[Path]:
    home = Path.home()
    return [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"]


def describe(path: Path, name: str, source: str, quant_hint: str | None = None) -> LocalModel:
    """A model from its GGUF header (a file that is no GGUF is listed with the reason)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return LocalModel(name, source, path, None, None, None, None, "unknown", False, str(exc))
    try:
        info = read_gguf_header(path)
    except (GgufError, OSError) as exc:
        return LocalModel(name, source, path, size, None, None, None, "unknown", False, str(exc))
    arch = info.architecture
    kind = "projector" if arch == "clip" else "embedding" if info.is_embedding else "chat"
    known = architecture_known(arch)
    note = "" if known is not False else f"llama.cpp here does not know '{arch}'"
    quant = info.file_type or quant_hint or quant_from_name(path.name)
    return LocalModel(name, source, path, size, quant, arch, info.name, kind, known, note)


def scan_ollama(root: Path | None = None) -> list[LocalModel]:
    root = root or ollama_root()
    manifests = root / "manifests"
    found = []
    for manifest in sorted(p for p in manifests.glob("*/*/*/*") if p.is_file()):
        registry, namespace, model, tag = manifest.relative_to(manifests).parts
        try:
            layers = json.loads(manifest.read_text(encoding="utf-8")).get("layers", [])
            digest = next(x["digest"] for x in layers if x.get("mediaType") == OLLAMA_MODEL_LAYER)
        except (OSError, ValueError, StopIteration, KeyError, TypeError, AttributeError):
            continue  # not a model (or a damaged manifest)
        name = f"{model}:{tag}" if namespace == "library" else f"{namespace}/{model}:{tag}"
        if registry != "registry.ollama.ai":
            name = f"{registry}/{name}"
        blob = root / "blobs" / str(digest).replace(":", "-")
        if blob.is_file():
            found.append(describe(blob, name, "ollama", quant_from_name(tag)))
    return found


def scan_folder(root: Path, source: str = "folder") -> list[LocalModel]:
    """Every GGUF below `root` (the first part of a split model; no more than a few
    thousand files are looked at)."""
    found = []
    for count, path in enumerate(_gguf_files(root)):
        if count >= MAX_FOLDER_FILES:
            break
        if LATER_SPLIT.search(path.name):
            continue
        name = path.relative_to(root).with_suffix("").as_posix()
        found.append(describe(path, name, source))
    return found


def _gguf_files(root: Path) -> Iterator[Path]:
    if not root.is_dir():
        return
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for file in sorted(files):
            if file.lower().endswith(".gguf"):
                yield Path(folder) / file


def packaged_models() -> list[LocalModel]:
    """The packaged models (default, small, test), installed or not."""
    out = []
    for alias, key in ALIASES.items():
        model = PACKAGED[key]
        try:
            parts = part_paths(model)
        except ModelError:
            out.append(_packaged(alias, model.title, None, f"not installed: {model.install_hint}"))
            continue
        if len(parts) == 1:
            out.append(replace(describe(parts[0], alias, "packaged"), title=model.title))
            continue
        joined = cache_dir() / f"{model.name}.gguf"
        if joined.is_file():
            out.append(replace(describe(joined, alias, "packaged"), title=model.title))
        else:
            size = sum(p.stat().st_size for p in parts)
            out.append(_packaged(alias, model.title, size, "joined from its parts at first use"))
    return out


def _packaged(alias: str, title: str | None, size: int | None, note: str) -> LocalModel:
    quant = quant_from_name(PACKAGED[ALIASES[alias]].name)
    return LocalModel(alias, "packaged", None, size, quant, None, title, "chat", None, note)


def discover(folders: Iterable[Path] = (), packaged: bool = True) -> list[LocalModel]:
    """Packaged models, then Ollama's, LM Studio's and those in `folders`; one entry per
    file (the first name found wins)."""
    found = packaged_models() if packaged else []
    found += scan_ollama()
    for root in lmstudio_roots():
        found += scan_folder(root, "lmstudio")
    for root in folders:
        found += scan_folder(Path(root).expanduser(), "folder")
    seen: set[Path] = set()
    unique = []
    for model in found:
        key = model.path.resolve() if model.path else None
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        unique.append(model)
    return unique


def chat_models(folders: Iterable[Path] = ()) -> list[LocalModel]:
    """The detected models a chat can use (found on disk, a chat model, not known to fail)."""
    return [
        m
        for m in discover(folders, packaged=False)
        if m.kind == "chat" and m.loadable is not False and m.path is not None
    ]


def embedding_models(folders: Iterable[Path] = ()) -> list[LocalModel]:
    """The detected embedding models (found on disk, not known to fail): `--embedder gguf:`."""
    return [
        m
        for m in discover(folders, packaged=False)
        if m.kind == "embedding" and m.loadable is not False and m.path is not None
    ]


def find_model(spec: str, folders: Iterable[Path] = ()) -> LocalModel | None:
    """A detected model by its name, or by the last part of it when that is unique
    (`Qwen2.5-7B-Instruct-Q4_K_M` for an LM Studio file)."""
    models = [m for m in discover(folders, packaged=False) if m.path is not None]
    exact = [m for m in models if m.name == spec]
    if exact:
        return exact[0]
    tail = [m for m in models if m.name.rsplit("/", 1)[-1] == spec]
    return tail[0] if len(tail) == 1 else None


def resolve_chat_model(spec: str | None) -> Path:
    """`--model`: a packaged model's name, a GGUF path, or the name of a detected model."""
    spec = spec or os.environ.get("MINDNET_MODEL") or "default"
    if spec not in ALIASES and spec not in PACKAGED and not Path(spec).expanduser().exists():
        found = find_model(spec)
        if found is not None and found.path is not None:
            return resolve_model_path(str(found.path))
    return resolve_model_path(spec)


def check_load(path: Path, timeout: float = 300.0) -> str:
    """Load the model for real, in a child process (a file llama.cpp cannot read may crash
    it): "ok", or what went wrong."""
    code = (
        "import sys\nfrom llama_cpp import Llama\n"
        "Llama(model_path=sys.argv[1], n_ctx=256, n_threads=1, n_batch=8, verbose=False)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"},
        )
    except subprocess.TimeoutExpired:
        return f"no answer within {timeout:.0f} s"
    if done.returncode == 0:
        return "ok"
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else f"exit code {done.returncode}"
