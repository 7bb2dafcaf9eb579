// make_custom_op_model: writes the model of examples/custom-op, a CUSTOM op after a builtin:
//
//   input int8 1x4x4x2 (scale 0.5, zero point -3) -> MAX_POOL_2D 2x2 s2 -> CUSTOM "ClipScale"
//     -> output int8 1x2x2x2 (scale 0.25, zero point 5)
//
// ClipScale's options are 4 raw bytes the example defines (not a flexbuffer): lo, hi (int8, the clip range
// in the input's quantized values), num (int8) and shift (uint8): out = (clip(q) - zp_in) * num / 2^shift
// rounded down, plus zp_out, saturated to int8. The file is byte-for-byte deterministic.
//
// Usage: make_custom_op_model OUT.tflite
#include <cstdio>

#include "frontend/tflite_test_builder.h"

namespace {
using namespace microaot::tflite_test;

constexpr int kMaxPool2D = 17;
constexpr int kCustom = 32;
// The example's parameters (examples/custom-op/README.md, tests/e2e/examples_test.cpp): lo, hi, num, shift.
const std::vector<uint8_t> kClipScaleOptions = {static_cast<uint8_t>(-40), 90, 3, 1};

ModelSpec clip_scale_model() {
  ModelSpec m;
  m.tensors = {activation("input", {1, 4, 4, 2}, 0.5f, -3), activation("pooled", {1, 2, 2, 2}, 0.5f, -3),
               activation("clipped", {1, 2, 2, 2}, 0.25f, 5)};
  OpSpec pool = op(kMaxPool2D, 1, {0}, {1});
  pool.options_type = tflite::BuiltinOptions::Pool2DOptions;
  pool.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, 2, 2, 2, 2).Union();
  };
  OpSpec clip = op(kCustom, 1, {1}, {2}, "ClipScale");
  clip.custom_options = kClipScaleOptions;
  m.ops = {pool, clip};
  m.inputs = {0};
  m.outputs = {2};
  return m;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_custom_op_model OUT.tflite\n");
    return 2;
  }
  const std::vector<uint8_t> bytes = build_model(clip_scale_model());
  std::FILE* out = std::fopen(argv[1], "wb");
  const bool ok = out != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  if (out != nullptr && std::fclose(out) != 0) return 1;
  if (!ok) std::fprintf(stderr, "make_custom_op_model: cannot write %s\n", argv[1]);
  return ok ? 0 : 1;
}
