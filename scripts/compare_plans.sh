#!/usr/bin/env bash
# Do two microaot binaries plan memory alike? Compiles a matrix of memory-stage settings with both and diffs
# one line per output file (its SHA-256; microaot.json left out: it records the tool's version) and per
# refusal (exit code and the SHA-256 of the message). For refactorings of the planner (compile/plan_memory.cpp,
# compiler/memory/) that must not move a byte:
#   scripts/compare_plans.sh /tmp/microaot-before build/microaot     # prints "same: N cases", exit 0
# The matrix: every model under ../shared/models*/ by default, for the Cortex-M4 (speed and balanced), under the
# graph executor, with --tiling off, --io-in-arena off, another planner, static pools (fitting and too small),
# and a budget of 1 byte (the refusal text); the image models (an input of rank 4) also under --ram-budget at
# 95% ... 55% of the RAM binary A plans untiled, at VWW's budgets of docs/tiling.md (40000, 33177), and with
# pools or the M4 under a budget; two models in one arena. KEEP=DIR keeps both manifests there.
# Usage: scripts/compare_plans.sh MICROAOT_A MICROAOT_B
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 MICROAOT_A MICROAOT_B" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin_a=$(realpath "$1")
bin_b=$(realpath "$2")
m4="c -mcpu=cortex-m4"

models=()
for m in "$shared"/models*/*/model.tflite; do models+=("$m"); done
name_of() { local n=${1#"$shared"/}; echo "${n%/model.tflite}"; }

# One case per line: a name, then the compile arguments after the model(s), separated by tabs.
cases=$work/cases
: > "$cases"
add() { local IFS=$'\t'; echo "$*" >> "$cases"; }
for model in "${models[@]}"; do
  n=$(name_of "$model")
  add "$n default" "$model"
  add "$n m4" "$model" --target "$m4"
  add "$n m4 balanced" "$model" --target "$m4" --optimize balanced
  add "$n graph" "$model" --executor graph
  add "$n tiling off" "$model" --tiling off
  add "$n io outside" "$model" --io-in-arena off
  add "$n greedy_by_size" "$model" --planner greedy_by_size
  add "$n pools" "$model" --pool fast:4K --pool slow:1M
  add "$n pools too small" "$model" --pool fast:64 --pool slow:128
  add "$n budget 1" "$model" --ram-budget 1
done

# The image models: budgets below their untiled RAM (as binary A plans it with --tiling off), where bands come in.
ram_of() {  # untiled RAM of a model as binary A plans it (the default may already run cheap bands)
  "$bin_a" compile "$1" -o "$work/probe" --force --tiling off > /dev/null 2>&1 || { echo 0; return; }
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ram_bytes"])' "$work/probe/report.json"
}
is_image() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if any(len(t.get("shape", [])) == 4 for t in r.get("inputs", [])) else 1)
PY
}
for model in "${models[@]}"; do
  n=$(name_of "$model")
  ram=$(ram_of "$model")
  [[ $ram -gt 0 ]] && is_image "$work/probe/report.json" || continue
  for pct in 95 85 75 65 55; do
    budget=$((ram * pct / 100))
    add "$n budget $budget" "$model" --ram-budget "$budget"
  done
  add "$n m4 budget $((ram * 75 / 100))" "$model" --target "$m4" --ram-budget $((ram * 75 / 100))
  add "$n pools budget $((ram * 75 / 100))" "$model" --pool fast:$((ram / 2)) --pool slow:1M \
    --ram-budget $((ram * 75 / 100))
done
vww=$shared/models/vww_mobilenet_int8/model.tflite
if [[ -f $vww ]]; then
  for budget in 40000 33177; do
    add "vww budget $budget" "$vww" --ram-budget "$budget"
    add "vww m4 budget $budget" "$vww" --target "$m4" --ram-budget "$budget"
    add "vww m4 balanced budget $budget" "$vww" --target "$m4" --optimize balanced --ram-budget "$budget"
    add "vww graph budget $budget" "$vww" --executor graph --ram-budget "$budget"
    add "vww io outside budget $budget" "$vww" --io-in-arena off --ram-budget "$budget"
  done
fi
kws=$shared/models/kws_dscnn_int8/model.tflite
ic=$shared/models/ic_resnet8_int8/model.tflite
if [[ -f $kws && -f $ic ]]; then
  add "kws+ic one arena" "$kws" "$ic"
  add "kws+ic budget 1" "$kws" "$ic" --ram-budget 1
fi

# Each binary runs from the same path (a link), into the same folder, so that paths in messages agree.
manifest() {  # $1: binary, $2: manifest file
  ln -sfn "$1" "$work/microaot"
  : > "$2"
  while IFS=$'\t' read -r -a fields; do
    local name=${fields[0]} out=$work/out
    rm -rf "$out"
    local rc=0
    (cd "$work" && ./microaot compile "${fields[@]:1}" -o "$out") > "$work/log" 2>&1 || rc=$?
    echo "$name	exit $rc" >> "$2"
    if [[ $rc -ne 0 ]]; then
      echo "$name	message $(sha256sum < "$work/log" | cut -c1-16) $(head -c 120 "$work/log" | tr '\n\t' '  ')" >> "$2"
      continue
    fi
    (cd "$out" && find . -type f ! -name microaot.json | LC_ALL=C sort | while read -r f; do
       echo "$name	$f $(sha256sum < "$f" | cut -c1-16)"; done) >> "$2"
  done < "$cases"
}
manifest "$bin_a" "$work/a.txt"
manifest "$bin_b" "$work/b.txt"
if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP" && cp "$work/a.txt" "$work/b.txt" "$cases" "$KEEP/"; fi
count=$(wc -l < "$cases")
files=$(grep -c '	\./' "$work/a.txt" || true)
refusals=$(grep -c '	exit [1-9]' "$work/a.txt" || true)
if diff "$work/a.txt" "$work/b.txt"; then
  echo "same: $count cases ($files files, $refusals refusals)"
else
  echo "DIFFERENT (lines above: < $1, > $2)"
  exit 1
fi
