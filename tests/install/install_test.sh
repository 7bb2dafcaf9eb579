#!/bin/sh
# The installed package from a user's side: `cmake --install` into a temporary prefix, then a small CMake
# project that finds it (find_package(microaot), microaot_add_model) and the same with plain Make through the
# generated .mk, each run on golden vector 0; and the installed binary runs the installed custom-op example.
# Usage: install_test.sh BUILD_DIR SHARED_DIR WORK_DIR
set -eu
build=$1 shared=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
model=$shared/models/hello_world_int8
[ -f "$model/model.tflite" ] || { echo "install_test.sh: $model is missing"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
prefix=$work/prefix

cmake -S "$here/app" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DMODEL="$model/model.tflite" > "$work/cmake.log"
cmake --build "$work/cmake" > "$work/cmake-build.log"
"$work/cmake/app" "$model/vectors/0.input0.bin" "$work/cmake.out"
cmp "$work/cmake.out" "$model/vectors/0.output0.bin"

cp -r "$here/app" "$work/make"
make -s -C "$work/make" MICROAOT="$prefix/bin/microaot" MODEL="$model/model.tflite" > "$work/make.log"
"$work/make/build/app" "$model/vectors/0.input0.bin" "$work/make.out"
cmp "$work/make.out" "$model/vectors/0.output0.bin"

example=$prefix/share/microaot/examples/custom-op
head -c 32 "$model/model.tflite" > "$work/custom.in"
"$prefix/bin/microaot" run "$example/clip_scale.tflite" --custom-op "ClipScale=$example/clip_scale.h,scratch=256" \
  --input "$work/custom.in" --output-dir "$work/custom" > "$work/custom.log"
[ "$(wc -c < "$work/custom/output0.bin")" -eq 8 ]
[ -f "$prefix/share/microaot/runtime/include/microaot/custom_op.h" ]
[ -f "$prefix/share/doc/microaot/executors.md" ]
echo "install_test.sh: installed, found by CMake and Make, ran bit-exact"
