// The options structs several operators share, as their handlers read them (ops/read_options.h converts the
// .tflite tables). An operator with options of its own declares them in its own file.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"

namespace microaot {

// ADD, MUL, SUB, ...: only a fused activation.
struct FusedActivationOptions {
  Activation activation = Activation::kNone;
};

// Padding written by a graph pass (fold_pad), used instead of SAME/VALID: zero-point rows and columns around
// the input. Kernels read the leading amounts; the trailing ones only fix the output size.
struct ExplicitPadding {
  int top = 0, bottom = 0, left = 0, right = 0;
};

struct Conv2DOptions {
  Padding padding = Padding::kValid;
  int stride_w = 1, stride_h = 1, dilation_w = 1, dilation_h = 1;
  Activation activation = Activation::kNone;
  bool int32_bias = false;  // quantized_bias_type INT32: an int16 conv without bias sums in 32 bits
  std::optional<ExplicitPadding> explicit_padding = std::nullopt;  // overrides `padding` when set
};

struct DepthwiseConv2DOptions {
  Padding padding = Padding::kValid;
  int stride_w = 1, stride_h = 1, dilation_w = 1, dilation_h = 1, depth_multiplier = 1;
  Activation activation = Activation::kNone;
  std::optional<ExplicitPadding> explicit_padding = std::nullopt;  // overrides `padding` when set
};

struct Pool2DOptions {
  Padding padding = Padding::kValid;
  int stride_w = 1, stride_h = 1, filter_w = 1, filter_h = 1;
  Activation activation = Activation::kNone;
  std::optional<ExplicitPadding> explicit_padding = std::nullopt;  // overrides `padding` (MAX_POOL_2D only)
  // Integer AVERAGE_POOL_2D: a mean halfway between two integers rounds to even, as ONNX's QuantizeLinear rounds
  // a QDQ AveragePool's float average (set by the ONNX frontend); false: away from zero, as TFLite Micro.
  bool ties_to_even = false;
};

struct FullyConnectedOptions {
  Activation activation = Activation::kNone;
  bool keep_num_dims = false;
  bool int32_bias = false;  // quantized_bias_type INT32: an int16 FC without bias sums in 32 bits
};

struct SoftmaxOptions {
  float beta = 1.0f;
};

struct ReshapeOptions {
  std::vector<int32_t> new_shape;  // from the options table, when present
};

struct ConcatenationOptions {
  int axis = 0;  // may be negative: counted from the end
  Activation activation = Activation::kNone;
};

// RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR: how output pixels map onto the input grid.
struct ResizeOptions {
  bool align_corners = false;       // the corner pixels of input and output coincide
  bool half_pixel_centers = false;  // pixels sampled at their centres (x + 0.5)
  // Nearest only, set by the ONNX frontend where ONNX's modes pick other pixels than TFLite's flags: the
  // input row and column each output row and column copies. Empty: TFLite's rule.
  std::vector<int64_t> source_rows, source_cols;
};

struct MirrorPadOptions {
  bool reflect = true;  // REFLECT: the edge is not repeated; SYMMETRIC otherwise
};

struct StridedSliceOptions {  // bit d of a mask applies to dimension d
  int begin_mask = 0;
  int end_mask = 0;
  int shrink_axis_mask = 0;
};

// DEPTH_TO_SPACE, SPACE_TO_DEPTH: the side of the square block moved between space and depth.
struct BlockSizeOptions {
  int block_size = 1;
};

// ASSIGN_VARIABLE made by passes/ring_windows.cpp: inputs {unit}, outputs {the ring's storage, its
// position}; it pushes one unit into a mirrored ring of `slots` units (runtime kernels/ring.h).
struct RingPushOptions {
  int64_t unit_bytes = 0;
  int32_t slots = 0;
};

struct LeakyReluOptions {
  float alpha = 0.0f;  // the format's default when the table is absent
  // int8: ONNX's arithmetic, through a 256-entry table of each input's float32 result rounded half to even (set by
  // the ONNX frontend for a QDQ group); false: TFLite Micro's fixed-point multiplier for each sign.
  bool onnx_table = false;
};

struct GatherOptions {
  int axis = 0;        // of the input; negative counts from the end
  int batch_dims = 0;  // leading dimensions shared by input and indices; negative counts from the indices' end
};

struct CumsumOptions {
  bool exclusive = false;
  bool reverse = false;
};

struct BatchMatmulOptions {
  bool adj_x = false;
  bool adj_y = false;
};

// The op's options as T, or nullptr when it holds another type.
template <typename T>
const T* options_if(const Op& op) {
  return std::any_cast<T>(&op.options);
}

}  // namespace microaot
