#!/usr/bin/env bash
# The main job, end to end: set up, build, write the demo model, compile it to C, run it on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

mkdir -p out
build/make_demo_model out/demo.tflite
build/microaot inspect out/demo.tflite
build/microaot compile out/demo.tflite -o out/demo_lib --module-name demo --target "c -mcpu=cortex-m4"
# A deterministic input: a 16x16 gradient, 256 int8 bytes (1x16x16x1).
for i in $(seq 0 255); do printf "\\$(printf %03o "$i")"; done > out/demo_input.bin
build/microaot run out/demo.tflite --input out/demo_input.bin --output-dir out/demo_run
echo "generated library: out/demo_lib (see memory_plan.txt, network_info.txt, report.json)"
echo "output (4 x int8, softmax scale 1/256, zero point -128):"
od -An -t d1 out/demo_run/output0.bin
