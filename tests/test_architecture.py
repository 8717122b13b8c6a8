"""The shape of the package: no import cycles, small modules, no reaching into another
object's private state. (The layers themselves are an import-linter contract in
pyproject.toml, checked by `lint-imports` in the test command.)"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import grimp
import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "mindnet_desktop"
MAX_LINES = 600  # past this a module holds two things: split it at a seam
NOTE_LINES = 400  # most modules land well under this; those over it are named in a note
PRIVATE_USE = re.compile(r"(?<![\w.])(\w+(?:\.\w+)*)\.(_[a-z]\w*)\b")
DEFINED_HERE = re.compile(r"(?:def |self\.|^\s*)(_[a-z]\w*)\s*(?:\(|:|=)", re.MULTILINE)


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


# No cache (it takes 0.1 s): grimp 3.x keeps one file of modification times for both
# `exclude_type_checking_imports` settings, so the second graph built after an edit is read
# from a stale cache.
def test_no_import_cycles() -> None:
    # An import only for type hints (`if TYPE_CHECKING:`) never runs, so it makes no cycle.
    graph = grimp.build_graph("mindnet_desktop", exclude_type_checking_imports=True, cache_dir=None)
    imports = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            imports.add_edge(module, imported)
    cycles = [c for c in nx.strongly_connected_components(imports) if len(c) > 1]
    assert cycles == []


def test_no_two_modules_import_each_other() -> None:
    # Counting imports for type hints too: two modules that know each other, even only for
    # types, are one module in two files (a Protocol in the lower one, or a dataclass moved
    # down, breaks the pair).
    graph = grimp.build_graph(
        "mindnet_desktop", exclude_type_checking_imports=False, cache_dir=None
    )
    pairs = {
        (a, b)
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if a < b and a in graph.find_modules_directly_imported_by(b)
    }
    assert pairs == set()


def line_counts() -> dict[str, int]:
    return {
        str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
        for p in modules()
    }


def test_no_module_over_600_lines() -> None:
    counts = line_counts()
    long = {name: n for name, n in counts.items() if n > NOTE_LINES}
    if long:  # a note, not a failure: the size alone says nothing of the seams
        listed = ", ".join(f"{name} ({n})" for name, n in sorted(long.items()))
        warnings.warn(f"modules over {NOTE_LINES} lines: {listed}", stacklevel=1)
    assert {name: n for name, n in counts.items() if n > MAX_LINES} == {}


# Documented public functions of the standard library whose names start with "_".
STDLIB_PUBLIC = {"os._exit"}
# A library's private read on purpose, with the reason where it is read.
ON_PURPOSE = {"feature._mod_uses_pyside"}  # PySide6's import check, replaced (import_hook.py)


def private_reads(source: str) -> list[str]:
    """`obj._name` where `obj` is not self/cls and `_name` is not defined in this module."""
    own = set(DEFINED_HERE.findall(source))
    return [
        f"{owner}.{name}"
        for owner, name in PRIVATE_USE.findall(source)
        if owner.split(".")[0] not in ("self", "cls")
        and name not in own
        and f"{owner}.{name}" not in STDLIB_PUBLIC | ON_PURPOSE
    ]


def test_the_check_sees_a_private_read() -> None:
    assert private_reads("def f(mn):\n    return mn.store._chunks\n") == ["mn.store._chunks"]
    assert private_reads("class A:\n    def f(self):\n        return self._x\n") == []
    assert private_reads("self._x = 1\ndef g(other):\n    return other._x\n") == []
    assert private_reads("import os\nos._exit(0)\nos._private\n") == ["os._private"]


def test_no_private_attribute_of_another_module_is_read() -> None:
    found = {
        str(p.relative_to(PACKAGE)): reads
        for p in modules()
        if (reads := private_reads(p.read_text(encoding="utf-8")))
    }
    assert found == {}
