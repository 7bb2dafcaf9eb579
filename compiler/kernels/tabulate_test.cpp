// The tabulated kernels: each lowered layer becomes a lut_s8 call at speed and balanced (and stays itself at
// size), and that call maps every input value, in any order, to what the layer's own kernel gives it; an int8
// SOFTMAX of 64 elements or more takes softmax_s8_table, whose rows equal softmax_s8's, and a smaller one stays;
// an int8 PRELU takes prelu_s8_table, whose outputs equal prelu_s8's.
#include "kernels/tabulate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/kernels/activations.h"
#include "microaot/kernels/math.h"
#include "microaot/kernels/quantize.h"
#include "microaot/kernels/sigmoid.h"
#include "microaot/kernels/softmax.h"
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
      {unary_graph(OpKind::Relu, DType::kInt8, {{300}, 0.1f, 9}, {{300}, 0.06f, -128}),
       RUN_KERNEL(relu_s8, unary_params_q)},
      {unary_graph(OpKind::Relu6, DType::kInt8, {{300}, 0.05f, -20}, {{300}, 0.05f, -20}),
       RUN_KERNEL(relu6_s8, clamp_params_q)},
      {unary_graph(OpKind::Abs, DType::kInt8, {{300}, 0.1f, 30}, {{300}, 0.07f, -128}),
       RUN_KERNEL(abs_s8, unary_params_q)},
      {unary_graph(OpKind::Rsqrt, DType::kInt8, {{300}, 0.1f, -128}, {{300}, 0.02f, -100}),
       RUN_KERNEL(rsqrt_s8, unary_params_q)},
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

// Softmax layers of 4 x 16 and 1 x 300 elements (betas that put the exps' cut, diff_min, inside and beyond the
// int8 differences), on rows of random values, of one value repeated, and of the extremes.
TEST(Tabulate, SoftmaxTakesItsExpsFromATable) {
  std::mt19937 rng(79);
  Target speed, size;
  size.optimize_size = true;
  for (const float beta : {0.05f, 1.0f, 8.0f}) {
    for (const std::vector<int32_t>& shape : {std::vector<int32_t>{4, 16}, std::vector<int32_t>{1, 300}}) {
      SoftmaxOptions options;
      options.beta = beta;
      Graph g = unary_graph(OpKind::Softmax, DType::kInt8, {shape, 0.1f, 3}, DType::kInt8, {shape, 1.0f / 256, -128},
                            options);
      op_handler(OpKind::Softmax).check(g, g.ops[0]);
      const KernelCall call = op_handler(OpKind::Softmax).lower(g, g.ops[0]);
      EXPECT_EQ(tabulated(call, size).stem, "softmax_s8");
      const KernelCall table = tabulated(call, speed);
      ASSERT_EQ(table.stem, "softmax_s8_table");
      const microaot_softmax_params_s8 plain = MICROAOT_PARAMS_STRUCT(softmax_params_s8, call.params);
      microaot_softmax_table_params_s8 fast = MICROAOT_PARAMS_STRUCT(softmax_table_params_s8, table.params);
      const std::vector<int64_t>& entries = table.params.find("exps")->integers;
      ASSERT_EQ(entries.size(), 256u);
      const std::vector<int32_t> exps(entries.begin(), entries.end());
      fast.exps = exps.data();
      const size_t n = static_cast<size_t>(shape[0] * shape[1]);
      for (int fill = 0; fill < 4; ++fill) {
        std::vector<int8_t> in(n), want(n), got(n);
        for (size_t k = 0; k < n; ++k) {
          in[k] = fill == 0 ? static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng))
                  : fill == 1 ? int8_t{7}
                  : fill == 2 ? static_cast<int8_t>(k % 2 == 0 ? -128 : 127)
                              : static_cast<int8_t>(std::uniform_int_distribution<int>(100, 127)(rng));
        }
        microaot_softmax_s8(&plain, in.data(), want.data());
        microaot_softmax_s8_table(&fast, in.data(), got.data());
        EXPECT_EQ(got, want) << "beta " << beta << ", " << n << " elements, rows " << fill;
      }
    }
  }
  Graph small = unary_graph(OpKind::Softmax, DType::kInt8, {{2, 31}, 0.1f, 3}, DType::kInt8,
                            {{2, 31}, 1.0f / 256, -128}, SoftmaxOptions{});
  op_handler(OpKind::Softmax).check(small, small.ops[0]);
  EXPECT_EQ(tabulated(op_handler(OpKind::Softmax).lower(small, small.ops[0]), speed).stem, "softmax_s8");
}

// The int32 copy of a call's array param, for a params struct's pointer.
std::vector<int32_t> ints(const KernelCall& call, const char* name) {
  const std::vector<int64_t>& values = call.params.find(name)->integers;
  return std::vector<int32_t>(values.begin(), values.end());
}

// PRELU layers: alpha per channel, per element, one value and along a middle dimension; identity multipliers
// above and below 1, alphas of both signs, zero points at the int8 range's ends. Every input value with random
// alphas, the table kernel against prelu_s8.
TEST(Tabulate, PreluTakesItsIdentitySideFromATable) {
  struct Layer {
    std::vector<int32_t> x, alpha;
    float x_scale;
    int64_t x_zero;
    float alpha_scale;
    int64_t alpha_zero;
    float out_scale;
    int64_t out_zero;
  };
  const Layer layers[] = {{{1, 6, 7, 5}, {5}, 0.1f, 3, 0.01f, -20, 0.08f, -5},
                          {{2, 9}, {2, 9}, 0.05f, -128, 0.02f, 0, 0.2f, 127},
                          {{3, 4, 6}, {1}, 0.2f, 127, 0.004f, 100, 0.05f, -128},
                          {{1, 5, 5, 3}, {1, 1, 3}, 0.03f, -40, 0.05f, 7, 0.01f, 10},
                          {{2, 3, 16}, {3, 1}, 0.07f, 0, 0.03f, -128, 0.07f, 0}};
  std::mt19937 rng(83);
  Target speed, size;
  size.optimize_size = true;
  for (const Layer& l : layers) {
    Graph g;
    g.tensors = {spec_tensor("x", DType::kInt8, {l.x, l.x_scale, l.x_zero}),
                 spec_tensor("alpha", DType::kInt8, {l.alpha, l.alpha_scale, l.alpha_zero}),
                 spec_tensor("y", DType::kInt8, {l.x, l.out_scale, l.out_zero})};
    g.ops.push_back(Op{OpKind::Prelu, 4, 1, {0, 1}, {2}, {}});
    op_handler(OpKind::Prelu).check(g, g.ops[0]);
    const KernelCall call = op_handler(OpKind::Prelu).lower(g, g.ops[0]);
    EXPECT_EQ(tabulated(call, size).stem, "prelu_s8");
    const KernelCall table = tabulated(call, speed);
    ASSERT_EQ(table.stem, "prelu_s8_table");
    EXPECT_EQ(table.args, call.args);
    const std::vector<int32_t> shape = ints(call, "output_shape"), strides1 = ints(call, "input1_strides"),
                               strides2 = ints(call, "input2_strides");
    const std::vector<int64_t>& entries = table.params.find("table")->integers;
    ASSERT_EQ(entries.size(), 256u);
    const std::vector<int8_t> bytes(entries.begin(), entries.end());
    microaot_prelu_params_q plain = MICROAOT_PARAMS_STRUCT(prelu_params_q, call.params);
    microaot_prelu_table_params_s8 fast = MICROAOT_PARAMS_STRUCT(prelu_table_params_s8, table.params);
    plain.output_shape = fast.output_shape = shape.data();
    plain.input1_strides = fast.input1_strides = strides1.data();
    plain.input2_strides = fast.input2_strides = strides2.data();
    fast.table = bytes.data();
    size_t n = 1, alphas = 1;
    for (const int32_t d : l.x) n *= static_cast<size_t>(d);
    for (const int32_t d : l.alpha) alphas *= static_cast<size_t>(d);
    for (int round = 0; round < 4; ++round) {
      std::vector<int8_t> x(n), alpha(alphas), want(n), got(n);
      for (size_t k = 0; k < n; ++k) x[k] = static_cast<int8_t>((k + 61 * round) % 256 - 128);
      std::shuffle(x.begin(), x.end(), rng);
      for (int8_t& a : alpha) a = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      microaot_prelu_s8(&plain, x.data(), alpha.data(), want.data());
      microaot_prelu_s8_table(&fast, x.data(), alpha.data(), got.data());
      EXPECT_EQ(got, want) << l.x.size() << "-d input of " << n << ", round " << round;
    }
  }
}

}  // namespace
}  // namespace microaot
