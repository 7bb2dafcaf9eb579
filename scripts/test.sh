#!/usr/bin/env bash
# The whole test suite: end-to-end tests on a normal build, then the unit tests and the end-to-end tests on a
# build of the compiler with AddressSanitizer + UndefinedBehaviorSanitizer, compiling the generated C with them
# too. The unit tests run in the sanitizer build only, where they check strictly more: building them twice
# cost CI minutes.
# End-to-end tests read ../shared (skipped when it is absent, unless CI is set). The Cortex-M tests
# (label qemu) run in the first pass only: host sanitizer flags mean nothing to the Arm build. The sanitizer
# pass runs one op case per operator (label ops-prebuilt marks the others), linked with the runtime that
# build compiled with the sanitizers, beside the kernel unit tests: the pass stays within the CI budget
# (docs/testing.md). The
# examples (label examples) build with their READMEs' flags and the strict-warning builds (label warnings)
# with theirs, not the sanitizers: first pass only.
# MICROAOT_LONG_TESTS=1 also runs every golden vector of every model on the emulated Cortex-M4.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase prints the seconds since the start, so a CI log shows where the budget goes.
elapsed() { echo "test.sh: $1 after ${SECONDS} s"; }

scripts/setup.sh  # configures and builds build/
elapsed "setup and build"
jobs=$(nproc)

# The ONNX node suite (label onnx) runs in the sanitizer pass only, where it checks strictly more.
ctest --test-dir build --output-on-failure -j"$jobs" -LE onnx
elapsed "tests"

# One clang build serves the sanitizer pass and the fuzzers below (MICROAOT_FUZZ: their coverage
# instrumentation too), instead of two builds of the compiler. Line tables (-g1) instead of full debug info:
# sanitizer reports keep file:line, the build is faster.
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-g1 \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DMICROAOT_SANITIZE=ON -DMICROAOT_FUZZ=ON > /dev/null
cmake --build build-sanitize -j"$jobs"
elapsed "sanitizer build"
# The tests build C programs with `cc` (and `run` with $CC): here that must be clang, whose ASan runtime the
# prebuilt runtime of this build was compiled for.
mkdir -p build-sanitize/cc
ln -sf "$(command -v clang)" build-sanitize/cc/cc
# Six long tests run in the first pass only, about 280 s of the budget with the sanitizers: the determinism
# test's builds with other compilers and levels; the 16-step state entries (nine builds of one model whose
# code paths the fresh-state test already runs sanitized); the 364 damaged models, whose kind of input the
# fuzzers below feed the compiler under ASan/UBSan, seeded with the same real models; the quantizer over every
# op case and the QDQ models against onnxruntime, whose compiler code the unit tests run sanitized; the float
# VWW's RAM budget sweep (seven float builds: 25 s of CPU sanitized, 3.5 s plain), whose band code the
# int8 sweeps run sanitized (VWW's seven builds 22 s, IC's three 3 s: ASan's redzones around the static arena
# check at each budget that the code stays inside the RAM the report states).
PATH="$PWD/build-sanitize/cc:$PATH" CC=clang \
  MICROAOT_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs" -LE 'qemu|ops-prebuilt|examples|warnings' \
  -E 'DeterminismTest\.OutputsDoNotDependOnHostCompilerOrOptimisation|RepeatedEntriesCarryStateLikeTflm|MutatedModels\.|QuantizeOpCases\.EveryQuantizableOperatorStaysCloseToFloat|onnx_qdq_models_host|RamBudgetSweepDownwardsRunsFloatBands'
elapsed "sanitizer tests"

# libFuzzer over the whole compile path, a fixed number of inputs per fuzzer (scripts/fuzz.sh; findings fail
# the run): the same inputs on every machine, at most 10 minutes each on a slow one.
MICROAOT_FUZZ_BUILD=build-sanitize MICROAOT_FUZZ_RUNS=${MICROAOT_FUZZ_RUNS:-10000} scripts/fuzz.sh 1200
elapsed "fuzzing"
