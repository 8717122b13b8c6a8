"""Fuzzing the CLI's arguments: `--cursor`, node ids, kinds, page sizes, depths, edge ids.

Property: `mindnet.main(argv)` (in-process, on an imported copy of the example vault)
returns an exit code or exits through argparse; it never lets an exception out (a traceback
is a bug: every bad input must get one clear message). With `--json` a normal answer is
JSON and an error is `{"error": ...}`.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mindnet_desktop.cli.main import main
from tests.reliability.support import count_example, hang_guard

pytestmark = pytest.mark.fuzz
EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "example_vault"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    root = tmp_path_factory.mktemp("cli-fuzz")
    vault, data = root / "vault", root / "data"
    shutil.copytree(EXAMPLE, vault)
    code, out, _ = run(vault, data, ["import"])
    assert code == 0, out
    yield vault, data


def run(vault: Path, data: Path, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    full = ["--vault", str(vault), "--data-dir", str(data), "--embedder", "hash", *argv]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(full)
        except SystemExit as exc:  # argparse: a usage error (exit 2)
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode().rstrip("=")


NODES = ["KI-Projekt Alpha", "Projekte/KI-Projekt Alpha", "Projekte/KI-Projekt Alpha#1", "#1"]
words = st.one_of(
    st.sampled_from(NODES + ["", " ", "#", "a#b#3", "../..", "\x7f", "🙂", "-1", "--"]),
    st.text(max_size=30),
)
cursors = st.one_of(
    words, words.map(b64), st.binary(max_size=20).map(base64.b64encode).map(bytes.decode)
)
kinds = st.one_of(
    st.sampled_from(["depends_on", "DependsOn", "RelatesTo", "x-y", "_", "", "1a", "ä"]), words
)
numbers = st.one_of(st.integers(-5, 100).map(str), st.sampled_from(["0", "1e9", "nan", "x", ""]))


@st.composite
def commands(draw: st.DrawFn) -> list[str]:
    """One read-only command with fuzzed arguments (options always given as `--opt=value`,
    so a value starting with `-` is still a value)."""
    which = draw(st.sampled_from(["neighbors", "traverse", "edges", "show", "rag", "search"]))
    argv = [which]
    if which == "neighbors":
        argv += ["--", draw(words)] if draw(st.booleans()) else [draw(words)]
        argv += [f"--cursor={draw(cursors)}", f"--page-size={draw(numbers)}"]
        argv += [f"--kind={draw(kinds)}"] if draw(st.booleans()) else []
        argv += [f"--direction={draw(st.sampled_from(['out', 'in', 'both', 'up']))}"]
        argv += [f"--level={draw(st.sampled_from(['note', 'chunk']))}"]
    elif which == "traverse":
        argv += [draw(words), f"--depth={draw(numbers)}", f"--kind={draw(kinds)}"]
    elif which == "edges":
        argv += [f"--kind={draw(kinds)}", f"--note={draw(words)}"]
    elif which == "show":
        argv += [draw(words)]
    elif which == "rag":
        argv += [draw(words), draw(words), f"--depth={draw(numbers)}", f"--k={draw(numbers)}"]
    else:
        argv += [draw(words), f"--k={draw(numbers)}", f"--root={draw(words)}"]
        argv += [f"--type={draw(words)}", f"--depth={draw(numbers)}"]
    return argv + (["--json"] if draw(st.booleans()) else [])


@given(commands())
@example(["neighbors", "KI-Projekt Alpha", "--cursor=%%%", "--json"])
@example(["neighbors", "KI-Projekt Alpha", "--cursor=" + b64("\udcff")])
@example(["traverse", "KI-Projekt Alpha", "--depth=-1", "--json"])
@example(["rag", "KI-Projekt Alpha", "x", "--k=0", "--json"])
@example(["search", "x", "--k=-1", "--json"])
@example(["neighbors", "KI-Projekt Alpha", "--page-size=0", "--json"])
def test_cli_arguments_never_raise(imported: tuple[Path, Path], argv: list[str]) -> None:
    """Guards: the CLI turns every bad argument into an exit code with a message.

    Shown to fail by removing the `QueryError` raise for a bad cursor in
    graph/queries.decode_cursor (a binascii/Unicode error then escapes `main`).
    """
    count_example("cli arguments")
    vault, data = imported
    with hang_guard(60, " ".join(argv)):
        code, out, err = run(vault, data, argv)
    assert code in (0, 1, 2), (code, err)
    if "--json" in argv and code == 0:
        json.loads(out)
    if "--json" in argv and code != 0 and out:
        assert "error" in json.loads(out)
    if code != 0:
        assert "Traceback" not in err and err.strip(), err
