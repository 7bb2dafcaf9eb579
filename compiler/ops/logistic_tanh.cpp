// LOGISTIC and TANH (float, int8, int16; any rank) with TFLite Micro's Prepare-time math (logistic_common.cc,
// tanh.cc). int8: the input scale times 2^27 as a multiplier that makes x - zero point Q4.27, and the radius
// beyond which the output saturates. int16 (symmetric): a multiplier taking the input to units of
// 1/(3 * 4096) (3 << shift for the power-of-two scales TFLM special-cases), and the 256-entry table of
// sigmoid(i / 24) that both kernels interpolate, computed here. Outputs have TFLite's fixed quantization.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/unary.h"

namespace microaot {
namespace {

constexpr int kInt8InputIntegerBits = 4;   // Q4.27 into the fixed-point logistic / tanh
constexpr int kInt16InputIntegerBits = 3;  // TFLM's power-of-two input scale is 2^(3 - 15)

bool is_tanh(const Op& op) { return op.kind == OpKind::Tanh; }

void check_int8_output(const Graph& graph, const Op& op) {
  const int out = op.outputs[0];
  const Tensor& output = graph.tensor(out);
  if (is_tanh(op)) {
    expect_tensor(output.quant.scale[0] == 1.0f / 128 && output.quant.zero_point[0] == 0, graph, op, out,
                  "output 0", "int8 TANH output must have scale 1/128 and zero point 0");
  } else {
    expect_tensor(output.quant.scale[0] == 1.0f / 256 && output.quant.zero_point[0] == -128, graph, op, out,
                  "output 0", "int8 LOGISTIC output must have scale 1/256 and zero point -128");
  }
}

void check_int16(const Graph& graph, const Op& op) {
  const int out = op.outputs[0];
  int log2_scale = 0;
  expect_tensor(checked_log2(graph.tensor(out).quant.scale[0], &log2_scale) && log2_scale == -15, graph, op, out,
                "output 0", "int16 output must have scale 1/32768");
  // Beyond this the rescaled input no longer fits the table's 16-bit multiplier (TFLM asserts).
  expect_tensor(static_cast<double>(graph.tensor(op.inputs[0]).quant.scale[0]) * 4096.0 * 3.0 <= 32767.0, graph, op,
                op.inputs[0], "input 0", "int16 input scale is too large (at most 32767 / 12288)");
}

// TFLite's versions: 1 float, 2 int8/uint8, 3 int16.
void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type == DType::kFloat32) return;
  check_unary_quantization(graph, op, /*symmetric_int16=*/true);
  if (type == DType::kInt8) {
    check_int8_output(graph, op);
  } else {
    check_int16(graph, op);
  }
}

void lower_int8(const Tensor& input, KernelCall* call) {
  const QuantizedMultiplier m = quantize_multiplier(static_cast<double>(input.quant.scale[0]) *
                                                    static_cast<double>(1 << (31 - kInt8InputIntegerBits)));
  call->params.set_int("input_zero_point", input.quant.zero_point[0]);
  call->params.set_int("input_range_radius", input_radius(kInt8InputIntegerBits, m.shift));
  call->params.set_int("input_multiplier", m.multiplier);
  call->params.set_int("input_shift", m.shift);
}

// TFLM's int16 input rescale: a power-of-two scale whose shift is 0 (LOGISTIC) or 0 or 1 (TANH) is
// multiplied by 3 << shift; any other by scale * 3 * 4096, doubled (and the shift raised) while it stays
// below 2^14, then truncated.
void lower_int16(const Op& op, const Tensor& input, KernelCall* call) {
  const float scale = input.quant.scale[0];
  int log2_scale = 0;
  const bool power_of_two = checked_log2(scale, &log2_scale);
  const int pot_shift = (15 - kInt16InputIntegerBits) + log2_scale;
  int32_t multiplier = 0;
  int shift = 0;
  if (power_of_two && (pot_shift == 0 || (is_tanh(op) && pot_shift == 1))) {
    multiplier = 3 << pot_shift;
  } else {
    double real = static_cast<double>(scale) * 4096.0 * 3.0;
    while (real <= 32767.0 / 2.0 && shift <= 30) {
      ++shift;
      real *= 2.0;
    }
    multiplier = static_cast<int32_t>(real);
  }
  call->params.set_int("input_multiplier", multiplier);
  call->params.set_int("input_shift", shift);
  call->params.set_ints("sigmoid_table", sigmoid_table());
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, is_tanh(op) ? "tanh" : "logistic");
  const Tensor& input = graph.tensor(op.inputs[0]);
  if (input.dtype == DType::kInt8) lower_int8(input, &call);
  if (input.dtype == DType::kInt16) lower_int16(op, input, &call);
  return call;
}

}  // namespace

extern const OpHandler logistic_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};
extern const OpHandler tanh_handler = {check, lower, unary_macs, /*is_view=*/false, unary_in_place, nullptr};

}  // namespace microaot
