"""Translations: Qt's own `.qm` files (made from `.ts` with pyside6-lupdate / lrelease).

Every `resources/i18n/*_<lang>.qm` is installed (the shell, chat and graph each ship one),
plus Qt's own qtbase translation for the standard dialogs when Qt has it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from mindnet_desktop.resources import I18N_DIR


def fill(text: str, *values: object) -> str:
    """Replace %1, %2, ... of a translated text (the order may differ per language)."""
    for number, value in enumerate(values, start=1):
        text = text.replace(f"%{number}", str(value))
    return text


def qm_files(language: str, folder: Path = I18N_DIR) -> list[Path]:
    """The app's compiled translations for `language` (e.g. `mindnet_de.qm`, `chat_de.qm`)."""
    return sorted(folder.glob(f"*_{language}.qm"))


def install_translators(language: str, folder: Path = I18N_DIR) -> list[QTranslator]:
    """Install the translators of `language`; keep the returned list alive (and pass it to
    `remove_translators` to switch back). English is the source language: nothing to load."""
    app = QCoreApplication.instance()
    installed: list[QTranslator] = []
    if app is None or language == "en":
        return installed
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qt_base = QTranslator(app)
    if qt_base.load(QLocale(language), "qtbase", "_", qt_dir):
        installed.append(qt_base)
    for path in qm_files(language, folder):
        translator = QTranslator(app)
        if translator.load(str(path)):
            installed.append(translator)
    for translator in installed:
        app.installTranslator(translator)
    return installed


def remove_translators(translators: list[QTranslator]) -> None:
    app = QCoreApplication.instance()
    if app is None:
        return
    for translator in translators:
        app.removeTranslator(translator)
