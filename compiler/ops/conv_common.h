// Checks and compile-time parameters shared by CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV: window
// geometry, element types, the constant filter and bias, and the int8 and int16 requantization constants
// (TFLM's PopulateConvolutionQuantizationParams: one multiplier/shift per output channel).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/quant_math.h"

namespace microaot {

// Tensor positions of both convolutions.
constexpr int kConvInput = 0;
constexpr int kConvFilter = 1;
constexpr int kConvBias = 2;  // optional
constexpr int kConvOutput = 0;

// The tensors of a convolution-like op; bias is kNoTensor when absent.
struct ConvTensors {
  int input, filter, bias, output;
};
// The tensors of a CONV_2D or DEPTHWISE_CONV_2D (positions above).
ConvTensors conv_tensors(const Graph& graph, const Op& op);

// The options both convolutions share.
struct ConvWindow {
  Padding padding = Padding::kValid;
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  Activation activation = Activation::kNone;
  std::optional<ExplicitPadding> explicit_padding = std::nullopt;  // overrides `padding` (not TRANSPOSE_CONV)
};

struct ConvGeometry {
  int batches = 0, input_h = 0, input_w = 0, input_c = 0;
  int filter_h = 0, filter_w = 0;
  int output_h = 0, output_w = 0, output_c = 0;
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int pad_h = 0, pad_w = 0;
};

// Checks arity and ranks, strides/dilations, that the window fits, and that the graph's output shape equals
// [batches, computed height, computed width, output_channels]. Filter height/width are filter dims 1 and 2.
ConvGeometry check_conv_geometry(const Graph& graph, const Op& op, const ConvWindow& window, int output_channels);

// TRANSPOSE_CONV (t: its input, OHWI filter whose depth is the input depth, bias, output): strides, ranks,
// matching batches and channels; the output's height and width are the model's. Padding as TFLM computes
// it: the forward convolution's of an input the output's size (TFLite's ComputePaddingHeightWidth). The
// window's dilations and activation are not read.
ConvGeometry check_transpose_conv_geometry(const Graph& graph, const Op& op, const ConvTensors& t,
                                           const ConvWindow& window);

// TRANSPOSE_CONV's options (the ONNX frontend makes them too).
struct TransposeConvOptions {
  ConvWindow window;  // padding, strides, activation (no dilation)
};

// TRANSPOSE_CONV's leading padding along one axis of `out` elements, as TFLM derives it.
int transposed_padding(Padding padding, int out, int filter, int stride);

// int8 input/filter/output with an int32 bias; int16 input/output with int8 filters and a bias of one of
// int16_biases (16x8); float32 throughout; or, where `hybrid` allows it, float32 with int8 filters (the
// caller checks their quantization: check_hybrid_weights). Returns the input type.
enum class HybridFilters { kRefused, kAccepted };
DType check_conv_types(const Graph& graph, const Op& op, const ConvTensors& t,
                       std::initializer_list<DType> int16_biases, HybridFilters hybrid);

// The filter (and bias, when present) must be constants holding all their bytes; the bias has one element
// per output channel.
void check_conv_constants(const Graph& graph, const Op& op, const ConvTensors& t, int output_channels);

// Quantized types only: per-tensor input/output quantization (int16: symmetric, as TFLM's int16 kernels
// ignore zero points); filter scales either one or one per output channel along filter_axis; all filter zero
// points 0 (TFLM's kernels ignore them); activation bounds that quantize without overflow; no accumulator
// overflow for any input.
void check_conv_quantization(const Graph& graph, const Op& op, const ConvTensors& t, Activation activation,
                             int output_channels, int filter_axis, DType accumulator);

// quantize_multiplier(double(input_scale) * double(filter_scale[c]) / double(output_scale)) per channel; a
// per-tensor filter scale is repeated for every channel.
std::vector<QuantizedMultiplier> conv_channel_multipliers(const Graph& graph, const ConvTensors& t,
                                                          int output_channels);

// Params fields common to the convolution kernels: shapes, strides, padding (all of them), dilations (the
// geometry fields; TRANSPOSE_CONV has none).
void add_conv_shape_fields(KernelCall& call, const ConvGeometry& geometry);
void add_conv_geometry_fields(KernelCall& call, const ConvGeometry& geometry);
// Quantized fields: offsets, activation clamp, per-channel multiplier/shift arrays (refused where the
// accumulator's requantization cannot apply them).
void add_conv_quantized_fields(KernelCall& call, const Graph& graph, const Op& op, const ConvTensors& t,
                               Activation activation, int output_channels, DType accumulator);

// The in-place option of a conv-family op: its kernel's row-wise overlap variant over input 0.
InPlaceOption conv_in_place_option(const Graph& graph, const Op& op, const ConvGeometry& geometry);

// The whole call of a conv-family kernel `kernel` ("conv_2d", "depthwise_conv_2d"): the stem for the input
// type and accumulator, geometry, the op-specific field `extra`, the quantized or float fields and the
// arguments.
KernelCall make_conv_call(const Graph& graph, const Op& op, const std::string& kernel, const ConvGeometry& geometry,
                          const std::pair<const char*, int>& extra, Activation activation, int output_channels,
                          DType accumulator);

}  // namespace microaot
