"""PySide6's after-import check reads files, never a module's attributes (`import_hook`)."""

from __future__ import annotations

import sys
from types import ModuleType

import mindnet_desktop.ui  # noqa: F401 - puts the quiet check in place
from mindnet_desktop.ui.support import import_hook, workers


def _lazy_module(path, name: str, text: str) -> tuple[ModuleType, list[str]]:
    """A module with a lazy `__getattr__` (as pydantic's are) that records what it was asked."""
    asked: list[str] = []
    file = path / f"{name}.py"
    file.write_text(text, encoding="utf-8")
    module = ModuleType(name)
    module.__file__ = str(file)

    def lazy(attr: str) -> object:
        asked.append(attr)
        raise AttributeError(attr)

    module.__getattr__ = lazy  # type: ignore[attr-defined]
    return module, asked


def test_pyside_asks_the_quiet_check_after_an_import():
    feature = sys.modules["shibokensupport.feature"]
    assert feature._mod_uses_pyside is import_hook.uses_pyside
    assert import_hook.quiet_feature_hook()  # again: still in place, not wrapped twice
    assert feature._mod_uses_pyside is import_hook.uses_pyside


def test_the_check_reads_no_attribute_of_the_module(tmp_path):
    """The original check unwrapped the module (`__wrapped__`), and a lazy module imported on
    that question: Chroma's import on the store's thread failed now and then."""
    feature = sys.modules["shibokensupport.feature"]
    module, asked = _lazy_module(tmp_path, "mindnet_lazy_probe", "x = 1\n")
    feature.feature_imported(module)
    assert asked == []
    assert feature.pyside_feature_dict.pop("mindnet_lazy_probe") == -1


def test_a_module_naming_pyside6_uses_it_and_others_do_not(tmp_path):
    qt, _ = _lazy_module(tmp_path, "probe_qt", "from PySide6.QtCore import QObject\n")
    plain, _ = _lazy_module(tmp_path, "probe_plain", "import json\n")
    assert import_hook.uses_pyside(qt) and not import_hook.uses_pyside(plain)
    assert import_hook.uses_pyside(workers)
    assert not import_hook.uses_pyside(sys)  # built in: no file
    gone, _ = _lazy_module(tmp_path, "probe_gone", "")
    (tmp_path / "probe_gone.py").unlink()
    assert not import_hook.uses_pyside(gone)
