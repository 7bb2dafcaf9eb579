// SOFTMAX over the last dimension: float, int8 -> int8, int8 -> int16 and int16 -> int16, with TFLM's
// Prepare-time math (tflite-micro softmax_common.cc). int8 input: beta and the input scale folded into a
// multiplier that makes input differences Q5.26, and the smallest difference that can still be rescaled
// without overflow. int16 input: a multiplier mapping [-65535, 0] onto [-10, 0] and two 513-entry tables.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

constexpr int kScaledDiffIntegerBits = 5;  // differences enter exp() as Q5.26

// beta * input_scale * 2^26 in double, capped at 2^31 - 1 (TFLM's PreprocessSoftmaxScaling).
double input_beta_real_multiplier(const Graph& graph, const Op& op) {
  const float beta = options_if<SoftmaxOptions>(op)->beta;
  const float input_scale = graph.tensor(op.inputs[0]).quant.scale[0];
  const double scaled = static_cast<double>(beta) * static_cast<double>(input_scale) *
                        static_cast<double>(1 << (31 - kScaledDiffIntegerBits));
  return std::min(scaled, static_cast<double>((1LL << 31) - 1));
}

// input_scale * beta / (10 / 65535): differences in [-65535, 0] cover [-10, 0], the exp table's domain.
double int16_real_multiplier(const Graph& graph, const Op& op) {
  const float beta = options_if<SoftmaxOptions>(op)->beta;
  const float input_scale = graph.tensor(op.inputs[0]).quant.scale[0];
  return static_cast<double>(input_scale) * static_cast<double>(beta) / (10.0 / 65535.0);
}

// i * step rounded to float on its own: a host compiler that fuses it into the following addition
// (an FMA) would otherwise build a slightly different table. (Products with the power of two 32768 are
// exact, so they need no such care.)
float rounded_product(int i, float step) {
  volatile float product = static_cast<float>(i) * step;
  return product;
}

// TFLM's gen_lut<float, int16_t, int16_t> with outputs in [-1, 1]: 512 samples of func over
// [input_min, input_max] in float, each biased by half the interpolation error at the segment's midpoint,
// plus the end point; the same float operations in the same order, so the table is the same.
std::vector<int64_t> int16_lut(float (*func)(float), float input_min, float input_max) {
  constexpr int kSteps = 512;
  const float step = (input_max - input_min) / kSteps;
  const float half_step = step / 2;
  const float output_scaling_inv = static_cast<float>(32767 - (-32768) + 1) / (1.0f - (-1.0f));
  const auto clamp = [](float v) { return static_cast<int64_t>(std::min(std::max(v, -32768.0f), 32767.0f)); };
  std::vector<int64_t> lut;
  for (int i = 0; i < kSteps; ++i) {
    const float val = func(input_min + rounded_product(i, step));
    const float val_midpoint = func(input_min + rounded_product(i, step) + half_step);
    const float val_next = func(input_min + rounded_product(i + 1, step));
    const float sample_val = std::round(val * output_scaling_inv);
    const float midpoint_interp_val =
        std::round((val_next * output_scaling_inv + std::round(val * output_scaling_inv)) / 2);
    const float midpoint_val = std::round(val_midpoint * output_scaling_inv);
    const float bias = std::round((midpoint_interp_val - midpoint_val) / 2);
    lut.push_back(clamp(sample_val - bias));
  }
  lut.push_back(clamp(std::round(func(input_max) * output_scaling_inv)));
  return lut;
}

float exp_of(float x) { return std::exp(x); }
float one_over_one_plus(float x) { return 1.0f / (1.0f + x); }

void check_output_quant(const Graph& graph, const Op& op, int out) {
  const Tensor& output = graph.tensor(out);
  const DType in_type = graph.tensor(op.inputs[0]).dtype;
  expect_per_tensor_quant(graph, op, out, "output 0");
  const float scale = output.quant.scale[0];
  const int64_t zero_point = output.quant.zero_point[0];
  if (output.dtype == DType::kInt8) {
    expect_tensor(scale == 1.0f / 256 && zero_point == -128, graph, op, out, "output 0",
                  "int8 softmax output must have scale 1/256 and zero point -128");
  } else if (in_type == DType::kInt16) {
    expect_tensor(std::fabs(scale - 1.0f / 32768) <= 0.001f / 32768 && zero_point == 0, graph, op, out, "output 0",
                  "int16 softmax output must have scale 1/32768 and zero point 0");
  } else {
    expect_tensor(std::fabs(scale - 1.0f / 65536) <= 0.001f / 65536 && zero_point == -32768, graph, op, out,
                  "output 0", "int16 softmax output of an int8 input must have scale 1/65536 and zero point -32768");
  }
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 1, 1);
  expect_version(graph, op, 3);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  const Tensor& input = graph.tensor(in);
  const Tensor& output = graph.tensor(out);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (input.dtype == DType::kInt8) {
    expect_dtype(graph, op, out, "output 0", {DType::kInt8, DType::kInt16});
  } else {
    expect_dtype(graph, op, out, "output 0", {input.dtype});
  }
  expect_tensor(!input.shape.empty(), graph, op, in, "input 0", "must have at least one dimension");
  for (int32_t dim : input.shape) {
    expect_tensor(dim > 0, graph, op, in, "input 0", "has an empty or unknown dimension");
  }
  expect_tensor(output.shape == input.shape, graph, op, out, "output 0", "must have the input's shape");
  expect_tensor(input.num_elements() <= std::numeric_limits<int32_t>::max(), graph, op, in, "input 0",
                "has too many elements");
  if (input.dtype == DType::kFloat32) return;
  expect_per_tensor_quant(graph, op, in, "input 0");
  check_output_quant(graph, op, out);
  if (input.dtype == DType::kInt16) {
    // Beyond 2^15 the rescaled difference of two int16 values overflows int32 (undefined in TFLM too).
    expect_op(int16_real_multiplier(graph, op) < 32768.0, graph, op,
              "beta * input scale is too large for the int16 softmax (needs < 5.0)");
  } else {
    // TFLM's QuantizeMultiplierGreaterThanOne aborts on these.
    expect_op(input_beta_real_multiplier(graph, op) > 1.0, graph, op,
              "beta * input scale is too small for the int8 softmax (needs > 2^-26)");
  }
}

void lower_int16(const Graph& graph, const Op& op, KernelCall* call) {
  const QuantizedMultiplier qm = quantize_multiplier(int16_real_multiplier(graph, op));
  call->stem = "softmax_s16";
  call->params.set_int("input_multiplier", qm.multiplier);
  call->params.set_int("input_shift", qm.shift);
  call->params.set_ints("exp_lut", int16_lut(exp_of, -10.0f, 0.0f));
  call->params.set_ints("one_over_one_plus_x_lut", int16_lut(one_over_one_plus, 0.0f, 1.0f));
}

void lower_int8(const Graph& graph, const Op& op, KernelCall* call) {
  const bool s16_output = graph.tensor(op.outputs[0]).dtype == DType::kInt16;
  call->stem = s16_output ? "softmax_s8_s16" : "softmax_s8";
  const QuantizedMultiplier qm = quantize_multiplier_greater_than_one(input_beta_real_multiplier(graph, op));
  call->params.set_int("input_multiplier", qm.multiplier);
  call->params.set_int("input_left_shift", qm.shift);
  call->params.set_int("diff_min", -input_radius(kScaledDiffIntegerBits, qm.shift));
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const int32_t depth = input.shape.back();
  KernelCall call;
  call.args = {op.inputs[0], op.outputs[0]};
  call.params.set_int("outer_size", input.num_elements() / depth);
  call.params.set_int("depth", depth);
  if (input.dtype == DType::kFloat32) {
    call.stem = "softmax_f32";
    call.params.set_float("beta", options_if<SoftmaxOptions>(op)->beta);
  } else if (input.dtype == DType::kInt16) {
    lower_int16(graph, op, &call);
  } else {
    lower_int8(graph, op, &call);
  }
  return call;
}

OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  const auto& o = required_options<tflite::SoftmaxOptions>(g, op, source, "SoftmaxOptions");
  if (!std::isfinite(o.beta())) refuse_options(g, op, "beta is not finite");
  SoftmaxOptions r;
  r.beta = o.beta();
  return r;
}

// Every kernel reads a row whole (maximum, sum) before it stores any of it, then reads element i just before
// it stores element i, in order (later passes over the row read the output only), and rows go in order:
// after output element i is stored, input reads resume at element i + 1, which is the element-wise rule.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) { return {element_wise_option(graph, op, 0, 0)}; }

// Not multiply-accumulates strictly; one exp-and-scale per element is the figure reported.
int64_t macs(const Graph& graph, const Op& op) { return graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace

extern const OpHandler softmax_handler = {check, lower, macs, /*is_view=*/false, in_place, read_options};

}  // namespace microaot
