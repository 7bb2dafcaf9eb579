#!/usr/bin/env bash
# The whole test suite: unit and end-to-end tests on a normal build, then the same tests on a build of the
# compiler with AddressSanitizer + UndefinedBehaviorSanitizer, compiling the generated C with them too.
# End-to-end tests read ../shared (skipped when it is absent, unless CI is set). The Cortex-M tests
# (label qemu) run in the first pass only: host sanitizer flags mean nothing to the Arm build. The sanitizer
# pass runs one op case per operator and dtype, built from all its sources (label ops-prebuilt marks the
# others): every kernel still runs sanitized, and the pass stays within the CI budget (README "Tests"). The
# examples (label examples) build with their READMEs' flags, not the sanitizers: first pass only.
# MICROAOT_LONG_TESTS=1 also runs every golden vector of every model on the emulated Cortex-M4.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DMICROAOT_SANITIZE=ON > /dev/null
cmake --build build-sanitize -j"$jobs"
MICROAOT_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs" -LE 'qemu|ops-prebuilt|examples'

# libFuzzer over the whole compile path for a bounded time (scripts/fuzz.sh; findings fail the run).
scripts/fuzz.sh "${MICROAOT_FUZZ_SECONDS:-120}"
