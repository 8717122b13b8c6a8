#!/usr/bin/env bash
# Re-extract every translatable string of mindnet_desktop/ui/**/*.py into resources/i18n/*.ts
# (pyside6-lupdate keeps the translations already made) and compile them to .qm
# (pyside6-lrelease). Translate new strings with `pyside6-linguist resources/i18n/<file>.ts`,
# then run this script again. Commit the .ts and the .qm files.
#
# Files go to the catalogue of their feature: ui/chat/ -> chat_<lang>.ts, ui/graph/ ->
# graph_<lang>.ts, everything else -> mindnet_<lang>.ts (the Qt benchmarks in ui/bench/ show
# no translated text). The app installs every *_<lang>.qm.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LANGS=${MINDNET_LANGS:-de}
if [ -x "$ROOT/.venv/bin/pyside6-lupdate" ]; then BIN="$ROOT/.venv/bin/"; else BIN=""; fi
LUPDATE=${LUPDATE:-${BIN}pyside6-lupdate}
LRELEASE=${LRELEASE:-${BIN}pyside6-lrelease}

cd "$ROOT"
declare -A CATALOGS=()
for file in $(find mindnet_desktop/ui -name '*.py' -not -path '*/bench/*' | sort); do
  case "$file" in
    mindnet_desktop/ui/chat/*) group=chat ;;
    mindnet_desktop/ui/graph/*) group=graph ;;
    *) group=mindnet ;;
  esac
  CATALOGS[$group]="${CATALOGS[$group]:-} $file"
done

mkdir -p resources/i18n
for group in "${!CATALOGS[@]}"; do
  for lang in $LANGS; do
    ts="resources/i18n/${group}_${lang}.ts"
    # shellcheck disable=SC2086 # the file list is meant to split
    "$LUPDATE" -silent -no-obsolete -locations none -source-language en -target-language "$lang" \
      ${CATALOGS[$group]} -ts "$ts"
  done
done
for ts in resources/i18n/*.ts; do
  "$LRELEASE" -silent "$ts" -qm "${ts%.ts}.qm"
done
echo "translations updated in resources/i18n/"
