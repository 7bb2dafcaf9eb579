// The tabulated kernels: each lowered layer becomes a lut_s8 call at speed and balanced (and stays itself at
// size), and that call maps every input value, in any order, to what the layer's own kernel gives it.
#include "kernels/tabulate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/kernels/activations.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/sigmoid.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/unary_test_util.h"

namespace microaot {
namespace {

struct Layer {
  Graph graph;
  void (*run)(const ParamValues& values, const int8_t* in, int8_t* out, int32_t size);  // the layer's own kernel
};

#define RUN_KERNEL(stem, params)                                                \
  [](const ParamValues& values, const int8_t* in, int8_t* out, int32_t size) { \
    microaot_##params p = MICROAOT_PARAMS_STRUCT(params, values);               \
    p.size = size;                                                              \
    microaot_##stem(&p, in, out);                                               \
  }

std::vector<Layer> layers() {
  LeakyReluOptions leaky, negative;
  leaky.alpha = 0.2f, negative.alpha = -0.3f;
  return {
      {unary_graph(OpKind::Logistic, DType::kInt8, {{300}, 0.1f, 5}, {{300}, 1.0f / 256, -128}),
       RUN_KERNEL(logistic_s8, sigmoid_params_s8)},
      {unary_graph(OpKind::Tanh, DType::kInt8, {{300}, 0.05f, -7}, {{300}, 1.0f / 128, 0}),
       RUN_KERNEL(tanh_s8, sigmoid_params_s8)},
      {unary_graph(OpKind::HardSwish, DType::kInt8, {{300}, 0.04f, 3}, {{300}, 0.03f, -100}),
       RUN_KERNEL(hard_swish_s8, hard_swish_params_s8)},
      {unary_graph(OpKind::LeakyRelu, DType::kInt8, {{300}, 0.1f, 9}, DType::kInt8, {{300}, 0.07f, -20}, leaky),
       RUN_KERNEL(leaky_relu_s8, leaky_relu_params_q)},
      {unary_graph(OpKind::LeakyRelu, DType::kInt8, {{300}, 0.1f, 9}, DType::kInt8, {{300}, 0.07f, -20}, negative),
       RUN_KERNEL(leaky_relu_s8, leaky_relu_params_q)},
      {unary_graph(OpKind::Quantize, DType::kInt8, {{300}, 0.1f, 9}, {{300}, 0.13f, -4}),
       RUN_KERNEL(requantize_s8_s8, requantize_params)},
  };
}

TEST(Tabulate, LayersTakeTheTableTheirKernelComputes) {
  std::mt19937 rng(71);
  Target speed, balanced, size;
  balanced.optimize_balanced = true, size.optimize_size = true;
  for (const Layer& layer : layers()) {
    const Op& op = layer.graph.ops[0];
    op_handler(op.kind).check(layer.graph, op);
    const KernelCall call = op_handler(op.kind).lower(layer.graph, op);
    EXPECT_EQ(tabulated(call, size).stem, call.stem);
    EXPECT_EQ(tabulated(call, balanced).stem, "lut_s8") << call.stem;
    const KernelCall table = tabulated(call, speed);
    ASSERT_EQ(table.stem, "lut_s8") << call.stem;
    EXPECT_EQ(table.args, call.args);
    EXPECT_NE(table.specialisation.find(call.stem), std::string::npos) << table.specialisation;

    std::vector<int8_t> in(300), want(in.size()), got(in.size());
    for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<int8_t>(k % 256 - 128);  // every value
    std::shuffle(in.begin(), in.end(), rng);
    layer.run(call.params, in.data(), want.data(), static_cast<int32_t>(in.size()));
    const std::vector<int64_t>& entries = table.params.find("table")->integers;
    ASSERT_EQ(entries.size(), 256u);
    const std::vector<int8_t> bytes(entries.begin(), entries.end());
    const microaot_lut_params_s8 p = {static_cast<int32_t>(table.params.find("size")->integer), bytes.data()};
    microaot_lut_s8(&p, in.data(), got.data());
    EXPECT_EQ(got, want) << call.stem;
  }
}

}  // namespace
}  // namespace microaot
