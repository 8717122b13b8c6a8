"""Which vault the app opens, and that the entry point builds a working window."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindnet_desktop.ui import app as app_module
from mindnet_desktop.ui.app import choose_vault, parse_args


@pytest.fixture
def no_picker(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []

    def fake_pick(recent: list[Path], example: Path | None, parent: object = None) -> None:
        calls.append((recent, example))
        return None

    monkeypatch.setattr("mindnet_desktop.ui.dialogs.vault_picker.pick_vault", fake_pick)
    return calls


def test_vault_option_wins(app_settings, tmp_path: Path, no_picker) -> None:
    app_settings.vault = tmp_path
    chosen = choose_vault(parse_args(["--vault", str(tmp_path / "x")]), app_settings, tmp_path)
    assert chosen == tmp_path / "x" and not no_picker


def test_last_vault_then_default_vault_then_picker(
    app_settings, tmp_path: Path, vault: Path, no_picker
) -> None:
    args = parse_args(["--default-vault", str(vault)])
    assert choose_vault(args, app_settings, vault) == vault  # fresh: the default, no dialog
    assert not no_picker
    app_settings.vault = tmp_path
    assert choose_vault(args, app_settings, vault) == tmp_path  # then the vault opened last
    app_settings.vault = None
    assert choose_vault(parse_args([]), app_settings, vault) is None  # else: ask
    assert no_picker and no_picker[0][1] == vault


def test_icon_and_translations_ship(qtbot) -> None:
    from PySide6.QtGui import QIcon

    assert not QIcon(str(app_module.ICON)).isNull()
    desktop = app_module.ICON.parents[1] / "mindnet-desktop.desktop"
    assert "Exec=mindnet-desktop" in desktop.read_text(encoding="utf-8")
