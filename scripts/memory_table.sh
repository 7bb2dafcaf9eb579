#!/usr/bin/env bash
# Prints the memory table of the shared models: the classic bound (largest live set in the model's own op
# order, no aliasing), the bound in the chosen order, the arena and RAM of the default plan, TFLM's arena
# (golden.json), and every planner's arena. Extra arguments go to `microaot compile` (e.g. --io-in-arena off).
# Needs build/ (scripts/setup.sh) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/models
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| model | bound | bound (chosen order) | arena_bytes | ram_bytes | % of bound | TFLM arena used | greedy_by_size | greedy_by_conflicts | hill_climb | branch_and_bound | linear |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for dir in "$shared"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/model.tflite" ] || continue
  build/microaot compile "$dir/model.tflite" -o "$out/$name" "$@" > /dev/null
  python3 - "$out/$name/report.json" "$dir/golden.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); g = json.load(open(sys.argv[2]))
plans = {p["planner"]: str(p["arena_bytes"]) + ("*" if p["proven_optimal"] else "") for p in r["planners"]}
bound = r["source_order_bound_bytes"]
order = ["greedy_by_size", "greedy_by_conflicts", "hill_climb", "branch_and_bound", "linear"]
share = f"{100.0 * r['arena_bytes'] / bound:.0f}%" if bound else "-"  # nothing in the arena (I/O outside)
print(f"| {sys.argv[3]} | {bound} | {r['lower_bound_bytes']} | {r['arena_bytes']} | {r['ram_bytes']} | {share} | "
      f"{g['tflm_arena_used_bytes']} | " + " | ".join(plans[p] for p in order) + " |")
PY
done
echo
echo "(* = proven optimal for its request; bounds and arenas in bytes; ram_bytes adds the 8-byte context)"
