"""How a GGUF model embeds, decided from its header (`gguf_header.py`; never the weights), and
which file `--embedder gguf:NAME|PATH` means (a path, or a name discovery gives, `local.py`):

- **dim**: `<arch>.embedding_length`, known before the model loads.
- **pooling**: `<arch>.pooling_type` when the file has it (embedding models converted by
  llama.cpp do); else mean over the tokens for encoders (`bert`, `nomic-bert`, `jina-bert-*`,
  `modern-bert`, `t5encoder`, ...) and the last token for decoder LLMs. A pooling of "none"
  is replaced by that default; "rank" (a reranker) is refused.
- **prefixes**: what the model was trained to see before a query and a passage, by the first
  row of this table whose pattern is in the header's `general.name`, `general.basename`,
  architecture, the file name or the name discovery gave it (lower case, `_` and spaces as
  `-`). No GGUF key for these prompts is common, so it goes by name:

  family           matched by                       query prefix / passage prefix
  embeddinggemma   embedding-gemma, gemma-embedding "task: search result | query: " /
                                                    "title: none | text: "
  nomic-embed      nomic-embed, arch nomic-bert*    "search_query: " / "search_document: "
  e5-instruct      e5 (a word) ... instruct         INSTRUCT + " " / ""
  e5               e5 (multilingual-e5-*, e5-*-v2)  "query: " / "passage: "
  qwen3-embedding  qwen3-embedding                  INSTRUCT / ""
  mxbai-embed      mxbai-embed                      "Represent this sentence for searching
                                                    relevant passages: " / ""
  bge-m3           bge-m3                           "" / ""
  any other                                         "" / ""

  INSTRUCT is `Instruct: Given a web search query, retrieve relevant passages that answer the
  query\\nQuery:` (`SEARCH_INSTRUCT`).

- **name** (stored in the index as `mindnet_embedder`): `gguf:<basename>-<12 hex>`, the hex
  a digest of the file's size, three 1 MiB samples of it (the start with the header, the
  middle, the end: a multi-GB file is never hashed whole), the pooling and the prefixes. Two
  different files, or one file embedded two ways, never share an index. `make_embedder`
  takes that name back for a file discovery finds.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mindnet_desktop.core.models.embedder_base import EmbedderError
from mindnet_desktop.core.models.gguf_header import GgufError, architecture_known, read_gguf_header
from mindnet_desktop.core.models.local import LocalModel, discover

PREFIX = "gguf:"
# llama.cpp's `llama_pooling_type`.
POOLING_NONE, POOLING_MEAN, POOLING_CLS, POOLING_LAST, POOLING_RANK = 0, 1, 2, 3, 4
POOLING_NAMES = {
    POOLING_NONE: "none",
    POOLING_MEAN: "mean",
    POOLING_CLS: "cls",
    POOLING_LAST: "last",
}
ENCODERS = re.compile(r"bert|t5encoder|gemma-embedding")  # architectures that pool by mean
SAMPLE = 1 << 20  # bytes of each of the three samples the name's digest reads
SEARCH_INSTRUCT = (
    "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"
)


@dataclass(frozen=True)
class PromptFamily:
    family: str
    pattern: str  # a regular expression over the model's names (see `model_words`)
    query: str
    passage: str


PROMPT_FAMILIES = (
    PromptFamily(
        "embeddinggemma",
        r"embedding-?gemma|gemma-embedding",
        "task: search result | query: ",
        "title: none | text: ",
    ),
    PromptFamily("nomic-embed", r"nomic-embed|nomic-bert", "search_query: ", "search_document: "),
    PromptFamily(
        "e5-instruct", r"(?<![a-z0-9])e5(?![a-z0-9]).*instruct", SEARCH_INSTRUCT + " ", ""
    ),
    PromptFamily("e5", r"(?<![a-z0-9])e5(?![a-z0-9])", "query: ", "passage: "),
    PromptFamily("qwen3-embedding", r"qwen3-embedding", SEARCH_INSTRUCT, ""),
    PromptFamily(
        "mxbai-embed",
        r"mxbai-embed",
        "Represent this sentence for searching relevant passages: ",
        "",
    ),
    PromptFamily("bge-m3", r"bge-m3", "", ""),
)


@dataclass(frozen=True)
class GgufProfile:
    """How a GGUF file embeds: everything `GgufEmbedder` needs, read from its header."""

    path: Path
    name: str  # gguf:<basename>-<12 hex>
    architecture: str
    dim: int
    pooling: int  # llama.cpp's pooling type
    pooling_from_file: bool  # the header named it (else the architecture's default)
    family: str | None  # the row of PROMPT_FAMILIES that matched
    query_prefix: str
    passage_prefix: str
    context_length: int | None
    is_chat_model: bool  # a decoder LLM without pooling: it embeds, but was not trained to


def model_words(metadata: dict[str, Any], path: Path, hint: str = "") -> str:
    """The model's names, lower case, `_` and spaces as `-`, one per line."""
    names = [metadata.get(k) for k in ("general.name", "general.basename", "general.architecture")]
    names += [path.stem, hint]
    return "\n".join(re.sub(r"[\s_]+", "-", n.casefold()) for n in names if isinstance(n, str))


def prompt_family(metadata: dict[str, Any], path: Path, hint: str = "") -> PromptFamily | None:
    """The first row of PROMPT_FAMILIES whose pattern is in the model's names."""
    words = model_words(metadata, path, hint)
    return next((f for f in PROMPT_FAMILIES if re.search(f.pattern, words)), None)


def default_pooling(architecture: str) -> int:
    """Mean for encoders (bert-likes), the last token for decoder LLMs."""
    return POOLING_MEAN if ENCODERS.search(architecture) else POOLING_LAST


def content_digest(path: Path, size: int) -> str:
    """sha256 over the size and three samples of the file (start, middle, end)."""
    digest = hashlib.sha256(str(size).encode())
    with path.open("rb") as handle:
        for offset in sorted({0, max(0, size // 2 - SAMPLE // 2), max(0, size - SAMPLE)}):
            handle.seek(offset)
            digest.update(handle.read(SAMPLE))
    return digest.hexdigest()


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", text.casefold()).strip("-.") or "model"


def model_basename(metadata: dict[str, Any], path: Path) -> str:
    """`general.basename` (with `general.size_label` when not in it), else `general.name`,
    else the file name: `qwen2.5-coder-1.5b`, `bge-m3`."""
    base = metadata.get("general.basename") or metadata.get("general.name") or path.stem
    size_label = metadata.get("general.size_label")
    text = str(base)
    if isinstance(size_label, str) and size_label.casefold() not in text.casefold():
        text = f"{text}-{size_label}"
    return slug(text)


@lru_cache(maxsize=64)
def _profile(path: Path, size: int, mtime_ns: int, hint: str) -> GgufProfile:
    try:
        info = read_gguf_header(path)
    except GgufError as exc:
        raise EmbedderError(f"{path} is not a GGUF model: {exc}") from exc
    arch = info.architecture
    if not arch:
        raise EmbedderError(f"{path} names no architecture (general.architecture)")
    if arch == "clip":
        raise EmbedderError(f"{path} is a vision projector, not a language model")
    if architecture_known(arch) is False:
        raise EmbedderError(
            f"The bundled llama.cpp cannot load '{arch}' models ({path.name}); "
            "a newer llama-cpp-python may"
        )
    dim = info.metadata.get(f"{arch}.embedding_length")
    if not isinstance(dim, int) or dim <= 0:
        raise EmbedderError(f"{path} gives no {arch}.embedding_length")
    stored = info.metadata.get(f"{arch}.pooling_type")
    if stored == POOLING_RANK:
        raise EmbedderError(f"{path.name} is a reranker, not an embedding model")
    from_file = isinstance(stored, int) and stored in POOLING_NAMES and stored != POOLING_NONE
    pooling = stored if isinstance(stored, int) and from_file else default_pooling(arch)
    family = prompt_family(info.metadata, path, hint)
    query, passage = (family.query, family.passage) if family else ("", "")
    how = f"{content_digest(path, size)}\0{pooling}\0{query}\0{passage}"
    return GgufProfile(
        path=path,
        name=f"{PREFIX}{model_basename(info.metadata, path)}-{sha256_hex(how)[:12]}",
        architecture=arch,
        dim=dim,
        pooling=pooling,
        pooling_from_file=from_file,
        family=family.family if family else None,
        query_prefix=query,
        passage_prefix=passage,
        context_length=info.context_length,
        is_chat_model=not info.is_embedding and not ENCODERS.search(arch),
    )


def read_profile(path: Path, hint: str = "") -> GgufProfile:
    """How the GGUF at `path` embeds (`hint`: the name discovery gave it, for the prefixes
    of a file whose name says nothing, like an Ollama blob). Only the header and the name's
    samples are read; a file read before and unchanged is not read again.

    Raises:
        EmbedderError: The file is missing, not a GGUF, no language model, or of an
            architecture the bundled llama.cpp does not know.
    """
    path = path.expanduser().resolve()
    try:
        stat = path.stat()
    except OSError as exc:
        raise EmbedderError(f"The embedding model {path} is not there: {exc.strerror}") from exc
    if not path.is_file():
        raise EmbedderError(f"The embedding model {path} is not a file")
    return _profile(path, stat.st_size, stat.st_mtime_ns, hint)


def gguf_candidates(folders: Iterable[Path] = ()) -> list[LocalModel]:
    """The detected GGUFs an embedder may use: embedding models first, then chat models."""
    found = [
        m
        for m in discover(folders, packaged=False)
        if m.path is not None and m.kind in ("embedding", "chat") and m.loadable is not False
    ]
    return sorted(found, key=lambda m: m.kind != "embedding")


def embedder_spec(model: LocalModel) -> str | None:
    """What `--embedder` takes for a detected GGUF: `gguf:NAME` where discovery finds it
    again by that name (Ollama, LM Studio), else `gguf:PATH`; None for a projector or a file
    that is no model."""
    if model.path is None or model.kind not in ("embedding", "chat"):
        return None
    return PREFIX + (model.name if model.source in ("ollama", "lmstudio") else str(model.path))


def resolve_gguf(spec: str, folders: Iterable[Path] = ()) -> GgufProfile:
    """`gguf:SPEC`: SPEC is a GGUF path, a name `mindnet models` lists (or its last part when
    that is unique), or the name an index stores (`<basename>-<12 hex>`) of a detected file.

    Raises:
        EmbedderError: Nothing matches, or the file cannot embed (see `read_profile`).
    """
    spec = spec.removeprefix(PREFIX).strip()
    if not spec:
        raise EmbedderError("gguf: needs a model name or a path (gguf:NAME or gguf:PATH)")
    path = Path(spec).expanduser()
    if path.exists():
        return read_profile(path)
    models = gguf_candidates(folders)
    exact = [m for m in models if m.name == spec]
    tail = [m for m in models if m.name.rsplit("/", 1)[-1] == spec]
    chosen = exact[:1] or (tail if len(tail) == 1 else [])
    if chosen and chosen[0].path is not None:
        return read_profile(chosen[0].path, chosen[0].name)
    if re.search(r"-[0-9a-f]{12}$", spec):
        for model in models:
            try:
                profile = read_profile(model.path, model.name) if model.path else None
            except EmbedderError:
                continue
            if profile is not None and profile.name == PREFIX + spec:
                return profile
    if path.suffix.lower() == ".gguf" or path.is_absolute() or spec.startswith("."):
        return read_profile(path)  # a path that is not there: say so
    raise EmbedderError(
        f"No GGUF model '{spec}' found in Ollama or LM Studio (see `mindnet models "
        "--embedders`); give the file's path: --embedder gguf:/path/to/model.gguf"
    )
