#include "ops/unary.h"

#include <algorithm>
#include <cmath>

#include "ops/in_place.h"
#include "ops/op_checks.h"

namespace microaot {

DType check_unary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types) {
  expect_arity(graph, op, 1, 1, 1);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", types);
  const DType type = graph.tensor(in).dtype;
  expect_dtype(graph, op, out, "output 0", {type});
  expect_same_elements(graph, op, in, out);
  return type;
}

void check_unary_quantization(const Graph& graph, const Op& op, bool symmetric_int16) {
  const int ids[2] = {op.inputs[0], op.outputs[0]};
  const char* roles[2] = {"input 0", "output 0"};
  for (int k = 0; k < 2; ++k) {
    if (graph.tensor(ids[k]).dtype == DType::kInt16 && symmetric_int16) {
      expect_symmetric_quant(graph, op, ids[k], roles[k]);
    } else {
      expect_activation_quant(graph, op, ids[k], roles[k]);
    }
  }
}

KernelCall unary_call(const Graph& graph, const Op& op, const std::string& op_stem) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  KernelCall call;
  call.stem = op_stem + "_" + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  call.params.set_int("size", input.num_elements());
  return call;
}

ActivationRange type_range(DType type) { return quantized_activation_range(Activation::kNone, type, 1.0f, 0); }

void set_unary_rescale_params(KernelCall& call, const Tensor& input, const Tensor& output, double real_multiplier,
                              ActivationRange range) {
  const QuantizedMultiplier m = quantize_multiplier(real_multiplier);
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("output_multiplier", m.multiplier);
  call.params.set_int("output_shift", m.shift);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  call.params.set_int("activation_min", range.min);
  call.params.set_int("activation_max", range.max);
}

void set_by_sign_params(KernelCall& call, const Tensor& input, const Tensor& output, double identity_real,
                        double alpha_real) {
  const QuantizedMultiplier identity = quantize_multiplier(identity_real);
  const QuantizedMultiplier alpha = quantize_multiplier(alpha_real);
  const ActivationRange range = type_range(output.dtype);
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  call.params.set_int("identity_multiplier", identity.multiplier);
  call.params.set_int("identity_shift", identity.shift);
  call.params.set_int("alpha_multiplier", alpha.multiplier);
  call.params.set_int("alpha_shift", alpha.shift);
  call.params.set_int("activation_min", range.min);
  call.params.set_int("activation_max", range.max);
}

std::vector<int64_t> int8_lut(const Tensor& input, const Tensor& output, float (*f)(float)) {
  const float input_scale = input.quant.scale[0];
  const auto input_zero_point = static_cast<int32_t>(input.quant.zero_point[0]);
  const float inverse_scale = 1.0f / output.quant.scale[0];
  const auto output_zero_point = static_cast<float>(output.quant.zero_point[0]);
  std::vector<int64_t> table;
  for (int32_t value = -128; value <= 127; ++value) {
    const float real = input_scale * static_cast<float>(value - input_zero_point);
    const float rescaled = std::round(f(real) * inverse_scale);
    // TFLM adds the zero point in float and converts; clamping first keeps the conversion defined.
    const float quantized = std::min(std::max(rescaled + output_zero_point, -128.0f), 127.0f);
    table.push_back(static_cast<int64_t>(quantized));
  }
  return table;
}

std::vector<int64_t> int8_onnx_lut(const Tensor& input, const Tensor& output, const std::function<float(float)>& f) {
  const float input_scale = input.quant.scale[0], output_scale = output.quant.scale[0];
  const auto output_zero_point = static_cast<float>(output.quant.zero_point[0]);
  std::vector<int64_t> table;
  for (int64_t value = -128; value <= 127; ++value) {
    const float real = f(static_cast<float>(value - input.quant.zero_point[0]) * input_scale);
    const float steps = std::nearbyint(real / output_scale);  // the default rounding mode: half to even
    // Clamped before the conversion, which keeps it defined (an infinite or NaN quotient: the range's end or 0).
    const float quantized = std::min(std::max(steps + output_zero_point, -128.0f), 127.0f);
    table.push_back(quantized == quantized ? static_cast<int64_t>(quantized) : 0);
  }
  return table;
}

std::vector<int64_t> sigmoid_table() {
  const auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  std::vector<int64_t> table;
  for (int i = 0; i < 255; ++i) {
    const double at = sigmoid(i / 24.0);
    const double next = sigmoid((i + 1) / 24.0);
    const double midpoint = sigmoid((i + 0.5) / 24.0);
    // Biased by half the linear interpolation's error at the segment's midpoint, which spreads the error
    // over the segment; every entry is then at least 0.004 from a rounding boundary.
    const double biased = at + (midpoint - (at + next) / 2) / 2;
    table.push_back(std::lround(biased * 65536.0) - 32768);
  }
  table.push_back(65535 - 32768);  // the last entry is the full Q0.16 scale, as TFLM's table has it
  return table;
}

std::vector<InPlaceOption> unary_in_place(const Graph& graph, const Op& op) {
  return {element_wise_option(graph, op, 0, 0)};
}

int64_t unary_macs(const Graph& graph, const Op& op) { return graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace microaot
