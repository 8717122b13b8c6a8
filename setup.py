"""Build hook: put the bundled files inside the package of a built wheel.

In the checkout, `config/` and `resources/` sit beside the package (the editable install,
`packaging/setup.sh` and the PyInstaller folder use them there). A wheel has no checkout, so
the build copies them to `mindnet_desktop/bundled/`, where `mindnet_desktop/resources.py`
finds them through `importlib.resources`. Everything else is in `pyproject.toml`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# (folder in the checkout, folder under mindnet_desktop/bundled/, files taken)
BUNDLED = (
    ("config", "config", "*.yaml"),
    ("resources/i18n", "i18n", "*.qm"),
    ("resources/icons", "icons", "*"),
    ("resources/models", "models", "**/*"),
    ("resources/example_vault", "example_vault", "**/*"),
    ("resources/qa", "qa", "example_vault.yaml"),  # the prior of `mindnet tune`
)


class BuildPyWithBundled(build_py):
    """`build_py` that also copies the bundled files into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads them from the checkout
        target = Path(self.build_lib) / "mindnet_desktop" / "bundled"
        for source, name, pattern in BUNDLED:
            files = [p for p in sorted((HERE / source).glob(pattern)) if p.is_file()]
            if not files:
                raise SystemExit(f"setup.py: nothing to bundle in {source}/{pattern}")
            for path in files:
                dest = target / name / path.relative_to(HERE / source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest)


setup(cmdclass={"build_py": BuildPyWithBundled})
