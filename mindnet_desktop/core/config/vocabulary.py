"""The edge vocabulary: built-in kinds, custom kinds from the vault and from the user."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from mindnet_desktop.core.config.type_registry import (
    KIND_PATTERN,
    ConfigError,
    bundled_config_dir,
    load_yaml,
)
from mindnet_desktop.core.domain import normalize_kind
from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.core.files import atomic_writer

EDGE_TYPES_FILE = "edge_types.yaml"


class UnknownKindError(MindnetError, ValueError):
    """A kind that is not in the vocabulary; the message lists close matches."""


@dataclass(frozen=True)
class EdgeKind:
    kind: str
    description: str
    example: str = ""
    symmetric: bool = False
    origin: str = "builtin"  # builtin | user | vault


def _kinds(path: Path, origin: str) -> dict[str, EdgeKind]:
    data = load_yaml(path)
    raw = data.get("kinds") or {}
    if not isinstance(raw, dict):
        raise ConfigError(path, "kinds", "a mapping of kind -> {description, example}", raw)
    kinds = {}
    for name, spec in raw.items():
        key = f"kinds.{name}"
        if not isinstance(name, str) or not KIND_PATTERN.match(name):
            raise ConfigError(path, key, "a snake_case kind name", name)
        if not isinstance(spec, dict) or not isinstance(spec.get("description"), str):
            raise ConfigError(path, f"{key}.description", "a one-line description", spec)
        symmetric = spec.get("symmetric", False)
        if not isinstance(symmetric, bool):
            raise ConfigError(path, f"{key}.symmetric", "true or false", symmetric)
        kinds[name] = EdgeKind(
            name, spec["description"], str(spec.get("example", "")), symmetric, origin
        )
    return kinds


@cache
def builtin_kinds() -> frozenset[str]:
    """The kinds of the bundled `edge_types.yaml`."""
    return frozenset(_kinds(bundled_config_dir() / EDGE_TYPES_FILE, "builtin"))


class Vocabulary:
    """Built-in kinds plus the user's (`user_dir/edge_types.yaml`) plus kinds met in the vault.

    Args:
        user_dir: The vault's own config dir, where `edge-types add` writes.
        vault_kinds: Kinds used by edges in the vault (they join automatically).
    """

    def __init__(self, user_dir: Path, vault_kinds: set[str] | None = None) -> None:
        self.user_dir = user_dir
        self.kinds: dict[str, EdgeKind] = _kinds(bundled_config_dir() / EDGE_TYPES_FILE, "builtin")
        user_file = user_dir / EDGE_TYPES_FILE
        if user_file.is_file():
            for name, kind in _kinds(user_file, "user").items():
                self.kinds.setdefault(name, kind)
        for name in sorted(vault_kinds or ()):
            if name not in self.kinds:
                self.kinds[name] = EdgeKind(
                    name, "Custom kind used in the vault.", "", False, "vault"
                )

    @property
    def symmetric(self) -> frozenset[str]:
        return frozenset(k.kind for k in self.kinds.values() if k.symmetric)

    def resolve(self, text: str) -> str:
        """The kind `text` names (aliases like `DependsOn` accepted), or UnknownKindError."""
        kind = normalize_kind(text)
        if kind in self.kinds:
            return kind
        close = difflib.get_close_matches(kind, list(self.kinds), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownKindError(
            f"unknown edge kind '{text}'{hint} (`mindnet edge-types` lists them; "
            "`mindnet edge-types add KIND --description ...` adds one)"
        )

    def add(self, text: str, description: str) -> EdgeKind:
        """Add a custom kind to the vault's config (atomic write); returns it."""
        kind = normalize_kind(text)
        if not KIND_PATTERN.match(kind):
            raise UnknownKindError(f"'{text}' is not a valid kind name (letters, digits, _)")
        if not description.strip():
            raise UnknownKindError("a custom kind needs a description (--description ...)")
        existing = self.kinds.get(kind)
        if existing and existing.origin == "builtin":
            raise UnknownKindError(f"'{kind}' is a built-in kind already")
        path = self.user_dir / EDGE_TYPES_FILE
        data: dict[str, Any] = load_yaml(path) if path.is_file() else {"schema_version": 1}
        data.setdefault("kinds", {})[kind] = {"description": description.strip()}
        with atomic_writer(path, text=True) as handle:
            yaml.safe_dump(data, handle, allow_unicode=True, sort_keys=False)
        self.kinds[kind] = EdgeKind(kind, description.strip(), "", False, "user")
        return self.kinds[kind]
