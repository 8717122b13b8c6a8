#!/usr/bin/env bash
# The CLI's --json outputs on a fresh copy of the example vault, with the values that change
# from run to run (timings, times, query ids, disk space) masked: run it before and after a
# change and diff the two folders; the --json schema is a contract users script against.
#
#   bash packaging/json_snapshot.sh /tmp/before   # ... change ...
#   bash packaging/json_snapshot.sh /tmp/after && diff -r /tmp/before /tmp/after
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:?usage: $0 OUT_DIR}
M="$ROOT/.venv/bin/mindnet"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
cp -r "$ROOT/resources/example_vault" "$WORK/vault"
export MINDNET_VAULT="$WORK/vault" MINDNET_DATA_DIR="$WORK/data" MINDNET_LANG=en
export ANONYMIZED_TELEMETRY=False
i=0
run() {
  i=$((i + 1))
  local n
  n=$(printf %02d $i)
  "$M" --json "$@" 2>"$OUT/$n.err" |
    sed -E 's/"(seconds|indexed_at|time|deleted_at|query_id)": [^,}]*/"\1": X/g;
            s/q_[0-9a-f]{8,}/Q/g; s/[0-9]+ MB free/N MB free/g' >"$OUT/$n.json"
  echo "exit ${PIPESTATUS[0]}: $*" >"$OUT/$n.cmd"
  sed -i "s#$WORK#WORK#g" "$OUT/$n.json" "$OUT/$n.err"
}
run import --no-progress
run import --no-progress
run notes
run show "KI-Projekt Alpha"
run edges
run edges --include-deleted --kind depends_on
run edge-types
run neighbors "KI-Projekt Alpha" --page-size 3
run neighbors "KI-Projekt Alpha" --direction out --kind depends_on
run traverse "KI-Projekt Alpha" --depth 2
run search "Welche Datenbank nutzt KI-Projekt Alpha?" --explain --per-note
run search "Papierstau" --type concept --type source --explain
run search "Papierstau" --root "LaserJet 500" --depth 2
run rag "LaserJet 500" "Papierstau" --depth 2 --k 5
run ask "Soll ich für Alpha auf Chroma wechseln?" --no-llm
run edge add "KI-Projekt Alpha" DependsOn "Embeddings 101" --read-only-vault
run audit
run log --limit 3
run doctor
run show nonexistent-note
run edge-types add beeinflusst_von --description "shaped by"
run edge-types
run neighbors "KI-Projekt Alpha" --cursor garbage
echo "wrote $i outputs to $OUT"
