"""`mindnet-desktop [--vault PATH] [--data-dir D] [--config C]`: the desktop app."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from mindnet_desktop.resources import ICONS_DIR

ICON = ICONS_DIR / "mindnet.png"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="mindnet-desktop")
    parser.add_argument("--vault", help="vault folder (or MINDNET_VAULT; else the last one)")
    parser.add_argument("--data-dir", help="index folder (or MINDNET_DATA_DIR)")
    parser.add_argument("--config", help="config folder (or MINDNET_CONFIG_DIR)")
    parser.add_argument(
        "--default-vault",
        help="vault opened when none is given and none was opened before (instead of asking)",
    )
    return parser.parse_args(argv)


def choose_vault(args: argparse.Namespace, settings: object, example: Path) -> Path | None:
    """--vault, else MINDNET_VAULT, else the last vault, else --default-vault, else ask."""
    from mindnet_desktop.ui.dialogs.vault_picker import pick_vault
    from mindnet_desktop.ui.support.settings import AppSettings

    assert isinstance(settings, AppSettings)
    given = args.vault or os.environ.get("MINDNET_VAULT")
    if given:
        return Path(given).expanduser()
    last = settings.vault
    if last is not None and last.is_dir():
        return last
    if args.default_vault and Path(args.default_vault).is_dir():
        return Path(args.default_vault)
    return pick_vault(settings.recent_vaults, example)


def _has_app() -> bool:
    """Whether a QApplication runs already (tests, a host that made its own)."""
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.instance() is not None


def main(argv: list[str] | None = None) -> int:
    """Run the app; returns the exit code."""
    import sys

    args = parse_args(argv)
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    from mindnet_desktop.ui.display_check import problem

    # Qt aborts with a cryptic message when its X11 plugin lacks system libraries: say which.
    cannot_start = None if _has_app() else problem()
    if cannot_start:
        print(cannot_start, file=sys.stderr)
        return 1
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QMessageBox

    from mindnet_desktop.resources import EXAMPLE_VAULT
    from mindnet_desktop.ui.shell.main_window import MainWindow, VaultLocation
    from mindnet_desktop.ui.support.i18n import fill, install_translators
    from mindnet_desktop.ui.support.settings import APPLICATION, ORGANIZATION, AppSettings

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("Mindnet")
    app.setStyle("Fusion")  # follows the system's light or dark palette; no colours set here
    app.setWindowIcon(QIcon(str(ICON)))
    settings = AppSettings()
    translators = install_translators(settings.language)  # noqa: F841 - kept alive
    vault = choose_vault(args, settings, EXAMPLE_VAULT)
    if vault is None:
        return 0
    if not vault.is_dir():
        QMessageBox.critical(
            None,
            QCoreApplication.translate("App", "Mindnet"),
            fill(QCoreApplication.translate("App", "The vault folder %1 does not exist."), vault),
        )
        return 2
    location = VaultLocation(
        Path(args.data_dir) if args.data_dir else None,
        Path(args.config) if args.config else None,
    )
    window = MainWindow(settings, location, example_vault=EXAMPLE_VAULT)
    window.show()
    window.open_vault(vault)
    return app.exec()
