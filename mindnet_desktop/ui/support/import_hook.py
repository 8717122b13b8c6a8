"""PySide6's import hook, made harmless (`quiet_feature_hook`).

Importing PySide6 replaces `__import__`: after every import of a module new to the process,
`shibokensupport.feature.feature_imported(module)` asks whether the module uses PySide6 (for
`from __feature__ import snake_case`) by `inspect.getsource(module)`. That call unwraps the
module first, which reads `module.__wrapped__`, and a module with a lazy `__getattr__` answers
by importing. pydantic's modules do: while the store opened Chroma on its thread, the check of
a half-imported pydantic module imported pydantic's validators module again and Chroma's
import failed ("cannot import name 'import_string' from partially initialized module"), about
one start in twenty. The app then said the vault cannot be opened.

The hook's answer only matters to a module that itself uses `__feature__`; none here does.
`quiet_feature_hook` gives the same answer by searching the module's source file for
"PySide6" (bytes, no attribute of the module read), which also spares reading and tokenizing
every module's source at start.
"""

from __future__ import annotations

import sys
from types import ModuleType

MARK = "_mindnet_quiet"


def uses_pyside(module: ModuleType) -> bool:
    """Whether `module`'s source file names PySide6 (False for a module without a `.py` file:
    built in, compiled or frozen). Reads the file, never the module's attributes but
    `__file__` from its dict."""
    path = vars(module).get("__file__")
    if not isinstance(path, str) or not path.endswith(".py"):
        return False
    try:
        with open(path, "rb") as source:
            return b"PySide6" in source.read()
    except OSError:
        return False


def quiet_feature_hook() -> bool:
    """Put `uses_pyside` in place of PySide6's check (once; call after importing PySide6);
    whether the hook was found (an other PySide6 may have none: nothing to do)."""
    import PySide6.QtCore  # noqa: F401 - loads shibokensupport.feature

    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not hasattr(feature, "_mod_uses_pyside"):
        return False
    if not getattr(feature._mod_uses_pyside, MARK, False):
        setattr(uses_pyside, MARK, True)
        feature._mod_uses_pyside = uses_pyside
    return True
