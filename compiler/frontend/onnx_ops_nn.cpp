// ONNX convolutions, pools, Gemm/MatMul and BatchNormalization, in NHWC with weights re-laid at compile time.
#include <algorithm>
#include <cmath>
#include <climits>
#include <cstring>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"

namespace microaot::onnx_detail {

namespace {

// The spatial attributes of Conv and the pools, resolved to explicit per-edge padding.
struct Window {
  int kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  ExplicitPadding pad;
  int out_h = 0, out_w = 0;
  bool same_upper = false;  // auto_pad SAME_UPPER: TFLite's SAME
};

int small_int(const Converter& c, int64_t v, const char* what) {
  if (v < 1 || v > 65535) c.refuse(std::string(what) + " " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}

// A per-axis attribute as (height, width): a 1-D window's single entry is the width, its height 1 (or, for
// pads, 0 before and after).
std::vector<int64_t> spatial_attr(const Converter& c, const char* name, int64_t fallback, bool one_d) {
  std::vector<int64_t> v = c.attr_ints(name);
  const size_t entries = one_d ? 1 : 2;
  const bool pads = std::string(name) == "pads";
  if (v.empty()) v.assign(pads ? 2 * entries : entries, fallback);
  if (v.size() != (pads ? 2 * entries : entries)) {
    c.refuse(std::string(name) + " must have " + std::to_string(pads ? 2 * entries : entries) + " entries");
  }
  if (!one_d) return v;
  return pads ? std::vector<int64_t>{0, v[0], 0, v[1]} : std::vector<int64_t>{pads ? 0 : 1, v[0]};
}

Window resolve_window(const Converter& c, int in_h, int in_w, int kh, int kw, bool one_d) {
  Window w;
  w.kh = kh;
  w.kw = kw;
  const std::vector<int64_t> s = spatial_attr(c, "strides", 1, one_d), d = spatial_attr(c, "dilations", 1, one_d);
  w.sh = small_int(c, s[0], "stride");
  w.sw = small_int(c, s[1], "stride");
  w.dh = small_int(c, d[0], "dilation");
  w.dw = small_int(c, d[1], "dilation");
  const int64_t eh64 = int64_t{kh - 1} * w.dh + 1, ew64 = int64_t{kw - 1} * w.dw + 1;  // the dilated window
  if (eh64 > 65535 || ew64 > 65535) c.refuse("the dilated window is larger than 65535");
  const int eh = static_cast<int>(eh64), ew = static_cast<int>(ew64);
  const std::string auto_pad = c.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") {
    const std::vector<int64_t> p = spatial_attr(c, "pads", 0, one_d);
    for (int64_t v : p) {
      if (v < 0 || v > 65535) c.refuse("pads out of range");
    }
    w.pad = {static_cast<int>(p[0]), static_cast<int>(p[2]), static_cast<int>(p[1]), static_cast<int>(p[3])};
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const auto split = [&](int in, int stride, int extent, int& lo, int& hi) {
      const int64_t out = (int64_t{in} + stride - 1) / stride;
      const int total = static_cast<int>(std::max<int64_t>((out - 1) * stride + extent - in, 0));
      lo = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      hi = total - lo;
    };
    split(in_h, w.sh, eh, w.pad.top, w.pad.bottom);
    split(in_w, w.sw, ew, w.pad.left, w.pad.right);
    w.same_upper = auto_pad == "SAME_UPPER";
  } else if (auto_pad != "VALID") {
    c.refuse("auto_pad '" + auto_pad + "' is not supported");
  }
  const int64_t ph = int64_t{in_h} + w.pad.top + w.pad.bottom - eh, pw = int64_t{in_w} + w.pad.left + w.pad.right - ew;
  if (ph < 0 || pw < 0) c.refuse("the window is larger than the padded input");
  const bool ceil_mode = c.attr_int("ceil_mode", 0) != 0;
  if (ph / w.sh + 2 > INT32_MAX || pw / w.sw + 2 > INT32_MAX) c.refuse("the output is too large");
  w.out_h = static_cast<int>((ceil_mode ? ph + w.sh - 1 : ph) / w.sh + 1);
  w.out_w = static_cast<int>((ceil_mode ? pw + w.sw - 1 : pw) / w.sw + 1);
  if (ceil_mode && ((ph % w.sh) != 0 || (pw % w.sw) != 0)) c.refuse("ceil_mode that adds a partial window is not supported");
  return w;
}

bool no_padding(const ExplicitPadding& p) { return p.top == 0 && p.bottom == 0 && p.left == 0 && p.right == 0; }

// The rank-4 value in NHWC, or a rank-3 one (N, C, L) as NHWC (N, 1, L, C): 1-D windows as 2-D ones.
int spatial_input(Converter& c, Value x) {
  const std::vector<int32_t> s = c.tensor(x).shape;  // a copy: transpose adds tensors
  if (s.size() == 3 && !x.nhwc) return c.reshape(c.transpose(x.id, {0, 2, 1}), {s[0], 1, s[2], s[1]});
  if (s.size() != 4) c.refuse("only 1-D and 2-D windows (inputs of rank 3 or 4) are supported");
  return c.nhwc(x);
}

// Binds output 0 from an NHWC result: rank-4 stays NHWC, a 1-D window goes back to (N, C, L).
void define_spatial(Converter& c, Value x, int out) {
  if (c.tensor(x).shape.size() == 4) return c.define(0, {out, true});
  const std::vector<int32_t>& s = c.graph().tensor(out).shape;
  c.define(0, {c.transpose(c.reshape(out, {s[0], s[2], s[3]}), {0, 2, 1}), false});
}

std::vector<float> bias_or_zeros(Converter& c, size_t input, int channels) {
  if (!c.has_input(input)) return std::vector<float>(static_cast<size_t>(channels), 0.0f);
  std::vector<float> b = c.constant_floats(c.input(input), "the bias");
  if (static_cast<int>(b.size()) != channels) c.refuse("the bias must have one value per output channel");
  return b;
}
}  // namespace

void convert_conv(Converter& c) {
  const Value x = c.input(0);
  const int in = spatial_input(c, x);
  const std::vector<int32_t> is = c.graph().tensor(in).shape;  // N H W C
  const Value wv = c.input(1);
  const Tensor& weights = c.tensor(wv);
  if (!weights.is_constant || weights.dtype != DType::kFloat32) c.refuse("the weights must be a float32 constant");
  const Tensor wt = weights;  // a copy: the bias and filter constants are added below
  std::vector<int32_t> ws = wt.shape;
  if (ws.size() == 3) ws.insert(ws.begin() + 2, 1);
  if (ws.size() != 4) c.refuse("the weights must be rank 3 or 4");
  const int group = small_int(c, c.attr_int("group", 1), "group");
  const int m = ws[0], cin = is[3];
  if (ws[1] * group != cin || m % group != 0) c.refuse("weights and group do not match the input channels");
  const Window w = resolve_window(c, is[1], is[2], ws[2], ws[3], c.tensor(x).shape.size() == 3);
  const std::vector<float> bias = bias_or_zeros(c, 2, m);
  const Value b = c.float_constant({m}, bias, wt.name + "/bias");
  const std::vector<int32_t> os = {is[0], w.out_h, w.out_w, m};
  const std::optional<ExplicitPadding> pad =
      no_padding(w.pad) ? std::nullopt : std::optional<ExplicitPadding>(w.pad);
  int out = 0;
  const bool depthwise = group == cin && group > 1;
  if (!depthwise) {  // group 1, or grouped: CONV_2D's filter depth (cin / group) divides the input depth
    const Value filter = c.constant(DType::kFloat32, permuted(ws, kToNhwc),
                                    permute_data(wt.data, ws, {0, 2, 3, 1}, 4), wt.name + " (OHWI)");
    Conv2DOptions o;
    o.stride_h = w.sh, o.stride_w = w.sw, o.dilation_h = w.dh, o.dilation_w = w.dw;
    o.explicit_padding = pad;
    out = c.emit1(OpKind::Conv2D, {in, filter.id, b.id}, DType::kFloat32, os, o);
  } else {  // depthwise: output channel g * multiplier + j reads input channel g
    const Value filter = c.constant(DType::kFloat32, {1, ws[2], ws[3], m},
                                    permute_data(wt.data, ws, {1, 2, 3, 0}, 4), wt.name + " (1HWC)");
    DepthwiseConv2DOptions o;
    o.stride_h = w.sh, o.stride_w = w.sw, o.dilation_h = w.dh, o.dilation_w = w.dw;
    o.depth_multiplier = m / cin;
    o.explicit_padding = pad;
    out = c.emit1(OpKind::DepthwiseConv2D, {in, filter.id, b.id}, DType::kFloat32, os, o);
  }
  keep_weight_quant(c.graph(), c.graph().ops.back().inputs[1], wt.quant, 0);  // OIHW's O: output channels
  define_spatial(c, x, out);
}

namespace {
void pool(Converter& c, OpKind kind, bool average) {
  if (c.num_outputs() > 1) c.refuse("the Indices output is not supported");
  if (c.attr_int("storage_order", 0) != 0) c.refuse("storage_order 1 is not supported");
  const Value x = c.input(0);
  const int in = spatial_input(c, x);
  const bool one_d = c.tensor(x).shape.size() == 3;
  const std::vector<int32_t> is = c.graph().tensor(in).shape;
  const std::vector<int64_t> k = spatial_attr(c, "kernel_shape", 0, one_d);
  const Window w = resolve_window(c, is[1], is[2], small_int(c, k[0], "kernel"), small_int(c, k[1], "kernel"), one_d);
  if (w.dh != 1 || w.dw != 1) c.refuse("dilated pools are not supported");
  Pool2DOptions o;
  o.stride_h = w.sh, o.stride_w = w.sw, o.filter_h = w.kh, o.filter_w = w.kw;
  if (!no_padding(w.pad)) {
    if (average) {
      // TFLite's SAME average divides by the window's pixels inside the input: ONNX's count_include_pad 0
      const int64_t total_h = std::max<int64_t>(int64_t{w.out_h - 1} * w.sh + w.kh - is[1], 0);
      const int64_t total_w = std::max<int64_t>(int64_t{w.out_w - 1} * w.sw + w.kw - is[2], 0);
      const bool is_same = w.pad.top == total_h / 2 && w.pad.bottom == total_h - total_h / 2 &&
                           w.pad.left == total_w / 2 && w.pad.right == total_w - total_w / 2 &&
                           w.out_h == (is[1] + w.sh - 1) / w.sh && w.out_w == (is[2] + w.sw - 1) / w.sw;
      if (c.attr_int("count_include_pad", 0) != 0) {  // the padding counts: zeros padded, then a VALID pool
        const int32_t paddings[8] = {0, 0, w.pad.top, w.pad.bottom, w.pad.left, w.pad.right, 0, 0};
        const Value pv = c.int32_constant({4, 2}, {paddings, paddings + 8}, "");
        const std::vector<int32_t> padded = {is[0], is[1] + w.pad.top + w.pad.bottom, is[2] + w.pad.left + w.pad.right, is[3]};
        const int p = c.emit1(OpKind::Pad, {in, pv.id}, c.graph().tensor(in).dtype, padded);
        return define_spatial(c, x, c.emit1(kind, {p}, c.graph().tensor(in).dtype, {is[0], w.out_h, w.out_w, is[3]}, o));
      }
      if (!is_same) c.refuse("padding other than SAME_UPPER with count_include_pad 0 is not supported");
      o.padding = Padding::kSame;
    } else {
      o.explicit_padding = w.pad;
    }
  }
  define_spatial(c, x, c.emit1(kind, {in}, c.graph().tensor(in).dtype, {is[0], w.out_h, w.out_w, is[3]}, o));
}

void global_pool(Converter& c, OpKind kind) {
  const Value x = c.input(0);
  if (c.tensor(x).shape.size() != 4) c.refuse("only rank-4 inputs are supported");
  const int in = c.nhwc(x);
  const std::vector<int32_t> is = c.graph().tensor(in).shape;
  const Value axes = c.int32_constant({2}, {1, 2}, "");
  c.define(0, {c.emit1(kind, {in, axes.id}, c.graph().tensor(in).dtype, {is[0], 1, 1, is[3]}), true});
}

// y = x W^T + b as FULLY_CONNECTED; weights (out, in) given as rows of `w` (out x in).
int fully_connected(Converter& c, int in, const std::vector<float>& w, int out_n, int in_n,
                    const std::vector<float>& bias, const std::string& name) {
  const Value weights = c.float_constant({out_n, in_n}, w, name + " (weights)");
  const Value b = c.float_constant({out_n}, bias, name + " (bias)");
  FullyConnectedOptions o;
  o.keep_num_dims = c.graph().tensor(in).shape.size() > 2;
  std::vector<int32_t> os = c.graph().tensor(in).shape;
  os.back() = out_n;
  return c.emit1(OpKind::FullyConnected, {in, weights.id, b.id}, DType::kFloat32, os, o);
}

std::vector<float> transposed(const std::vector<float>& m, int rows, int cols) {
  std::vector<float> t(m.size());
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < cols; ++k) t[static_cast<size_t>(k) * rows + r] = m[static_cast<size_t>(r) * cols + k];
  }
  return t;
}
}  // namespace

void convert_max_pool(Converter& c) { pool(c, OpKind::MaxPool2D, false); }
void convert_average_pool(Converter& c) { pool(c, OpKind::AveragePool2D, true); }
void convert_global_average_pool(Converter& c) { global_pool(c, OpKind::Mean); }
void convert_global_max_pool(Converter& c) { global_pool(c, OpKind::ReduceMax); }

void convert_gemm(Converter& c) {
  const Value a = c.input(0);
  if (c.tensor(a).shape.size() != 2) c.refuse("A must be 2-D");
  const bool trans_a = c.attr_int("transA", 0) != 0;
  const int a_id = trans_a ? c.transpose(c.plain(a), {1, 0}) : c.plain(a);  // A as [M, K]
  const Value bv = c.input(1);
  const Tensor& bt = c.tensor(bv);
  if (bt.shape.size() != 2) c.refuse("B must be 2-D");
  std::vector<float> b = c.constant_floats(bv, "B");
  const bool trans_b = c.attr_int("transB", 0) != 0;
  const float alpha = c.attr_float("alpha", 1.0f), beta = c.attr_float("beta", 1.0f);
  const Quantization b_quant = alpha == 1.0f ? bt.quant : Quantization{};  // alpha scales the int8 values
  const int k = trans_b ? bt.shape[1] : bt.shape[0], n = trans_b ? bt.shape[0] : bt.shape[1];
  if (c.graph().tensor(a_id).shape[1] != k) c.refuse("A and B do not match");
  if (!trans_b) b = transposed(b, k, n);
  if (alpha != 1.0f) {
    for (float& v : b) v *= alpha;
  }
  std::vector<float> bias(static_cast<size_t>(n), 0.0f);
  std::vector<float> matrix;  // a C of shape [M, N]: beta * C added after the FULLY_CONNECTED
  const int m = c.graph().tensor(a_id).shape[0];
  if (c.has_input(2)) {
    const Value cv = c.input(2);
    const std::vector<float> cvals = c.constant_floats(cv, "C");
    const std::vector<int32_t>& cs = c.tensor(cv).shape;
    const bool per_column = element_count(cs) == n && (cs.size() == 1 || (cs.size() == 2 && cs[0] == 1));
    if (cs == std::vector<int32_t>{m, n} && !per_column) {
      for (float v : cvals) matrix.push_back(beta * v);
    } else if (!per_column && element_count(cs) != 1) {
      c.refuse("C must be a scalar, one row or [M, N]");
    } else {
      for (int j = 0; j < n; ++j) bias[static_cast<size_t>(j)] = beta * cvals[per_column ? static_cast<size_t>(j) : 0];
    }
  }
  const int a_read = trans_a ? a_id : flattened_nhwc(c, a_id, b, n, k);
  int y = fully_connected(c, a_read, b, n, k, bias, c.output_name(0));
  keep_weight_quant(c.graph(), c.graph().ops.back().inputs[1], b_quant, trans_b ? 0 : 1);
  if (!matrix.empty()) {
    const int cm = c.float_constant({m, n}, matrix, "").id;
    y = c.emit1(OpKind::Add, {y, cm}, DType::kFloat32, {m, n}, FusedActivationOptions{});
  }
  c.define(0, {y, false});
}

namespace {
// A MatMul of two computed operands: BATCH_MATMUL, batch dimensions broadcast.
void batch_matmul(Converter& c, Value a, Value b) {
  const int x = c.plain(a), y = c.plain(b);
  const std::vector<int32_t> xs = c.graph().tensor(x).shape, ys = c.graph().tensor(y).shape;
  if (xs.size() < 2 || ys.size() < 2 || xs.size() > 5 || ys.size() > 5) c.refuse("operands must have rank 2 to 5");
  if (xs.back() != ys[ys.size() - 2]) c.refuse("the operands' inner dimensions differ");
  const size_t rank = std::max(xs.size(), ys.size());
  std::vector<int32_t> out(rank);
  for (size_t i = 0; i + 2 < rank; ++i) {
    const int32_t dx = i + xs.size() >= rank ? xs[i + xs.size() - rank] : 1;
    const int32_t dy = i + ys.size() >= rank ? ys[i + ys.size() - rank] : 1;
    if (dx != dy && dx != 1 && dy != 1) c.refuse("batch dimensions do not broadcast");
    out[i] = std::max(dx, dy);
  }
  out[rank - 2] = xs[xs.size() - 2];
  out[rank - 1] = ys.back();
  c.define(0, {c.emit1(OpKind::BatchMatmul, {x, y}, c.graph().tensor(x).dtype, out, BatchMatmulOptions{}), false});
}
}  // namespace

void convert_matmul(Converter& c) {
  const Value a = c.input(0);
  const Value bv = c.input(1);
  const Tensor& bt = c.tensor(bv);
  if (!bt.is_constant) return batch_matmul(c, a, bv);
  if (bt.shape.size() != 2 || c.tensor(a).shape.size() < 2) {
    c.refuse("only a constant 2-D second operand and a first of rank 2 or more are supported");
  }
  const int k = bt.shape[0], n = bt.shape[1];
  if (c.onnx_shape(a).back() != k) c.refuse("the operands' inner dimensions differ");
  const std::vector<float> w = transposed(c.constant_floats(bv, "B"), k, n);
  const Quantization b_quant = bt.quant;
  c.define(0, {fully_connected(c, c.plain(a), w, n, k, std::vector<float>(static_cast<size_t>(n), 0.0f),
                               c.output_name(0)), false});
  keep_weight_quant(c.graph(), c.graph().ops.back().inputs[1], b_quant, 1);  // [K, N]'s N: output channels
}

namespace {
// Folds y = x * scale + shift (per output channel) into the conv or FC that alone reads `x`.
bool fold_into_producer(Converter& c, Value x, const std::vector<float>& scale, const std::vector<float>& shift) {
  const std::string& name = c.node().input(0);
  if (c.consumers[name] != 1) return false;
  const int p = c.producer(x.id);
  if (p < 0) return false;
  Op& op = c.graph().ops[static_cast<size_t>(p)];
  if (op.kind != OpKind::Conv2D && op.kind != OpKind::DepthwiseConv2D) return false;
  if (op.outputs[0] != x.id || op.inputs.size() < 3) return false;
  Tensor& w = c.graph().tensor(op.inputs[1]);
  Tensor& b = c.graph().tensor(op.inputs[2]);
  std::vector<float> wv = constant_values<float>(w), bv = constant_values<float>(b);
  const size_t channels = bv.size();
  if (scale.size() != channels) return false;
  const bool channel_last = op.kind == OpKind::DepthwiseConv2D;
  const size_t per = wv.size() / channels;
  for (size_t i = 0; i < wv.size(); ++i) wv[i] *= scale[channel_last ? i % channels : i / per];
  for (size_t o = 0; o < channels; ++o) bv[o] = bv[o] * scale[o] + shift[o];
  std::memcpy(w.data.data(), wv.data(), w.data.size());
  w.quant = {};  // scaled weights are no longer a DequantizeLinear's int8 values
  std::memcpy(b.data.data(), bv.data(), b.data.size());
  c.define(0, x);
  return true;
}
}  // namespace

void convert_batch_norm(Converter& c) {
  if (c.num_outputs() > 1 || c.attr_int("training_mode", 0) != 0) c.refuse("training mode is not supported");
  const Value x = c.input(0);
  const std::vector<float> s = c.constant_floats(c.input(1), "scale"), b = c.constant_floats(c.input(2), "B"),
                           mean = c.constant_floats(c.input(3), "mean"), var = c.constant_floats(c.input(4), "var");
  const std::vector<int64_t> shape = c.onnx_shape(x);
  if (shape.size() < 2) c.refuse("the input must have a channel axis");
  const size_t channels = static_cast<size_t>(shape[1]);
  if (s.size() != channels || b.size() != channels || mean.size() != channels || var.size() != channels) {
    c.refuse("scale, B, mean and var must have one value per channel");
  }
  const float eps = c.attr_float("epsilon", 1e-5f);
  std::vector<float> scale(channels), shift(channels);
  for (size_t i = 0; i < channels; ++i) {
    scale[i] = s[i] / std::sqrt(var[i] + eps);
    shift[i] = b[i] - mean[i] * scale[i];
  }
  if (fold_into_producer(c, x, scale, shift)) return;
  if (shape.size() != 4) c.refuse("only rank-4 inputs are supported when it does not follow a Conv");
  const int in = c.nhwc(x);
  const std::vector<int32_t> is = c.graph().tensor(in).shape;
  const int n = static_cast<int>(channels);
  const Value sv = c.float_constant({1, 1, 1, n}, scale, ""), hv = c.float_constant({1, 1, 1, n}, shift, "");
  const int scaled = c.emit1(OpKind::Mul, {in, sv.id}, DType::kFloat32, is, FusedActivationOptions{});
  c.define(0, {c.emit1(OpKind::Add, {scaled, hv.id}, DType::kFloat32, is, FusedActivationOptions{}), true});
}

}  // namespace microaot::onnx_detail
