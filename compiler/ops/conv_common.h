// Checks and compile-time parameters shared by CONV_2D and DEPTHWISE_CONV_2D: window geometry, element
// types, the constant filter and bias, and the int8 requantization constants (TFLM's
// PopulateConvolutionQuantizationParams: one multiplier/shift per output channel).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {

// Tensor positions of both convolutions.
constexpr int kConvInput = 0;
constexpr int kConvFilter = 1;
constexpr int kConvBias = 2;  // optional
constexpr int kConvOutput = 0;

// The options both convolutions share.
struct ConvWindow {
  Padding padding = Padding::kValid;
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  Activation activation = Activation::kNone;
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

// int8 input/filter/output with an int32 bias, or float32 throughout (hybrid models are refused).
// Returns the input type.
DType check_conv_types(const Graph& graph, const Op& op);

// The filter (and bias, when present) must be constants holding all their bytes; the bias has one element
// per output channel.
void check_conv_constants(const Graph& graph, const Op& op, int output_channels);

// int8 only: per-tensor input/output quantization; filter scales either one or one per output channel
// along filter_axis; all filter zero points 0 (TFLM's int8 kernels ignore them); activation bounds that
// quantize without overflow; and no int32 accumulator can overflow for any input.
void check_conv_quantization(const Graph& graph, const Op& op, Activation activation, int output_channels,
                             int filter_axis);

// int8 only: quantize_multiplier(double(input_scale) * double(filter_scale[c]) / double(output_scale)) per
// channel; a per-tensor filter scale is repeated for every channel.
std::vector<QuantizedMultiplier> conv_channel_multipliers(const Graph& graph, const Op& op, int output_channels);

// Params fields common to all four kernels: shapes, strides, dilations, padding.
void add_conv_geometry_fields(KernelCall& call, const ConvGeometry& geometry);
// int8 fields: offsets, activation clamp, per-channel multiplier/shift arrays.
void add_conv_quantized_fields(KernelCall& call, const Graph& graph, const Op& op, Activation activation,
                               int output_channels);

// The in-place option of a conv-family op: its kernel's row-wise overlap variant over input 0.
InPlaceOption conv_in_place_option(const Graph& graph, const Op& op, const ConvGeometry& geometry);

// The whole call of a conv-family kernel `kernel` ("conv_2d", "depthwise_conv_2d"): the stem for the input
// type, geometry, the op-specific field `extra`, the int8 or float fields and the arguments.
KernelCall make_conv_call(const Graph& graph, const Op& op, const std::string& kernel, const ConvGeometry& geometry,
                          const std::pair<const char*, int>& extra, Activation activation, int output_channels);

}  // namespace microaot
