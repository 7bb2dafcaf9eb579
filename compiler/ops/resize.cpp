// RESIZE_NEAREST_NEIGHBOR (float32, int8, int16) and RESIZE_BILINEAR (float32, int8) of NHWC images, as
// TFLite Micro's reference kernels: a constant int32 size [height, width], align_corners and
// half_pixel_centers. The source row/column of every output row/column (and the bilinear weights) are
// computed here with TFLM's arithmetic (float for nearest and float bilinear, 10-bit fixed point for int8
// bilinear), so the kernels only gather. Values are not rescaled: TFLM copies/blends the quantized values.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/read_options.h"
#include "ops/resize.h"
#include "ops/weighted_accumulator.h"

namespace microaot {

// TFLM's GetNearestNeighbor: float scale, floor or round.
int32_t resize_nearest_source(int i, int in_size, int out_size, const ResizeOptions& o) {
  const float scale = o.align_corners && out_size > 1 ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
                                                      : static_cast<float>(in_size) / static_cast<float>(out_size);
  const float position = (static_cast<float>(i) + (o.half_pixel_centers ? 0.5f : 0.0f)) * scale;
  int32_t source = static_cast<int32_t>(o.align_corners ? std::round(position) : std::floor(position));
  source = std::min(source, in_size - 1);
  return o.half_pixel_centers ? std::max(source, 0) : source;
}

namespace {

constexpr int kMaxVersion = 4;
constexpr int64_t kOne10 = 1 << 10;  // 1.0 in the int8 bilinear kernel's fixed point

template <typename Table>
OpOptions read_resize_options(const Graph&, const Op&, const tflite::Operator& source) {
  ResizeOptions options;  // an absent table means the defaults (both false)
  if (const Table* table = source.builtin_options_as<Table>()) {
    options.align_corners = table->align_corners();
    options.half_pixel_centers = table->half_pixel_centers();
  }
  return options;
}

const ResizeOptions& resize_options(const Op& op) { return *options_if<ResizeOptions>(op); }

// The [height, width] of the constant size input.
std::vector<int32_t> output_size(const Graph& graph, const Op& op) {
  const Tensor& size = graph.tensor(op.inputs[1]);
  return {static_cast<int32_t>(constant_int(size, 0)), static_cast<int32_t>(constant_int(size, 1))};
}

void check_size_input(const Graph& graph, const Op& op) {
  const int size = input_id(graph, op, 1);
  expect_dtype(graph, op, size, "input 1", {DType::kInt32});
  expect_rank(graph, op, size, "input 1", 1);
  expect_tensor(graph.tensor(size).shape[0] == 2, graph, op, size, "input 1", "the size must hold 2 values");
  expect_constant(graph, op, size, "input 1");
  expect_constant_data(graph, op, size, "input 1");
}

void check_resize(const Graph& graph, const Op& op, std::initializer_list<DType> types) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 2, 2, 1);
  const int in = input_id(graph, op, 0), out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", types);
  expect_tensor(graph.tensor(out).dtype == graph.tensor(in).dtype, graph, op, out, "output 0",
                "has a type other than the input's");
  expect_rank(graph, op, in, "input 0", 4);
  expect_known_shape(graph, op, in, "input 0");
  expect_known_shape(graph, op, out, "output 0");
  check_size_input(graph, op);
  const std::vector<int32_t>& s = graph.tensor(in).shape;
  const std::vector<int32_t> size = output_size(graph, op);
  expect_op(size[0] > 0 && size[1] > 0, graph, op, "the output size must be positive");
  expect_tensor(graph.tensor(out).shape == std::vector<int32_t>{s[0], size[0], size[1], s[3]}, graph, op, out,
                "output 0", "the shape must be the input's batches and depth at the requested size");
}

std::vector<int64_t> resize_geometry(const Graph& graph, const Op& op, KernelCall* call) {
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t> size = output_size(graph, op);
  call->params.set_int("batches", in[0]);
  call->params.set_int("input_height", in[1]);
  call->params.set_int("input_width", in[2]);
  call->params.set_int("output_height", size[0]);
  call->params.set_int("output_width", size[1]);
  call->args = {op.inputs[0], op.outputs[0]};
  return {in[1], in[2], size[0], size[1]};
}

// --- nearest neighbour ---

std::vector<int64_t> nearest_sources(int in_size, int out_size, const ResizeOptions& o) {
  std::vector<int64_t> sources;
  for (int i = 0; i < out_size; ++i) sources.push_back(resize_nearest_source(i, in_size, out_size, o));
  return sources;
}

// One input index per output index, each inside the input.
bool names_input_pixels(const std::vector<int64_t>& sources, int32_t in_size, int32_t out_size) {
  if (static_cast<int32_t>(sources.size()) != out_size) return false;
  return std::all_of(sources.begin(), sources.end(), [&](int64_t s) { return s >= 0 && s < in_size; });
}

void check_nearest(const Graph& graph, const Op& op) {
  check_resize(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  const ResizeOptions& o = resize_options(op);
  if (o.source_rows.empty() && o.source_cols.empty()) return;
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t> size = output_size(graph, op);
  expect_op(names_input_pixels(o.source_rows, in[1], size[0]) && names_input_pixels(o.source_cols, in[2], size[1]),
            graph, op, "explicit source rows and columns must name one input pixel per output pixel");
}

// The explicit sources if the options have them, else TFLite's rule.
std::vector<int64_t> sources_of(const std::vector<int64_t>& explicit_sources, int in_size, int out_size,
                                const ResizeOptions& o) {
  return explicit_sources.empty() ? nearest_sources(in_size, out_size, o) : explicit_sources;
}

KernelCall lower_nearest(const Graph& graph, const Op& op) {
  KernelCall call;
  call.stem = "resize_nearest_neighbor";
  const std::vector<int64_t> g = resize_geometry(graph, op, &call);
  const Tensor& in = graph.tensor(op.inputs[0]);
  call.params.set_int("pixel_bytes", in.shape[3] * static_cast<int64_t>(dtype_size(in.dtype)));
  const ResizeOptions& o = resize_options(op);
  call.params.set_ints("source_rows", sources_of(o.source_rows, static_cast<int>(g[0]), static_cast<int>(g[2]), o));
  call.params.set_ints("source_cols", sources_of(o.source_cols, static_cast<int>(g[1]), static_cast<int>(g[3]), o));
  return call;
}

// --- bilinear ---

// The two input indices output index `i` blends and the weight of the second.
struct BilinearTap {
  int64_t lo = 0, hi = 0;
  int64_t position_q10 = 0;  // int8: the position in 1/1024, an int32 in TFLM
  int64_t weight_q10 = 0;    // int8: in 1/1024
  float weight = 0.0f;     // float32
};

// Float, as TFLM's ComputeInterpolationValues.
BilinearTap float_tap(int i, int in_size, int out_size, const ResizeOptions& o) {
  float scale = static_cast<float>(in_size) / static_cast<float>(out_size);
  if (o.align_corners && out_size > 1) scale = static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  const float position = o.half_pixel_centers ? (static_cast<float>(i) + 0.5f) * scale - 0.5f : static_cast<float>(i) * scale;
  BilinearTap tap;
  tap.lo = std::max(static_cast<int32_t>(std::floor(position)), int32_t{0});
  tap.hi = std::min(static_cast<int32_t>(std::ceil(position)), in_size - 1);
  tap.weight = position - static_cast<float>(tap.lo);
  return tap;
}

// int8, as TFLM's ComputeInterpolationValuesInteger: a 10-bit scale rounded to nearest, C's truncating
// division for the bounds.
BilinearTap integer_tap(int i, int in_size, int out_size, const ResizeOptions& o) {
  const bool corners = o.align_corners && out_size > 1;
  const int64_t numerator = kOne10 * (corners ? in_size - 1 : in_size);
  const int64_t denominator = corners ? out_size - 1 : out_size;
  const int64_t scale = (numerator + denominator / 2) / denominator;
  const int64_t position = o.half_pixel_centers ? i * scale + scale / 2 - kOne10 / 2 : i * scale;
  BilinearTap tap;
  tap.lo = std::max<int64_t>(position / kOne10, 0);
  tap.hi = std::min<int64_t>((position + kOne10 - 1) / kOne10, in_size - 1);
  tap.weight_q10 = position - kOne10 * tap.lo;
  tap.position_q10 = position;
  return tap;
}

std::vector<BilinearTap> bilinear_taps(const Graph& graph, const Op& op, int in_size, int out_size) {
  const bool integer = graph.tensor(op.inputs[0]).dtype == DType::kInt8;
  std::vector<BilinearTap> taps;
  for (int i = 0; i < out_size; ++i) {
    const BilinearTap tap = integer ? integer_tap(i, in_size, out_size, resize_options(op))
                                    : float_tap(i, in_size, out_size, resize_options(op));
    // TFLM would read outside the image here (its lower bound is not clamped to the last row/column).
    expect_op(tap.lo < in_size && tap.hi >= 0, graph, op,
              "output index " + std::to_string(i) + " maps outside the input (size " + std::to_string(in_size) + ")");
    expect_op(std::llabs(tap.position_q10) <= std::numeric_limits<int32_t>::max(), graph, op,
              "the image is too large for TFLM's 10-bit fixed-point positions");
    taps.push_back(tap);
  }
  return taps;
}

void check_bilinear(const Graph& graph, const Op& op) {
  check_resize(graph, op, {DType::kFloat32, DType::kInt8});
  const ResizeOptions& o = resize_options(op);
  expect_op(!(o.align_corners && o.half_pixel_centers), graph, op,
            "align_corners and half_pixel_centers cannot both be set (TFLM refuses it)");
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t> size = output_size(graph, op);
  bilinear_taps(graph, op, in[1], size[0]);
  bilinear_taps(graph, op, in[2], size[1]);
}

void set_taps(const std::vector<BilinearTap>& taps, bool integer, const std::string& axis, KernelCall* call) {
  std::vector<int64_t> lo, hi, weights_q10;
  std::vector<float> weights;
  for (const BilinearTap& t : taps) {
    lo.push_back(t.lo);
    hi.push_back(t.hi);
    weights_q10.push_back(t.weight_q10);
    weights.push_back(t.weight);
  }
  call->params.set_ints(axis + "s_lo", lo);
  call->params.set_ints(axis + "s_hi", hi);
  if (integer) call->params.set_ints(axis + "_weights", weights_q10);
  if (!integer) call->params.set_floats(axis + "_weights", weights);
}

KernelCall lower_bilinear(const Graph& graph, const Op& op) {
  const bool integer = graph.tensor(op.inputs[0]).dtype == DType::kInt8;
  KernelCall call;
  call.stem = integer ? "resize_bilinear_s8" : "resize_bilinear_f32";
  const std::vector<int64_t> g = resize_geometry(graph, op, &call);
  call.params.set_int("depth", graph.tensor(op.inputs[0]).shape[3]);
  set_taps(bilinear_taps(graph, op, static_cast<int>(g[0]), static_cast<int>(g[2])), integer, "row", &call);
  set_taps(bilinear_taps(graph, op, static_cast<int>(g[1]), static_cast<int>(g[3])), integer, "col", &call);
  return call;
}

int64_t no_macs(const Graph&, const Op&) { return 0; }

// Four products per output element.
int64_t bilinear_macs(const Graph& graph, const Op& op) { return 4 * graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace

extern const OpHandler resize_nearest_neighbor_handler = {
    check_nearest, lower_nearest, no_macs, /*is_view=*/false, /*in_place=*/nullptr,
    read_resize_options<tflite::ResizeNearestNeighborOptions>};
extern const OpHandler resize_bilinear_handler = {check_bilinear, lower_bilinear, bilinear_macs, /*is_view=*/false,
                                                  /*in_place=*/nullptr,
                                                  read_resize_options<tflite::ResizeBilinearOptions>};

}  // namespace microaot
