#!/usr/bin/env bash
# Fuzzes the whole compile path with libFuzzer (clang, ASan + UBSan) for a bounded time, seeded with the
# shared models and op cases (copied to a temporary corpus, never into the repo). Fails on any finding;
# the reproducer (crash-*, timeout-*, oom-*, leak-*) is left in build-fuzz/findings/ to be added to
# fuzz/regressions/ once fixed.
#   scripts/fuzz.sh [SECONDS]   (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
build=build-fuzz
shared=../shared

CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMICROAOT_FUZZ=ON \
  -DMICROAOT_WERROR=OFF > /dev/null
cmake --build "$build" -j"$(nproc)" --target microaot_compile_fuzzer

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
n=0
for f in "$shared"/models/*/model.tflite "$shared"/ops/*/*/model.tflite fuzz/regressions/*; do
  [ -f "$f" ] || continue
  cp "$f" "$corpus/seed$n"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "fuzz.sh: no seeds found" >&2; exit 1; }
max_len=$(find "$corpus" -type f -printf '%s\n' | sort -n | tail -1)

mkdir -p "$build/findings"
echo "fuzz.sh: $n seeds, max_len $max_len, $seconds s"
# -timeout: one input may take this many seconds (the largest seeds need ~1 s under ASan);
# -rss_limit_mb / -malloc_limit_mb: the compiler must not allocate without bound.
log="$build/fuzz.log"
status=0
"$build/microaot_compile_fuzzer" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
  -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
  -artifact_prefix="$build/findings/" > "$log" 2>&1 || status=$?
grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)' "$log" | tail -n 60
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: FAILED (exit $status); reproducers in $build/findings/" >&2
  exit 1
fi
echo "fuzz.sh: no findings"
