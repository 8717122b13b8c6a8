"""What a GGUF file says about itself, read from its header (the first KBs, never the weights),
and whether the bundled llama.cpp knows its architecture.

GGUF: magic `GGUF`, version (uint32), tensor count and metadata count (uint64; uint32 in
version 1), then the metadata as key (string), type (uint32), value. The `general.*` keys come
first; the tokenizer's (vocabularies of MBs) come last, so reading stops there.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

READ_LIMIT = 1 << 20  # never read more than this from one file
# llama.cpp's `llama_ftype`: the quantisation most of the weights have.
FILE_TYPES = {
    0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K",
    11: "Q3_K_S", 12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S",
    17: "Q5_K_M", 18: "Q6_K", 19: "IQ2_XXS", 20: "IQ2_XS", 21: "Q2_K_S", 22: "IQ3_XS",
    23: "IQ3_XXS", 24: "IQ1_S", 25: "IQ4_NL", 26: "IQ3_S", 27: "IQ3_M", 28: "IQ2_S",
    29: "IQ2_M", 30: "IQ4_XS", 31: "IQ1_M", 32: "BF16", 36: "TQ1_0", 37: "TQ2_0",
}  # fmt: skip
QUANT_IN_NAME = re.compile(
    r"(?<![A-Za-z0-9])(I?Q\d(?:_[A-Z0-9]+)*|BF16|F16|F32)(?![A-Za-z0-9])", re.IGNORECASE
)
# Scalar value types: (struct format, size).
_SCALARS = {
    0: ("<B", 1), 1: ("<b", 1), 2: ("<H", 2), 3: ("<h", 2), 4: ("<I", 4), 5: ("<i", 4),
    6: ("<f", 4), 7: ("<?", 1), 10: ("<Q", 8), 11: ("<q", 8), 12: ("<d", 8),
}  # fmt: skip
_STRING, _ARRAY = 8, 9


class GgufError(ValueError):
    """Not a GGUF file, or a header that ends or breaks before its metadata."""


@dataclass(frozen=True)
class GgufInfo:
    version: int
    metadata: dict[str, Any]  # the keys read (up to the tokenizer's); arrays are skipped

    @property
    def architecture(self) -> str | None:
        value = self.metadata.get("general.architecture")
        return value if isinstance(value, str) else None

    @property
    def name(self) -> str | None:
        value = self.metadata.get("general.name")
        return value if isinstance(value, str) and value.strip() else None

    @property
    def file_type(self) -> str | None:
        value = self.metadata.get("general.file_type")
        return FILE_TYPES.get(value) if isinstance(value, int) else None

    @property
    def context_length(self) -> int | None:
        value = self.metadata.get(f"{self.architecture}.context_length")
        return value if isinstance(value, int) else None

    @property
    def is_embedding(self) -> bool:
        """An embedding model (pooled, or a BERT-like encoder), not a chat model."""
        arch = self.architecture or ""
        return f"{arch}.pooling_type" in self.metadata or "bert" in arch or arch == "t5encoder"


class _Reader:
    def __init__(self, handle: BinaryIO) -> None:
        self.handle, self.read_bytes = handle, 0

    def take(self, size: int) -> bytes:
        if self.read_bytes + size > READ_LIMIT:
            raise EOFError
        data = self.handle.read(size)
        if len(data) < size:
            raise GgufError("the header ends early")
        self.read_bytes += size
        return data

    def scalar(self, kind: int) -> Any:
        fmt, size = _SCALARS[kind]
        return struct.unpack(fmt, self.take(size))[0]

    def string(self) -> str:
        return self.take(self.scalar(10)).decode("utf-8", "replace")

    def value(self, kind: int) -> Any:
        if kind in _SCALARS:
            return self.scalar(kind)
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item, count = self.scalar(4), self.scalar(10)
            if item in _SCALARS:  # skipped, not kept: only sizes matter here
                self.take(_SCALARS[item][1] * count)
            else:
                for _ in range(count):
                    self.value(item)
            return None
        raise GgufError(f"unknown metadata type {kind}")


def read_gguf_header(path: Path) -> GgufInfo:
    """The metadata before the tokenizer's (at most READ_LIMIT bytes are read).

    Raises:
        GgufError: Not a GGUF file, or its header is cut off or broken.
    """
    with path.open("rb") as handle:
        reader = _Reader(handle)
        if reader.take(4) != b"GGUF":
            raise GgufError(f"{path.name} is not a GGUF file")
        version = reader.scalar(4)
        if version not in (1, 2, 3):
            raise GgufError(f"unknown GGUF version {version}")
        wide = 10 if version > 1 else 4
        reader.scalar(wide)  # tensors
        count = reader.scalar(wide)
        metadata: dict[str, Any] = {}
        try:
            for _ in range(count):
                key = reader.string()
                if key.startswith("tokenizer."):
                    break  # the vocabularies: large, and nothing we need
                metadata[key] = reader.value(reader.scalar(4))
        except EOFError:
            pass  # enough read: what came so far stands
        except (struct.error, KeyError) as exc:
            raise GgufError(f"a broken GGUF header: {exc}") from exc
    return GgufInfo(version, metadata)


def quant_from_name(name: str) -> str | None:
    """`Qwen2.5-7B-Instruct-Q4_K_M.gguf` → `Q4_K_M` (the last such token in the name)."""
    found = QUANT_IN_NAME.findall(name)
    return found[-1].upper() if found else None


@lru_cache(maxsize=1)
def known_architectures() -> frozenset[str] | None:
    """The architecture names in the bundled llama.cpp library (its name table, read from the
    shared library without loading it); None when llama-cpp-python or its library is missing.
    The linker may store a name as the tail of a longer one (`qwen2` inside `rwkv6qwen2`), so
    every tail of a table entry counts (see `architecture_known`)."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("llama_cpp")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    libs = [
        p
        for folder in spec.submodule_search_locations
        for p in sorted(Path(folder, "lib").glob("*llama*"))
        if p.suffix in (".so", ".dylib", ".dll") or ".so." in p.name
    ]
    for lib in libs:
        try:
            data = lib.read_bytes()
        except OSError:
            continue
        start = data.find(b"\x00llama\x00")
        if start < 0:
            continue
        names = []
        for raw in data[start + 1 : start + 8192].split(b"\x00"):
            if not raw or len(raw) > 40 or not re.fullmatch(rb"[a-z0-9_\-]+", raw):
                break  # the table ends where the metadata key names ("general.type") begin
            names.append(raw.decode())
        if len(names) > 5:
            return frozenset(names)
    return None


def architecture_known(architecture: str | None) -> bool | None:
    """Whether the bundled llama.cpp names `architecture` (None: cannot tell)."""
    names = known_architectures()
    if names is None or not architecture:
        return None
    return any(n == architecture or n.endswith(architecture) for n in names)
