#include "ops/pool_2d_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

const Pool2DOptions& pool_options(const Op& op) {
  const auto* options = options_if<Pool2DOptions>(op);
  MICROAOT_CHECK(options != nullptr, "pooling op without Pool2DOptions");
  return *options;
}

std::string shape_text(const std::vector<int32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

// An input extent with explicit padding around it, saturated (a too large one fails the output shape check).
int padded_extent(int in, int before, int after) {
  return static_cast<int>(std::min<int64_t>(int64_t{in} + before + after, INT32_MAX));
}

// The NHWC output shape the options imply for this input; explicit padding: VALID over the padded input.
std::vector<int32_t> expected_output_shape(const Tensor& input, const Pool2DOptions& o) {
  const ExplicitPadding e = o.explicit_padding.value_or(ExplicitPadding{});
  const Padding padding = o.explicit_padding ? Padding::kValid : o.padding;
  const int out_h = window_output_size(padding, padded_extent(input.shape[1], e.top, e.bottom), o.filter_h,
                                       o.stride_h, 1);
  const int out_w = window_output_size(padding, padded_extent(input.shape[2], e.left, e.right), o.filter_w,
                                       o.stride_w, 1);
  return {input.shape[0], out_h, out_w, input.shape[3]};
}

// The padding before the first row and column: TFLite's for SAME/VALID, or the explicit amounts.
std::pair<int, int> leading_padding(const Graph& graph, const Op& op, const Pool2DOptions& o) {
  if (o.explicit_padding) return {o.explicit_padding->top, o.explicit_padding->left};
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  return {window_padding(o.stride_h, 1, in[1], o.filter_h, out[1]),
          window_padding(o.stride_w, 1, in[2], o.filter_w, out[2])};
}

// Explicit padding must leave an input element in every window (the kernels divide by / start from the count).
void check_explicit_padding(const Graph& graph, const Op& op, const Pool2DOptions& o) {
  if (!o.explicit_padding) return;
  const ExplicitPadding& e = *o.explicit_padding;
  expect_op(e.top >= 0 && e.bottom >= 0 && e.left >= 0 && e.right >= 0, graph, op,
            "explicit padding must not be negative");
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  const bool rows = o.filter_h > e.top && (int64_t{out[1]} - 1) * o.stride_h - e.top < in[1];
  const bool columns = o.filter_w > e.left && (int64_t{out[2]} - 1) * o.stride_w - e.left < in[2];
  expect_op(rows && columns, graph, op, "explicit padding leaves a window without input elements");
}

void check_same_quantization(const Graph& graph, const Op& op, int in, int out) {
  expect_per_tensor_quant(graph, op, in, "input 0");
  expect_per_tensor_quant(graph, op, out, "output 0");
  const Quantization& qi = graph.tensor(in).quant;
  const Quantization& qo = graph.tensor(out).quant;
  // TFLM's tolerance: the kernel never rescales, so the scales must agree.
  const double scale_diff = std::fabs(static_cast<double>(qi.scale[0]) - static_cast<double>(qo.scale[0]));
  expect_tensor(scale_diff <= 1.0e-6 && qi.zero_point[0] == qo.zero_point[0], graph, op, out, "output 0",
                "must have the input's scale and zero point (pooling does not requantize)");
  expect_activation_quant(graph, op, out, "output 0");
}

}  // namespace

void check_pool_2d(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  expect_arity(graph, op, 1, 1, 1);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kInt8, DType::kInt16, DType::kFloat32});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(in).dtype});
  expect_rank(graph, op, in, "input 0", 4);
  expect_rank(graph, op, out, "output 0", 4);

  const Pool2DOptions& o = pool_options(op);
  expect_op(o.filter_w >= 1 && o.filter_h >= 1, graph, op, "filter size must be at least 1x1");
  expect_op(o.stride_w >= 1 && o.stride_h >= 1, graph, op, "strides must be at least 1");
  const Tensor& input = graph.tensor(in);
  const std::vector<int32_t> expected = expected_output_shape(input, o);
  expect_tensor(expected[1] >= 1 && expected[2] >= 1, graph, op, in, "input 0",
                "is smaller than the " + std::to_string(o.filter_h) + "x" + std::to_string(o.filter_w) +
                    " filter with VALID padding (empty output)");
  expect_tensor(graph.tensor(out).shape == expected, graph, op, out, "output 0",
                "shape " + shape_text(graph.tensor(out).shape) + " does not match the " + shape_text(expected) +
                    " implied by the input shape, filter, strides and padding");
  check_explicit_padding(graph, op, o);
  if (input.dtype != DType::kFloat32) check_same_quantization(graph, op, in, out);
}

void check_pool_2d_sum(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  if (input.dtype == DType::kFloat32) return;
  const Pool2DOptions& o = pool_options(op);
  const int64_t largest = input.dtype == DType::kInt16 ? 32768 : 128;  // |lowest value|
  expect_op(int64_t{o.filter_h} * o.filter_w * largest <= INT32_MAX, graph, op,
            "a " + std::to_string(o.filter_h) + "x" + std::to_string(o.filter_w) +
                " window could overflow the int32 sum of its elements (TFLite Micro's too)");
}

KernelCall lower_pool_2d(const Graph& graph, const Op& op, const std::string& kernel) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const Pool2DOptions& o = pool_options(op);
  KernelCall call;
  call.stem = kernel + "_" + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  const auto [pad_h, pad_w] = leading_padding(graph, op, o);
  const std::pair<const char*, int> fields[] = {
      {"batches", input.shape[0]},       {"input_height", input.shape[1]},  {"input_width", input.shape[2]},
      {"channels", input.shape[3]},      {"output_height", output.shape[1]}, {"output_width", output.shape[2]},
      {"filter_height", o.filter_h},     {"filter_width", o.filter_w},       {"stride_height", o.stride_h},
      {"stride_width", o.stride_w},      {"padding_height", pad_h},          {"padding_width", pad_w},
  };
  for (const auto& [name, value] : fields) call.params.set_int(name, value);
  if (input.dtype != DType::kFloat32) call.params.set_int("ties_to_even", o.ties_to_even ? 1 : 0);
  set_activation_params(call, output, o.activation);
  return call;
}

std::vector<InPlaceOption> pool_2d_in_place(const Graph& graph, const Op& op) {
  const Pool2DOptions& o = pool_options(op);
  return {row_wise_option(graph, op, o.stride_h, leading_padding(graph, op, o).first)};
}

OpOptions read_pool_2d_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  const auto& o = required_options<tflite::Pool2DOptions>(g, op, source, "Pool2DOptions");
  Pool2DOptions r;
  r.padding = read_padding(g, op, o.padding());
  r.stride_w = read_positive(g, op, "stride_w", o.stride_w());
  r.stride_h = read_positive(g, op, "stride_h", o.stride_h());
  r.filter_w = read_positive(g, op, "filter_width", o.filter_width());
  r.filter_h = read_positive(g, op, "filter_height", o.filter_height());
  r.activation = read_activation(g, op, o.fused_activation_function());
  return r;
}

int64_t pool_2d_window_ops(const Graph& graph, const Op& op) {
  const Pool2DOptions& o = pool_options(op);
  return graph.tensor(op.outputs[0]).num_elements() * o.filter_h * o.filter_w;
}

}  // namespace microaot
