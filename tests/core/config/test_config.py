"""Tests for the type registry loader (`config/types.yaml`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.core.config.type_registry import (
    ConfigError,
    bundled_config_dir,
    load_types,
    resolve_config_dir,
)

# type -> (retriever_weight, chunk_profile, edge_defaults), the table of docs/notes.md
EXPECTED_TYPES = {
    "concept": (0.60, "medium", ("references", "related_to")),
    "project": (0.97, "long", ("references", "depends_on")),
    "decision": (1.00, "medium", ("caused_by", "references")),
    "experience": (0.90, "medium", ("derived_from", "references")),
    "journal": (0.80, "short", ("references",)),
    "value": (1.00, "short", ("related_to",)),
    "principle": (1.00, "short", ("related_to",)),
    "goal": (0.95, "short", ("related_to",)),
    "belief": (0.90, "short", ("related_to",)),
    "risk": (0.90, "short", ("related_to",)),
    "profile": (0.80, "medium", ("references",)),
    "person": (0.50, "medium", ("references",)),
    "source": (0.50, "medium", ("references",)),
    "glossary": (0.50, "medium", ("references",)),
    "event": (0.60, "short", ("references",)),
    "task": (0.70, "short", ("depends_on",)),
    "default": (1.00, "medium", ()),
}

BUNDLED_TEXT = (bundled_config_dir() / "types.yaml").read_text(encoding="utf-8")
PROJECT_LINE = (
    "  project:    {chunk_profile: long,   retriever_weight: 0.97, "
    "edge_defaults: [references, depends_on]}"
)
DEFAULT_LINE = "  default:    {chunk_profile: medium, retriever_weight: 1.00, edge_defaults: []}"


def write_types(config_dir: Path, text: str) -> Path:
    path = config_dir / "types.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def bundled_with(old: str, new: str) -> str:
    """The bundled types.yaml with one exact snippet replaced (fails loudly if absent)."""
    assert old in BUNDLED_TEXT, f"fixture drift: {old!r} not in bundled types.yaml"
    return BUNDLED_TEXT.replace(old, new, 1)


def config_error(config_dir: Path) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_types(config_dir)
    return info.value


def test_bundled_registry_has_exactly_the_17_types() -> None:
    registry = load_types()
    assert sorted(registry.types) == sorted(EXPECTED_TYPES)
    assert len(registry.types) == 17
    assert registry.source == str(bundled_config_dir() / "types.yaml")


@pytest.mark.parametrize("name", sorted(EXPECTED_TYPES))
def test_bundled_type_spec_matches_architecture_table(name: str) -> None:
    weight, profile, defaults = EXPECTED_TYPES[name]
    spec = load_types().spec(name)
    assert spec.name == name
    assert spec.retriever_weight == pytest.approx(weight)
    assert spec.chunk_profile == profile
    assert spec.edge_defaults == defaults


def test_bundled_chunk_profiles() -> None:
    profiles = load_types().chunk_profiles
    assert {name: (p.target_chars, p.max_chars) for name, p in profiles.items()} == {
        "short": (600, 900),
        "medium": (1200, 1800),
        "long": (2000, 3000),
    }
    assert all(p.name == name for name, p in profiles.items())


@pytest.mark.parametrize("type_name", ["banana", "", "Project"])
def test_unknown_type_gets_the_default_spec(type_name: str) -> None:
    registry = load_types()
    assert registry.spec(type_name) is registry.types["default"]
    assert registry.profile(type_name).name == "medium"


def test_profile_of_known_type() -> None:
    assert load_types().profile("project").max_chars == 3000
    assert load_types().profile("journal").name == "short"


def test_override_dir_is_used(tmp_path: Path) -> None:
    text = bundled_with(PROJECT_LINE, PROJECT_LINE.replace("0.97", "0.33"))
    path = write_types(tmp_path, text.replace("  concept:", "  Concept:"))
    registry = load_types(tmp_path)
    assert registry.source == str(path)
    assert registry.spec("project").retriever_weight == pytest.approx(0.33)
    assert "concept" in registry.types  # type names are lower-cased
    assert "Concept" not in registry.types


def test_config_dir_without_types_yaml_falls_back_to_bundled(tmp_path: Path) -> None:
    (tmp_path / "retriever.yaml").write_text("schema_version: 1\n", encoding="utf-8")
    registry = load_types(tmp_path)
    assert registry.source == str(bundled_config_dir() / "types.yaml")
    assert sorted(registry.types) == sorted(EXPECTED_TYPES)


def test_missing_config_dir_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    error = config_error(missing)
    assert error.key == "config_dir"
    assert str(missing) in str(error)
    assert "an existing directory" in str(error)


BAD_FILES = [
    pytest.param(
        "schema_version: 1\n", "schema_version: 2\n", "schema_version", "expected 1", id="version"
    ),
    pytest.param(
        PROJECT_LINE,
        PROJECT_LINE.replace("long,  ", "huge,  "),
        "types.project.chunk_profile",
        "one of ['long', 'medium', 'short']",
        id="unknown-profile",
    ),
    pytest.param(
        PROJECT_LINE,
        PROJECT_LINE.replace("0.97", "high"),
        "types.project.retriever_weight",
        "a number between 0.0 and 10.0",
        id="weight-string",
    ),
    pytest.param(
        PROJECT_LINE,
        PROJECT_LINE.replace("0.97", "true"),
        "types.project.retriever_weight",
        "a number",
        id="weight-bool",
    ),
    pytest.param(
        PROJECT_LINE,
        PROJECT_LINE.replace("depends_on]", "DependsOn]"),
        "types.project.edge_defaults",
        "snake_case edge kinds",
        id="pascal-kind",
    ),
    pytest.param(
        PROJECT_LINE,
        PROJECT_LINE.replace("[references, depends_on]", "references"),
        "types.project.edge_defaults",
        "a list of edge kinds",
        id="defaults-not-list",
    ),
    pytest.param(
        "long:   {target_chars: 2000, max_chars: 3000}",
        "long:   {target_chars: 2000, max_chars: 1000}",
        "chunk_profiles.long.max_chars",
        "an integer >= target_chars (2000)",
        id="max-below-target",
    ),
    pytest.param(
        DEFAULT_LINE, "", "types.default", "a definition of the fallback type", id="no-default"
    ),
]


@pytest.mark.parametrize(("old", "new", "key", "expected"), BAD_FILES)
def test_bad_types_yaml_names_file_key_and_expectation(
    tmp_path: Path, old: str, new: str, key: str, expected: str
) -> None:
    path = write_types(tmp_path, bundled_with(old, new))
    error = config_error(tmp_path)
    message = str(error)
    assert (error.file, error.key) == (str(path), key)
    assert message.startswith(f"{path}: ")
    assert f"key '{key}'" in message
    assert expected in message


def test_broken_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = write_types(tmp_path, BUNDLED_TEXT + "\n  broken: [unclosed\n")
    error = config_error(tmp_path)
    assert error.file == str(path)
    assert str(path) in str(error)
    assert "valid YAML" in str(error)
    assert "line" in str(error)
    assert "\n" not in str(error)


@pytest.mark.parametrize(("text", "got"), [("", "NoneType"), ("- a\n- b\n", "list")])
def test_non_mapping_file(tmp_path: Path, text: str, got: str) -> None:
    write_types(tmp_path, text)
    error = config_error(tmp_path)
    assert error.key == "<root>"
    assert f"a mapping (got '{got}')" in str(error)


def test_chunk_profile_as_list_is_a_config_error(tmp_path: Path) -> None:
    write_types(tmp_path, bundled_with(PROJECT_LINE, PROJECT_LINE.replace("long,", "[long],")))
    assert config_error(tmp_path).key == "types.project.chunk_profile"


def test_non_utf8_file_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "types.yaml").write_bytes(b"schema_version: 1\n# \xff\xfe\n")
    assert config_error(tmp_path).key == "<file>"


def test_resolve_config_dir_explicit_beats_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINDNET_CONFIG_DIR", str(tmp_path / "env"))
    assert resolve_config_dir(tmp_path / "cli") == tmp_path / "cli"
    assert resolve_config_dir() == tmp_path / "env"
    monkeypatch.delenv("MINDNET_CONFIG_DIR")
    assert resolve_config_dir() is None
