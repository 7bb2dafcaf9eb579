// A CONV_2D or FULLY_CONNECTED op for the qemu tests' one-layer-per-input models (dsp_s16_qemu_test.cpp,
// packed_rows3_qemu_test.cpp): its input, weights, bias and output the four tensors from `base` on.
#pragma once

#include <cstdint>

#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {

// fc: a FULLY_CONNECTED, else a CONV_2D of `stride` both ways, SAME or VALID padding; `act` its fused clamp.
inline tflite_test::OpSpec matmul_layer_op(bool fc, int32_t base, bool same, int stride,
                                           tflite::ActivationFunctionType act) {
  constexpr int kConv2d = 3, kFullyConnected = 9;  // builtin codes
  tflite_test::OpSpec o =
      tflite_test::op(fc ? kFullyConnected : kConv2d, fc ? 7 : 4, {base, base + 1, base + 2}, {base + 3});
  if (fc) {
    o.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
    o.options = [act](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateFullyConnectedOptions(fbb, act).Union();
    };
  } else {
    o.options_type = tflite::BuiltinOptions::Conv2DOptions;
    o.options = [same, stride, act](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateConv2DOptions(fbb, same ? tflite::Padding::SAME : tflite::Padding::VALID, stride, stride,
                                         act)
          .Union();
    };
  }
  return o;
}

}  // namespace microaot::e2e
