"""German and English UI through Qt's translation files; the .qm files match their .ts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mindnet_desktop.ui.support.i18n import (
    I18N_DIR,
    install_translators,
    qm_files,
    remove_translators,
)


def menu_titles(window) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def test_german_ui_shows_german_strings(qtbot, make_window) -> None:
    translators = install_translators("de")
    try:
        assert any(path.name == "mindnet_de.qm" for path in qm_files("de"))
        window = make_window()
        assert menu_titles(window)[:3] == ["&Datei", "&Ansicht", "&Hilfe"]
        assert window.watch_label.text() == "Angehalten"
        assert window.index_panel.summary_label.text() == "Noch kein Import."
    finally:
        remove_translators(translators)


def test_english_ui_shows_english_strings(qtbot, make_window) -> None:
    assert install_translators("en") == []
    window = make_window()
    assert menu_titles(window)[:3] == ["&File", "&View", "&Help"]
    assert window.watch_label.text() == "Stopped"


def lrelease() -> str:
    local = Path(sys.executable).parent / "pyside6-lrelease"
    found = str(local) if local.exists() else shutil.which("pyside6-lrelease")
    if not found:
        pytest.skip("pyside6-lrelease is not installed")
    return found


@pytest.mark.parametrize("ts", sorted(I18N_DIR.glob("*.ts")), ids=lambda p: p.name)
def test_committed_qm_is_what_lrelease_makes_of_its_ts(ts: Path, tmp_path: Path) -> None:
    committed = ts.with_suffix(".qm")
    assert committed.is_file(), f"{committed.name} missing: run packaging/i18n.sh"
    fresh = tmp_path / committed.name
    subprocess.run([lrelease(), "-silent", str(ts), "-qm", str(fresh)], check=True)
    assert fresh.read_bytes() == committed.read_bytes(), f"run packaging/i18n.sh ({ts.name})"


def test_every_message_of_the_shell_is_translated() -> None:
    text = (I18N_DIR / "mindnet_de.ts").read_text(encoding="utf-8")
    assert 'type="unfinished"' not in text
