// SVDF as TFLM's svdf.cc / svdf_common.cc: int8 input with int16 (or int8) weights_time and state, or
// float32. Input 4 is the state, a variable tensor in the persistent region that the kernel updates in place
// every run. When no other op and no graph input or output sees it, the ring kernel keeps each filter's
// memory as a ring with a position of its own (a persistent int32 the call adds) and moves no state; else the
// kernel shifts the whole state by one element as TFLM does.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/svdf.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"
#include "ops/remap_common.h"
#include "ops/svdf.h"

namespace microaot {
namespace {

enum SvdfInput { kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kState = 4 };

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::SVDFOptions>(graph, op, source, "SVDFOptions");
  SvdfOptions options;
  options.rank = read_positive(graph, op, "rank", table.rank());
  options.activation = read_activation(graph, op, table.fused_activation_function());
  return options;
}

// The sizes TFLM derives from the tensors (batches and input size from the input, filters from
// weights_feature, memory from weights_time).
struct SvdfShape {
  int batches, input_size, filters, units, rank, memory;
};

SvdfShape shape_of(const Graph& graph, const Op& op) {
  const int rank = options_if<SvdfOptions>(op)->rank;
  const auto& in = graph.tensor(op.inputs[kInput]).shape;
  const auto& feature = graph.tensor(op.inputs[kWeightsFeature]).shape;
  const auto& time = graph.tensor(op.inputs[kWeightsTime]).shape;
  return {in[0], in[1], feature[0], feature[0] / rank, rank, time[1]};
}

// Each dimension as the input, the weights and the rank make it.
void expect_dims(const Graph& graph, const Op& op, int id, const std::string& role, std::vector<int32_t> dims) {
  expect_rank(graph, op, id, role, static_cast<int>(dims.size()));
  for (size_t k = 0; k < dims.size(); ++k) {
    const int32_t found = graph.tensor(id).shape[k];
    expect_tensor(found == dims[k], graph, op, id, role,
                  "has dimension " + std::to_string(k) + " of " + std::to_string(found) + ", must be " +
                      std::to_string(dims[k]) + " (from the input, the weights and the rank)");
  }
}

void check_shapes(const Graph& graph, const Op& op) {
  for (int index : {kInput, kWeightsFeature, kWeightsTime, kState}) {
    expect_rank(graph, op, op.inputs[index], "input " + std::to_string(index), 2);
  }
  expect_rank(graph, op, op.outputs[0], "output 0", 2);
  const int feature = op.inputs[kWeightsFeature];
  const int rank = options_if<SvdfOptions>(op)->rank;
  expect_tensor(graph.tensor(feature).shape[0] % rank == 0, graph, op, feature, "input 1",
                "has " + std::to_string(graph.tensor(feature).shape[0]) + " filters, not a multiple of the rank " +
                    std::to_string(rank));
  const SvdfShape s = shape_of(graph, op);
  expect_op(s.memory > 0 && s.filters > 0 && s.input_size > 0, graph, op, "needs filters, memory and input");
  expect_dims(graph, op, feature, "input 1", {s.filters, s.input_size});
  expect_dims(graph, op, op.inputs[kWeightsTime], "input 2", {s.filters, s.memory});
  expect_dims(graph, op, op.inputs[kState], "input 4", {s.batches, s.memory * s.filters});
  expect_dims(graph, op, op.outputs[0], "output 0", {s.batches, s.units});
  const int bias = optional_input_id(op, kBias);
  if (bias != kNoTensor) expect_dims(graph, op, bias, "input 3", {s.units});
}

void check_float(const Graph& graph, const Op& op) {
  for (int index : {kWeightsFeature, kWeightsTime, kBias, kState}) {
    const int id = optional_input_id(op, index);
    if (id != kNoTensor) expect_dtype(graph, op, id, "input " + std::to_string(index), {DType::kFloat32});
  }
  expect_dtype(graph, op, op.outputs[0], "output 0", {DType::kFloat32});
}

// TFLM's Prepare: the bias scale must be state scale * weights_time scale (products in float, as there).
void check_bias_scale(const Graph& graph, const Op& op, int bias) {
  const float state = graph.tensor(op.inputs[kState]).quant.scale[0];
  const float time = graph.tensor(op.inputs[kWeightsTime]).quant.scale[0];
  const float scale = graph.tensor(bias).quant.scale[0];
  expect_tensor(std::abs(static_cast<double>(scale) - static_cast<double>(state * time)) < 1e-5, graph, op, bias,
                "input 3", "has scale " + std::to_string(scale) + ", not the state's times weights_time's");
}

void check_integer(const Graph& graph, const Op& op) {
  const int time = op.inputs[kWeightsTime], state = op.inputs[kState];
  expect_dtype(graph, op, op.inputs[kWeightsFeature], "input 1", {DType::kInt8});
  expect_dtype(graph, op, time, "input 2", {DType::kInt16, DType::kInt8});
  expect_dtype(graph, op, state, "input 4", {graph.tensor(time).dtype});  // TFLM reads it as weights_time's type
  expect_dtype(graph, op, op.outputs[0], "output 0", {DType::kInt8});
  expect_activation_quant(graph, op, op.inputs[kInput], "input 0");
  expect_activation_quant(graph, op, op.outputs[0], "output 0");
  // TFLM ignores the weights' zero points: only symmetric weights give its result a meaning.
  expect_symmetric_quant(graph, op, op.inputs[kWeightsFeature], "input 1");
  expect_symmetric_quant(graph, op, time, "input 2");
  if (graph.tensor(state).dtype == DType::kInt16) {
    expect_symmetric_quant(graph, op, state, "input 4");
  } else {
    expect_activation_quant(graph, op, state, "input 4");
  }
  const int bias = optional_input_id(op, kBias);
  if (bias == kNoTensor) return;
  expect_dtype(graph, op, bias, "input 3", {DType::kInt32});
  expect_per_tensor_quant(graph, op, bias, "input 3");
  check_bias_scale(graph, op, bias);
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 5, 5, 1);
  expect_version(graph, op, 4);
  for (int index : {kInput, kWeightsFeature, kWeightsTime, kState}) input_id(graph, op, index);
  const int state = op.inputs[kState];
  expect_tensor(graph.tensor(state).is_persistent, graph, op, state, "input 4",
                "is the state, which must be a variable tensor (TFLM checks is_variable)");
  expect_dtype(graph, op, op.inputs[kInput], "input 0", {DType::kInt8, DType::kFloat32});
  if (graph.tensor(op.inputs[kInput]).dtype == DType::kFloat32) {
    check_float(graph, op);
  } else {
    check_integer(graph, op);
  }
  check_shapes(graph, op);
}

void set_shape_params(KernelCall& call, const SvdfShape& s) {
  const std::pair<const char*, int> fields[] = {{"batches", s.batches}, {"input_size", s.input_size},
                                                {"filters", s.filters}, {"units", s.units},
                                                {"rank", s.rank},       {"memory", s.memory}};
  for (const auto& [name, value] : fields) call.params.set_int(name, value);
}

// TFLM's effective scales: float products and quotient, then QuantizeMultiplier of the double.
void set_integer_params(KernelCall& call, const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[kInput]);
  const Tensor& state = graph.tensor(op.inputs[kState]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const float feature_scale = input.quant.scale[0] * graph.tensor(op.inputs[kWeightsFeature]).quant.scale[0] /
                              state.quant.scale[0];
  const float output_scale = state.quant.scale[0] * graph.tensor(op.inputs[kWeightsTime]).quant.scale[0] /
                             output.quant.scale[0];
  const QuantizedMultiplier feature = quantize_multiplier(static_cast<double>(feature_scale));
  const QuantizedMultiplier out = quantize_multiplier(static_cast<double>(output_scale));
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("state_zero_point", state.quant.zero_point[0]);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  call.params.set_int("feature_multiplier", feature.multiplier);
  call.params.set_int("feature_shift", feature.shift);
  call.params.set_int("output_multiplier", out.multiplier);
  call.params.set_int("output_shift", out.shift);
}

bool uses_storage(const Graph& graph, const std::vector<int>& ids, int storage) {
  return std::any_of(ids.begin(), ids.end(),
                     [&](int id) { return id != kNoTensor && graph.storage_of(id) == storage; });
}

// Why the state must keep TFLM's layout (shifted every run), or "" when the op alone sees it, so that the
// ring kernel may keep it in a layout of its own.
std::string state_shared_by(const Graph& graph, const Op& op) {
  const int storage = graph.storage_of(op.inputs[kState]);
  if (uses_storage(graph, graph.outputs, storage)) return "the state is a graph output";
  if (uses_storage(graph, graph.inputs, storage)) return "the state is a graph input";
  for (const Op& other : graph.ops) {
    if (other.outputs == op.outputs) continue;  // the op itself: no other op writes its output
    if (uses_storage(graph, other.inputs, storage) || uses_storage(graph, other.outputs, storage)) {
      return "the state is used by " + describe_op(graph, other) + " too";
    }
  }
  return "";
}

// The ring's position, named after the state (or its id when the state has no name).
Tensor ring_position(const Graph& graph, const Op& op) {
  const std::string& state = graph.tensor(op.inputs[kState]).name;
  return ring_position_tensor(state.empty() ? "t" + std::to_string(op.inputs[kState]) : state);
}

// The kernel stem for the types, after "svdf_" or "svdf_ring_".
std::string type_stem(const Graph& graph, const Op& op) {
  if (graph.tensor(op.inputs[kInput]).dtype == DType::kFloat32) return "f32";
  return graph.tensor(op.inputs[kState]).dtype == DType::kInt16 ? "s8_s16" : "s8_s8";
}

// A ring kernel when the op alone sees its state: it then writes the new value per filter and its position
// instead of shifting the whole state; otherwise TFLM's shifting kernel, saying why (network_info.txt).
void choose_state_layout(const Graph& graph, const Op& op, KernelCall& call) {
  const std::string shared = state_shared_by(graph, op);
  if (!shared.empty()) {
    call.stem = "svdf_" + type_stem(graph, op);
    call.specialisation = "state shifted by one element each run, as TFLM lays it out: " + shared;
    return;
  }
  call.stem = "svdf_ring_" + type_stem(graph, op);
  call.derived.push_back(ring_position(graph, op));
  call.args.insert(call.args.begin() + kState + 1, derived_arg(0));
  call.specialisation = "state as a ring per filter (position " + call.derived[0].name +
                        "): a run writes the new values, no shift";
}

KernelCall lower(const Graph& graph, const Op& op) {
  const SvdfShape s = shape_of(graph, op);
  const bool is_float = graph.tensor(op.inputs[kInput]).dtype == DType::kFloat32;
  KernelCall call;
  call.args = {op.inputs[kInput], op.inputs[kWeightsFeature], op.inputs[kWeightsTime], optional_input_id(op, kBias),
               op.inputs[kState], op.outputs[0]};
  set_shape_params(call, s);
  const int64_t words = static_cast<int64_t>(s.batches) * (s.filters + (is_float ? 0 : s.units));
  call.scratch_bytes = words * 4;
  choose_state_layout(graph, op, call);
  if (is_float) {
    set_activation_params(call, graph.tensor(op.outputs[0]), options_if<SvdfOptions>(op)->activation);
  } else {
    set_integer_params(call, graph, op);
  }
  return call;
}

int64_t macs(const Graph& graph, const Op& op) {
  const SvdfShape s = shape_of(graph, op);
  return static_cast<int64_t>(s.batches) * s.filters * (s.input_size + s.memory);
}

// The ring writes one value per filter and batch and its position; the shifting kernel moves the whole state
// by one element (and then overwrites the last value of each filter, counted in the shift).
int64_t state_copy_bytes(const Graph& graph, const Op& op) {
  const Tensor& state = graph.tensor(op.inputs[kState]);
  const int64_t element = dtype_size(state.dtype);
  if (!state_shared_by(graph, op).empty()) return state.byte_size() - element;
  const SvdfShape s = shape_of(graph, op);
  return static_cast<int64_t>(s.batches) * s.filters * element + static_cast<int64_t>(sizeof(int32_t));
}

// weights_time's rows twice over ([filters][2 * memory]), in its own type: the packed kernel's time weights.
Tensor doubled_time_weights(const Graph& graph, const Op& op, const SvdfShape& s) {
  Tensor t = graph.tensor(op.inputs[kWeightsTime]);
  const size_t row = static_cast<size_t>(s.memory) * dtype_size(t.dtype);
  std::vector<uint8_t> data;
  for (size_t f = 0; f < static_cast<size_t>(s.filters); ++f) {
    for (int copy = 0; copy < 2; ++copy) data.insert(data.end(), t.data.begin() + f * row, t.data.begin() + (f + 1) * row);
  }
  t.name += "_doubled";
  t.shape = {s.filters, 2 * s.memory};
  t.quant = {};
  t.source_index = -1;
  t.data = std::move(data);
  return t;
}

// The packed kernel's constants (microaot/kernels/svdf.h): per padded filter the input offset times its feature
// weights' sum, then per unit its bias minus the state zero point times its filters' weights_time sums, wrapped
// to int32 as the kernels' sums wrap.
std::vector<int32_t> packed_constants(const Graph& graph, const Op& op, const KernelCall& call, const SvdfShape& s,
                                      const std::vector<int8_t>& padded_features) {
  std::vector<int32_t> values =
      fold_input_offset({}, padded_features, MICROAOT_SVDF_PACKED_FILTERS(s.filters), s.input_size,
                        static_cast<int32_t>(call.params.find("input_offset")->integer));
  const Tensor& time_weights = graph.tensor(op.inputs[kWeightsTime]);
  std::vector<int64_t> time;
  if (time_weights.dtype == DType::kInt8) {
    for (int8_t v : constant_values<int8_t>(time_weights)) time.push_back(v);
  } else {
    for (int16_t v : constant_values<int16_t>(time_weights)) time.push_back(v);
  }
  const int bias = optional_input_id(op, kBias);
  const std::vector<int64_t> biases = bias == kNoTensor ? std::vector<int64_t>(static_cast<size_t>(s.units), 0)
                                                        : constant_ints(graph, op, bias, "input 3");
  const int64_t zero_point = call.params.find("state_zero_point")->integer;
  for (size_t u = 0; u < static_cast<size_t>(s.units); ++u) {
    int64_t sum = 0;
    for (size_t k = u * s.rank * s.memory; k < (u + 1) * s.rank * s.memory; ++k) sum += time[k];
    values.push_back(static_cast<int32_t>(static_cast<uint32_t>(biases[u] - zero_point * sum)));
  }
  return values;
}

// The integer ring's chooser (compile/choose_variants.h): on a DSP target the packed ring kernel over constants
// derived here (packed feature weights, doubled time weights, the offsets folded); the model's tensors stay.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  if (!has_specialisation_for(call.stem, target)) return;
  const microaot_svdf_params_q params = MICROAOT_PARAMS_STRUCT(svdf_params_q, call.params);
  if (!microaot_fit_svdf_packed(&params)) {
    call.specialisation += "; not packed: a requantization outside the DSP kernel's range (microaot/fit/svdf.h)";
    return;
  }
  const SvdfShape s = shape_of(graph, op);
  const Tensor& features = graph.tensor(op.inputs[kWeightsFeature]);
  std::vector<int8_t> padded = constant_values<int8_t>(features);
  padded.resize(static_cast<size_t>(MICROAOT_SVDF_PACKED_FILTERS(s.filters)) * s.input_size, 0);
  const std::vector<int32_t> constants = packed_constants(graph, op, call, s, padded);
  call.derived.push_back(int32_constant(
      features.name + "_packed",
      pack_whole_rows(padded, MICROAOT_SVDF_PACKED_FILTERS(s.filters), s.input_size, PackedWeights::kInt8)));
  call.derived.push_back(doubled_time_weights(graph, op, s));
  call.derived.push_back(int32_constant(features.name + "_svdf_constants", constants));
  const int first = static_cast<int>(call.derived.size()) - 3;
  for (int k = 0; k < 3; ++k) call.args[static_cast<size_t>(kWeightsFeature + k)] = derived_arg(first + k);
  call.stem += "_packed";
  call.scratch_bytes = MICROAOT_SVDF_PACKED_SCRATCH_BYTES(int64_t{s.input_size});
  call.specialisation += "; packed: feature weights int8 re-laid for SMLAD (1 row x 4 filters), time weights "
                         "doubled so that the ring meets them as one row, offsets folded into constants";
}

}  // namespace

extern const OpHandler svdf_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, read_options,
                                       state_copy_bytes, choose};

}  // namespace microaot
