// int8 BATCH_MATMUL on the emulated Cortex-M4 (label qemu): one generated model of attention-style and matrix
// layers (every adj_x / adj_y pair, broadcast batch dimensions, ranks 2 to 5, odd rows, columns and depths of 1
// to 3, nonzero zero points on every operand, a left shift) runs bit-exact with the host build, each layer on the
// DSP kernel (dsp/batch_matmul_s8_dot.c) but the tiniest (the portable kernel's), the realistic ones within the
// instructions per MAC measured for them (the portable kernel: 10.87).
#include <gtest/gtest.h>

#include <cmath>
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

constexpr int kBatchMatmul = 126;

struct Layer {
  std::vector<int32_t> lhs, rhs, out;
  bool adj_x, adj_y;
  double per_mac;  // the bound on instructions per MAC; 0: none (a small layer)
  bool dsp = true;  // false: below the MACs per matrix the DSP kernel pays for (the portable kernel's)
  float gain = 1;   // the output scale divided by it: above about 600 a left shift, most outputs saturated
};

// Each layer's operands are model inputs with zero points of their own; the output scale keeps most outputs of
// random operands inside int8.
ModelSpec bmm_model(const std::vector<Layer>& layers) {
  ModelSpec m;
  for (const Layer& l : layers) {
    const int32_t base = static_cast<int32_t>(m.tensors.size());
    const int32_t depth = l.adj_x ? l.lhs[l.lhs.size() - 2] : l.lhs.back();
    const float out_scale = 0.02f * 0.03f * 5461.0f * std::sqrt(static_cast<float>(depth)) / 40.0f / l.gain;
    const int32_t zero_point = (base * 97 + 68) % 256 - 128;  // -60, 7, 74, ... and the others from it
    m.tensors.push_back(activation("l" + std::to_string(base), l.lhs, 0.02f, zero_point));
    m.tensors.push_back(activation("r" + std::to_string(base), l.rhs, 0.03f, (zero_point + 165) % 256 - 128));
    m.tensors.push_back(activation("o" + std::to_string(base), l.out, out_scale, zero_point / 3));
    tflite_test::OpSpec o = tflite_test::op(kBatchMatmul, 2, {base, base + 1}, {base + 2});
    o.options_type = tflite::BuiltinOptions::BatchMatMulOptions;
    o.options = [adj_x = l.adj_x, adj_y = l.adj_y](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateBatchMatMulOptions(fbb, adj_x, adj_y).Union();
    };
    m.ops.push_back(o);
    m.inputs.insert(m.inputs.end(), {base, base + 1});
    m.outputs.push_back(base + 2);
  }
  return m;
}

int64_t macs(const Layer& l) {
  int64_t n = l.adj_x ? l.lhs[l.lhs.size() - 2] : l.lhs.back();
  for (int32_t d : l.out) n *= d;
  return n;
}

TEST(BatchMatmulM4, DspKernelRunsBitExactOnEveryForm) {
  MICROAOT_REQUIRE_QEMU();
  const std::vector<Layer> layers = {
      {{1, 4, 32, 64}, {1, 4, 64, 32}, {1, 4, 32, 32}, false, false, 1.32},  // attention scores
      {{1, 49, 64}, {1, 64, 49}, {1, 49, 49}, false, false, 1.3},
      {{1, 4, 32, 64}, {1, 4, 32, 64}, {1, 4, 32, 32}, false, true, 1.32},  // adj_y: contiguous columns
      {{1, 4, 64, 32}, {1, 4, 64, 32}, {1, 4, 32, 32}, true, false, 1.38},  // adj_x: strided rows
      {{2, 64, 16}, {2, 24, 64}, {2, 16, 24}, true, true, 1.55},
      {{2, 1, 8, 20}, {3, 20, 12}, {2, 3, 8, 12}, false, false, 0},         // both operands broadcast
      {{1, 2, 1, 3, 5}, {2, 1, 2, 5, 6}, {2, 2, 2, 3, 6}, false, false, 0}, // rank 5
      {{5, 7}, {7, 3}, {5, 3}, false, false, 0},                            // rank 2
      {{1, 3, 5}, {1, 5, 2}, {1, 3, 2}, false, false, 0, false},
      {{1, 1, 9}, {1, 9, 1}, {1, 1, 1}, false, false, 0, false},
      {{2, 1, 3}, {2, 1, 3}, {2, 3, 3}, true, false, 0, false},             // depth 1
      {{3, 2, 7}, {1, 11, 2}, {3, 7, 11}, true, true, 0},
      {{1, 6, 13}, {2, 1, 13, 9}, {2, 1, 6, 9}, false, false, 0},
      {{1, 6, 20}, {1, 20, 10}, {1, 6, 10}, false, false, 0, true, 2000},  // a left shift of 2
  };
  const std::string dir = make_temp_dir();
  const json r = bench_random(bmm_model(layers), dir, 79);
  ASSERT_TRUE(r.contains("per_op"));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  ASSERT_EQ(r["per_op"].size(), layers.size());
  for (const json& row : r["per_op"]) {
    const int op = row["op_index"].get<int>();
    const Layer& layer = layers.at(static_cast<size_t>(op));
    const double per_mac = row["instructions"].get<double>() / static_cast<double>(macs(layer));
    EXPECT_EQ(row["kernel"], layer.dsp ? "microaot_batch_matmul_s8_dot" : "microaot_batch_matmul_s8") << "op " << op;
    if (layer.per_mac > 0) {
      EXPECT_LE(per_mac, layer.per_mac) << "op " << op;
    }
    std::cout << "op " << op << ": " << row["instructions"].get<int64_t>() << " instructions, " << per_mac
              << " per MAC\n";
  }
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
