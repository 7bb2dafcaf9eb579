// ONNX Resize (nearest and linear, rank 4, height and width only) as RESIZE_NEAREST_NEIGHBOR or
// RESIZE_BILINEAR in NHWC. ONNX's coordinate modes map onto TFLite's two flags: asymmetric (neither),
// half_pixel and pytorch_half_pixel (half_pixel_centers), align_corners (align_corners); tf_half_pixel_for_nn
// (nearest only) through the listed pixels below. Bilinear blends
// the same two pixels with the same weights up to float rounding. A nearest Resize copies the pixels ONNX's
// coordinate and rounding modes pick (computed here in float and double, refused where they differ): TFLite's
// flags where they pick the same ones, else the list of source rows and columns (ResizeOptions).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"
#include "ops/resize.h"

namespace microaot::onnx_detail {

namespace {

struct Axis {
  int in = 0, out = 0;
  double scale = 0;  // ONNX's scale: the scales input's, else out / in
};

// ONNX's source coordinate of output index i (Resize's coordinate_transformation_mode), in T.
template <typename T>
T source_coordinate(const std::string& mode, int i, const Axis& a) {
  const T x = static_cast<T>(i), scale = static_cast<T>(a.scale);
  if (mode == "asymmetric") return x / scale;
  if (mode == "align_corners") return a.out == 1 ? T(0) : x * static_cast<T>(a.in - 1) / static_cast<T>(a.out - 1);
  if (mode == "tf_half_pixel_for_nn") return (x + T(0.5)) / scale;
  if (mode == "pytorch_half_pixel" && a.out == 1) return T(0);
  return (x + T(0.5)) / scale - T(0.5);  // half_pixel, pytorch_half_pixel
}

template <typename T>
int64_t onnx_nearest(const std::string& mode, const std::string& rounding, int i, const Axis& a) {
  const T x = source_coordinate<T>(mode, i, a);
  const T lower = std::floor(x);
  const bool tie = x - lower == T(0.5);
  T picked = std::round(x);
  if (rounding == "floor") picked = lower;
  if (rounding == "ceil") picked = std::ceil(x);
  if (rounding == "round_prefer_floor" && tie) picked = lower;
  if (rounding == "round_prefer_ceil" && tie) picked = lower + 1;
  return std::min<int64_t>(std::max<int64_t>(static_cast<int64_t>(picked), 0), a.in - 1);
}

// ONNX's source pixel of each output pixel along one axis, computed in double and in float (onnxruntime's):
// a position where the two round apart is refused. `as_tflite` is cleared where TFLite's flags pick another.
std::vector<int64_t> nearest_sources(Converter& c, const std::string& mode, const Axis& a, const ResizeOptions& o,
                                     bool& as_tflite) {
  const std::string rounding = c.attr_string("nearest_mode", "round_prefer_floor");
  if (rounding != "floor" && rounding != "ceil" && rounding != "round_prefer_floor" && rounding != "round_prefer_ceil") {
    c.refuse("nearest_mode '" + rounding + "' is not supported");
  }
  std::vector<int64_t> sources;
  for (int i = 0; i < a.out; ++i) {
    const int64_t want = onnx_nearest<double>(mode, rounding, i, a);
    if (onnx_nearest<float>(mode, rounding, i, a) != want) {
      c.refuse("nearest_mode '" + rounding + "' rounds output " + std::to_string(i) + " of " + std::to_string(a.in) +
               " -> " + std::to_string(a.out) + " differently in float and double: not supported");
    }
    as_tflite = as_tflite && resize_nearest_source(i, a.in, a.out, o) == want;
    sources.push_back(want);
  }
  return sources;
}

// The four scales (N, C, H, W) or sizes of a constant input, `axes` (opset 18) placing fewer entries.
template <typename T>
std::vector<T> per_axis(Converter& c, const std::vector<T>& given, T identity, const char* what) {
  std::vector<int64_t> axes = c.attr_ints("axes");
  if (axes.empty()) axes = {0, 1, 2, 3};
  if (given.size() != axes.size()) c.refuse(std::string(what) + " must have one entry per axis");
  std::vector<T> all(4, identity);
  for (size_t k = 0; k < axes.size(); ++k) all[static_cast<size_t>(normalize_axis(c, axes[k], 4))] = given[k];
  return all;
}

void check_attributes(Converter& c, const std::string& mode, const std::string& coordinates) {
  if (mode != "nearest" && mode != "linear") c.refuse("mode '" + mode + "' is not supported (nearest and linear are)");
  if (c.attr_int("antialias", 0) != 0) c.refuse("antialias is not supported");
  if (c.attr_string("keep_aspect_ratio_policy", "stretch") != "stretch") {
    c.refuse("keep_aspect_ratio_policy other than 'stretch' is not supported");
  }
  const bool nearest_only = coordinates == "tf_half_pixel_for_nn" && mode == "nearest";
  if (coordinates != "asymmetric" && coordinates != "half_pixel" && coordinates != "pytorch_half_pixel" &&
      coordinates != "align_corners" && !nearest_only) {
    c.refuse("coordinate_transformation_mode '" + coordinates + "' is not supported");
  }
}

}  // namespace

void convert_resize(Converter& c) {
  const std::string mode = c.attr_string("mode", "nearest");
  // Version 10 has neither roi nor sizes: its coordinates are asymmetric.
  const std::string coordinates =
      c.version() == 10 ? "asymmetric" : c.attr_string("coordinate_transformation_mode", "half_pixel");
  check_attributes(c, mode, coordinates);
  const Value x = c.input(0);
  const std::vector<int64_t> is = c.onnx_shape(x);
  if (is.size() != 4) c.refuse("only rank-4 (NCHW) inputs are supported");
  if (std::find(is.begin(), is.end(), 0) != is.end()) c.refuse("an empty input is not supported");
  const size_t scales_input = c.version() == 10 ? 1 : 2;
  std::vector<double> scales(4, 0.0);
  std::vector<int64_t> sizes(4, 0);
  if (c.has_input(3) && c.version() > 10) {
    sizes = per_axis<int64_t>(c, c.constant_ints(c.input(3), "the sizes"), -1, "the sizes");
    for (size_t d = 0; d < 4; ++d) {
      if (sizes[d] < 0) sizes[d] = is[d];
      if (sizes[d] < 1 || sizes[d] > 65535) c.refuse("the output size is out of range");
      scales[d] = static_cast<double>(sizes[d]) / static_cast<double>(is[d]);
    }
  } else if (c.has_input(scales_input)) {
    const std::vector<float> given = c.constant_floats(c.input(scales_input), "the scales");
    const std::vector<float> s = per_axis<float>(c, given, 1.0f, "the scales");
    for (size_t d = 0; d < 4; ++d) {
      if (!(s[d] > 0.0f && s[d] <= 65535.0f)) c.refuse("a scale must be in (0, 65535]");  // NaN too
      scales[d] = s[d];
      sizes[d] = static_cast<int64_t>(std::floor(static_cast<double>(is[d]) * s[d]));
    }
  } else {
    c.refuse("needs constant scales or sizes");
  }
  if (sizes[0] != is[0] || sizes[1] != is[1]) c.refuse("only the height and width may be resized");
  if (sizes[2] < 1 || sizes[3] < 1 || sizes[2] > 65535 || sizes[3] > 65535) c.refuse("the output size is out of range");
  const Axis h{static_cast<int>(is[2]), static_cast<int>(sizes[2]), scales[2]};
  const Axis w{static_cast<int>(is[3]), static_cast<int>(sizes[3]), scales[3]};
  ResizeOptions o;
  o.align_corners = coordinates == "align_corners";
  o.half_pixel_centers = coordinates == "half_pixel" || coordinates == "pytorch_half_pixel";
  const bool nearest = mode == "nearest";
  if (nearest) {  // TFLite's flags where they pick ONNX's pixels, else ONNX's pixels listed
    bool as_tflite = true;
    std::vector<int64_t> rows = nearest_sources(c, coordinates, h, o, as_tflite);
    std::vector<int64_t> cols = nearest_sources(c, coordinates, w, o, as_tflite);
    if (!as_tflite) {
      o.source_rows = std::move(rows);
      o.source_cols = std::move(cols);
    }
  } else {
    if (c.tensor(x).dtype != DType::kFloat32) c.refuse("linear Resize takes float32 only");
    if (coordinates == "pytorch_half_pixel" && (h.out == 1 || w.out == 1)) {
      c.refuse("linear pytorch_half_pixel with an output of size 1 is not supported");
    }
    // TFLite scales by in / out: ONNX's own scale must be exactly out / in
    for (const Axis& a : {h, w}) {
      if (static_cast<double>(a.in) * a.scale != static_cast<double>(a.out)) {
        c.refuse("a linear scale that is not output size / input size is not supported");
      }
    }
  }
  const int in = c.nhwc(x);
  const std::vector<int32_t> ns = c.graph().tensor(in).shape;
  const Value size = c.int32_constant({2}, {h.out, w.out}, "");
  c.define(0, {c.emit1(nearest ? OpKind::ResizeNearestNeighbor : OpKind::ResizeBilinear, {in, size.id},
                       c.graph().tensor(in).dtype, {ns[0], h.out, w.out, ns[3]}, o),
               true});
}

}  // namespace microaot::onnx_detail
