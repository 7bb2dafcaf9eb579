#!/usr/bin/env bash
# Prints the table of the shared models: arena and static RAM of the compiled library, TFLM's arena for
# the same model (from golden.json), weights in flash and compile time. Needs build/ (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${1:-../shared/models}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| model | ops | arena_bytes | ram_bytes | TFLM arena (used / head) | weights (flash) | MACs | compile ms |"
echo "|---|---|---|---|---|---|---|---|"
for dir in "$shared"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/model.tflite" ] || continue
  start=$(date +%s%N)
  build/microaot compile "$dir/model.tflite" -o "$out/$name" > /dev/null
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  python3 - "$out/$name/report.json" "$dir/golden.json" "$name" "$ms" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); g = json.load(open(sys.argv[2]))
print(f"| {sys.argv[3]} | {r['op_count']} | {r['arena_bytes']} | {r['ram_bytes']} | "
      f"{g['tflm_arena_used_bytes']} / {g['tflm_arena_head_bytes']} | {r['flash_weights_bytes']} | {r['macs']} | {sys.argv[4]} |")
PY
done
