#!/usr/bin/env bash
# Fingerprint of microaot's output: compiles every model under ../shared/models*/ and the int8 cases of a sample
# of ../shared/ops/ for the host and for "c -mcpu=cortex-m4" at each --optimize, under both executors, and
# prints one SHA-256 per output folder (over every file's path and bytes, without microaot.json, which records
# the tool's version). A refactoring that must not move the output prints the same lines before and after:
#   scripts/output_fingerprint.sh > /tmp/before.txt; ...; scripts/output_fingerprint.sh | diff /tmp/before.txt -
# Usage: scripts/output_fingerprint.sh [MICROAOT_BINARY] (default build/microaot)
# EXCLUDE=DIR (e.g. EXCLUDE=kernels) adds a second hash per folder over its files outside DIR: a change that moves
# the runtime copy (kernels/) alone keeps that column.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/microaot}
shared=${SHARED:-$root/../shared}
ops_sample=${OPS_SAMPLE:-"AVERAGE_POOL_2D DEPTHWISE_CONV_2D CONV_2D FULLY_CONNECTED ADD MAX_POOL_2D MEAN"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

models=()
for m in "$shared"/models*/*/model.tflite; do models+=("$m"); done
for op in $ops_sample; do
  for m in "$shared"/ops/"$op"/int8_*/model.tflite; do models+=("$m"); done
done

hash_folder() {  # every file's relative path and content, in a fixed order; $2: a folder left out
  local skip=()
  [[ -n ${2:-} ]] && skip=(! -path "./$2/*")
  (cd "$1" && find . -type f ! -name microaot.json "${skip[@]}" | LC_ALL=C sort | while read -r f; do
     printf '%s\n' "$f"; sha256sum < "$f"; done) | sha256sum | cut -c1-16
}

for model in "${models[@]}"; do
  name=${model#"$shared"/}; name=${name%/model.tflite}
  for executor in aot graph; do
    for target in host "c -mcpu=cortex-m4"; do
      for optimize in speed balanced size; do
        [[ $target == host && $optimize != speed ]] && continue  # the host target: its default only
        out=$work/out
        rm -rf "$out"
        args=(compile "$model" -o "$out" --executor "$executor" --optimize "$optimize")
        [[ $target != host ]] && args+=(--target "$target")
        if "$tool" "${args[@]}" > "$work/log" 2>&1; then
          result=$(hash_folder "$out")
          [[ -n ${EXCLUDE:-} ]] && result+=" $(hash_folder "$out" "$EXCLUDE")"
        else
          result="refused:$(sed "s|$work|WORK|g" "$work/log" | sha256sum | cut -c1-16)"
        fi
        printf '%s %s %s %s %s\n' "$name" "$executor" "${target// /_}" "$optimize" "$result"
      done
    done
  done
done
