// ONNX ConvTranspose (2-D, group 1, no dilation) as TRANSPOSE_CONV in NHWC. TFLite's kernel scatters the
// full transposed convolution and keeps `out` rows from a leading padding it derives from SAME or VALID; ONNX
// keeps them from pads[begin] (given, from auto_pad or from output_shape). The two agree when one of TFLite's
// paddings starts where ONNX's does on both axes; rows past the full result (output_padding) hold the bias
// in both, as do rows a negative end pad (a larger output_shape) adds. Any other padding is refused.
#include <string>
#include <vector>

#include "frontend/onnx_internal.h"
#include "ops/conv_common.h"

namespace microaot::onnx_detail {

namespace {

struct Axis {
  int64_t in = 0, kernel = 0, stride = 1, out_pad = 0;
  int64_t begin = 0, end = 0;  // ONNX's pads
  int64_t out() const { return stride * (in - 1) + out_pad + kernel - begin - end; }
};

// Entry i of a 2-D attribute (pads: 4 entries), refused outside [0, 65535] before any arithmetic on it.
int64_t attr_at(const Converter& c, const char* name, size_t i, int64_t fallback) {
  const std::vector<int64_t> v = c.attr_ints(name);
  if (v.empty()) return fallback;
  if (v.size() != 2 && !(std::string(name) == "pads" && v.size() == 4)) c.refuse(std::string(name) + " must be 2-D");
  if (v[i] < 0 || v[i] > 65535) c.refuse(std::string(name) + " " + std::to_string(v[i]) + " is out of range");
  return v[i];
}

// The pads ONNX derives from auto_pad or output_shape (the operator's shape inference rules).
void resolve_pads(const Converter& c, Axis& a, size_t i) {
  const std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
  const bool shaped = !c.attr_ints("output_shape").empty();
  if (auto_pad == "NOTSET" && !shaped) {
    a.begin = attr_at(c, "pads", i, 0);
    a.end = attr_at(c, "pads", i + 2, 0);
    return;
  }
  if (auto_pad != "NOTSET" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && auto_pad != "VALID") {
    c.refuse("auto_pad '" + auto_pad + "' is not supported");
  }
  if (auto_pad == "VALID" && !shaped) return;
  const int64_t want = shaped ? attr_at(c, "output_shape", i, 0) : a.in * a.stride;
  const int64_t total = a.stride * (a.in - 1) + a.out_pad + a.kernel - want;
  const bool upper = auto_pad == "SAME_UPPER";
  a.begin = upper ? total - total / 2 : total / 2;
  a.end = total - a.begin;
}

// VALID or SAME, whichever leads TFLite's kernel to ONNX's first row on both axes.
Padding matching_padding(const Converter& c, const Axis& h, const Axis& w) {
  for (Padding p : {Padding::kValid, Padding::kSame}) {
    if (transposed_padding(p, static_cast<int>(h.out()), static_cast<int>(h.kernel), static_cast<int>(h.stride)) ==
            h.begin &&
        transposed_padding(p, static_cast<int>(w.out()), static_cast<int>(w.kernel), static_cast<int>(w.stride)) ==
            w.begin) {
      return p;
    }
  }
  c.refuse("pads [" + std::to_string(h.begin) + ", " + std::to_string(w.begin) + ", " + std::to_string(h.end) +
           ", " + std::to_string(w.end) + "] start where neither TFLite's SAME nor VALID padding does: not supported");
}

}  // namespace

void convert_conv_transpose(Converter& c) {
  const Value x = c.input(0);
  if (c.onnx_shape(x).size() != 4) c.refuse("only 2-D ConvTranspose (rank-4 input) is supported");
  if (c.attr_int("group", 1) != 1) c.refuse("group other than 1 is not supported");
  for (size_t i = 0; i < 2; ++i) {
    if (attr_at(c, "dilations", i, 1) != 1) c.refuse("dilations are not supported");
  }
  const Tensor& weights = c.tensor(c.input(1));
  if (!weights.is_constant || weights.dtype != DType::kFloat32 || weights.shape.size() != 4) {
    c.refuse("the weights must be a rank-4 float32 constant");
  }
  const Tensor wt = weights;  // a copy: constants are added below
  const std::vector<int32_t>& ws = wt.shape;  // [C_in, C_out, kH, kW]
  const int in = c.nhwc(x);
  const std::vector<int32_t> is = c.graph().tensor(in).shape;
  if (ws[0] != is[3]) c.refuse("the weights' first dimension must be the input channels");
  Axis h{is[1], ws[2], attr_at(c, "strides", 0, 1), attr_at(c, "output_padding", 0, 0)};
  Axis w{is[2], ws[3], attr_at(c, "strides", 1, 1), attr_at(c, "output_padding", 1, 0)};
  resolve_pads(c, h, 0);
  resolve_pads(c, w, 1);
  for (const Axis* a : {&h, &w}) {
    if (a->stride < 1 || a->begin < 0 || a->out() < 1 || a->out() > 65535) c.refuse("the output size is out of range");
  }
  TransposeConvOptions o;
  o.window.padding = matching_padding(c, h, w);
  o.window.stride_h = static_cast<int>(h.stride);
  o.window.stride_w = static_cast<int>(w.stride);
  const int m = ws[1];
  const std::vector<float> bias = c.has_input(2) ? c.constant_floats(c.input(2), "the bias") : std::vector<float>(m, 0.0f);
  if (static_cast<int>(bias.size()) != m) c.refuse("the bias must have one value per output channel");
  const std::vector<int32_t> os = {is[0], static_cast<int32_t>(h.out()), static_cast<int32_t>(w.out()), m};
  const Value shape = c.int32_constant({4}, os, "");
  const Value filter = c.constant(DType::kFloat32, {m, ws[2], ws[3], ws[0]}, permute_data(wt.data, ws, {1, 2, 3, 0}, 4),
                                  wt.name + " (OHWI)");
  const Value b = c.float_constant({m}, bias, wt.name + "/bias");
  c.define(0, {c.emit1(OpKind::TransposeConv, {shape.id, filter.id, in, b.id}, DType::kFloat32, os, o), true});
}

}  // namespace microaot::onnx_detail
