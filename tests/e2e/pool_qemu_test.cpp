// The DSP int8 pools (runtime/kernels/dsp/max_pool_2d_s8.c and the average lanes,
// microaot/internal/templates/pool_2d_s8_lanes.h) on the emulated Cortex-M4 (label qemu): their SSUB8 + SEL,
// SXTAB16 and PKHBT forms run only on the Arm build, the host unit tests (dsp_pool_test.cpp) run the C forms. A
// model of single pool layers of CNN kinds (2x2 stride 2 "valid" and "same", 3x3 stride 2 "same", channels 4k and
// not, RELU and RELU6, fewer than four channels) runs bit-exact with the host build, the 4k-channel 2x2 and 3x3
// layers under a ceiling of instructions per output element (issue 31).
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_random.h"
#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

using tflite_test::activation;
using tflite_test::ModelSpec;
using AF = tflite::ActivationFunctionType;

constexpr int kAveragePool2D = 1, kMaxPool2D = 17;  // builtin codes

// One pool layer: MAX_POOL_2D or AVERAGE_POOL_2D on an h x w x c input, a k x k filter at stride s, its padding
// and clamp; `ceiling` instructions per output element (0: bit-exactness alone).
struct Layer {
  bool average;
  int h, w, c, k, s;
  bool same;
  AF act;
  double ceiling;
};

int output_size(int in, int k, int s, bool same) { return same ? (in + s - 1) / s : (in - k) / s + 1; }

// Each layer on an input of its own into an output of its own, the output quantized as the input (as TFLite's
// pools require).
ModelSpec pool_model(const std::vector<Layer>& layers) {
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const std::string id = std::to_string(m.ops.size());
    m.tensors.push_back(activation("x" + id, {1, l.h, l.w, l.c}, 0.05f, -3));
    m.tensors.push_back(activation(
        "y" + id, {1, output_size(l.h, l.k, l.s, l.same), output_size(l.w, l.k, l.s, l.same), l.c}, 0.05f, -3));
    tflite_test::OpSpec o = tflite_test::op(l.average ? kAveragePool2D : kMaxPool2D, 1, {base}, {base + 1});
    o.options_type = tflite::BuiltinOptions::Pool2DOptions;
    o.options = [l](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreatePool2DOptions(fbb, l.same ? tflite::Padding::SAME : tflite::Padding::VALID, l.s, l.s,
                                         l.k, l.k, l.act)
          .Union();
    };
    m.ops.push_back(o);
    m.inputs.push_back(base);
    m.outputs.push_back(base + 1);
  }
  return m;
}

TEST(DspPoolM4, CnnPoolsRunBitExactUnderTheirCeilings) {
  MICROAOT_REQUIRE_QEMU();
  // Ceilings a little above the measured figures (instructions per output element: 4.53, 9.84, 12.77, 9.36,
  // 14.40, 15.77); the former kernels took 17.0 and 28.2 (max), 36.4 and 46.0 (average) on the first two's
  // kinds at 32x32x64 and 24x24x32.
  const std::vector<Layer> layers = {
      {false, 16, 16, 64, 2, 2, false, AF::NONE, 5.0},   // 2x2 stride 2, the words' loop unclamped
      {false, 24, 24, 32, 3, 2, true, AF::NONE, 10.5},   // 3x3 stride 2, "same": the last row and column clipped
      {false, 13, 13, 24, 3, 2, true, AF::RELU6, 13.5},  // padding all round, clamped
      {false, 10, 10, 30, 2, 2, false, AF::NONE, 0},     // the last word ending at the last channel
      {false, 7, 7, 2, 3, 1, true, AF::NONE, 0},         // two channels, byte by byte
      {true, 16, 16, 64, 2, 2, false, AF::NONE, 10.0},   // count 4: shifted lanes
      {true, 24, 24, 32, 3, 2, true, AF::NONE, 15.0},    // counts 9 and, clipped, 6 and 4
      {true, 13, 13, 24, 3, 2, true, AF::RELU6, 16.5},
      {true, 9, 9, 4, 3, 2, true, AF::RELU, 0},
      {true, 10, 10, 30, 2, 2, false, AF::NONE, 0},      // the last word ending at the last channel
      {true, 9, 9, 8, 2, 2, true, AF::NONE, 0},          // 2x2 "same": windows of 1x2, 2x1, 1x1 (window_means)
  };
  const std::string dir = make_temp_dir();
  const json r = bench_random(pool_model(layers), dir, 97);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const size_t op = row["op_index"].get<size_t>();
    const Layer& l = layers.at(op);
    const double elements = static_cast<double>(output_size(l.h, l.k, l.s, l.same)) *
                            output_size(l.w, l.k, l.s, l.same) * l.c;
    const double per_element = row["instructions"].get<double>() / elements;
    // every average layer here within the lanes (at least 4 channels), so the model links their kernel alone
    EXPECT_EQ(row["kernel"], l.average ? "microaot_average_pool_2d_s8_lanes" : "microaot_max_pool_2d_s8") << op;
    std::cout << "op " << op << ": " << row["kernel"].get<std::string>() << ", " << row["instructions"]
              << " instructions, " << per_element << " per output element\n";
    if (l.ceiling > 0) {
      EXPECT_LT(per_element, l.ceiling) << "op " << op;
    }
  }
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
