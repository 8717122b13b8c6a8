"""The wheel is complete: config, translations, icons and the example vault are package data."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "mindnet_desktop", "config")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the checkout (the build leaves `build/` behind)."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        copy = shutil.copytree if (REPO / name).is_dir() else shutil.copy2
        copy(REPO / name, source / name)
    shutil.copytree(
        REPO / "resources", source / "resources", ignore=shutil.ignore_patterns("qa_vaults")
    )
    out = tmp_path_factory.mktemp("wheel")
    # No build isolation: the build backend of the running environment, no network.
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (built,) = out.glob("mindnet_desktop-*.whl")
    return built


def test_wheel_holds_config_translations_icons_and_example_vault(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    bundled = "mindnet_desktop/bundled"
    expected = {f"{bundled}/config/{p.name}" for p in (REPO / "config").glob("*.yaml")}
    expected |= {f"{bundled}/i18n/{p.name}" for p in (REPO / "resources/i18n").glob("*.qm")}
    expected.add(f"{bundled}/icons/mindnet.png")
    expected.add(f"{bundled}/qa/example_vault.yaml")  # the prior of `mindnet tune`
    vault = REPO / "resources" / "example_vault"
    expected |= {
        f"{bundled}/example_vault/{p.relative_to(vault).as_posix()}"
        for p in vault.rglob("*")
        if p.is_file()
    }
    assert len(expected) > 40
    assert expected <= names, sorted(expected - names)[:10]
    assert "mindnet_desktop/ui/app.py" in names and "mindnet_desktop/cli/main.py" in names
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))
    )
    assert b"mindnet = mindnet_desktop.cli.main:main" in entry_points
    assert b"mindnet-desktop = mindnet_desktop.__main__:main" in entry_points


def test_installed_package_finds_its_bundled_files(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "import mindnet_desktop.resources as r\n"
        "from mindnet_desktop.core.config.type_registry import load_types\n"
        "assert r.INSTALLED, r.PACKAGE\n"
        "assert load_types().spec('project').edge_defaults\n"
        "assert sorted(r.I18N_DIR.glob('*.qm')) and (r.ICONS_DIR / 'mindnet.png').is_file()\n"
        "assert (r.EXAMPLE_VAULT / 'Projekte' / 'KI-Projekt Alpha.md').is_file()\n"
        "print(r.CONFIG_DIR)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert Path(result.stdout.strip()).is_relative_to(site)


def test_checkout_uses_its_own_folders() -> None:
    from mindnet_desktop import resources

    assert not resources.INSTALLED
    assert resources.CONFIG_DIR == REPO / "config"
    assert resources.EXAMPLE_VAULT == REPO / "resources" / "example_vault"
