#!/usr/bin/env bash
# Installs what microaot needs on Debian 12 (as root, or through sudo) and builds it into build/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake flatbuffers-compiler libflatbuffers-dev libcli11-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)
# jq reads bench's JSON in scripts/bench_table.sh.
packages+=(jq)
# clang builds the generated code in the determinism test; libclang-rt-14-dev holds libFuzzer (scripts/fuzz.sh).
packages+=(clang libclang-rt-14-dev)
# The ONNX frontend's protobuf classes, and ONNX's node tests for its conformance test (label onnx).
packages+=(libonnx-dev libprotobuf-dev libonnx-testdata)
# The real-model ONNX tests write their models with python3-onnx and check them against onnxruntime (npm).
packages+=(python3-onnx python3-numpy)
command -v npm > /dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# onnxruntime's CPU runtime, pinned by tests/onnx/package-lock.json (its install script, skipped, would
# download GPU binaries); reinstalled only when the lock changes.
onnx_dir=tests/onnx
if ! cmp -s "$onnx_dir/package-lock.json" "$onnx_dir/node_modules/.package-lock.json.installed"; then
  (cd "$onnx_dir" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error > /dev/null)
  cp "$onnx_dir/package-lock.json" "$onnx_dir/node_modules/.package-lock.json.installed"
fi

# The tool, the runtime and the end-to-end tests; the unit tests build in scripts/test.sh's sanitizer build.
# Line tables only (-g1): backtraces keep file:line, and the build that every test run starts with is faster.
release_flags="-O2 -g1 -DNDEBUG"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="$release_flags" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$release_flags" -DMICROAOT_UNIT_TESTS=OFF > /dev/null
cmake --build build -j"$(nproc)"
