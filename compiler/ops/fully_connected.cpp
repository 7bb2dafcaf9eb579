// FULLY_CONNECTED: int8 (per-tensor or per-channel symmetric weights, int32 bias), int16 activations with
// int8 weights (16x8: an int64 bias, or an int32 one, which TFLM sums in 32 bits), float32, and hybrid
// (float32 activations and bias, symmetric int8 weights), weights constant [units, depth], optional bias, any
// fused activation, keep_num_dims either way.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/fit/mve_matmul.h"
#include "microaot/kernels/packed.h"
#include "ops/hybrid_weights.h"
#include "ops/mve_weights.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/palette_weights.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"
#include "ops/weighted_accumulator.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

// TFLite's FULLY_CONNECTED versions: 4 int8, 5 keep_num_dims, 6 no bias, 7 int16; 8 and up only add
// sparse, hybrid or int4 weights, which the IR cannot describe. Hybrid ops are versions 3, 9 (inputs
// quantized asymmetrically on the fly) and 12 (per-channel weights); the type checks refuse the rest.
constexpr int kMaxVersion = 7;
constexpr int kMaxHybridVersion = 12;

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

// Without a table, FULLY_CONNECTED takes the format's defaults (no activation). asymmetric_quantize_inputs
// is not read: it says how TFLite's hybrid kernel quantizes the input to int8 on the fly, and microaot's
// hybrid kernel does not quantize the input at all (it multiplies in float), so either value gets the same
// result, the closest to the dequantized-weights model.
OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  FullyConnectedOptions r;
  if (const auto* o = source.builtin_options_as_FullyConnectedOptions()) {
    if (static_cast<int>(o->weights_format()) != 0) {  // DEFAULT; the shuffled formats are not supported
      refuse_options(g, op, "shuffled weights format is not supported");
    }
    r.activation = read_activation(g, op, o->fused_activation_function());
    r.keep_num_dims = o->keep_num_dims();
    r.int32_bias = o->quantized_bias_type() == tflite::TensorType::INT32;
  }
  return r;
}

FcShape fc_shape(const Graph& graph, const Op& op) {
  const Tensor& weights = graph.tensor(op.inputs[1]);
  const int32_t depth = weights.shape[1];
  return {static_cast<int32_t>(graph.tensor(op.inputs[0]).num_elements() / depth), depth, weights.shape[0]};
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

void check_bias(const Graph& graph, const Op& op, int bias, int32_t units, std::initializer_list<DType> types) {
  if (bias == kNoTensor) return;
  expect_dtype(graph, op, bias, "input 2", types);
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

DType accumulator(const Graph& graph, const Op& op) {
  return accumulator_type(graph, op.inputs[0], optional_input_id(op, 2), fc_options(op).int32_bias);
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

// int8, or int16 with int8 weights: TFLM applies the zero points of both (int16 ones are usually 0).
void check_quantized(const Graph& graph, const Op& op, int in, int w, int bias, int out) {
  const FcShape s = fc_shape(graph, op);
  const bool int16 = graph.tensor(in).dtype == DType::kInt16;
  expect_dtype(graph, op, w, "input 1", {DType::kInt8});
  expect_activation_quant(graph, op, in, "input 0");
  expect_activation_quant(graph, op, out, "output 0");
  check_weight_quantization(graph, op, w, s.units);
  check_bias(graph, op, bias, s.units, int16 ? std::initializer_list<DType>{DType::kInt64, DType::kInt32}
                                             : std::initializer_list<DType>{DType::kInt32});
  check_bias_scale(graph, op, in, w, bias, out);
  expect_accumulator_fits(graph, op, in, w, bias, /*axis=*/0, accumulator(graph, op));
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 3, 1);
  const int in = input_id(graph, op, 0);
  const int w = input_id(graph, op, 1);
  const int bias = optional_input_id(op, 2);
  const int out = output_id(graph, op, 0);
  expect_version(graph, op, is_hybrid(graph, in, w) ? kMaxHybridVersion : kMaxVersion);
  expect_dtype(graph, op, in, "input 0", {DType::kInt8, DType::kInt16, DType::kFloat32});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(in).dtype});
  const DType type = graph.tensor(in).dtype;
  expect_dtype(graph, op, w, "input 1",
               type == DType::kFloat32 ? std::initializer_list<DType>{DType::kFloat32, DType::kInt8}
                                       : std::initializer_list<DType>{DType::kInt8});
  expect_constant_data(graph, op, w, "input 1");
  check_shapes(graph, op, in, w, out);
  if (type != DType::kFloat32) {
    check_quantized(graph, op, in, w, bias, out);
    return;
  }
  check_bias(graph, op, bias, graph.tensor(w).shape[0], {DType::kFloat32});
  if (is_hybrid(graph, in, w)) check_hybrid_weights(graph, op, w, graph.tensor(w).shape[0], /*channel_axis=*/0);
}

void add_quantized_fields(const Graph& graph, const Op& op, int32_t units, KernelCall& call) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& weights = graph.tensor(op.inputs[1]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const int64_t w_zp = weights.quant.per_channel() ? 0 : weights.quant.zero_point[0];
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("filter_offset", -w_zp);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  const std::vector<QuantizedMultiplier> multipliers = output_multipliers(graph, op, units);
  expect_wide_requantizable(graph, op, multipliers, accumulator(graph, op));
  set_multiplier_params(call, multipliers);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const FcShape s = fc_shape(graph, op);
  const DType type = graph.tensor(op.inputs[0]).dtype;
  KernelCall call;
  const bool hybrid = is_hybrid(graph, op.inputs[0], op.inputs[1]);
  call.stem = std::string("fully_connected_") + dtype_short_name(type) +
              (hybrid ? kHybridStemSuffix : accumulator_suffix(graph, op.inputs[0], accumulator(graph, op)));
  call.args = {op.inputs[0], op.inputs[1], optional_input_id(op, 2), op.outputs[0]};
  call.params.set_int("batches", s.batches);
  call.params.set_int("input_depth", s.depth);
  call.params.set_int("output_depth", s.units);
  set_activation_params(call, graph.tensor(op.outputs[0]), fc_options(op).activation);
  if (type != DType::kFloat32) add_quantized_fields(graph, op, s.units, call);
  if (hybrid) add_hybrid_fields(call, graph, op.inputs[1], s.units);
  return call;
}

// The int8 family's chooser (compile/choose_variants.h): on an MVE target the Helium rows over a folded bias;
// else palettised weights where --compress-weights takes them (4-bit ones through the DSP's pair-table kernel
// where it takes them), else the packed matrix product, or why not.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  const FcShape s = fc_shape(graph, op);
  const Tensor& weights = graph.tensor(op.inputs[1]);
  if (call.stem == "fully_connected_s16") {  // the 16x8 family: packed rows on a DSP target, else its DSP kernel
    if (target.kernels_use_mve()) return;
    call.specialisation = packed_refusal(target, s.units, call.params.find("filter_offset")->integer, kPackedMinUnits);
    if (call.specialisation.empty() && call.params.find("input_offset")->integer != 0) {
      call.specialisation = "not packed: the input has a zero point";
    }
    const PackedS16 layer = {"fully_connected_s16_packed", s.units, s.depth,
                             MICROAOT_PACKED_CHUNK_ROWS_BYTES(int64_t{s.depth}), "a row",
                             "rows in SMLAD's lane order, 2 rows x 2 units or 1 row x 4 units per step"};
    if (call.specialisation.empty()) use_packed_s16_weights(graph, target, call, layer);
    return;
  }
  if (target.kernels_use_mve()) {
    const microaot_fully_connected_params_q params = MICROAOT_PARAMS_STRUCT(fully_connected_params_q, call.params);
    use_mve_folded_bias(graph, call, "fully_connected_s8_mve", s.units, s.depth,
                        microaot_fit_mve_fully_connected(&params) != 0, mve_blocking(s.batches, false));
    return;
  }
  if (use_palette_weights(target, call, weights, constant_values<int8_t>(weights), s.units, s.depth,
                          "fully_connected_s8_palette")) {
    use_fc_palette_pairs(target, call, s.depth);
    return;
  }
  call.specialisation = packed_refusal(target, s.units, call.params.find("filter_offset")->integer, kPackedMinUnits);
  if (call.specialisation.empty()) {
    use_packed_weights(graph, target, call, "fully_connected_s8_packed", s.units, s.depth);
  }
}

int64_t macs(const Graph& graph, const Op& op) {
  const FcShape s = fc_shape(graph, op);
  return int64_t{s.batches} * s.units * s.depth;
}

}  // namespace

extern const OpHandler fully_connected_handler = {check,        lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                  read_options, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
