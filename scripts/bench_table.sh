#!/usr/bin/env bash
# Regenerates docs/benchmarks.md: `microaot bench` of every model in ../shared/models on golden vector 0,
# on the emulated Cortex-M4 (QEMU mps2-an386) unless another target is given.
#   scripts/bench_table.sh [TARGET]        e.g. scripts/bench_table.sh cortex-m7
# Needs build/microaot (built if missing), arm-none-eabi-gcc, qemu-system-arm and jq (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-cortex-m4}
bin=${MICROAOT:-build/microaot}
models=../shared/models
out=docs/benchmarks.md
# Estimated cycles (docs/cycles.md) where the timing table has the core.
cycles=()
case "$target" in cortex-m4|cortex-m7) cycles=(--cycles) ;; esac
[ -x "$bin" ] || { cmake -S . -B build > /dev/null && cmake --build build --target microaot; }
[ -d "$models" ] || { echo "bench_table.sh: $models is missing" >&2; exit 1; }

# The value of "key" in bench's pretty-printed JSON (one key per line).
field() { sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" <<< "$2"; }
# bench's estimated cycles in millions (exact with "exact"), or — without them.
est_cycles() {
  local n
  n=$(jq -r '.estimated_cycles.cycles // empty' <<< "$1")
  if [ -z "$n" ]; then printf '—'; elif [ "${2:-}" = exact ]; then grouped "$n"; else millions "$n"; fi
}
millions() { awk -v n="$1" 'BEGIN { printf "%.2f M", n / 1e6 }'; }
# 1234567 -> 1,234,567
grouped() { printf "%s" "$1" | rev | sed 's/[0-9]\{3\}/&,/g; s/,$//' | rev; }

anchors=../shared/docs/m4-anchors.md
jsons=$(mktemp -d)
trap 'rm -rf "$jsons"' EXIT

# Per model, bench's per-operator profile as Markdown: the per-type summary (with TFLM + CMSIS-NN's
# instructions/MAC per type from m4-anchors.md when it has the model), then one row per step.
two_decimals() { [ -z "$1" ] || printf '%.2f' "$1"; }
grouped_or_dash() { if [ "$1" = "-" ]; then printf '—'; else grouped "$1"; fi; }
anchor_per_mac() {  # model, op type -> TFLM's instructions/MAC on the M4 bench, or empty
  [ -f "$anchors" ] || return 0
  awk -v model="## \`$1\`" -v op="$2" -F' *\\| *' '
    /^## / { section = $0 } /^\| op type/ { types = 1; next } /^$/ { types = 0 }
    section == model && types && $2 == op { print $6 }' "$anchors"
}
per_op_tables() {  # name json-file
  local name=$1 file=$2 op count macs instr cyc ipm
  printf '### `%s`\n\n' "$name"
  printf 'Rows add up to %s of the instructions per inference (the rest: `run()` and the executor loop).\n\n' \
    "$(awk -v c="$(jq -r .per_op_coverage "$file")" 'BEGIN { printf "%.3f%%", 100 * c }')"
  printf '| op type | count | MACs | instructions | est. cycles | instructions/MAC | TFLM + CMSIS-NN instructions/MAC |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|\n'
  while IFS=$'\t' read -r op count macs instr cyc ipm; do
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$op" "$count" "$(grouped "$macs")" "$(grouped "$instr")" \
      "$(grouped_or_dash "$cyc")" "$(two_decimals "$ipm")" "$(anchor_per_mac "$name" "$op")"
  done < <(jq -r '.per_op_types[] | [.op, .count, .macs, .instructions, .estimated_cycles // "-",
                  .instructions_per_mac // ""] | @tsv' "$file")
  printf '\n| step | index | op | kernel | MACs | instructions | est. cycles | instructions/MAC |\n'
  printf '|---:|---:|---|---|---:|---:|---:|---:|\n'
  while IFS=$'\t' read -r step index op kernel macs instr cyc ipm; do
    printf '| %s | %s | %s | `%s` | %s | %s | %s | %s |\n' "$step" "$index" "$op" "$kernel" "$(grouped "$macs")" \
      "$(grouped "$instr")" "$(grouped_or_dash "$cyc")" "$(two_decimals "$ipm")"
  done < <(jq -r '.per_op[] | [.step, .op_index, .op, .kernel, .macs, .instructions, .estimated_cycles // "-",
                  .instructions_per_mac // ""] | @tsv' "$file")
  printf '\n'
}

rows=""
per_op=""
declare -A ours
for dir in "$models"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/model.tflite" ] || continue
  inputs=()
  for f in "$dir"vectors/0.input*.bin; do inputs+=(--input "$f"); done
  echo "bench_table.sh: $name" >&2
  json=$("$bin" bench "$dir/model.tflite" --target "$target" --json "${cycles[@]}" "${inputs[@]}")
  printf '%s\n' "$json" > "$jsons/$name.json"
  per_op+=$(per_op_tables "$name" "$jsons/$name.json")$'\n\n'
  bound=$(field stack_bound_bytes "$json")
  [ "$bound" = "null" ] && bound="unbounded"
  match=$(field outputs_match "$json")
  [ "$(field outputs_bit_exact "$json")" = "true" ] && match="bit-exact"
  ours[$name]=$(field instructions "$json")
  rows+="| \`$name\` | $(grouped "$(field instructions "$json")") | $(est_cycles "$json" exact) |"
  rows+=" $(grouped "$(field init_instructions "$json")") |"
  rows+=" $(grouped "$(field code_bytes "$json")") | $(grouped "$(field weights_bytes "$json")") |"
  rows+=" $(grouped "$(field flash_bytes "$json")") | $(grouped "$(field ram_bytes "$json")") |"
  rows+=" $(field stack_bytes "$json") / $bound | $match |"$'\n'
  machine=$(field machine "$json")
done

mlperf=""
levels=""
declare -A balanced_json
for pair in "KWS:kws_dscnn_int8:7.70 M:8.22 M" "VWW:vww_mobilenet_int8:24.10 M:23.91 M" \
            "IC:ic_resnet8_int8:29.86 M:31.83 M" "AD:ad_autoencoder_int8:0.583 M:0.604 M"; do
  IFS=: read -r task name tflm tvm <<< "$pair"
  mine="—"
  [ -n "${ours[$name]:-}" ] && mine=$(millions "${ours[$name]}")
  mlperf+="| $task (\`$name\`) | $mine | $tflm | $tvm |"$'\n'
  [ -f "$jsons/$name.json" ] || continue
  # The same model with --optimize balanced: int8 packed weights in flash.
  echo "bench_table.sh: $name (balanced)" >&2
  balanced=$("$bin" bench "$models/$name/model.tflite" --target "$target" --optimize balanced --json "${cycles[@]}" \
               --input "$models/$name/vectors/0.input0.bin")
  balanced_json[$name]=$balanced
  speed=$(cat "$jsons/$name.json")
  levels+="| $task | $(millions "$(field instructions "$speed")") | $(est_cycles "$speed") |"
  levels+=" $(grouped "$(field weights_bytes "$speed")") |"
  levels+=" $(grouped "$(field code_bytes "$speed")") | $(millions "$(field instructions "$balanced")") |"
  levels+=" $(est_cycles "$balanced") |"
  levels+=" $(grouped "$(field weights_bytes "$balanced")") | $(grouped "$(field code_bytes "$balanced")") |"$'\n'
done

# The Helium table: every model m55-anchors.md has (TFLM + CMSIS-NN's Helium kernels on the same emulated
# Cortex-M55), benched on that target at speed and at balanced.
m55_anchors=../shared/docs/m55-anchors.md
m55=""
m55_anchor_rows() {  # name<TAB>instructions<TAB>MACs per row of the anchors' summary table
  [ "$target" = cortex-m4 ] && [ -f "$m55_anchors" ] || return 0
  awk -F' *\\| *' '/^## /{exit} /^\| `/ { gsub(/`/, "", $2); sub(/ .*/, "", $2); gsub(/,/, "", $3);
    gsub(/,/, "", $4); print $2 "\t" $3 "\t" $4 }' "$m55_anchors"
}
while IFS=$'\t' read -r name tflm macs; do
  dir=$models/$name
  [ -f "$dir/model.tflite" ] || dir=../shared/models-recurrent/$name
  [ -f "$dir/model.tflite" ] || continue
  echo "bench_table.sh: $name (cortex-m55)" >&2
  speed=$("$bin" bench "$dir/model.tflite" --target cortex-m55 --json --input "$dir/vectors/0.input0.bin")
  balanced=$("$bin" bench "$dir/model.tflite" --target cortex-m55 --optimize balanced --json \
               --input "$dir/vectors/0.input0.bin")
  n=$(field instructions "$speed")
  per_mac="—"
  [ -n "$macs" ] && per_mac=$(awk -v n="$n" -v m="$macs" 'BEGIN { printf "%.2f", n / m }')
  match=$(field outputs_match "$speed")
  [ "$(field outputs_bit_exact "$speed")" = "true" ] && match="bit-exact"
  m55+="| \`$name\` | $(grouped "$n") | $per_mac | $(grouped "$tflm") |"
  m55+=" $(awk -v a="$n" -v b="$tflm" 'BEGIN { printf "%.2fx", a / b }') |"
  m55+=" $(grouped "$(field code_bytes "$speed")") | $(grouped "$(field weights_bytes "$speed")") |"
  m55+=" $(grouped "$(field instructions "$balanced")") | $(grouped "$(field code_bytes "$balanced")") |"
  m55+=" $(grouped "$(field weights_bytes "$balanced")") | $match |"$'\n'
done < <(m55_anchor_rows)
m55_section=""
[ -z "$m55" ] || m55_section="## Cortex-M55 (Helium)

The same harness on the emulated Cortex-M55 (\`microaot bench --target cortex-m55\`, QEMU \`mps3-an547\`, exact
instruction counts: docs/helium.md), with the Helium kernels of \`runtime/kernels/mve/\` where they exist,
against TFLM + CMSIS-NN's Helium kernels on the same bench (quoted from \`../shared/docs/m55-anchors.md\`; its
MACs). Vector 0; the recurrent models one step. \`--optimize size\` stays portable on the M55 as on the M4.

| model | speed: instructions | instructions/MAC | TFLM + CMSIS-NN | ratio | code bytes | weights bytes | balanced: instructions | code bytes | weights bytes | outputs vs host |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
$m55"

# Compressed weights (docs/compressed-weights.md): each MLPerf model clustered to 16 values per channel, at balanced
# (its default palettises where a DSP palette kernel pays) against balanced unclustered; the palettised tensors'
# bytes from report.json; the outputs' agreement with the unclustered model's goldens over the model's vectors
# (host runs): top-1 for the classifiers, the largest difference in int8 steps for AD's reconstruction.
argmax() { od -An -v -t d1 "$1" | tr -s ' ' '\n' | sed '/^$/d' | awk 'NR == 1 || $1 > m { m = $1; i = NR } END { print i }'; }
max_step() {
  paste <(od -An -v -t d1 "$1" | tr -s ' ' '\n' | sed '/^$/d') <(od -An -v -t d1 "$2" | tr -s ' ' '\n' | sed '/^$/d') |
    awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }'
}
agreement() {  # task name: "agree/vectors top-1" or "max N steps"
  local task=$1 name=$2 agree=0 count=0 worst=0 vec got step
  for vec in "$models/$name"/vectors/*.input0.bin; do
    got="$jsons/$name-run"
    "$bin" run "$models/$name/model.tflite" --optimize balanced --cluster-weights 16 --input "$vec" \
      --output-dir "$got" > /dev/null
    count=$((count + 1))
    if [ "$task" = AD ]; then
      step=$(max_step "$got/output0.bin" "${vec%input0.bin}output0.bin")
      if [ "$step" -gt "$worst" ]; then worst=$step; fi
    elif [ "$(argmax "$got/output0.bin")" = "$(argmax "${vec%input0.bin}output0.bin")" ]; then
      agree=$((agree + 1))
    fi
  done
  if [ "$task" = AD ]; then printf 'max %s steps (%s vectors)' "$worst" "$count"; else printf '%s/%s top-1' "$agree" "$count"; fi
}
compressed=""
for pair in KWS:kws_dscnn_int8 VWW:vww_mobilenet_int8 IC:ic_resnet8_int8 AD:ad_autoencoder_int8; do
  IFS=: read -r task name <<< "$pair"
  [ -n "${balanced_json[$name]:-}" ] || continue
  b=${balanced_json[$name]}
  agreed=$(agreement "$task" "$name")  # the same outputs whether palettised or not (bit-exact)
  for compress in default lossless; do
    echo "bench_table.sh: $name (balanced, --cluster-weights 16, $compress)" >&2
    flags=(--target "$target" --optimize balanced --cluster-weights 16)
    [ "$compress" = default ] || flags+=(--compress-weights "$compress")
    k16=$("$bin" bench "$models/$name/model.tflite" "${flags[@]}" --json --input "$models/$name/vectors/0.input0.bin")
    rm -rf "$jsons/$name-k16"
    "$bin" compile "$models/$name/model.tflite" "${flags[@]}" -o "$jsons/$name-k16" > /dev/null
    IFS=$'\t' read -r layers int8 palette < <(jq -r '[.ops[] | .weights? | select(. != null and (.format // "" |
      startswith("palette")))] | [length, (map(.int8_bytes) | add // 0), (map(.bytes) | add // 0)] | @tsv' \
      "$jsons/$name-k16/report.json")
    ratio=$(awk -v a="$(field instructions "$k16")" -v b="$(field instructions "$b")" 'BEGIN { printf "%.2f", a / b }')
    match=$(field outputs_match "$k16")
    [ "$(field outputs_bit_exact "$k16")" = "true" ] && match="bit-exact"
    compressed+="| $task | $compress | $layers | $(grouped "$int8") → $(grouped "$palette") |"
    compressed+=" $(grouped "$(field weights_bytes "$b")") → $(grouped "$(field weights_bytes "$k16")") |"
    compressed+=" $(grouped "$(field code_bytes "$b")") → $(grouped "$(field code_bytes "$k16")") |"
    compressed+=" $(grouped "$(field ram_bytes "$b")") → $(grouped "$(field ram_bytes "$k16")") |"
    compressed+=" $(millions "$(field instructions "$k16")") (${ratio}x) | $match | $agreed |"$'\n'
  done
done

cat > "$out" <<DOC
# Benchmarks

Generated by \`scripts/bench_table.sh $target\` — do not edit by hand. Every model in \`../shared/models\`,
compiled by microaot (executor aot; the DSP kernels of \`runtime/kernels/dsp/\` for int8 CONV_2D, DEPTHWISE_CONV_2D,
FULLY_CONNECTED, ADD, SUB, MUL, MAXIMUM, MINIMUM, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, SUM, BATCH_MATMUL and TRANSPOSE_CONV on a cpu with the DSP extension, portable C for the rest), cross-compiled with \`arm-none-eabi-gcc
$(arm-none-eabi-gcc -dumpversion) -O2\` (\`-Os\` for the sources where no time goes: the executor's API, the step function, the kernels
of layers under 1/1000 of the work and the sources whose work is per call, as the folder's build files do) and run on golden vector 0 on the emulated \`$target\` (\`$(qemu-system-arm --version | head -1)\`,
machine \`$machine\`) by \`microaot bench\`.

Built with \`--optimize speed\` (the default): the packed CONV_2D and FULLY_CONNECTED layers take their weights
widened to int16 at compile time, so those layers' bytes in \`weights.c\` double (the MLPerf models' weights bytes
grow by 60 to 95%) for inner loops that no longer widen them. \`--optimize balanced\` keeps them int8, in a raw
form one SXTB16 unpacks (docs/packed-raw-form.md): the model's own weight bytes, a few % more instructions and,
as int16 weights load twice the words, fewer estimated cycles. \`--optimize size\` keeps the portable
kernels, built with \`-Os\`. The MLPerf models at both DSP levels:

| model | speed: instructions | est. cycles | weights bytes | code bytes | balanced: instructions | est. cycles | weights bytes | code bytes |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
$levels

**Compressed weights** (docs/compressed-weights.md): each MLPerf model clustered to 16 values per output channel
(\`--cluster-weights 16\`, lossy) and compiled at \`--optimize balanced\`: with its default, which stores as palettes
(indices and tables, decoded inside the DSP palette kernels) only the layers whose palette kernel stays within
about 15% of the packed kernel's instructions, its in-place decodes counted, and with \`--compress-weights lossless\`
(every layer whose palette is smaller; the DSP palette kernels where one takes the layer, else the portable
ones); beside \`balanced\` unclustered. *palettised*: the layers
and their weights' bytes, int8 → indices + tables (report.json); *weights.c*, *code*, *RAM*: as below;
*outputs*: the emulated run against a host build of the clustered model; *agreement*: the clustered model's
outputs against the unclustered model's goldens over its vectors (host), top-1 or AD's largest difference in
int8 steps.

| model | --compress-weights | palettised layers | palettised B | weights.c B | code B | RAM B | instructions (vs balanced) | outputs vs host | agreement |
|---|---|---:|---:|---:|---:|---:|---:|---|---|
$compressed
**QEMU counts instructions, not cycles.** With \`-icount shift=0\` QEMU advances virtual time by exactly one
nanosecond per executed instruction; the board's timer runs on that time, so the harness counts the
instructions of one \`run()\` (minus an empty call of the same shape) exactly (each run checks itself on calls of
known length: docs/helium.md), and two
runs give identical numbers. Memory wait states, pipeline stalls and caches are not modelled by QEMU.

*est. cycles* (\`bench --cycles\`, docs/cycles.md) prices the very instructions executed (read from QEMU's
execution log) with the core's timing table (\`compiler/driver/cycle_table.def\`: the Cortex-M4 Technical
Reference Manual's figures for loads, stores, multiply-accumulates, branches taken or not, divides, FP).
**It assumes zero-wait-state memory** (code and data in single-cycle RAM, TCM or flash); a part running
from flash with wait states and no cache takes longer. \`bench --clock-mhz N\` gives the time at N MHz.

| model | instructions / inference | est. cycles | init instructions | code bytes | weights bytes | flash bytes | RAM bytes | stack bytes (measured / bound) | outputs vs host |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---|
$rows
- *instructions*: one \`NAME_run()\`; *init*: one \`NAME_init()\` (binds the arena; nothing is computed at start-up).
- *code bytes*: text + rodata + data of the generated library's objects (\`NAME.c\` with its constant kernel
  parameters, \`platform.c\`, the kernels) without \`weights.c\`; *weights bytes*: \`weights.c\` (the weights
  and the arrays of the kernel parameters, such as per-channel multipliers and shifts); *flash
  bytes*: both. The C library functions the kernels call (\`memcpy\`, \`expf\`) are not included
  (\`bench\` reports them as \`library_flash_bytes\`, and the whole image as \`image_flash_bytes\`).
- *RAM bytes*: data + bss of those objects: the static arena. The caller's \`NAME_context\` (8 bytes) and
  the stack come on top.
- *stack*: measured = deepest stack use of \`run()\` found by painting the free stack before the call;
  bound = deepest path of \`-fstack-usage\` frame sizes through the \`-fcallgraph-info\` call graph of the
  library. The C library functions it calls (\`memcpy\`, \`memset\`, \`expf\`) have no call graph: their depth
  is read from the linked image's disassembly (\`objdump -d\`): the constant stack decrements of each
  function (\`push\`, \`stmdb sp!\`, \`vpush\`, \`sub sp, #n\`, \`str\`/\`strd\` with \`[sp, #-n]!\`) plus its deepest
  callee (\`bl\`, a tail call \`b\`, or the function it falls through to). Anything that scan cannot bound
  (sp set from a register, a call or jump through a register, recursion) makes the bound unbounded
  (\`stack_bound_bytes\` null) and is named in \`stack_bound_excludes\`, which is empty otherwise. Painting
  sees only the stack written, the bound counts what is reserved: measured <= bound.
- *outputs vs host*: the emulated run's outputs compared with a host build of the same model on the same
  input (int8 bit for bit; float within the golden tolerance).

## For context: other systems on this bench (quoted)

Figures quoted from the project's issue "Cortex-M bench" — measured there on this same QEMU bench
(MLPerf Tiny models, Cortex-M4, \`-O2\`), **not** produced by this script. microaot's column is from the
table above (DSP kernels for convolutions, FULLY_CONNECTED, ADD, SUB, MUL, MAXIMUM, MINIMUM, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, SUM and BATCH_MATMUL, portable C for the rest).

| MLPerf Tiny model | microaot | TFLite Micro + CMSIS-NN (quoted) | microTVM AOT + CMSIS-NN (quoted) |
|---|---:|---:|---:|
$mlperf
Code size without weights, quoted for KWS: TFLite Micro + CMSIS-NN ≈ 100 KB, microTVM + CMSIS-NN ≈ 19 KB.

Reproduce: \`scripts/bench_table.sh\` (or one model: \`build/microaot bench MODEL.tflite --target cortex-m4 --json\`).

$m55_section
## Per operator

\`microaot bench\`'s \`per_op\` and \`per_op_types\`: each step measured in a second run of the image built
with the per-operator hooks (their own instructions removed); the totals above come from the run without
them. MACs as \`report.json\` counts them (element-wise operators count one per output element). The last
column of each summary is quoted from \`../shared/docs/m4-anchors.md\` (TFLite Micro with CMSIS-NN on this
same bench, MACs counted only for CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED) where it has the model.
*est. cycles*: the same run's estimated cycles between the hooks, net of an empty pair (docs/cycles.md).

$per_op
DOC
echo "bench_table.sh: wrote $out" >&2
