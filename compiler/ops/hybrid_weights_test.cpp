// Hybrid FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D (float32 activations, constant int8 weights): the
// kernel each handler picks, the weight scales it emits, the versions it takes and every refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ops/lowering_test_util.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/remap_test_util.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

struct HybridOp {
  const char* name;  // as the error messages spell it
  OpKind kind;
  std::vector<int32_t> input, weights, output;
  int channel_axis;  // of the weights
  int version;       // TFLite's version of a per-channel hybrid op
  const char* kernel;
  const char* params;
};

const HybridOp kFc{"FULLY_CONNECTED", OpKind::FullyConnected, {2, 6}, {3, 6}, {2, 3}, 0, 12,
                   "microaot_fully_connected_f32_s8w", "microaot_fully_connected_params_hybrid"};
const HybridOp kConv{"CONV_2D", OpKind::Conv2D, {1, 5, 5, 2}, {3, 3, 3, 2}, {1, 5, 5, 3}, 0, 5,
                     "microaot_conv_2d_f32_s8w", "microaot_conv_2d_params_hybrid"};
const HybridOp kDepthwise{"DEPTHWISE_CONV_2D", OpKind::DepthwiseConv2D, {1, 5, 5, 1}, {1, 3, 3, 3}, {1, 5, 5, 3},
                          3, 6, "microaot_depthwise_conv_2d_f32_s8w", "microaot_depthwise_conv_2d_params_hybrid"};
const HybridOp kAll[] = {kFc, kConv, kDepthwise};

OpOptions options_of(OpKind kind) {
  if (kind == OpKind::FullyConnected) return FullyConnectedOptions{};
  if (kind == OpKind::Conv2D) {
    Conv2DOptions o;
    o.padding = Padding::kSame;
    return o;
  }
  DepthwiseConv2DOptions o;
  o.padding = Padding::kSame;
  o.depth_multiplier = 3;
  return o;
}

// Tensors t0 (input), t1 (int8 weights, `scales` along the op's channel axis), t2 (float32 bias), t3
// (output); the op is op 4.
Graph build(const HybridOp& h, std::vector<float> scales = {0.02f, 0.5f, 0.003f}) {
  Graph g;
  const int x = add_tensor(g, DType::kFloat32, h.input);
  const int w = add_tensor(g, DType::kInt8, h.weights);
  const int b = add_tensor(g, DType::kFloat32, {h.output.back()});
  const int y = add_tensor(g, DType::kFloat32, h.output);
  Tensor& weights = g.tensor(w);
  weights.is_constant = true;
  weights.data.assign(static_cast<size_t>(weights.num_elements()), 0xF9);  // -7
  weights.quant = {scales, std::vector<int64_t>(scales.size(), 0), h.channel_axis};
  g.tensor(b).is_constant = true;
  g.tensor(b).data.assign(static_cast<size_t>(h.output.back()) * sizeof(float), 0);
  g.ops.push_back(Op{h.kind, 4, h.version, {x, w, b}, {y}, options_of(h.kind)});
  g.inputs = {x};
  g.outputs = {y};
  return g;
}

std::string check_error(const Graph& g) {
  try {
    op_handler(g.ops[0].kind).check(g, g.ops[0]);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

std::vector<float> filter_scale(const KernelCall& call) { return call.params.find("filter_scale")->reals; }

TEST(HybridHandlers, LowerToTheHybridKernelsWithEachChannelsScale) {
  for (const HybridOp& h : kAll) {
    const Graph g = build(h);
    const KernelCall call = lower_for_test(g);
    EXPECT_EQ(call.info().function(), h.kernel) << h.name;
    EXPECT_EQ(call.info().params->c_type(), h.params) << h.name;
    EXPECT_EQ(call.args, (std::vector<int>{0, 1, 2, 3})) << h.name;
    EXPECT_EQ(filter_scale(call), (std::vector<float>{0.02f, 0.5f, 0.003f})) << h.name;
    EXPECT_EQ(param_text(call)["activation_max"], "FLT_MAX") << h.name;
  }
}

TEST(HybridHandlers, RepeatAPerTensorScaleForEveryChannel) {
  for (const HybridOp& h : kAll) {
    const KernelCall call = lower_for_test(build(h, {0.25f}));
    EXPECT_EQ(filter_scale(call), std::vector<float>(3, 0.25f)) << h.name;
  }
}

TEST(HybridHandlers, AcceptTheConvertersVersionsAndNoBias) {
  const std::pair<HybridOp, int> versions[] = {{kFc, 3}, {kFc, 9}, {kConv, 2}, {kDepthwise, 4}};
  for (const auto& [h, version] : versions) {
    Graph g = build(h, {0.1f});
    g.ops[0].version = version;
    EXPECT_EQ(check_error(g), "") << h.name << " v" << version;
  }
  for (const HybridOp& h : kAll) {
    Graph g = build(h);
    g.ops[0].inputs.pop_back();
    EXPECT_EQ(check_error(g), "") << h.name << " without bias";
  }
}

TEST(HybridHandlers, FullyConnectedVersionsAboveSevenAreForHybridOnly) {
  Graph g = build(kFc);
  g.ops[0].version = 13;
  EXPECT_NE(check_error(g).find("version 13 is not supported"), std::string::npos) << check_error(g);
  g = build(kFc);
  g.tensor(1).dtype = DType::kFloat32;  // a float FC at a hybrid version
  g.tensor(1).data.resize(static_cast<size_t>(g.tensor(1).num_elements()) * sizeof(float));
  g.ops[0].version = 9;
  EXPECT_NE(check_error(g).find("version 9 is not supported"), std::string::npos) << check_error(g);
}

struct Refusal {
  const char* what;
  std::function<void(Graph&)> mutate;
  const char* tensor;
  std::string message;
};

TEST(HybridHandlers, RefuseWeightsThatAreNotTheDequantizedModel) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<Refusal> refusals = {
      {"zero point", [](Graph& g) { g.tensor(1).quant.zero_point[1] = 3; }, "t1", "symmetric (zero point 0)"},
      {"zero scale", [](Graph& g) { g.tensor(1).quant.scale[2] = 0.0f; }, "t1", "finite positive scales"},
      {"negative scale", [](Graph& g) { g.tensor(1).quant.scale[0] = -0.1f; }, "t1", "finite positive scales"},
      {"NaN scale", [nan](Graph& g) { g.tensor(1).quant.scale[1] = nan; }, "t1", "finite positive scales"},
      {"infinite scale", [inf](Graph& g) { g.tensor(1).quant.scale[1] = inf; }, "t1", "finite positive scales"},
      {"two scales", [](Graph& g) { g.tensor(1).quant = {{0.1f, 0.2f}, {0, 0}, 0}; }, "t1",
       "need 1 scale or one per output channel (3), got 2"},
      {"no scale", [](Graph& g) { g.tensor(1).quant = {}; }, "t1",
       "need 1 scale or one per output channel (3), got 0"},
      {"fewer zero points", [](Graph& g) { g.tensor(1).quant.zero_point.pop_back(); }, "t1",
       "one zero point per scale"},
      {"variable weights", [](Graph& g) { g.tensor(1).is_constant = false, g.tensor(1).data.clear(); }, "t1",
       "constant"},
      {"int32 bias", [](Graph& g) { g.tensor(2).dtype = DType::kInt32; }, "t2", "int32 is not supported here"},
      {"int8 output", [](Graph& g) { g.tensor(3).dtype = DType::kInt8; }, "t3", "int8 is not supported here"},
  };
  for (const HybridOp& h : kAll) {
    for (const Refusal& r : refusals) {
      Graph g = build(h);
      r.mutate(g);
      const std::string error = check_error(g);
      SCOPED_TRACE(std::string(h.name) + ", " + r.what + ": " + error);
      EXPECT_NE(error.find(std::string(h.name) + " (op 4)"), std::string::npos);
      EXPECT_NE(error.find(std::string("'") + r.tensor + "'"), std::string::npos);
      EXPECT_NE(error.find(r.message), std::string::npos);
    }
    Graph g = build(h);
    g.tensor(1).quant.axis = h.channel_axis == 0 ? 1 : 0;  // a dimension, but not the output channels
    EXPECT_NE(check_error(g).find("per-channel scales must be along dimension " + std::to_string(h.channel_axis)),
              std::string::npos)
        << h.name << ": " << check_error(g);
  }
}

}  // namespace
}  // namespace microaot
