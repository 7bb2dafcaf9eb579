#include "ops/conv_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ops/hybrid_weights.h"
#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/weighted_accumulator.h"

namespace microaot {

namespace {

constexpr int64_t kMaxExtent = int64_t{1} << 30;  // keeps the window arithmetic far from int32 overflow

std::string shape_text(const std::vector<int32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

void check_positive_dims(const Graph& graph, const Op& op, int id, const std::string& role) {
  const std::vector<int32_t>& shape = graph.tensor(id).shape;
  const bool positive = std::all_of(shape.begin(), shape.end(), [](int32_t d) { return d > 0; });
  expect_tensor(positive, graph, op, id, role, "shape " + shape_text(shape) + " has an empty dimension");
}

void check_window_option(const Graph& graph, const Op& op, const char* name, int value) {
  expect_op(value >= 1, graph, op, std::string(name) + " must be at least 1, got " + std::to_string(value));
  expect_op(value < kMaxExtent, graph, op, std::string(name) + " is too large: " + std::to_string(value));
}

// Output size and leading padding along one spatial axis, as TFLite computes them.
void window_axis(const Graph& graph, const Op& op, const char* axis, Padding padding, int in, int filter,
                 int stride, int dilation, int& out, int& pad) {
  const int64_t extent = int64_t{filter - 1} * dilation + 1;
  expect_op(extent < kMaxExtent, graph, op, std::string("dilated filter ") + axis + " is too large");
  out = window_output_size(padding, in, filter, stride, dilation);
  expect_op(out > 0, graph, op,
            std::string("the dilated filter ") + axis + " (" + std::to_string(extent) +
                ") is larger than the input " + axis + " (" + std::to_string(in) + ") with VALID padding");
  pad = window_padding(stride, dilation, in, filter, out);
}

// The input's extent along one axis with explicit padding around it (none: SAME/VALID).
int padded_extent(const Graph& graph, const Op& op, int in, int before, int after) {
  expect_op(before >= 0 && after >= 0, graph, op, "explicit padding must not be negative");
  const int64_t padded = int64_t{in} + before + after;
  expect_op(padded < kMaxExtent, graph, op, "explicit padding is too large");
  return static_cast<int>(padded);
}

// The fused activation's bounds (up to 6.0) must quantize to int32 without overflow, as TFLite checks.
void check_output_activation(const Graph& graph, const Op& op, int output, Activation activation) {
  const float scale = graph.tensor(output).quant.scale[0];
  expect_tensor(activation == Activation::kNone || 6.0f / scale < 1e9f, graph, op, output, "output 0",
                "scale is too small to quantize the fused activation's bounds");
}

void check_filter_quant(const Graph& graph, const Op& op, int filter, int channels, int filter_axis) {
  const std::string role = input_role(op, filter);
  const Quantization& q = graph.tensor(filter).quant;
  const auto n = static_cast<int>(q.scale.size());
  expect_tensor(n == 1 || n == channels, graph, op, filter, role,
                "has " + std::to_string(n) + " quantization scales, expected 1 or one per output channel (" +
                    std::to_string(channels) + ")");
  expect_tensor(n == 1 || q.axis == filter_axis, graph, op, filter, role,
                "per-channel scales must be along dimension " + std::to_string(filter_axis) + ", not " +
                    std::to_string(q.axis));
  for (float scale : q.scale) {
    // A zero scale (an all-zero channel) is valid: TFLite turns it into a zero multiplier.
    expect_tensor(std::isfinite(scale) && scale >= 0.0f, graph, op, filter, role,
                  "quantization scales must be finite and not negative");
  }
  const bool symmetric = std::all_of(q.zero_point.begin(), q.zero_point.end(), [](int64_t zp) { return zp == 0; });
  expect_tensor(symmetric, graph, op, filter, role,
                "int8 weights must be symmetric (zero point 0); TFLite Micro's int8 kernels ignore it");
}

}  // namespace

// TRANSPOSE_CONV's leading padding along one axis, as TFLM derives it from the forward convolution of an input
// of the output's size: that convolution's output size truncates towards 0 (VALID), and a negative one
// leaves the padding at 0.
int transposed_padding(Padding padding, int out, int filter, int stride) {
  const int forward = window_output_size(padding, out, filter, stride, 1);
  if (forward < 0) return 0;
  const int64_t total = (int64_t{forward} - 1) * stride + filter - out;
  return total > 0 ? static_cast<int>(total / 2) : 0;
}

ConvGeometry check_conv_geometry(const Graph& graph, const Op& op, const ConvWindow& window, int output_channels) {
  const int input = input_id(graph, op, kConvInput);
  const int filter = input_id(graph, op, kConvFilter);
  const int output = output_id(graph, op, kConvOutput);
  expect_rank(graph, op, input, "input 0", 4);
  expect_rank(graph, op, filter, "input 1", 4);
  expect_rank(graph, op, output, "output 0", 4);
  check_positive_dims(graph, op, input, "input 0");
  check_positive_dims(graph, op, filter, "input 1");
  check_window_option(graph, op, "stride_h", window.stride_h);
  check_window_option(graph, op, "stride_w", window.stride_w);
  check_window_option(graph, op, "dilation_h", window.dilation_h);
  check_window_option(graph, op, "dilation_w", window.dilation_w);

  const std::vector<int32_t>& in = graph.tensor(input).shape;
  const std::vector<int32_t>& f = graph.tensor(filter).shape;
  ConvGeometry g;
  g.batches = in[0], g.input_h = in[1], g.input_w = in[2], g.input_c = in[3];
  g.filter_h = f[1], g.filter_w = f[2];
  g.output_c = output_channels;
  g.stride_h = window.stride_h, g.stride_w = window.stride_w;
  g.dilation_h = window.dilation_h, g.dilation_w = window.dilation_w;
  expect_tensor(g.input_h < kMaxExtent && g.input_w < kMaxExtent, graph, op, input, "input 0", "is too large");
  // Explicit padding: a VALID window over the input with the padding around it, starting at its first row.
  const ExplicitPadding pads = window.explicit_padding.value_or(ExplicitPadding{});
  const Padding padding = window.explicit_padding ? Padding::kValid : window.padding;
  window_axis(graph, op, "height", padding, padded_extent(graph, op, g.input_h, pads.top, pads.bottom), g.filter_h,
              g.stride_h, g.dilation_h, g.output_h, g.pad_h);
  window_axis(graph, op, "width", padding, padded_extent(graph, op, g.input_w, pads.left, pads.right), g.filter_w,
              g.stride_w, g.dilation_w, g.output_w, g.pad_w);
  if (window.explicit_padding) g.pad_h = pads.top, g.pad_w = pads.left;

  const std::vector<int32_t> expected = {g.batches, g.output_h, g.output_w, g.output_c};
  const std::vector<int32_t>& actual = graph.tensor(output).shape;
  expect_tensor(actual == expected, graph, op, output, "output 0",
                "shape " + shape_text(actual) + " differs from the computed " + shape_text(expected));
  return g;
}

ConvGeometry check_transpose_conv_geometry(const Graph& graph, const Op& op, const ConvTensors& t,
                                           const ConvWindow& window) {
  for (const int id : {t.input, t.filter, t.output}) {
    const std::string role = id == t.output ? "output 0" : input_role(op, id);
    expect_rank(graph, op, id, role, 4);
    check_positive_dims(graph, op, id, role);
    expect_known_shape(graph, op, id, role);  // sizes within the kernel's int32 index arithmetic
    for (const int32_t dim : graph.tensor(id).shape) {
      expect_tensor(dim < kMaxExtent, graph, op, id, role, "is too large");
    }
  }
  check_window_option(graph, op, "stride_h", window.stride_h);
  check_window_option(graph, op, "stride_w", window.stride_w);
  const std::vector<int32_t>& in = graph.tensor(t.input).shape;
  const std::vector<int32_t>& f = graph.tensor(t.filter).shape;
  const std::vector<int32_t>& out = graph.tensor(t.output).shape;
  expect_tensor(f[3] == in[3], graph, op, t.filter, input_role(op, t.filter),
                "filter depth " + std::to_string(f[3]) + " differs from the input depth " + std::to_string(in[3]));
  const std::vector<int32_t> expected = {in[0], out[1], out[2], f[0]};
  expect_tensor(out == expected, graph, op, t.output, "output 0",
                "shape " + shape_text(out) + " differs from [input batches, height, width, filter channels] " +
                    shape_text(expected));
  ConvGeometry g;
  g.batches = in[0], g.input_h = in[1], g.input_w = in[2], g.input_c = in[3];
  g.filter_h = f[1], g.filter_w = f[2];
  g.output_h = out[1], g.output_w = out[2], g.output_c = f[0];
  g.stride_h = window.stride_h, g.stride_w = window.stride_w;
  g.pad_h = transposed_padding(window.padding, g.output_h, g.filter_h, g.stride_h);
  g.pad_w = transposed_padding(window.padding, g.output_w, g.filter_w, g.stride_w);
  return g;
}

ConvTensors conv_tensors(const Graph& graph, const Op& op) {
  return {input_id(graph, op, kConvInput), input_id(graph, op, kConvFilter), optional_input_id(op, kConvBias),
          output_id(graph, op, kConvOutput)};
}

DType check_conv_types(const Graph& graph, const Op& op, const ConvTensors& t,
                       std::initializer_list<DType> int16_biases, HybridFilters hybrid) {
  expect_dtype(graph, op, t.input, input_role(op, t.input), {DType::kInt8, DType::kInt16, DType::kFloat32});
  const DType type = graph.tensor(t.input).dtype;
  expect_tensor(hybrid == HybridFilters::kAccepted || !is_hybrid(graph, t.input, t.filter), graph, op, t.filter,
                input_role(op, t.filter),
                "int8 weights with float32 activations (hybrid quantization) are not supported");
  expect_dtype(graph, op, t.filter, input_role(op, t.filter),
               type == DType::kFloat32 ? std::initializer_list<DType>{DType::kFloat32, DType::kInt8}
                                       : std::initializer_list<DType>{DType::kInt8});
  expect_dtype(graph, op, t.output, "output 0", {type});
  if (t.bias == kNoTensor) return type;
  const std::string bias_role = input_role(op, t.bias);
  switch (type) {
    case DType::kInt8: expect_dtype(graph, op, t.bias, bias_role, {DType::kInt32}); break;
    case DType::kInt16: expect_dtype(graph, op, t.bias, bias_role, int16_biases); break;
    default: expect_dtype(graph, op, t.bias, bias_role, {DType::kFloat32}); break;
  }
  return type;
}

void check_conv_constants(const Graph& graph, const Op& op, const ConvTensors& t, int output_channels) {
  for (const int id : {t.filter, t.bias}) {
    if (id != kNoTensor) expect_constant_data(graph, op, id, input_role(op, id));
  }
  if (t.bias != kNoTensor) {
    const int64_t n = graph.tensor(t.bias).num_elements();
    expect_tensor(n == output_channels, graph, op, t.bias, input_role(op, t.bias),
                  "has " + std::to_string(n) + " elements, expected one per output channel (" +
                      std::to_string(output_channels) + ")");
  }
}

void check_conv_quantization(const Graph& graph, const Op& op, const ConvTensors& t, Activation activation,
                             int output_channels, int filter_axis, DType accumulator) {
  const bool int16 = graph.tensor(t.input).dtype == DType::kInt16;
  const auto expect_activation = int16 ? expect_symmetric_quant : expect_activation_quant;
  expect_activation(graph, op, t.input, input_role(op, t.input));
  expect_activation(graph, op, t.output, "output 0");
  check_output_activation(graph, op, t.output, activation);
  check_filter_quant(graph, op, t.filter, output_channels, filter_axis);
  expect_accumulator_fits(graph, op, t.input, t.filter, t.bias, filter_axis, accumulator);
}

std::vector<QuantizedMultiplier> conv_channel_multipliers(const Graph& graph, const ConvTensors& t,
                                                          int output_channels) {
  const double input_scale = graph.tensor(t.input).quant.scale[0];
  const double output_scale = graph.tensor(t.output).quant.scale[0];
  const std::vector<float>& filter_scales = graph.tensor(t.filter).quant.scale;
  std::vector<QuantizedMultiplier> result;
  for (int c = 0; c < output_channels; ++c) {
    const double filter_scale = filter_scales.size() == 1 ? filter_scales[0] : filter_scales[c];
    // Product and quotient in double from float operands, as TFLite does: matters for bit-exactness.
    result.push_back(quantize_multiplier(input_scale * filter_scale / output_scale));
  }
  return result;
}

void add_conv_shape_fields(KernelCall& call, const ConvGeometry& g) {
  const std::pair<const char*, int> fields[] = {
      {"batches", g.batches},         {"input_height", g.input_h},     {"input_width", g.input_w},
      {"input_depth", g.input_c},     {"filter_height", g.filter_h},   {"filter_width", g.filter_w},
      {"output_height", g.output_h},  {"output_width", g.output_w},    {"output_depth", g.output_c},
      {"stride_height", g.stride_h},  {"stride_width", g.stride_w},    {"pad_height", g.pad_h},
      {"pad_width", g.pad_w},
  };
  for (const auto& [name, value] : fields) call.params.set_int(name, value);
}

void add_conv_geometry_fields(KernelCall& call, const ConvGeometry& g) {
  add_conv_shape_fields(call, g);
  call.params.set_int("dilation_height", g.dilation_h);
  call.params.set_int("dilation_width", g.dilation_w);
}

void add_conv_quantized_fields(KernelCall& call, const Graph& graph, const Op& op, const ConvTensors& t,
                               Activation activation, int output_channels, DType accumulator) {
  const Tensor& output = graph.tensor(t.output);
  call.params.set_int("input_offset", -graph.tensor(t.input).quant.zero_point[0]);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  set_activation_params(call, output, activation);
  const std::vector<QuantizedMultiplier> multipliers = conv_channel_multipliers(graph, t, output_channels);
  expect_wide_requantizable(graph, op, multipliers, accumulator);
  set_multiplier_params(call, multipliers);
}

InPlaceOption conv_in_place_option(const Graph& graph, const Op& op, const ConvGeometry& geometry) {
  return row_wise_option(graph, op, geometry.stride_h, geometry.pad_h);
}

KernelCall make_conv_call(const Graph& graph, const Op& op, const std::string& kernel, const ConvGeometry& geometry,
                          const std::pair<const char*, int>& extra, Activation activation, int output_channels,
                          DType accumulator) {
  const ConvTensors t = conv_tensors(graph, op);
  const DType type = graph.tensor(t.input).dtype;
  KernelCall call;
  const bool hybrid = is_hybrid(graph, t.input, t.filter);
  call.stem = kernel + "_" + dtype_short_name(type) +
              (hybrid ? kHybridStemSuffix : accumulator_suffix(graph, t.input, accumulator));
  add_conv_geometry_fields(call, geometry);
  call.params.set_int(extra.first, extra.second);
  if (type == DType::kFloat32) {
    set_activation_params(call, graph.tensor(t.output), activation);
    if (hybrid) add_hybrid_fields(call, graph, t.filter, output_channels);
  } else {
    add_conv_quantized_fields(call, graph, op, t, activation, output_channels, accumulator);
  }
  call.args = {t.input, t.filter, t.bias, t.output};
  return call;
}

}  // namespace microaot
