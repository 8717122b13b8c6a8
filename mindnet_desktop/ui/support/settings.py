"""The app's settings: a typed wrapper over `QSettings`.

Tests pass their own `QSettings` (an ini file in tmp_path), so they never touch the user's.
Retriever weights are stored here and written by the core into the vault's config dir
(`Mindnet.set_retriever_weights`), where the retriever reads them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale, QSettings

from mindnet_desktop.core.chat.rewrite import EXPANSIONS
from mindnet_desktop.core.config.retriever import OPTIONAL_TERMS, TERMS
from mindnet_desktop.core.models.embedders import CHOICES, DEFAULT_EMBEDDER
from mindnet_desktop.core.models.gguf_profile import embedder_spec
from mindnet_desktop.core.models.local import embedding_models
from mindnet_desktop.core.service.vault.embedder_choice import AUTO

ORGANIZATION = "Mindnet"
APPLICATION = "mindnet-desktop"
LANGUAGES = ("de", "en")
LINK_TARGETS = ("preview", "obsidian")
DEFAULT_LINK_TARGET = "preview"  # in the app, at the sentence; Obsidian may not be installed
MAX_RECENT = 8
DEFAULT_THREADS = 2
DEFAULT_CONTEXT = 4096


def embedder_names(detected: bool = True) -> list[str]:
    """The embedders the core offers to users (`hash` is for tests only) and `auto` (one of
    them by the vault's language), then, if `detected`, the GGUF embedding models found in
    Ollama and LM Studio (`gguf:NAME`; only their headers are read)."""
    names = [*CHOICES, AUTO]
    if detected:
        names += [spec for m in embedding_models() if (spec := embedder_spec(m))]
    return names


def system_language() -> str:
    return "de" if QLocale.system().language() == QLocale.Language.German else "en"


class AppSettings:
    """Typed access to the persisted settings.

    Args:
        store: The `QSettings` to use (default: the user's, by organisation and app name).
    """

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store or QSettings(ORGANIZATION, APPLICATION)

    @classmethod
    def from_file(cls, path: Path) -> AppSettings:
        """Settings in an ini file (tests, portable installs)."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    def sync(self) -> None:
        self.store.sync()

    def _get(self, key: str, default: object) -> object:
        value = self.store.value(key, default)
        return default if value is None else value

    def _str(self, key: str, default: str) -> str:
        return str(self._get(key, default))

    def _int(self, key: str, default: int) -> int:
        try:
            return int(self._get(key, default))  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return default

    def _bool(self, key: str, default: bool) -> bool:
        value = self._get(key, default)
        if isinstance(value, str):  # ini files store booleans as text
            return value.lower() in ("true", "1", "yes")
        return bool(value)

    # The vault and recent vaults
    @property
    def vault(self) -> Path | None:
        value = self._str("vault", "")
        return Path(value) if value else None

    @vault.setter
    def vault(self, path: Path | None) -> None:
        self.store.setValue("vault", str(path) if path else "")
        if path:
            self.add_recent(path)

    @property
    def recent_vaults(self) -> list[Path]:
        value = self._get("recent_vaults", [])
        items = [value] if isinstance(value, str) else list(value)  # type: ignore[call-overload]
        return [Path(v) for v in items if v]

    def add_recent(self, path: Path) -> None:
        recent = [p for p in self.recent_vaults if p != path]
        self.store.setValue("recent_vaults", [str(p) for p in [path, *recent][:MAX_RECENT]])

    # Models
    @property
    def chat_model(self) -> str:
        """`default` (the packaged chat model) or the path of a GGUF file."""
        return self._str("chat/model", "default")

    @chat_model.setter
    def chat_model(self, value: str) -> None:
        self.store.setValue("chat/model", value or "default")

    @property
    def chat_model_path(self) -> Path | None:
        return None if self.chat_model == "default" else Path(self.chat_model)

    @property
    def embedder(self) -> str:
        return self._str("embedder", DEFAULT_EMBEDDER)

    @embedder.setter
    def embedder(self, value: str) -> None:
        self.store.setValue("embedder", value)

    @property
    def threads(self) -> int:
        return self._int("chat/threads", DEFAULT_THREADS)

    @threads.setter
    def threads(self, value: int) -> None:
        self.store.setValue("chat/threads", int(value))

    @property
    def preload_chat_model(self) -> bool:
        """Load the chat model in the background once a vault is open (the first answer
        then starts sooner; the model's memory is taken at start)."""
        return self._bool("chat/preload", True)

    @preload_chat_model.setter
    def preload_chat_model(self, value: bool) -> None:
        self.store.setValue("chat/preload", bool(value))

    @property
    def context_size(self) -> int:
        return self._int("chat/context_size", DEFAULT_CONTEXT)

    @context_size.setter
    def context_size(self, value: int) -> None:
        self.store.setValue("chat/context_size", int(value))

    # Indexing
    @property
    def embed_workers(self) -> int | None:
        """Embedding processes of a large import at most (0: in the importing process), or
        None for the core's default (`default_workers`)."""
        value = self._int("index/embed_workers", -1)
        return None if value < 0 else value

    @embed_workers.setter
    def embed_workers(self, value: int | None) -> None:
        self.store.setValue("index/embed_workers", -1 if value is None else int(value))

    # Retrieval
    @property
    def retriever_weights(self) -> dict[str, float] | None:
        """The user's term weights, or None to keep the config file's."""
        if not self._bool("retriever/custom", False):
            return None
        out = {}
        for term in TERMS:
            try:
                # A term newer than the saved weights: as an older retriever.yaml would have it.
                default = OPTIONAL_TERMS.get(term, 0.0)
                out[term] = float(self._get(f"retriever/{term}", default))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return None
        return out

    @retriever_weights.setter
    def retriever_weights(self, weights: dict[str, float] | None) -> None:
        self.store.setValue("retriever/custom", weights is not None)
        for term, value in (weights or {}).items():
            self.store.setValue(f"retriever/{term}", float(value))

    @property
    def expansion(self) -> str | None:
        """Ask-time expansion (none, keywords, answer), or None to keep the config file's
        (`prompts.yaml`, shipped `none`)."""
        value = self._str("chat/expansion", "")
        return value if value in EXPANSIONS else None

    @expansion.setter
    def expansion(self, value: str | None) -> None:
        self.store.setValue("chat/expansion", value or "")

    # Behaviour
    @property
    def language(self) -> str:
        value = self._str("language", "")
        return value if value in LANGUAGES else system_language()

    @language.setter
    def language(self, value: str) -> None:
        self.store.setValue("language", value)

    @property
    def read_only_vault(self) -> bool:
        return self._bool("read_only_vault", False)

    @read_only_vault.setter
    def read_only_vault(self, value: bool) -> None:
        self.store.setValue("read_only_vault", bool(value))

    @property
    def link_target(self) -> str:
        """Where a source or citation opens: "preview" (the app, at the sentence the answer
        rests on; the default) or "obsidian" (kept for those who saved it)."""
        value = self._str("link_target", DEFAULT_LINK_TARGET)
        return value if value in LINK_TARGETS else DEFAULT_LINK_TARGET

    @link_target.setter
    def link_target(self, value: str) -> None:
        self.store.setValue("link_target", value)
