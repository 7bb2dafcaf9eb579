#include "quantize/recurrent_quant.h"

#include <algorithm>
#include <cmath>

#include "ops/unidirectional_sequence_lstm.h"
#include "quantize/quant_tensor.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
enum SvdfInput { kSvdfInput = 0, kFeatureWeights = 1, kTimeWeights = 2, kSvdfBias = 3, kSvdfState = 4 };
constexpr int kTimeWeightBits = 10;  // TFLite's operator_property.cc: 6 bits left for the sum over the memory

enum LstmInput { kLstmInput = 0, kInputWeights = 1, kRecurrentWeights = 5, kLstmBiases = 12, kHidden = 18, kCell = 19 };
constexpr int kGates = 4;           // input, forget, cell, output
constexpr int kMaxCellPower = 10;   // TFLite's quantizer: the cell state's range is 2^k, k in 0..10

Range range_of_state(const Graph& g, const Op& op, int id, const std::map<int, Range>& ranges) {
  const auto r = ranges.find(id);
  if (r == ranges.end()) {
    throw CompileError(describe_op(g, op) + ": no calibrated range for its state " + describe_tensor(g, id));
  }
  return r->second;
}

// A variable tensor's initial value after its type changed: the zero point (what TFLM's reset writes for int8)
// or 0; left empty when the model gave it none.
void reset_initial_value(Tensor& t) {
  if (t.data.empty()) return;
  const int64_t zero = t.dtype == DType::kInt8 ? t.quant.zero_point.at(0) : 0;
  t.data.assign(static_cast<size_t>(t.byte_size()), static_cast<uint8_t>(zero & 0xff));
}

// Weights int8 symmetric per tensor; returns their scale. With `bias` (an input index), the scale widens where
// that bias would not fit at input_scale x weight scale (a dead gate: tiny weights, a large bias).
float quantize_per_tensor(const Graph& source, Graph& out, const Op& op, size_t index, const char* role,
                          float input_scale = 0.0f, size_t bias = 0) {
  const std::vector<float> w = float_constant(source, op, index, role);
  Tensor& q = out.tensor(op.inputs[index]);
  std::vector<float> scale = int8_weight_scales(w, q.shape, 0, false);
  if (input_scale > 0.0f) fit_bias_in_weight_scales(scale, float_constant(source, op, bias, "bias"), input_scale);
  q.data = bytes_of(quantize_int8_weights(w, q.shape, 0, scale));
  set_params(q, DType::kInt8, scale, 0);
  return scale.at(0);
}

// The bias of input `index` at `scale`: int32, or int64 (16x8).
void quantize_bias_at(const Graph& source, Graph& out, const Op& op, size_t index, float scale, DType type) {
  const std::vector<float> bias = float_constant(source, op, index, "bias");
  const std::vector<int64_t> q = quantize_bias(bias, 1.0f, std::vector<float>(bias.size(), scale), type);
  Tensor& t = out.tensor(op.inputs[index]);
  t.data = type == DType::kInt64 ? bytes_of(q) : bytes_of(std::vector<int32_t>(q.begin(), q.end()));
  set_params(t, {scale, 0}, type);
}

bool has_input(const Op& op, size_t index) { return op.inputs.size() > index && op.inputs[index] != kNoTensor; }

// SVDF's state values of one sample: each row of the input times weights_feature.
void svdf_state_values(const Graph& g, const Op& op, const std::vector<float>& x, std::vector<float>& out) {
  const Tensor& w = g.tensor(op.inputs[kFeatureWeights]);
  if (w.shape.size() != 2 || !w.is_constant) return;
  const std::vector<float> weights = constant_values<float>(w);
  const size_t filters = static_cast<size_t>(w.shape[0]), depth = static_cast<size_t>(w.shape[1]);
  for (size_t row = 0; depth > 0 && (row + 1) * depth <= x.size(); ++row) {
    for (size_t f = 0; f < filters; ++f) {
      double sum = 0.0;
      for (size_t i = 0; i < depth; ++i) sum += static_cast<double>(x[row * depth + i]) * weights[f * depth + i];
      out.push_back(static_cast<float>(sum));
    }
  }
}

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

// The float LSTM of TFLM (no peephole, projection or layer norm; TANH cell gate), run over every sample in
// order from the zero state: every value its cell state takes.
struct FloatLstm {
  size_t batches = 0, steps = 0, depth = 0, units = 0;
  bool time_major = false;
  float clip = 0.0f;
  std::vector<float> w[kGates], r[kGates], b[kGates];
  std::vector<double> h, c;

  FloatLstm(const Graph& g, const Op& op) {
    const std::vector<int32_t>& in = g.tensor(op.inputs[kLstmInput]).shape;
    const auto* options = options_if<LstmOptions>(op);
    time_major = options != nullptr && options->time_major;
    clip = options != nullptr ? options->cell_clip : 0.0f;
    batches = static_cast<size_t>(time_major ? in.at(1) : in.at(0));
    steps = static_cast<size_t>(time_major ? in.at(0) : in.at(1));
    depth = static_cast<size_t>(in.at(2));
    units = static_cast<size_t>(g.tensor(op.inputs[kHidden]).shape.back());
    for (size_t k = 0; k < kGates; ++k) {
      w[k] = float_constant(g, op, kInputWeights + k, "input weights");
      r[k] = float_constant(g, op, kRecurrentWeights + k, "recurrent weights");
      b[k] = float_constant(g, op, kLstmBiases + k, "bias");
    }
    h.assign(batches * units, 0.0);
    c.assign(batches * units, 0.0);
  }

  double gate(size_t k, size_t u, const float* x, const double* hb) const {
    double z = b[k][u];
    for (size_t i = 0; i < depth; ++i) z += static_cast<double>(w[k][u * depth + i]) * x[i];
    for (size_t i = 0; i < units; ++i) z += static_cast<double>(r[k][u * units + i]) * hb[i];
    return z;
  }

  void run(const std::vector<float>& x, std::vector<float>& cells) {
    if (x.size() != batches * steps * depth) return;
    for (size_t t = 0; t < steps; ++t) {
      for (size_t n = 0; n < batches; ++n) {
        const float* xb = &x[(time_major ? t * batches + n : n * steps + t) * depth];
        std::vector<double> next(units);
        for (size_t u = 0; u < units; ++u) {
          double& cell = c[n * units + u];
          cell = sigmoid(gate(1, u, xb, &h[n * units])) * cell +
                 sigmoid(gate(0, u, xb, &h[n * units])) * std::tanh(gate(2, u, xb, &h[n * units]));
          if (clip > 0.0f) cell = std::clamp(cell, -static_cast<double>(clip), static_cast<double>(clip));
          cells.push_back(static_cast<float>(cell));
          next[u] = sigmoid(gate(3, u, xb, &h[n * units])) * std::tanh(cell);
        }
        std::copy(next.begin(), next.end(), h.begin() + static_cast<std::ptrdiff_t>(n * units));
      }
    }
  }
};
}  // namespace

void quantize_svdf(const Graph& source, Graph& out, const Op& op, const std::map<int, Range>& ranges) {
  quantize_per_tensor(source, out, op, kFeatureWeights, "weights_feature");
  const Int16Weights time = quantize_int16_weights(float_constant(source, op, kTimeWeights, "weights_time"), kTimeWeightBits);
  Tensor& qtime = out.tensor(op.inputs[kTimeWeights]);
  qtime.data = bytes_of(time.values);
  set_params(qtime, {time.scale, 0}, DType::kInt16);
  const Range r = range_of_state(source, op, op.inputs[kSvdfState], ranges);
  AffineParams state = int16_activation_params(r.min, r.max);
  std::vector<float> bias;
  if (has_input(op, kSvdfBias)) bias = float_constant(source, op, kSvdfBias, "bias");
  // A bias beyond 2^30 steps of state x weights_time scale would not fit the accumulator: the state's scale
  // widens until it does (the bias then dominates the output anyway), the rule of a dead channel's weights.
  std::vector<float> state_scale = {state.scale};
  fit_bias_in_weight_scales(state_scale, bias, time.scale);
  state.scale = state_scale[0];
  set_params(out.tensor(op.inputs[kSvdfState]), state, DType::kInt16);
  reset_initial_value(out.tensor(op.inputs[kSvdfState]));
  if (!bias.empty()) quantize_bias_at(source, out, op, kSvdfBias, state.scale * time.scale, DType::kInt32);
}

void quantize_lstm(const Graph& source, Graph& out, const Op& op, const std::map<int, Range>& ranges) {
  const Tensor& output = out.tensor(op.outputs[0]);
  Tensor& hidden = out.tensor(op.inputs[kHidden]);
  hidden.dtype = output.dtype;  // TFLM's kernel writes the hidden state as the output
  hidden.quant = output.quant;
  reset_initial_value(hidden);
  const Range r = range_of_state(source, op, op.inputs[kCell], ranges);
  const double largest = std::max(std::fabs(r.min), std::fabs(r.max));
  int power = 0;
  while (power < kMaxCellPower && std::ldexp(1.0, power) < largest) ++power;
  set_params(out.tensor(op.inputs[kCell]), {static_cast<float>(std::ldexp(1.0, power - 15)), 0}, DType::kInt16);
  reset_initial_value(out.tensor(op.inputs[kCell]));
  const Tensor& input = out.tensor(op.inputs[kLstmInput]);
  const DType bias_type = input.dtype == DType::kInt16 ? DType::kInt64 : DType::kInt32;
  for (size_t k = 0; k < kGates; ++k) {
    const float w = quantize_per_tensor(source, out, op, kInputWeights + k, "input weights", input.quant.scale.at(0),
                                        kLstmBiases + k);
    quantize_per_tensor(source, out, op, kRecurrentWeights + k, "recurrent weights");
    quantize_bias_at(source, out, op, kLstmBiases + k, input.quant.scale.at(0) * w, bias_type);
  }
}

std::map<int, std::vector<float>> state_values(const Graph& graph,
                                               const std::vector<std::map<int, std::vector<float>>>& runs) {
  std::map<int, std::vector<float>> out;
  for (const Op& op : graph.ops) {
    if (op.kind != OpKind::Svdf && op.kind != OpKind::UnidirectionalSequenceLstm) continue;
    if (graph.tensor(op.inputs[0]).dtype != DType::kFloat32) continue;
    const bool svdf = op.kind == OpKind::Svdf;
    std::vector<float>& values = out[op.inputs[svdf ? size_t{kSvdfState} : size_t{kCell}]];
    if (svdf) {
      for (const auto& run : runs) {
        const auto x = run.find(op.inputs[kSvdfInput]);
        if (x != run.end()) svdf_state_values(graph, op, x->second, values);
      }
      continue;
    }
    FloatLstm lstm(graph, op);
    for (const auto& run : runs) {
      const auto x = run.find(op.inputs[kLstmInput]);
      if (x != run.end()) lstm.run(x->second, values);
    }
  }
  return out;
}

}  // namespace microaot
