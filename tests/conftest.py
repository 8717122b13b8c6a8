"""Shared fixtures: every test gets its own data dir, config and vault copy in tmp_path."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mindnet_desktop.core.domain import drain
from mindnet_desktop.core.ingest.importer import ImportOptions, ImportOutcome
from mindnet_desktop.core.models.embedders import HashEmbedder
from mindnet_desktop.core.service.vault.mindnet import Mindnet

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_VAULT = REPO / "resources" / "example_vault"
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ANONYMIZED_TELEMETRY"] = "False"

# Hypothesis profiles for the fuzz tests (tests/reliability): `ci` is the bounded default
# (the fuzz files together stay well under a minute on 2 cores), `long` is for
# `pytest -m fuzz --hypothesis-profile=long`. No deadline: timings are noisy here; the fuzz
# tests bound each input with their own hang guard instead.
_FUZZ_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("ci", max_examples=60, derandomize=True, **_FUZZ_SETTINGS)
settings.register_profile("long", max_examples=3000, **_FUZZ_SETTINGS)
settings.load_profile(os.environ.get("MINDNET_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _fresh_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test sees the user's data dir, config or vault; none leaves a watcher running."""
    for name in ("MINDNET_VAULT", "MINDNET_CONFIG_DIR", "MINDNET_EMBEDDER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MINDNET_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    before = {t.ident for t in threading.enumerate()}
    yield
    leaked = [
        t.name
        for t in threading.enumerate()
        if t.ident not in before and t.is_alive() and t.name.startswith("mindnet")
    ]
    assert not leaked, f"test left threads running: {leaked}"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A private copy of the bundled example vault."""
    target = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, target)
    return target


@pytest.fixture
def open_mindnet(tmp_path: Path) -> Iterator[Callable[..., Mindnet]]:
    """Opens Mindnet on a vault with the deterministic test embedder; closes all at the end."""
    opened: list[Mindnet] = []

    def _open(
        vault: Path, write: bool = True, embedder: object | None = None, **kw: object
    ) -> Mindnet:
        mn = Mindnet(
            vault, tmp_path / "data", embedder=embedder or HashEmbedder(), write=write, **kw
        )
        opened.append(mn)
        return mn

    yield _open
    for mn in opened:
        mn.close()


def run_import(mn: Mindnet, **options: object) -> ImportOutcome:
    """Drive an import to the end and return its outcome."""
    return drain(mn.import_vault(ImportOptions(**options)))  # type: ignore[arg-type]
