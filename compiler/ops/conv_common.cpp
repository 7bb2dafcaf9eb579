#include "ops/conv_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ops/in_place.h"
#include "ops/op_checks.h"

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

int32_t read_int32_le(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t value = 0;
  for (int b = 3; b >= 0; --b) value = (value << 8) | bytes[index * 4 + b];
  return static_cast<int32_t>(value);
}

// Sum of |w| over the taps of each output channel; the channel is the filter index along `axis`.
std::vector<int64_t> filter_abs_sums(const Tensor& filter, int axis, int channels) {
  int64_t inner = 1;
  for (size_t d = axis + 1; d < filter.shape.size(); ++d) inner *= filter.shape[d];
  std::vector<int64_t> sums(channels, 0);
  for (size_t i = 0; i < filter.data.size(); ++i) {
    const int c = static_cast<int>((static_cast<int64_t>(i) / inner) % channels);
    sums[c] += std::abs(static_cast<int>(static_cast<int8_t>(filter.data[i])));
  }
  return sums;
}

// TFLM accumulates in int32 without a guard; refuse models where that could overflow (undefined in C).
void check_accumulator_range(const Graph& graph, const Op& op, int channels, int filter_axis) {
  const int input = input_id(graph, op, kConvInput);
  const int filter = input_id(graph, op, kConvFilter);
  const int bias = optional_input_id(op, kConvBias);
  const int64_t zp = graph.tensor(input).quant.zero_point[0];
  const int64_t max_abs_input = std::max<int64_t>(128 + zp, 127 - zp);  // |q - zp| for q in [-128, 127]
  const std::vector<int64_t> sums = filter_abs_sums(graph.tensor(filter), filter_axis, channels);
  for (int c = 0; c < channels; ++c) {
    const int64_t bias_abs = bias == kNoTensor ? 0 : std::llabs(read_int32_le(graph.tensor(bias).data, c));
    const int64_t bound = sums[c] * max_abs_input + bias_abs;
    expect_tensor(bound <= INT32_MAX, graph, op, filter, "input 1",
                  "output channel " + std::to_string(c) + " could overflow the int32 accumulator (worst case " +
                      std::to_string(bound) + ")");
  }
}

// The fused activation's bounds (up to 6.0) must quantize to int32 without overflow, as TFLite checks.
void check_output_activation(const Graph& graph, const Op& op, Activation activation) {
  const int output = output_id(graph, op, kConvOutput);
  const float scale = graph.tensor(output).quant.scale[0];
  expect_tensor(activation == Activation::kNone || 6.0f / scale < 1e9f, graph, op, output, "output 0",
                "scale is too small to quantize the fused activation's bounds");
}

void check_filter_quant(const Graph& graph, const Op& op, int channels, int filter_axis) {
  const int filter = input_id(graph, op, kConvFilter);
  const Quantization& q = graph.tensor(filter).quant;
  const auto n = static_cast<int>(q.scale.size());
  expect_tensor(n == 1 || n == channels, graph, op, filter, "input 1",
                "has " + std::to_string(n) + " quantization scales, expected 1 or one per output channel (" +
                    std::to_string(channels) + ")");
  expect_tensor(n == 1 || q.axis == filter_axis, graph, op, filter, "input 1",
                "per-channel scales must be along dimension " + std::to_string(filter_axis) + ", not " +
                    std::to_string(q.axis));
  for (float scale : q.scale) {
    // A zero scale (an all-zero channel) is valid: TFLite turns it into a zero multiplier.
    expect_tensor(std::isfinite(scale) && scale >= 0.0f, graph, op, filter, "input 1",
                  "quantization scales must be finite and not negative");
  }
  const bool symmetric = std::all_of(q.zero_point.begin(), q.zero_point.end(), [](int64_t zp) { return zp == 0; });
  expect_tensor(symmetric, graph, op, filter, "input 1",
                "int8 weights must be symmetric (zero point 0); TFLite Micro's int8 kernels ignore it");
}

}  // namespace

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
  window_axis(graph, op, "height", window.padding, g.input_h, g.filter_h, g.stride_h, g.dilation_h, g.output_h,
              g.pad_h);
  window_axis(graph, op, "width", window.padding, g.input_w, g.filter_w, g.stride_w, g.dilation_w, g.output_w,
              g.pad_w);

  const std::vector<int32_t> expected = {g.batches, g.output_h, g.output_w, g.output_c};
  const std::vector<int32_t>& actual = graph.tensor(output).shape;
  expect_tensor(actual == expected, graph, op, output, "output 0",
                "shape " + shape_text(actual) + " differs from the computed " + shape_text(expected));
  return g;
}

DType check_conv_types(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 3, 1);
  const int input = input_id(graph, op, kConvInput);
  const int filter = input_id(graph, op, kConvFilter);
  const int output = output_id(graph, op, kConvOutput);
  const int bias = optional_input_id(op, kConvBias);
  expect_dtype(graph, op, input, "input 0", {DType::kInt8, DType::kFloat32});
  const DType type = graph.tensor(input).dtype;
  expect_tensor(!(type == DType::kFloat32 && graph.tensor(filter).dtype == DType::kInt8), graph, op, filter,
                "input 1", "int8 weights with float32 activations (hybrid quantization) are not supported");
  expect_dtype(graph, op, filter, "input 1", {type});
  expect_dtype(graph, op, output, "output 0", {type});
  if (bias != kNoTensor) {
    expect_dtype(graph, op, bias, "input 2", {type == DType::kInt8 ? DType::kInt32 : DType::kFloat32});
  }
  return type;
}

void check_conv_constants(const Graph& graph, const Op& op, int output_channels) {
  const int filter = input_id(graph, op, kConvFilter);
  const int bias = optional_input_id(op, kConvBias);
  const std::pair<int, const char*> weights[] = {{filter, "input 1"}, {bias, "input 2"}};
  for (const auto& [id, role] : weights) {
    if (id == kNoTensor) continue;
    expect_constant_data(graph, op, id, role);
  }
  if (bias != kNoTensor) {
    const int64_t n = graph.tensor(bias).num_elements();
    expect_tensor(n == output_channels, graph, op, bias, "input 2",
                  "has " + std::to_string(n) + " elements, expected one per output channel (" +
                      std::to_string(output_channels) + ")");
  }
}

void check_conv_quantization(const Graph& graph, const Op& op, Activation activation, int output_channels,
                             int filter_axis) {
  expect_activation_quant(graph, op, input_id(graph, op, kConvInput), "input 0");
  expect_activation_quant(graph, op, output_id(graph, op, kConvOutput), "output 0");
  check_output_activation(graph, op, activation);
  check_filter_quant(graph, op, output_channels, filter_axis);
  check_accumulator_range(graph, op, output_channels, filter_axis);
}

std::vector<QuantizedMultiplier> conv_channel_multipliers(const Graph& graph, const Op& op, int output_channels) {
  const double input_scale = graph.tensor(input_id(graph, op, kConvInput)).quant.scale[0];
  const double output_scale = graph.tensor(output_id(graph, op, kConvOutput)).quant.scale[0];
  const std::vector<float>& filter_scales = graph.tensor(input_id(graph, op, kConvFilter)).quant.scale;
  std::vector<QuantizedMultiplier> result;
  for (int c = 0; c < output_channels; ++c) {
    const double filter_scale = filter_scales.size() == 1 ? filter_scales[0] : filter_scales[c];
    // Product and quotient in double from float operands, as TFLite does: matters for bit-exactness.
    result.push_back(quantize_multiplier(input_scale * filter_scale / output_scale));
  }
  return result;
}

void add_conv_geometry_fields(KernelCall& call, const ConvGeometry& g) {
  const std::pair<const char*, int> fields[] = {
      {"batches", g.batches},         {"input_height", g.input_h},     {"input_width", g.input_w},
      {"input_depth", g.input_c},     {"filter_height", g.filter_h},   {"filter_width", g.filter_w},
      {"output_height", g.output_h},  {"output_width", g.output_w},    {"output_depth", g.output_c},
      {"stride_height", g.stride_h},  {"stride_width", g.stride_w},    {"dilation_height", g.dilation_h},
      {"dilation_width", g.dilation_w}, {"pad_height", g.pad_h},       {"pad_width", g.pad_w},
  };
  for (const auto& [name, value] : fields) call.params.set_int(name, value);
}

void add_conv_quantized_fields(KernelCall& call, const Graph& graph, const Op& op, Activation activation,
                               int output_channels) {
  const Tensor& output = graph.tensor(output_id(graph, op, kConvOutput));
  call.params.set_int("input_offset", -graph.tensor(input_id(graph, op, kConvInput)).quant.zero_point[0]);
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  set_activation_params(call, output, activation);
  set_multiplier_params(call, conv_channel_multipliers(graph, op, output_channels));
}

InPlaceOption conv_in_place_option(const Graph& graph, const Op& op, const ConvGeometry& geometry) {
  return row_wise_option(graph, op, geometry.stride_h, geometry.pad_h);
}

KernelCall make_conv_call(const Graph& graph, const Op& op, const std::string& kernel, const ConvGeometry& geometry,
                          const std::pair<const char*, int>& extra, Activation activation, int output_channels) {
  const DType type = graph.tensor(input_id(graph, op, kConvInput)).dtype;
  KernelCall call;
  call.stem = kernel + "_" + dtype_short_name(type);
  add_conv_geometry_fields(call, geometry);
  call.params.set_int(extra.first, extra.second);
  if (type == DType::kInt8) {
    add_conv_quantized_fields(call, graph, op, activation, output_channels);
  } else {
    set_activation_params(call, graph.tensor(output_id(graph, op, kConvOutput)), activation);
  }
  call.args = {input_id(graph, op, kConvInput), input_id(graph, op, kConvFilter), optional_input_id(op, kConvBias),
               output_id(graph, op, kConvOutput)};
  return call;
}

}  // namespace microaot
