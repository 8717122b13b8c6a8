"""Where the bundled files live: config, translations, icons, the example vault, QA sets.

The one place that knows the layout of the checkout (and of the PyInstaller folder, which
keeps the same layout beside the package).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG_DIR = ROOT / "config"
RESOURCES = ROOT / "resources"
EXAMPLE_VAULT = RESOURCES / "example_vault"
I18N_DIR = RESOURCES / "i18n"
ICONS_DIR = RESOURCES / "icons"
QA_DIR = RESOURCES / "qa"
QA_VAULTS_DIR = RESOURCES / "qa_vaults"
