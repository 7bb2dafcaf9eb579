// FULLY_CONNECTED: int8 (per-tensor or per-channel symmetric weights, int32 bias) and float32, weights
// constant [units, depth], optional bias, any fused activation, keep_num_dims either way.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

// TFLite's FULLY_CONNECTED versions: 4 int8, 5 keep_num_dims, 6 no bias, 7 int16 (refused by type);
// 8 and up only add sparse, hybrid or int4 weights, which the IR cannot describe.
constexpr int kMaxVersion = 7;

struct FcShape {
  int32_t batches;
  int32_t depth;  // accumulation depth, weights' inner dimension
  int32_t units;  // weights' outer dimension
};

const FullyConnectedOptions& fc_options(const Op& op) {
  const auto* options = options_if<FullyConnectedOptions>(op);
  MICROAOT_CHECK(options != nullptr, "FULLY_CONNECTED without FullyConnectedOptions");
  return *options;
}

// Without a table, FULLY_CONNECTED takes the format's defaults (no activation).
OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  FullyConnectedOptions r;
  if (const auto* o = source.builtin_options_as_FullyConnectedOptions()) {
    if (static_cast<int>(o->weights_format()) != 0) {  // DEFAULT; the shuffled formats are not supported
      refuse_options(g, op, "shuffled weights format is not supported");
    }
    r.activation = read_activation(g, op, o->fused_activation_function());
    r.keep_num_dims = o->keep_num_dims();
  }
  return r;
}

FcShape fc_shape(const Graph& graph, const Op& op) {
  const Tensor& weights = graph.tensor(op.inputs[1]);
  const int32_t depth = weights.shape[1];
  return {static_cast<int32_t>(graph.tensor(op.inputs[0]).num_elements() / depth), depth, weights.shape[0]};
}

int64_t constant_element(const Tensor& t, int64_t index) {
  const size_t size = dtype_size(t.dtype);
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) bits |= uint64_t{t.data[index * size + i]} << (8 * i);
  if (size < 8 && (bits >> (8 * size - 1)) != 0) bits |= ~uint64_t{0} << (8 * size);  // sign-extend
  return static_cast<int64_t>(bits);
}


void check_shapes(const Graph& graph, const Op& op, int in, int w, int out) {
  expect_rank(graph, op, w, "input 1", 2);
  const Tensor& weights = graph.tensor(w);
  expect_tensor(weights.shape[0] >= 1 && weights.shape[1] >= 1, graph, op, w, "input 1", "has an empty dimension");
  const int64_t depth = weights.shape[1];
  const int64_t units = weights.shape[0];
  const Tensor& input = graph.tensor(in);
  expect_tensor(!input.shape.empty() && input.num_elements() % depth == 0, graph, op, in, "input 0",
                std::to_string(input.num_elements()) + " elements are not a whole number of rows of depth " +
                    std::to_string(depth) + " (the weights' second dimension)");
  const Tensor& output = graph.tensor(out);
  const int64_t batches = input.num_elements() / depth;
  expect_tensor(!output.shape.empty() && output.shape.back() == units && output.num_elements() == batches * units,
                graph, op, out, "output 0",
                "expected " + std::to_string(batches) + " rows of " + std::to_string(units) + " units");
  if (fc_options(op).keep_num_dims) {
    expect_tensor(input.shape.back() == depth && output.shape.size() == input.shape.size(), graph, op, out,
                  "output 0", "with keep_num_dims, must be the input shape with its last dimension set to units");
  }
}

void check_bias(const Graph& graph, const Op& op, int bias, int32_t units, DType type) {
  if (bias == kNoTensor) return;
  expect_dtype(graph, op, bias, "input 2", {type});
  expect_rank(graph, op, bias, "input 2", 1);
  expect_tensor(graph.tensor(bias).shape[0] == units, graph, op, bias, "input 2",
                "must have one value per unit (" + std::to_string(units) + ")");
  expect_constant_data(graph, op, bias, "input 2");
}

void check_weight_quantization(const Graph& graph, const Op& op, int w, int32_t units) {
  const Quantization& q = graph.tensor(w).quant;
  if (!q.per_channel()) {
    expect_per_tensor_quant(graph, op, w, "input 1");
    expect_tensor(q.zero_point[0] >= -128 && q.zero_point[0] <= 127, graph, op, w, "input 1",
                  "zero point out of the int8 range");
    return;
  }
  expect_tensor(q.axis == 0, graph, op, w, "input 1", "per-channel quantization must be along dimension 0 (units)");
  expect_tensor(static_cast<int32_t>(q.scale.size()) == units && q.zero_point.size() == q.scale.size(), graph, op,
                w, "input 1", "needs one scale and zero point per unit (" + std::to_string(units) + ")");
  for (size_t c = 0; c < q.scale.size(); ++c) {
    expect_tensor(std::isfinite(q.scale[c]) && q.scale[c] > 0.0f, graph, op, w, "input 1",
                  "scale " + std::to_string(c) + " must be finite and positive");
    expect_tensor(q.zero_point[c] == 0, graph, op, w, "input 1", "per-channel weights must be symmetric (zero point 0)");
  }
}

// TFLM's sanity rule (GetQuantizedConvolutionMultipler, per-tensor weights only): the bias scale must be
// close to input_scale * weight_scale.
void check_bias_scale(const Graph& graph, const Op& op, int in, int w, int bias, int out) {
  if (bias == kNoTensor || graph.tensor(w).quant.per_channel() || graph.tensor(bias).quant.empty()) return;
  const double product = static_cast<double>(graph.tensor(in).quant.scale[0]) * graph.tensor(w).quant.scale[0];
  const double diff = std::fabs(product - static_cast<double>(graph.tensor(bias).quant.scale[0]));
  expect_tensor(diff / graph.tensor(out).quant.scale[0] <= 0.02, graph, op, bias, "input 2",
                "scale must equal input scale * weight scale");
}

// The kernel accumulates in int32 like TFLM; prove from the constants that no unit can overflow.
void check_accumulator_range(const Graph& graph, const Op& op, int in, int w, int bias, const FcShape& s) {
  const Tensor& weights = graph.tensor(w);
  const int64_t in_zp = graph.tensor(in).quant.zero_point[0];
  const int64_t max_input = std::max(std::llabs(-128 - in_zp), std::llabs(127 - in_zp));
  const int64_t w_zp = weights.quant.per_channel() ? 0 : weights.quant.zero_point[0];
  for (int32_t u = 0; u < s.units; ++u) {
    int64_t bound = bias == kNoTensor ? 0 : std::llabs(constant_element(graph.tensor(bias), u));
    for (int32_t d = 0; d < s.depth; ++d) {
      bound += max_input * std::llabs(constant_element(weights, int64_t{u} * s.depth + d) - w_zp);
    }
    expect_op(bound <= std::numeric_limits<int32_t>::max(), graph, op,
              "the int32 accumulator of unit " + std::to_string(u) + " can overflow (|sum| up to " +
                  std::to_string(bound) + "); TFLite Micro would overflow too");
  }
}

void check_int8(const Graph& graph, const Op& op, int in, int w, int bias, int out) {
  const FcShape s = fc_shape(graph, op);
  expect_dtype(graph, op, w, "input 1", {DType::kInt8});
  expect_activation_quant(graph, op, in, "input 0");
  expect_activation_quant(graph, op, out, "output 0");
  check_weight_quantization(graph, op, w, s.units);
  check_bias(graph, op, bias, s.units, DType::kInt32);
  check_bias_scale(graph, op, in, w, bias, out);
  check_accumulator_range(graph, op, in, w, bias, s);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 2, 3, 1);
  const int in = input_id(graph, op, 0);
  const int w = input_id(graph, op, 1);
  const int bias = optional_input_id(op, 2);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kInt8, DType::kFloat32});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(in).dtype});
  const DType type = graph.tensor(in).dtype;
  expect_tensor(!(type == DType::kFloat32 && graph.tensor(w).dtype == DType::kInt8), graph, op, w, "input 1",
                "int8 weights with float32 activations (hybrid quantization) are not supported");
  expect_dtype(graph, op, w, "input 1", {type});
  expect_constant_data(graph, op, w, "input 1");
  check_shapes(graph, op, in, w, out);
  if (type == DType::kInt8) {
    check_int8(graph, op, in, w, bias, out);
  } else {
    check_bias(graph, op, bias, graph.tensor(w).shape[0], DType::kFloat32);
  }
}

// Per-unit multipliers with TFLM's rounding of the real scale: per-channel weights multiply the three
// scales in double; per-tensor ones (GetQuantizedConvolutionMultipler) take the input*weight product in
// float first. Per-tensor values are repeated for every unit.
std::vector<QuantizedMultiplier> output_multipliers(const Graph& graph, const Op& op, int32_t units) {
  const float in_scale = graph.tensor(op.inputs[0]).quant.scale[0];
  const float out_scale = graph.tensor(op.outputs[0]).quant.scale[0];
  const Quantization& wq = graph.tensor(op.inputs[1]).quant;
  std::vector<QuantizedMultiplier> result;
  for (int32_t u = 0; u < units; ++u) {
    double real;
    if (wq.per_channel()) {
      real = static_cast<double>(in_scale) * static_cast<double>(wq.scale[u]) / static_cast<double>(out_scale);
    } else {
      const float product = in_scale * wq.scale[0];
      real = static_cast<double>(product) / static_cast<double>(out_scale);
    }
    result.push_back(quantize_multiplier(real));
  }
  return result;
}

void add_quantized_fields(const Graph& graph, const Op& op, int32_t units, KernelCall& call) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& weights = graph.tensor(op.inputs[1]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const int64_t w_zp = weights.quant.per_channel() ? 0 : weights.quant.zero_point[0];
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("filter_offset", -w_zp);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  set_multiplier_params(call, output_multipliers(graph, op, units));
}

KernelCall lower(const Graph& graph, const Op& op, const Target&) {
  const FcShape s = fc_shape(graph, op);
  const DType type = graph.tensor(op.inputs[0]).dtype;
  KernelCall call;
  call.stem = std::string("fully_connected_") + dtype_short_name(type);
  call.args = {op.inputs[0], op.inputs[1], optional_input_id(op, 2), op.outputs[0]};
  call.params.set_int("batches", s.batches);
  call.params.set_int("input_depth", s.depth);
  call.params.set_int("output_depth", s.units);
  set_activation_params(call, graph.tensor(op.outputs[0]), fc_options(op).activation);
  if (type == DType::kInt8) add_quantized_fields(graph, op, s.units, call);
  return call;
}

int64_t macs(const Graph& graph, const Op& op) {
  const FcShape s = fc_shape(graph, op);
  return int64_t{s.batches} * s.units * s.depth;
}

}  // namespace

extern const OpHandler fully_connected_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                  read_options};

}  // namespace microaot
