"""Typed, validated configuration loaded from the YAML files in `config/`.

A bad file raises `ConfigError` naming the file, the key and what was expected. The config
dir can be overridden (`--config DIR` / `MINDNET_CONFIG_DIR`); a file missing there falls
back to the bundled default.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mindnet_desktop.core.errors import MindnetError
from mindnet_desktop.resources import CONFIG_DIR

SCHEMA_VERSION = 1
KIND_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
DEFAULT_TYPE = "default"


class ConfigError(MindnetError, ValueError):
    """A config file that cannot be used; the message names file, key and expectation."""

    def __init__(self, file: Path | str, key: str, expected: str, got: Any = None) -> None:
        self.file, self.key, self.expected = str(file), key, expected
        detail = f" (got {got!r})" if got is not None else ""
        super().__init__(f"{file}: key '{key}': expected {expected}{detail}")


@dataclass(frozen=True)
class ChunkProfile:
    name: str
    target_chars: int
    max_chars: int


@dataclass(frozen=True)
class TypeSpec:
    name: str
    chunk_profile: str
    retriever_weight: float
    edge_defaults: tuple[str, ...]


@dataclass(frozen=True)
class TypeRegistry:
    """The Mindnet types (`config/types.yaml`)."""

    types: dict[str, TypeSpec]
    chunk_profiles: dict[str, ChunkProfile]
    source: str = ""

    def spec(self, type_name: str) -> TypeSpec:
        """The spec of `type_name`, or of `default` for an unknown or empty type."""
        return self.types.get(type_name) or self.types[DEFAULT_TYPE]

    def profile(self, type_name: str) -> ChunkProfile:
        return self.chunk_profiles[self.spec(type_name).chunk_profile]


def bundled_config_dir() -> Path:
    """The config dir shipped with the app (checkout or installed package, see resources)."""
    return CONFIG_DIR


def resolve_config_dir(explicit: str | Path | None = None) -> Path | None:
    """The user's override dir (`--config` beats `MINDNET_CONFIG_DIR`), or None."""
    value = explicit or os.environ.get("MINDNET_CONFIG_DIR")
    return Path(value).expanduser() if value else None


def config_file(name: str, config_dir: Path | None) -> Path:
    """Path of config file `name`: the override dir's copy if present, else the bundled one."""
    if config_dir is not None:
        if not config_dir.is_dir():
            raise ConfigError(config_dir, "config_dir", "an existing directory")
        candidate = config_dir / name
        if candidate.is_file():
            return candidate
    return bundled_config_dir() / name


# libyaml's parser when PyYAML has it: the same documents, ~10x faster (the config files cost
# ~50 ms of every command's start in pure Python).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path: Path) -> dict[str, Any]:
    """Read a YAML mapping; syntax errors become a `ConfigError` with line information."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except FileNotFoundError:
        raise ConfigError(path, "<file>", "an existing file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            path, "<file>", f"UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(path, "<file>", f"valid YAML ({exc})".replace("\n", " ")) from None
    if not isinstance(data, dict):
        raise ConfigError(path, "<root>", "a mapping", type(data).__name__)
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ConfigError(path, "schema_version", f"{SCHEMA_VERSION}", version)
    return data


def mapping(path: Path, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(path, key, "a mapping", value)
    return value


def number(path: Path, key: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError(path, key, f"a number between {low} and {high}", value)
    return float(value)


def integer(path: Path, key: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(path, key, f"an integer >= {low}", value)
    return value


def _profiles(path: Path, raw: Any) -> dict[str, ChunkProfile]:
    profiles: dict[str, ChunkProfile] = {}
    for name, spec in mapping(path, "chunk_profiles", raw).items():
        key = f"chunk_profiles.{name}"
        spec = mapping(path, key, spec)
        unknown = set(spec) - {"target_chars", "max_chars"}
        if unknown:
            raise ConfigError(path, f"{key}.{sorted(unknown)[0]}", "one of target_chars, max_chars")
        target = integer(path, f"{key}.target_chars", spec.get("target_chars"), 50)
        maximum = integer(path, f"{key}.max_chars", spec.get("max_chars"), 50)
        if maximum < target:
            raise ConfigError(
                path, f"{key}.max_chars", f"an integer >= target_chars ({target})", maximum
            )
        profiles[str(name)] = ChunkProfile(str(name), target, maximum)
    return profiles


def _type_spec(path: Path, name: str, spec: Any, profiles: dict[str, ChunkProfile]) -> TypeSpec:
    key = f"types.{name}"
    spec = mapping(path, key, spec)
    profile = spec.get("chunk_profile")
    if not isinstance(profile, str) or profile not in profiles:
        raise ConfigError(path, f"{key}.chunk_profile", f"one of {sorted(profiles)}", profile)
    weight = number(path, f"{key}.retriever_weight", spec.get("retriever_weight"), 0.0, 10.0)
    defaults = spec.get("edge_defaults", [])
    if not isinstance(defaults, list):
        raise ConfigError(path, f"{key}.edge_defaults", "a list of edge kinds", defaults)
    for kind in defaults:
        if not isinstance(kind, str) or not KIND_PATTERN.match(kind):
            raise ConfigError(path, f"{key}.edge_defaults", "snake_case edge kinds", kind)
    return TypeSpec(name, profile, weight, tuple(defaults))


def load_types(config_dir: Path | None = None) -> TypeRegistry:
    """Load and validate `types.yaml`.

    Args:
        config_dir: The user's override dir, or None for the bundled config.

    Returns:
        The type registry.

    Raises:
        ConfigError: The file is missing, not YAML, or a key has a wrong value.
    """
    path = config_file("types.yaml", config_dir)
    data = load_yaml(path)
    profiles = _profiles(path, data.get("chunk_profiles"))
    raw_types = mapping(path, "types", data.get("types"))
    types = {
        str(name).lower(): _type_spec(path, str(name).lower(), spec, profiles)
        for name, spec in raw_types.items()
    }
    if DEFAULT_TYPE not in types:
        raise ConfigError(path, f"types.{DEFAULT_TYPE}", "a definition of the fallback type")
    return TypeRegistry(types, profiles, str(path))
