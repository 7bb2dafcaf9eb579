// ONNX element-wise operators: unary math and activations keep their input's layout; binary and variadic
// ones broadcast as numpy does, in NHWC when an operand is (constants re-laid at compile time).
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <limits>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"

namespace microaot::onnx_detail {

void convert_unary(Converter& c, OpKind kind, OpOptions options) {
  const Value x = c.input(0);
  const Tensor& t = c.tensor(x);
  c.define(0, {c.emit1(kind, {x.id}, t.dtype, t.shape, std::move(options)), x.nhwc});
}

namespace {

std::vector<int64_t> broadcast_shape(const Converter& c, const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o != 1) c.refuse("input shapes do not broadcast");
      o = s[i];
    }
  }
  return out;
}

struct Operands {
  std::vector<int> ids;
  bool nhwc = false;
  std::vector<int32_t> shape;  // the output's IR shape
};

// The operands at the output's rank, all NHWC when one is and the output is rank 4, else all plain.
Operands align(Converter& c, const std::vector<Value>& values) {
  std::vector<std::vector<int64_t>> shapes;
  bool any_nhwc = false;
  for (const Value& v : values) {
    shapes.push_back(c.onnx_shape(v));
    any_nhwc = any_nhwc || v.nhwc;
  }
  const std::vector<int32_t> out = to_ir_shape(broadcast_shape(c, shapes), c.where());
  Operands r;
  r.nhwc = any_nhwc && out.size() == 4;
  for (const Value& v : values) {
    int id = v.id;  // an NHWC operand of an NHWC result as it is (no plain copy made)
    if (!v.nhwc) {
      std::vector<int32_t> s = c.tensor(v).shape;
      s.insert(s.begin(), out.size() - s.size(), 1);
      id = c.reshape(id, s);
      if (r.nhwc) id = c.nhwc({id, false});
    } else if (!r.nhwc) {
      id = c.plain(v);
    }
    r.ids.push_back(id);
  }
  r.shape = r.nhwc ? permuted(out, kToNhwc) : out;
  return r;
}

// Add, Sub, Mul, Div of int64 constants (exporters' shape arithmetic): folded, so a Reshape can read them.
bool fold_int64(Converter& c, OpKind kind) {
  const Value a = c.input(0), b = c.input(1);
  const Tensor& ta = c.tensor(a);
  const Tensor& tb = c.tensor(b);
  if (!ta.is_constant || !tb.is_constant || ta.dtype != DType::kInt64 || tb.dtype != DType::kInt64) return false;
  const std::vector<int64_t> x = c.constant_ints(a, "input 0"), y = c.constant_ints(b, "input 1");
  if (ta.shape.size() > 1 || tb.shape.size() > 1 || (x.size() != y.size() && x.size() != 1 && y.size() != 1)) return false;
  std::vector<int64_t> r(std::max(x.size(), y.size()));
  for (size_t i = 0; i < r.size(); ++i) {
    const int64_t p = x[x.size() == 1 ? 0 : i], q = y[y.size() == 1 ? 0 : i];
    if (std::abs(p) > (int64_t{1} << 31) || std::abs(q) > (int64_t{1} << 31)) return false;
    if (kind == OpKind::Div && (q == 0 || p < 0 || q < 0)) return false;
    r[i] = kind == OpKind::Add ? p + q : kind == OpKind::Sub ? p - q : kind == OpKind::Mul ? p * q : p / q;
  }
  const bool scalar = ta.shape.empty() && tb.shape.empty();  // before a tensor is added: ta, tb die then
  const Value v = c.int64_constant(r);
  c.define(0, scalar ? Value{c.reshape(v.id, {}), false} : v);
  return true;
}

void binary(Converter& c, OpKind kind, DType out_type, OpOptions options = NoOptions{}) {
  if (c.num_inputs() != 2) c.refuse("needs two inputs");
  if (fold_int64(c, kind)) return;
  const Operands o = align(c, {c.input(0), c.input(1)});
  const DType dtype = out_type == DType::kUnsupported ? c.graph().tensor(o.ids[0]).dtype : out_type;
  c.define(0, {c.emit1(kind, o.ids, dtype, o.shape, std::move(options)), o.nhwc});
}

// Max, Min, Sum over one or more inputs: a chain of binary ops.
void variadic(Converter& c, OpKind kind, OpOptions options = NoOptions{}) {
  std::vector<Value> values;
  for (size_t i = 0; i < c.num_inputs(); ++i) values.push_back(c.input(i));
  if (values.empty()) c.refuse("has no inputs");
  if (values.size() == 1) {
    const Tensor& t = c.tensor(values[0]);
    if (!t.is_constant) {
      c.define(0, {c.emit1(OpKind::Reshape, {values[0].id}, t.dtype, t.shape, ReshapeOptions{t.shape}), values[0].nhwc});
      return;
    }
  }
  Value acc = values[0];
  for (size_t i = 1; i < values.size(); ++i) {
    const Operands o = align(c, {acc, values[i]});
    acc = {c.emit1(kind, o.ids, c.graph().tensor(o.ids[0]).dtype, o.shape, options), o.nhwc};
  }
  c.define(0, acc);
}

Value scalar(Converter& c, float v) { return c.float_constant({}, {v}, ""); }

// min(max(x, lo), hi) as the clamping activations where they match, else MAXIMUM and MINIMUM.
void clamp(Converter& c, Value x, float lo, float hi) {
  const Tensor t = header_of(c.tensor(x));  // a copy: the bounds' constants are added below
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (lo == 0.0f && (hi == kInf || hi == 6.0f)) {  // RELU or RELU6, fused into the op before where it can be
    const bool six = hi == 6.0f;
    if (!fuse_activation(c, x, six ? Activation::kRelu6 : Activation::kRelu)) {
      c.define(0, {c.emit1(six ? OpKind::Relu6 : OpKind::Relu, {x.id}, t.dtype, t.shape), x.nhwc});
    }
    return;
  }
  Value v = x;
  if (lo > -kInf) {
    const Operands o = align(c, {v, scalar(c, lo)});
    v = {c.emit1(OpKind::Maximum, o.ids, t.dtype, o.shape), o.nhwc};
  }
  if (hi < kInf) {
    const Operands o = align(c, {v, scalar(c, hi)});
    v = {c.emit1(OpKind::Minimum, o.ids, t.dtype, o.shape), o.nhwc};
  }
  if (v.id == x.id) v = {c.emit1(OpKind::Reshape, {x.id}, t.dtype, t.shape, ReshapeOptions{t.shape}), x.nhwc};
  c.define(0, v);
}

// Float activations ONNX defines as formulas, built from element-wise ops in the order its reference
// implementation evaluates them.
Value float_input(Converter& c) {
  const Value x = c.input(0);
  if (c.tensor(x).dtype != DType::kFloat32) c.refuse("only float32 is supported");
  return x;
}

Value apply(Converter& c, OpKind kind, Value a, Value b) {
  const Operands o = align(c, {a, b});
  const OpOptions options = kind == OpKind::Add || kind == OpKind::Sub || kind == OpKind::Mul || kind == OpKind::Div
                                ? OpOptions(FusedActivationOptions{})
                                : OpOptions(NoOptions{});
  const bool compares = kind == OpKind::Greater || kind == OpKind::NotEqual;
  const DType dtype = compares ? DType::kBool : c.graph().tensor(o.ids[0]).dtype;
  return {c.emit1(kind, o.ids, dtype, o.shape, options), o.nhwc};
}

Value apply(Converter& c, OpKind kind, Value a, float b) { return apply(c, kind, a, scalar(c, b)); }

Value apply(Converter& c, OpKind kind, Value a) {
  const Tensor& t = c.tensor(a);
  return {c.emit1(kind, {a.id}, t.dtype, t.shape), a.nhwc};
}

// max(x, 0) * gamma + (exp(min(x, 0)) - 1) * alpha * gamma: Elu (gamma 1) and Selu.
Value elu_formula(Converter& c, Value x, float alpha, float gamma) {
  Value pos = apply(c, OpKind::Maximum, x, 0.0f);
  if (gamma != 1.0f) pos = apply(c, OpKind::Mul, pos, gamma);
  const Value neg = apply(c, OpKind::Sub, apply(c, OpKind::Exp, apply(c, OpKind::Minimum, x, 0.0f)), 1.0f);
  return apply(c, OpKind::Add, pos, apply(c, OpKind::Mul, neg, alpha * gamma));
}

float scalar_input(Converter& c, size_t i, float fallback) {
  if (!c.has_input(i)) return fallback;
  const std::vector<float> v = c.constant_floats(c.input(i), i == 1 ? "min" : "max");
  if (v.size() != 1) c.refuse("min and max must be scalars");
  return v[0];
}
}  // namespace

void convert_add(Converter& c) { binary(c, OpKind::Add, DType::kUnsupported, FusedActivationOptions{}); }
void convert_sub(Converter& c) { binary(c, OpKind::Sub, DType::kUnsupported, FusedActivationOptions{}); }
void convert_mul(Converter& c) { binary(c, OpKind::Mul, DType::kUnsupported, FusedActivationOptions{}); }
void convert_div(Converter& c) { binary(c, OpKind::Div, DType::kUnsupported, FusedActivationOptions{}); }
void convert_max(Converter& c) { variadic(c, OpKind::Maximum); }
void convert_min(Converter& c) { variadic(c, OpKind::Minimum); }
void convert_sum(Converter& c) { variadic(c, OpKind::Add, FusedActivationOptions{}); }
void convert_equal(Converter& c) { binary(c, OpKind::Equal, DType::kBool); }
void convert_less(Converter& c) { binary(c, OpKind::Less, DType::kBool); }
void convert_greater(Converter& c) { binary(c, OpKind::Greater, DType::kBool); }
void convert_less_equal(Converter& c) { binary(c, OpKind::LessEqual, DType::kBool); }
void convert_greater_equal(Converter& c) { binary(c, OpKind::GreaterEqual, DType::kBool); }
void convert_and(Converter& c) { binary(c, OpKind::LogicalAnd, DType::kBool); }
void convert_or(Converter& c) { binary(c, OpKind::LogicalOr, DType::kBool); }
void convert_xor(Converter& c) { binary(c, OpKind::NotEqual, DType::kBool); }  // a != b on bools

void convert_where(Converter& c) {
  const Operands o = align(c, {c.input(0), c.input(1), c.input(2)});
  c.define(0, {c.emit1(OpKind::SelectV2, o.ids, c.graph().tensor(o.ids[1]).dtype, o.shape), o.nhwc});
}

void convert_prelu(Converter& c) {
  const Operands o = align(c, {c.input(0), c.input(1)});
  if (c.graph().tensor(o.ids[0]).shape != o.shape) c.refuse("a slope larger than the input is not supported");
  c.define(0, {c.emit1(OpKind::Prelu, o.ids, c.graph().tensor(o.ids[0]).dtype, o.shape), o.nhwc});
}


void convert_elu(Converter& c) {
  const float alpha = c.attr_float("alpha", 1.0f);
  if (alpha == 1.0f) return convert_unary(c, OpKind::Elu);
  c.define(0, elu_formula(c, float_input(c), alpha, 1.0f));
}

void convert_selu(Converter& c) {
  const float alpha = c.attr_float("alpha", 1.67326319217681884765625f);
  c.define(0, elu_formula(c, float_input(c), alpha, c.attr_float("gamma", 1.05070102214813232421875f)));
}

void convert_hard_sigmoid(Converter& c) {  // clip(x * alpha + beta, 0, 1)
  const Value x = float_input(c);
  const Value y = apply(c, OpKind::Add, apply(c, OpKind::Mul, x, c.attr_float("alpha", 0.2f)), c.attr_float("beta", 0.5f));
  c.define(0, apply(c, OpKind::Minimum, apply(c, OpKind::Maximum, y, 0.0f), 1.0f));
}

void convert_softsign(Converter& c) {  // x / (1 + |x|)
  const Value x = float_input(c);
  c.define(0, apply(c, OpKind::Div, x, apply(c, OpKind::Add, apply(c, OpKind::Abs, x), 1.0f)));
}

void convert_softplus(Converter& c) {  // log(exp(x) + 1)
  c.define(0, apply(c, OpKind::Log, apply(c, OpKind::Add, apply(c, OpKind::Exp, float_input(c)), 1.0f)));
}

void convert_celu(Converter& c) {  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  const Value x = float_input(c);
  const float alpha = c.attr_float("alpha", 1.0f);
  const Value e = apply(c, OpKind::Sub, apply(c, OpKind::Exp, apply(c, OpKind::Div, x, alpha)), 1.0f);
  const Value neg = apply(c, OpKind::Minimum, apply(c, OpKind::Mul, e, alpha), 0.0f);
  c.define(0, apply(c, OpKind::Add, apply(c, OpKind::Maximum, x, 0.0f), neg));
}

void convert_cosh(Converter& c) {  // (exp(x) + exp(-x)) / 2: a sum of positives, no cancellation
  const Value x = float_input(c);
  const Value sum = apply(c, OpKind::Add, apply(c, OpKind::Exp, x), apply(c, OpKind::Exp, apply(c, OpKind::Neg, x)));
  c.define(0, apply(c, OpKind::Mul, sum, 0.5f));
}

void convert_tan(Converter& c) {  // sin(x) / cos(x)
  const Value x = float_input(c);
  c.define(0, apply(c, OpKind::Div, apply(c, OpKind::Sin, x), apply(c, OpKind::Cos, x)));
}

// LayerNormalization as ONNX's reference computes it on X viewed as [rows, cols] (cols: the dimensions from
// `axis` on): mean, x - mean, the mean of its square, 1 / sqrt(var + epsilon), then * Scale + B broadcast.
// Outputs Mean and InvStdDev have X's shape with the normalized dimensions 1.
void convert_layer_normalization(Converter& c) {
  const Value x = float_input(c);
  if (c.attr_int("stash_type", 1) != 1) c.refuse("only stash_type 1 (float32) is supported");
  const std::vector<int64_t> shape = c.onnx_shape(x);
  const size_t axis = static_cast<size_t>(normalize_axis(c, c.attr_int("axis", -1), shape.size()));
  int64_t rows = 1, cols = 1;
  for (size_t d = 0; d < shape.size(); ++d) (d < axis ? rows : cols) *= shape[d];
  const std::vector<int32_t> mat = to_ir_shape({rows, cols}, c.where()), col = to_ir_shape({rows, 1}, c.where());
  const Value one_axis = c.int32_constant({1}, {1}, "");
  const auto mean = [&](Value v) { return Value{c.emit1(OpKind::Mean, {v.id, one_axis.id}, DType::kFloat32, col), false}; };
  const Value xm = {c.reshape(c.plain(x), mat), false};
  const Value m = mean(xm);
  const Value diff = apply(c, OpKind::Sub, xm, m);
  const Value var = mean(apply(c, OpKind::Mul, diff, diff));
  const Value inv = apply(c, OpKind::Div, scalar(c, 1.0f), apply(c, OpKind::Sqrt, apply(c, OpKind::Add, var, c.attr_float("epsilon", 1e-5f))));
  Value y = {c.reshape(apply(c, OpKind::Mul, diff, inv).id, to_ir_shape(shape, c.where())), false};
  y = apply(c, OpKind::Mul, y, c.input(1));
  if (c.has_input(2)) y = apply(c, OpKind::Add, y, c.input(2));
  c.define(0, y);
  std::vector<int64_t> reduced = shape;
  for (size_t d = axis; d < reduced.size(); ++d) reduced[d] = 1;
  const std::vector<Value> stats = {m, inv};
  for (size_t i = 1; i < std::min<size_t>(c.num_outputs(), 3); ++i) {
    if (!c.output_name(i).empty()) c.define(i, {c.reshape(stats[i - 1].id, to_ir_shape(reduced, c.where())), false});
  }
}

Value select(Converter& c, Value condition, Value a, Value b) {
  const Operands o = align(c, {condition, a, b});
  return {c.emit1(OpKind::SelectV2, o.ids, DType::kFloat32, o.shape), o.nhwc};
}

void convert_shrink(Converter& c) {  // x < -lambd ? x + bias : (x > lambd ? x - bias : 0)
  const Value x = float_input(c);
  const float lambd = c.attr_float("lambd", 0.5f), bias = c.attr_float("bias", 0.0f);
  const Value above = select(c, apply(c, OpKind::Greater, x, lambd), apply(c, OpKind::Sub, x, bias), scalar(c, 0.0f));
  const Value below = apply(c, OpKind::Greater, scalar(c, -lambd), x);
  c.define(0, select(c, below, apply(c, OpKind::Add, x, bias), above));
}

void convert_sign(Converter& c) {  // x > 0 ? 1 : (0 > x ? -1 : x): 0 and NaN pass through
  const Value x = float_input(c);
  const Value negative = select(c, apply(c, OpKind::Greater, scalar(c, 0.0f), x), scalar(c, -1.0f), x);
  c.define(0, select(c, apply(c, OpKind::Greater, x, 0.0f), scalar(c, 1.0f), negative));
}

void convert_is_nan(Converter& c) {  // NaN alone differs from itself
  const Value x = float_input(c);
  c.define(0, apply(c, OpKind::NotEqual, x, x));
}

void convert_is_inf(Converter& c) {  // beyond the largest finite float (NaN compares false)
  const Value x = float_input(c);
  constexpr float kMax = std::numeric_limits<float>::max();
  const bool positive = c.attr_int("detect_positive", 1) != 0, negative = c.attr_int("detect_negative", 1) != 0;
  if (!positive && !negative) c.refuse("detect_positive and detect_negative both 0 are not supported");
  if (positive && negative) return c.define(0, apply(c, OpKind::Greater, apply(c, OpKind::Abs, x), kMax));
  c.define(0, positive ? apply(c, OpKind::Greater, x, kMax) : apply(c, OpKind::Greater, scalar(c, -kMax), x));
}

void convert_thresholded_relu(Converter& c) {  // x > alpha ? x : 0
  const Value x = float_input(c);
  c.define(0, select(c, apply(c, OpKind::Greater, x, c.attr_float("alpha", 1.0f)), x, scalar(c, 0.0f)));
}

void convert_leaky_relu(Converter& c) {
  LeakyReluOptions options;
  options.alpha = c.attr_float("alpha", 0.01f);
  convert_unary(c, OpKind::LeakyRelu, options);
}

void convert_identity(Converter& c);

void convert_clip(Converter& c) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (c.version() < 11) return clamp(c, c.input(0), c.attr_float("min", -kInf), c.attr_float("max", kInf));
  const DType dtype = c.tensor(c.input(0)).dtype;
  const bool computed = (c.has_input(1) && !c.is_constant(c.input(1))) || (c.has_input(2) && !c.is_constant(c.input(2)));
  if (!computed && dtype == DType::kFloat32) return clamp(c, c.input(0), scalar_input(c, 1, -kInf), scalar_input(c, 2, kInf));
  if (dtype != DType::kFloat32 && dtype != DType::kInt8 && dtype != DType::kInt32) c.refuse("only float32, int8 and int32 are supported");
  // Bounds computed at run time, or integer ones (no quantization: the values themselves): MAXIMUM, then
  // MINIMUM, as min(max(x, lo), hi).
  Value v = c.input(0);
  if (!c.has_input(1) && !c.has_input(2)) return convert_identity(c);
  for (size_t i = 1; i <= 2; ++i) {
    if (!c.has_input(i)) continue;
    if (element_count(c.tensor(c.input(i)).shape) != 1) c.refuse("min and max must be scalars");
    const Operands o = align(c, {v, c.input(i)});
    v = {c.emit1(i == 1 ? OpKind::Maximum : OpKind::Minimum, o.ids, dtype, o.shape), o.nhwc};
  }
  c.define(0, v);
}

// Identity and inference-mode Dropout: a view of the input.
void convert_identity(Converter& c) {
  const Value x = c.input(0);
  const Tensor& t = c.tensor(x);
  if (t.is_constant) return c.define(0, x);
  c.define(0, {c.emit1(OpKind::Reshape, {x.id}, t.dtype, t.shape, ReshapeOptions{t.shape}), x.nhwc});
}

void convert_dropout(Converter& c) {
  if (c.num_outputs() > 1) c.refuse("the mask output is not supported");
  if (c.version() < 12 && c.attr_int("is_test", 1) == 0 && c.version() < 7) c.refuse("training mode is not supported");
  if (c.has_input(2)) {
    const Value training = c.input(2);
    if (!c.is_constant(training) || c.tensor(training).data.empty() || c.tensor(training).data[0] != 0) {
      c.refuse("training_mode must be a constant false");
    }
  }
  convert_identity(c);
}

}  // namespace microaot::onnx_detail
