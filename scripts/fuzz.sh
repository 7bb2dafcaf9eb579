#!/usr/bin/env bash
# Fuzzes the whole compile path with libFuzzer (clang, ASan + UBSan) for a bounded time: a third of it on
# raw .tflite bytes seeded with the shared models and op cases (copied to a temporary corpus, never into
# the repo), a third on recipes of small valid models (fuzz/graph_recipe.cpp), a third on graph executor
# blobs (fuzz/blob_fuzzer.cpp: the firmware's loader), seeded with the blobs of the shared models that
# build/microaot writes (scripts/setup.sh builds it). Fails on any finding; the
# reproducer (crash-*, timeout-*, oom-*, leak-*) is left in BUILD/findings/ (build-fuzz, or build-sanitize in CI) to be added to
# fuzz/regressions/ once fixed (graph fuzzer findings as graph-*, the model microaot_recipe_to_model builds
# from the recipe).
#   scripts/fuzz.sh [SECONDS]   (default 120)
# The seed is fixed (MICROAOT_FUZZ_SEED, default 1); set MICROAOT_FUZZ_SEED=0 for a random seed when hunting.
# MICROAOT_FUZZ_RUNS=N stops each fuzzer after N inputs instead of after a time (SECONDS then only caps a
# slow machine): with the seed fixed the same inputs run on every machine, so CI (scripts/test.sh) replays
# exactly the campaign that passed here, however fast its machine is.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
seed=${MICROAOT_FUZZ_SEED:-1}
runs=${MICROAOT_FUZZ_RUNS:--1}
# MICROAOT_FUZZ_BUILD=DIR: fuzzers already configured there (scripts/test.sh's sanitizer build, which has them).
build=${MICROAOT_FUZZ_BUILD:-build-fuzz}
shared=../shared

if [ -z "${MICROAOT_FUZZ_BUILD:-}" ]; then
  # -O1 with line tables: nearly the speed of -O2 per input, a third less to build.
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMICROAOT_FUZZ=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DMICROAOT_WERROR=OFF > /dev/null
fi
cmake --build "$build" -j"$(nproc)" --target microaot_compile_fuzzer microaot_graph_fuzzer microaot_blob_fuzzer

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bytes" "$work/recipes" "$work/blobs" "$build/findings"
n=0
# A few ONNX node tests (libonnx-testdata, when installed) seed the ONNX frontend: compile_model sniffs content.
onnx_node=/usr/share/libonnx-testdata/data/node
for f in "$shared"/models/*/model.tflite "$shared"/ops/*/*/model.tflite fuzz/regressions/* \
  "$onnx_node"/test_{relu,maxpool_2d_default,softmax_axis_1,hardsigmoid}/model.onnx; do
  [ -f "$f" ] || continue
  case "$f" in
    */README.md) continue ;;
    */recipe-*) cp "$f" "$work/recipes/" ;;
    */blob-*) cp "$f" "$work/blobs/" ;;
    *) cp "$f" "$work/bytes/seed$n" ;;
  esac
  n=$((n + 1))
done
max_len=$(find "$work/bytes" -type f -printf '%s\n' | sort -n | tail -1)
# Blobs of the shared models below 64 KiB (larger ones only slow each input down).
for f in "$shared"/models/*/model.tflite; do
  [ -x build/microaot ] || break
  blob="$work/blobs/$(basename "$(dirname "$f")").blob"
  build/microaot compile "$f" --executor graph --blob-only -o "$blob" > /dev/null || continue
  [ "$(stat -c %s "$blob")" -le 65536 ] || rm "$blob"
done

# run FUZZER CORPUS SECONDS MAX_LEN: 0 when it found nothing.
run() {
  local log="$build/$1.log" status=0
  echo "fuzz.sh: $1 for $3 s or $runs runs (seed $seed, $(ls "$2" | wc -l) corpus files, max_len $4)"
  # -timeout: one input may take this long (the largest seeds, the VWW models, take a few seconds under ASan
  # with the coverage hooks; a mutation that makes the band choice slow must still not read as a hang);
  # -rss_limit_mb / -malloc_limit_mb: the compiler must not allocate without bound.
  "$build/$1" "$2" -seed="$seed" -max_total_time="$3" -runs="$runs" -max_len="$4" -timeout=90 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$1-" > "$log" 2>&1 || status=$?
  grep -v -E '^#[0-9]+|NEW_FUNC|^"|^###' "$log" | tail -n 40
  return "$status"
}

failed=0
run microaot_compile_fuzzer "$work/bytes" $((seconds / 3)) "$max_len" || failed=1
run microaot_graph_fuzzer "$work/recipes" $((seconds / 3)) 512 || failed=1
run microaot_blob_fuzzer "$work/blobs" $((seconds - 2 * (seconds / 3))) 65536 || failed=1
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: FAILED; reproducers in $build/findings/" >&2
  exit 1
fi
echo "fuzz.sh: no findings"
