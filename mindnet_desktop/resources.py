"""Where the bundled files live: config, translations, icons, model files, the example vault,
QA sets.

The one place that knows the layouts. An installed wheel carries them inside the package,
in `mindnet_desktop/bundled/` (copied there by `setup.py` at build time); the checkout (and
the editable install and the PyInstaller folder, which keep its layout beside the package)
has them in `config/` and `resources/` next to the package. The QA sets and vaults are
development files: only the checkout has them.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _package_dir() -> Path:
    """The package folder as `importlib.resources` sees it (a plain folder in every layout
    Mindnet ships; a frozen importer that answers otherwise gets this module's folder)."""
    found = files("mindnet_desktop")
    return found if isinstance(found, Path) else Path(__file__).resolve().parent


PACKAGE = _package_dir()
ROOT = PACKAGE.parent
RESOURCES = ROOT / "resources"
BUNDLED = PACKAGE / "bundled"
INSTALLED = (BUNDLED / "config" / "types.yaml").is_file()

CONFIG_DIR = BUNDLED / "config" if INSTALLED else ROOT / "config"
EXAMPLE_VAULT = BUNDLED / "example_vault" if INSTALLED else RESOURCES / "example_vault"
I18N_DIR = BUNDLED / "i18n" if INSTALLED else RESOURCES / "i18n"
ICONS_DIR = BUNDLED / "icons" if INSTALLED else RESOURCES / "icons"
# Model files that are not weights (a tokenizer a model package lacks), with their licences.
MODEL_FILES_DIR = BUNDLED / "models" if INSTALLED else RESOURCES / "models"
QA_DIR = RESOURCES / "qa"
# The example vault's question set: the prior `mindnet tune` holds the user's ratings to.
PRIOR_QA = BUNDLED / "qa" / "example_vault.yaml" if INSTALLED else QA_DIR / "example_vault.yaml"
QA_VAULTS_DIR = RESOURCES / "qa_vaults"
