// TRANSPOSE_CONV: int8 (per-channel or per-tensor int8 weights, optional int32 bias), int16 activations with
// int8 weights and an int64 bias (16x8, 64-bit sums: TFLM has no 32-bit flavour) and float32, SAME/VALID
// padding, strides and (version 4 on) a fused activation, as TFLite Micro's reference kernels. Inputs in
// TFLite's order: the output shape (a constant equal to the output's), the OHWI weights, the input, the bias.
#include <algorithm>
#include <string>
#include <vector>

#include "ops/conv_common.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/transpose_conv_packed.h"
#include "ops/weighted_accumulator.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 5;
constexpr int kOutputShape = 0, kFilter = 1, kInput = 2, kBias = 3;
constexpr int kFilterChannelAxis = 0;  // OHWI

OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  const auto& o = required_options<tflite::TransposeConvOptions>(g, op, source, "TransposeConvOptions");
  TransposeConvOptions r;
  r.window.padding = read_padding(g, op, o.padding());
  r.window.stride_w = read_positive(g, op, "stride_w", o.stride_w());
  r.window.stride_h = read_positive(g, op, "stride_h", o.stride_h());
  r.window.activation = read_activation(g, op, o.fused_activation_function());
  return r;
}

const ConvWindow& window_of(const Graph& graph, const Op& op) {
  const auto* options = options_if<TransposeConvOptions>(op);
  expect_op(options != nullptr, graph, op, "has no TransposeConvOptions");
  return options->window;
}

ConvTensors tensors_of(const Graph& graph, const Op& op) {
  return {input_id(graph, op, kInput), input_id(graph, op, kFilter), optional_input_id(op, kBias),
          output_id(graph, op, 0)};
}

// TFLM sizes the output from the output tensor and never reads input 0: computed at run time (an int32
// input of the model, as streaming exports have), it is not read here either; a constant must agree.
void check_output_shape(const Graph& graph, const Op& op) {
  const int id = input_id(graph, op, kOutputShape);
  const std::string role = input_role(op, id);
  expect_dtype(graph, op, id, role, {DType::kInt32});
  const Tensor& shape = graph.tensor(id);
  if (!shape.is_constant) return;
  expect_constant_data(graph, op, id, role);
  const std::vector<int32_t>& output = graph.tensor(op.outputs[0]).shape;
  bool same = shape.num_elements() == static_cast<int64_t>(output.size());
  for (size_t d = 0; same && d < output.size(); ++d) same = constant_int(shape, static_cast<int64_t>(d)) == output[d];
  expect_tensor(same, graph, op, id, role, "the output shape it holds differs from the output tensor's");
}

// 16x8 sums are 64-bit whatever the options say: TFLM reads any int16-model bias as int64.
DType accumulator(const Graph& graph, const ConvTensors& t) {
  return accumulator_type(graph, t.input, t.bias, /*int32_bias_option=*/false);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 3, 4, 1);
  const ConvWindow& window = window_of(graph, op);
  check_output_shape(graph, op);
  const ConvTensors t = tensors_of(graph, op);
  const DType type = check_conv_types(graph, op, t, {DType::kInt64}, HybridFilters::kRefused);
  const ConvGeometry g = check_transpose_conv_geometry(graph, op, t, window);
  check_conv_constants(graph, op, t, g.output_c);
  if (type != DType::kFloat32) {
    check_conv_quantization(graph, op, t, window.activation, g.output_c, kFilterChannelAxis, accumulator(graph, t));
  }
}

KernelCall lower(const Graph& graph, const Op& op) {
  const ConvWindow& window = window_of(graph, op);
  const ConvTensors t = tensors_of(graph, op);
  const ConvGeometry g = check_transpose_conv_geometry(graph, op, t, window);
  const DType type = graph.tensor(t.input).dtype;
  KernelCall call;
  call.stem = std::string("transpose_conv_") + dtype_short_name(type);
  add_conv_shape_fields(call, g);
  if (type == DType::kFloat32) {
    set_activation_params(call, graph.tensor(t.output), window.activation);
  } else {
    add_conv_quantized_fields(call, graph, op, t, window.activation, g.output_c, accumulator(graph, t));
  }
  call.args = {t.input, t.filter, t.bias, t.output};
  return call;
}

// a / b rounded up, for any sign of a and b > 0.
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

// The (input, tap) pairs of one axis whose output position in * stride - pad + tap lies inside the output:
// per tap, the inputs from ceil((pad - tap) / stride) up to ceil((out + pad - tap) / stride).
int64_t axis_pairs(int in, int filter, int stride, int pad, int out) {
  int64_t pairs = 0;
  for (int tap = 0; tap < filter; ++tap) {
    const int64_t first = std::max<int64_t>(0, ceil_div(int64_t{pad} - tap, stride));
    const int64_t end = std::min<int64_t>(in, ceil_div(int64_t{out} + pad - tap, stride));
    pairs += std::max<int64_t>(0, end - first);
  }
  return pairs;
}

// The products that land in the output (TFLM's scatter skips the others).
int64_t macs(const Graph& graph, const Op& op) {
  const ConvGeometry g = check_transpose_conv_geometry(graph, op, tensors_of(graph, op), window_of(graph, op));
  return int64_t{g.batches} * axis_pairs(g.input_h, g.filter_h, g.stride_h, g.pad_h, g.output_h) *
         axis_pairs(g.input_w, g.filter_w, g.stride_w, g.pad_w, g.output_w) * g.input_c * g.output_c;
}

// The int8 family's chooser (compile/choose_variants.h): the packed stride phases on a DSP target, or why not.
void choose(const Graph& graph, const Op&, const Target& target, KernelCall& call) {
  choose_packed_transpose_conv(graph, target, call);
}

}  // namespace

extern const OpHandler transpose_conv_handler = {check,        lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                 read_options, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
