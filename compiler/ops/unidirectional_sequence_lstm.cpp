// UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro runs it (unidirectional_sequence_lstm.cc, lstm_eval_common.cc):
// float32, int8 activations with int8 weights and an int16 cell state (int32 biases), and 16x8 (int16
// activations, int64 biases); time-major or batch-major. TFLM takes no peephole, projection, layer norm or
// CIFG, and only tanh on the cell gate: those are refused. The Prepare-time math is done here: each gate's two
// fully connected layers requantize to Q3.12 (input scale * weight scale / 2^-12), the element-wise products
// to the cell and hidden scales, the cell state's power-of-two scale sets the tanh rescale. The gates' weights
// are stacked into one constant per side and the zero points folded into the biases (runtime/include/microaot/
// kernels/lstm.h describes the layout). output_state and cell_state are variable tensors the kernel updates.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/lstm.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"
#include "ops/unidirectional_sequence_lstm.h"
#include "ops/remap_common.h"
#include "ops/unary.h"

namespace microaot {
namespace {

// TFLite's versions: 1 float and int8, 2-3 hybrid, 4 diagonal recurrent weights, 5 16x8. TFLM checks none;
// hybrid and diagonal models are refused by their types and options.
constexpr int kMaxVersion = 5;
constexpr int kInputs = 24;
constexpr int kInput = 0;
constexpr int kInputWeights = 1;      // 1-4: gates i, f, g, o
constexpr int kRecurrentWeights = 5;  // 5-8
constexpr int kBiases = 12;           // 12-15
constexpr int kOutputState = 18;
constexpr int kCellState = 19;
constexpr int kGates = 4;
constexpr double kGateScale = 1.0 / 4096;  // Q3.12, the gates before their activation
constexpr double kActivatedScale = 1.0 / 32768;  // Q0.15, after it

struct AbsentInput {
  int index;
  const char* what;
};
// The inputs TFLM's kernel requires to be absent (LstmTensors::ValidateTensorStatus).
constexpr AbsentInput kAbsentInputs[] = {
    {9, "cell-to-input peephole weights"},  {10, "cell-to-forget peephole weights"},
    {11, "cell-to-output peephole weights"}, {16, "projection weights"},
    {17, "projection bias"},                {20, "input layer norm coefficients"},
    {21, "forget layer norm coefficients"}, {22, "cell layer norm coefficients"},
    {23, "output layer norm coefficients"},
};

OpOptions read_options(const Graph&, const Op&, const tflite::Operator& source) {
  LstmOptions options;
  if (const auto* table = source.builtin_options_as_UnidirectionalSequenceLSTMOptions()) {
    options.activation = table->fused_activation_function();
    options.cell_clip = table->cell_clip();
    options.time_major = table->time_major();
    options.diagonal_recurrent = table->diagonal_recurrent_tensors();
  }
  return options;
}

const LstmOptions& lstm_options(const Op& op) { return *options_if<LstmOptions>(op); }

std::string role(int index) { return "input " + std::to_string(index); }

struct LstmSizes {
  int32_t batches = 0, time_steps = 0, input_size = 0, state_size = 0;
};

LstmSizes lstm_sizes(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& in = graph.tensor(op.inputs[kInput]).shape;
  const std::vector<int32_t>& state = graph.tensor(op.inputs[kOutputState]).shape;
  const bool time_major = lstm_options(op).time_major;
  return {time_major ? in[1] : in[0], time_major ? in[0] : in[1], in[2], state[1]};
}

void check_options(const Graph& graph, const Op& op) {
  const LstmOptions& options = lstm_options(op);
  expect_op(options.activation == tflite::ActivationFunctionType::TANH, graph, op,
            std::string("cell gate activation ") + tflite::EnumNameActivationFunctionType(options.activation) +
                " is not supported (TFLM's LSTM takes TANH)");
  expect_op(!options.diagonal_recurrent, graph, op, "diagonal recurrent weights are not supported (TFLM)");
  expect_op(std::isfinite(options.cell_clip), graph, op, "cell_clip must be finite");
}

// Input, weights, biases and state present or absent as TFLM requires, with its types.
void check_presence_and_types(const Graph& graph, const Op& op) {
  for (const AbsentInput& absent : kAbsentInputs) {
    const int id = optional_input_id(op, absent.index);
    expect_tensor(id == kNoTensor, graph, op, id, role(absent.index),
                  std::string(absent.what) + " are not supported (TFLM's LSTM takes none)");
  }
  const DType act = graph.tensor(input_id(graph, op, kInput)).dtype;
  const bool is_float = act == DType::kFloat32;
  const DType weight = is_float ? DType::kFloat32 : DType::kInt8;
  const DType bias = is_float ? DType::kFloat32 : (act == DType::kInt8 ? DType::kInt32 : DType::kInt64);
  for (int g = 0; g < kGates; ++g) {
    for (int index : {kInputWeights + g, kRecurrentWeights + g}) {
      const int id = input_id(graph, op, index);
      expect_dtype(graph, op, id, role(index), {weight});
      expect_constant_data(graph, op, id, role(index));
    }
    const int b = input_id(graph, op, kBiases + g);
    expect_dtype(graph, op, b, role(kBiases + g), {bias});
    expect_constant_data(graph, op, b, role(kBiases + g));
  }
  expect_dtype(graph, op, input_id(graph, op, kOutputState), role(kOutputState), {act});
  expect_dtype(graph, op, input_id(graph, op, kCellState), role(kCellState), {is_float ? act : DType::kInt16});
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {act});
  for (int index : {kOutputState, kCellState}) {
    expect_tensor(graph.tensor(op.inputs[index]).is_persistent, graph, op, op.inputs[index], role(index),
                  "must be a variable tensor (the LSTM's state)");
  }
}

void expect_shape(const Graph& graph, const Op& op, int index, const std::vector<int32_t>& shape) {
  const int id = op.inputs[index];
  std::string text;
  for (int32_t d : shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
  expect_tensor(graph.tensor(id).shape == shape, graph, op, id, role(index), "must have shape [" + text + "]");
}

void check_shapes(const Graph& graph, const Op& op) {
  for (int index : {kInput, kOutputState}) expect_known_shape(graph, op, op.inputs[index], role(index));
  expect_rank(graph, op, op.inputs[kInput], role(kInput), 3);
  expect_rank(graph, op, op.inputs[kOutputState], role(kOutputState), 2);
  const LstmSizes s = lstm_sizes(graph, op);
  for (int g = 0; g < kGates; ++g) {
    expect_shape(graph, op, kInputWeights + g, {s.state_size, s.input_size});
    expect_shape(graph, op, kRecurrentWeights + g, {s.state_size, s.state_size});
    expect_shape(graph, op, kBiases + g, {s.state_size});
  }
  const int64_t state_elements = static_cast<int64_t>(s.batches) * s.state_size;
  for (int index : {kOutputState, kCellState}) {
    expect_tensor(graph.tensor(op.inputs[index]).num_elements() == state_elements, graph, op, op.inputs[index],
                  role(index), "must hold batches * state size = " + std::to_string(state_elements) + " elements");
  }
  const std::vector<int32_t>& in = graph.tensor(op.inputs[kInput]).shape;
  const int out = op.outputs[0];
  expect_tensor(graph.tensor(out).shape == std::vector<int32_t>{in[0], in[1], s.state_size}, graph, op, out,
                "output 0", "must have the input's first two dimensions and the state size");
}

int cell_scale_power(const Graph& graph, const Op& op) {
  int power = 0;
  const bool exact = checked_log2(graph.tensor(op.inputs[kCellState]).quant.scale[0], &power);
  expect_tensor(exact, graph, op, op.inputs[kCellState], role(kCellState), "scale must be a power of two");
  return power;
}

// TFLM's int16 tanh of the cell state: (15 + power - 3) is a left shift folded into the multiplier 3, or a
// right shift with the multiplier 3.
QuantizedMultiplier cell_tanh_rescale(int power) {
  const int left_shift = 15 + power - 3;
  if (left_shift < 0) return {3, -left_shift};
  return {3 << std::min(left_shift, 16), 0};
}

void check_quantization(const Graph& graph, const Op& op) {
  for (int index : {kInput, kOutputState}) expect_activation_quant(graph, op, op.inputs[index], role(index));
  expect_per_tensor_quant(graph, op, op.inputs[kCellState], role(kCellState));
  const int left_shift = 15 + cell_scale_power(graph, op) - 3;
  expect_tensor(left_shift <= 13 && left_shift >= -31, graph, op, op.inputs[kCellState], role(kCellState),
                "scale 2^" + std::to_string(left_shift + 3 - 15) + " is out of the int16 tanh's range");
  const double input_scale = graph.tensor(op.inputs[kInput]).quant.scale[0];
  for (int g = 0; g < kGates; ++g) {
    for (int index : {kInputWeights + g, kRecurrentWeights + g}) {
      const int id = op.inputs[index];
      expect_per_tensor_quant(graph, op, id, role(index));
      expect_tensor(graph.tensor(id).quant.zero_point[0] == 0, graph, op, id, role(index),
                    "must have zero point 0 (TFLM)");
    }
    // TFLM's GetQuantizedConvolutionMultipler: the bias scale within 2% of the gate's output scale.
    const int b = op.inputs[kBiases + g];
    const double product = input_scale * graph.tensor(op.inputs[kInputWeights + g]).quant.scale[0];
    const Tensor& bias = graph.tensor(b);
    expect_tensor(!bias.quant.empty() && std::fabs(product - bias.quant.scale[0]) / kGateScale <= 0.02, graph, op, b,
                  role(kBiases + g), "scale must be input scale * weight scale");
  }
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, kInputs, kInputs, 1);
  check_options(graph, op);
  check_presence_and_types(graph, op);
  check_shapes(graph, op);
  if (graph.tensor(op.inputs[kInput]).dtype != DType::kFloat32) check_quantization(graph, op);
}

void set_shape_params(const Graph& graph, const Op& op, KernelCall& call) {
  const LstmSizes s = lstm_sizes(graph, op);
  call.params.set_int("batches", s.batches);
  call.params.set_int("time_steps", s.time_steps);
  call.params.set_int("input_size", s.input_size);
  call.params.set_int("state_size", s.state_size);
  call.params.set_int("time_major", lstm_options(op).time_major ? 1 : 0);
}

// The four gates' weights of one side (first input index `first`), one after the other.
Tensor stacked_weights(const Graph& graph, const Op& op, int first, const std::string& name) {
  Tensor t = graph.tensor(op.inputs[first]);
  t.name = graph.tensor(op.outputs[0]).name + "_" + name;
  t.shape[0] *= kGates;
  t.quant = {};
  t.source_index = -1;
  for (int g = 1; g < kGates; ++g) {
    const std::vector<uint8_t>& data = graph.tensor(op.inputs[first + g]).data;
    t.data.insert(t.data.end(), data.begin(), data.end());
  }
  return t;
}

// offset * the sum of each row of an int8 weight tensor: what a zero point adds to each unit's sum.
std::vector<int64_t> zero_point_terms(const Tensor& weights, int64_t offset) {
  const size_t depth = static_cast<size_t>(weights.shape[1]);
  std::vector<int64_t> terms;
  for (size_t row = 0; row * depth < weights.data.size(); ++row) {
    int64_t sum = 0;
    for (size_t d = 0; d < depth; ++d) sum += static_cast<int8_t>(weights.data[row * depth + d]);
    terms.push_back(offset * sum);
  }
  return terms;
}

// [8][state] integer biases: the input side's with the input zero point folded in, then the recurrent side's
// (only the hidden state's zero point).
Tensor stacked_int_biases(const Graph& graph, const Op& op) {
  const DType type = graph.tensor(op.inputs[kBiases]).dtype;
  const int64_t input_offset = -graph.tensor(op.inputs[kInput]).quant.zero_point[0];
  const int64_t hidden_offset = -graph.tensor(op.inputs[kOutputState]).quant.zero_point[0];
  std::vector<int64_t> values;
  for (int g = 0; g < kGates; ++g) {
    const std::vector<int64_t> bias = constant_ints(graph, op, op.inputs[kBiases + g], role(kBiases + g));
    const std::vector<int64_t> terms = zero_point_terms(graph.tensor(op.inputs[kInputWeights + g]), input_offset);
    for (size_t u = 0; u < bias.size(); ++u) values.push_back(bias[u] + terms[u]);
  }
  for (int g = 0; g < kGates; ++g) {
    const std::vector<int64_t> terms =
        zero_point_terms(graph.tensor(op.inputs[kRecurrentWeights + g]), hidden_offset);
    values.insert(values.end(), terms.begin(), terms.end());
  }
  Tensor t;
  t.name = graph.tensor(op.outputs[0]).name + "_biases";
  t.dtype = type;
  t.shape = {static_cast<int32_t>(values.size())};
  const size_t size = dtype_size(type);
  const int64_t limit = type == DType::kInt32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
  for (int64_t v : values) {
    expect_op(v <= limit && v >= -limit, graph, op, "a bias with the zero point folded in exceeds its type");
    for (size_t b = 0; b < size; ++b) t.data.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b)));
  }
  return t;
}

// [8][state] float biases: the input side's, then zeros (TFLM's recurrent side has no bias; it adds 0.0f).
Tensor stacked_float_biases(const Graph& graph, const Op& op) {
  Tensor t = graph.tensor(op.inputs[kBiases]);
  t.name = graph.tensor(op.outputs[0]).name + "_biases";
  t.source_index = -1;
  for (int g = 1; g < kGates; ++g) {
    const std::vector<uint8_t>& data = graph.tensor(op.inputs[kBiases + g]).data;
    t.data.insert(t.data.end(), data.begin(), data.end());
  }
  t.data.resize(t.data.size() * 2, 0);
  t.shape[0] *= 2 * kGates;
  return t;
}

void set_multiplier(KernelCall& call, const std::string& name, double real) {
  const QuantizedMultiplier m = quantize_multiplier(real);
  call.params.set_int(name + "_multiplier", m.multiplier);
  call.params.set_int(name + "_shift", m.shift);
}

// TFLM's CreateGateParams and CreateInterGateMulParams, with its float scales widened to double.
void set_quantized_params(const Graph& graph, const Op& op, KernelCall& call) {
  const Tensor& hidden = graph.tensor(op.inputs[kOutputState]);
  const double cell_scale = graph.tensor(op.inputs[kCellState]).quant.scale[0];
  const double input_scale = graph.tensor(op.inputs[kInput]).quant.scale[0];
  std::vector<QuantizedMultiplier> gates;
  for (int g = 0; g < kGates; ++g) {
    gates.push_back(quantize_multiplier(input_scale * graph.tensor(op.inputs[kInputWeights + g]).quant.scale[0] /
                                        kGateScale));
  }
  for (int g = 0; g < kGates; ++g) {
    gates.push_back(quantize_multiplier(static_cast<double>(hidden.quant.scale[0]) *
                                        graph.tensor(op.inputs[kRecurrentWeights + g]).quant.scale[0] / kGateScale));
  }
  std::vector<int64_t> multipliers, shifts;
  for (const QuantizedMultiplier& m : gates) {
    multipliers.push_back(m.multiplier);
    shifts.push_back(m.shift);
  }
  call.params.set_ints("gate_multiplier", multipliers);
  call.params.set_ints("gate_shift", shifts);
  set_multiplier(call, "forget", kActivatedScale * cell_scale / cell_scale);
  set_multiplier(call, "input", kActivatedScale * kActivatedScale / cell_scale);
  set_multiplier(call, "hidden", kActivatedScale * kActivatedScale / hidden.quant.scale[0]);
  const bool int8 = hidden.dtype == DType::kInt8;
  call.params.set_int("hidden_zero_point", hidden.quant.zero_point[0]);
  call.params.set_int("hidden_min", int8 ? INT8_MIN : INT16_MIN);
  call.params.set_int("hidden_max", int8 ? INT8_MAX : INT16_MAX);
  const float clip = lstm_options(op).cell_clip;
  const double quantized_clip = std::min(std::max(static_cast<double>(clip) / cell_scale, -32768.0), 32767.0);
  call.params.set_int("cell_clip", clip > 0.0f ? static_cast<int16_t>(quantized_clip) : -1);
  const QuantizedMultiplier tanh = cell_tanh_rescale(cell_scale_power(graph, op));
  call.params.set_int("cell_tanh_multiplier", tanh.multiplier);
  call.params.set_int("cell_tanh_shift", tanh.shift);
  call.params.set_ints("sigmoid_table", sigmoid_table());
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[kInput]);
  const bool is_float = input.dtype == DType::kFloat32;
  const LstmSizes s = lstm_sizes(graph, op);
  KernelCall call;
  call.stem = std::string("unidirectional_sequence_lstm_") + dtype_short_name(input.dtype);
  set_shape_params(graph, op, call);
  call.derived.push_back(stacked_weights(graph, op, kInputWeights, "input_weights"));
  call.derived.push_back(stacked_weights(graph, op, kRecurrentWeights, "recurrent_weights"));
  call.derived.push_back(is_float ? stacked_float_biases(graph, op) : stacked_int_biases(graph, op));
  call.args = {op.inputs[kInput], derived_arg(0),           derived_arg(1), derived_arg(2),
               op.inputs[kOutputState], op.inputs[kCellState], op.outputs[0]};
  if (is_float) {
    call.params.set_float("cell_clip", std::max(lstm_options(op).cell_clip, 0.0f));
  } else {
    set_quantized_params(graph, op, call);
  }
  const int64_t rows = lstm_options(op).time_major ? s.batches : 1;
  call.scratch_bytes = kGates * rows * s.state_size * (is_float ? 4 : 2);
  return call;
}

// Each step's eight fully connected layers (the element-wise work is a few operations per state element).
int64_t macs(const Graph& graph, const Op& op) {
  const LstmSizes s = lstm_sizes(graph, op);
  return int64_t{kGates} * s.batches * s.time_steps * s.state_size * (int64_t{s.input_size} + s.state_size);
}

// The lowered params as the packed kernel's guard reads them (microaot/fit/lstm.h): the scalars, and the
// arrays it checks pointed at `gates` (multipliers then shifts) and the table.
bool fits_packed_kernel(const KernelCall& call, std::vector<int32_t>& gates, std::vector<int16_t>& table) {
  microaot_lstm_params_q params = MICROAOT_PARAMS_STRUCT(lstm_params_q, call.params);
  for (const char* field : {"gate_multiplier", "gate_shift"}) {
    for (int64_t v : call.params.find(field)->integers) gates.push_back(static_cast<int32_t>(v));
  }
  for (int64_t v : call.params.find("sigmoid_table")->integers) table.push_back(static_cast<int16_t>(v));
  params.gate_multiplier = gates.data();
  params.gate_shift = gates.data() + 2 * kGates;
  params.sigmoid_table = table.data();
  return microaot_fit_lstm_packed(&params) != 0;
}

// Both sides' biases ([8][state], `units` a side) in the raw form of the int8 words (ops/packed_weights.h), or
// empty where the form is not exact for a unit of either side.
std::vector<int32_t> raw_biases(const std::vector<int32_t>& bias, const std::vector<int8_t> (&weights)[2],
                                int32_t units) {
  std::vector<int32_t> raw;
  for (int side = 0; side < 2; ++side) {
    const auto first = bias.begin() + static_cast<std::ptrdiff_t>(side) * units;
    const auto depth = static_cast<int32_t>(weights[side].size() / static_cast<size_t>(units));
    const std::vector<int32_t> part =
        raw_form_biases(std::vector<int32_t>(first, first + units), weights[side], units, depth);
    if (part.empty()) return {};
    raw.insert(raw.end(), part.begin(), part.end());
  }
  return raw;
}

// The int8 family's chooser (compile/choose_variants.h): on a DSP target the packed kernel, over each side's
// stacked weights re-laid for SMLAD in the target's form (the biases as lowered); a layer outside its fit rule
// keeps the portable kernel.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  if (!has_specialisation_for(call.stem, target)) return;
  std::vector<int32_t> gates;
  std::vector<int16_t> table;
  if (!fits_packed_kernel(call, gates, table)) {
    call.specialisation = "portable: a requantization outside the packed kernel's range (microaot/fit/lstm.h)";
    return;
  }
  const LstmSizes s = lstm_sizes(graph, op);
  const int32_t units = kGates * s.state_size;
  std::vector<int8_t> weights[2];
  for (int side = 0; side < 2; ++side) weights[side] = constant_values<int8_t>(call.derived[static_cast<size_t>(side)]);
  PackedWeights form = packed_weights_form(target);
  if (form == PackedWeights::kInt8 && units >= kPackedRawMinUnits) {
    const std::vector<int32_t> raw = raw_biases(constant_values<int32_t>(call.derived[2]), weights, units);
    if (!raw.empty()) {
      form = PackedWeights::kInt8Raw;
      call.derived[2] = int32_constant(call.derived[2].name + "_raw", raw);
    }
  }
  for (int side = 0; side < 2; ++side) {
    Tensor& stacked = call.derived[static_cast<size_t>(side)];
    stacked = int32_constant(stacked.name + "_packed", pack_whole_rows(weights[side], units, stacked.shape[1], form));
  }
  const char* const suffix = form == PackedWeights::kInt16 ? "_w16" : form == PackedWeights::kInt8Raw ? "_raw" : "";
  call.stem = std::string("unidirectional_sequence_lstm_s8_packed") + suffix;
  const int64_t rows = lstm_options(op).time_major ? s.batches : 1;
  call.scratch_bytes = MICROAOT_LSTM_PACKED_SCRATCH_BYTES(rows, int64_t{s.input_size}, int64_t{s.state_size});
  call.specialisation = std::string("packed: the four gates as one product per side, weights ") +
                        (form == PackedWeights::kInt16    ? "int16"
                         : form == PackedWeights::kInt8Raw ? "int8 (raw form)"
                                                           : "int8") +
                        " re-laid for SMLAD; the input side two time steps at a time (2 rows x 2 units), the "
                        "recurrent side 1 row x 4 units";
}

}  // namespace

extern const OpHandler unidirectional_sequence_lstm_handler = {
    check, lower, macs, /*is_view=*/false, nullptr, read_options, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
