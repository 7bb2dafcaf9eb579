// ONNX shape, layout, reduction and softmax operators. Shape arithmetic on constants (Shape, Gather,
// Concat, Unsqueeze of int64 values, as exporters write before a Reshape) is folded here.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot::onnx_detail {

namespace {

std::vector<int32_t> ints32(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

// A reshape of the plain value to `shape` (folded when it is constant).
void define_reshaped(Converter& c, Value x, const std::vector<int64_t>& shape) {
  const int in = c.plain(x);
  const std::vector<int32_t> s = to_ir_shape(shape, c.where());
  if (element_count(s) != element_count(c.graph().tensor(in).shape)) c.refuse("the new shape has another size");
  const Tensor& t = c.graph().tensor(in);
  if (t.is_constant) return c.define(0, c.constant(t.dtype, s, t.data, ""));
  c.define(0, {c.emit1(OpKind::Reshape, {in}, t.dtype, s, ReshapeOptions{s}), false});
}

std::vector<int64_t> axes_of(Converter& c, size_t input, bool from_input) {
  if (!from_input) return c.attr_ints("axes");
  if (!c.has_input(input)) return {};
  return c.constant_ints(c.input(input), "axes");
}

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}
}  // namespace

void convert_reshape(Converter& c) {
  const Value x = c.input(0);
  const std::vector<int64_t> in = c.onnx_shape(x);
  std::vector<int64_t> shape = c.constant_ints(c.input(1), "the shape");
  const bool allow_zero = c.version() >= 14 && c.attr_int("allowzero", 0) != 0;
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allow_zero) {
      if (i >= in.size()) c.refuse("shape entry 0 copies a dimension the input lacks");
      shape[i] = in[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) c.refuse("the shape has two -1 entries");
      infer = static_cast<int>(i);
      continue;
    }
    if (shape[i] <= 0 || shape[i] > (int64_t{1} << 31)) c.refuse("shape entry " + std::to_string(shape[i]) + " is not supported");
    known *= shape[i];
    if (known > (int64_t{1} << 31)) c.refuse("the new shape has more than 2^31 elements");
  }
  const int64_t total = product(in, 0, in.size());
  if (infer >= 0) {
    if (known == 0 || total % known != 0) c.refuse("the -1 entry cannot be inferred");
    shape[static_cast<size_t>(infer)] = total / known;
  }
  define_reshaped(c, x, shape);
}

void convert_flatten(Converter& c) {
  const Value x = c.input(0);
  const std::vector<int64_t> in = c.onnx_shape(x);
  const int axis = c.attr_int("axis", 1) == static_cast<int64_t>(in.size())
                       ? static_cast<int>(in.size())
                       : normalize_axis(c, c.attr_int("axis", 1), in.size());
  define_reshaped(c, x, {product(in, 0, static_cast<size_t>(axis)), product(in, static_cast<size_t>(axis), in.size())});
}

void convert_squeeze(Converter& c) {
  const Value x = c.input(0);
  const std::vector<int64_t> in = c.onnx_shape(x);
  std::vector<int64_t> axes = axes_of(c, 1, c.version() >= 13);
  std::vector<bool> drop(in.size(), false);
  for (int64_t a : axes) drop[static_cast<size_t>(normalize_axis(c, a, in.size()))] = true;
  std::vector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (axes.empty() ? in[i] == 1 : drop[i]) {
      if (in[i] != 1) c.refuse("squeezes a dimension that is not 1");
      continue;
    }
    out.push_back(in[i]);
  }
  define_reshaped(c, x, out);
}

void convert_unsqueeze(Converter& c) {
  const Value x = c.input(0);
  const std::vector<int64_t> in = c.onnx_shape(x);
  const std::vector<int64_t> axes = axes_of(c, 1, c.version() >= 13);
  const size_t rank = in.size() + axes.size();
  std::vector<bool> added(rank, false);
  for (int64_t a : axes) {
    const size_t d = static_cast<size_t>(normalize_axis(c, a, rank));
    if (added[d]) c.refuse("axes repeat");
    added[d] = true;
  }
  std::vector<int64_t> out;
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i) out.push_back(added[i] ? 1 : in[next++]);
  define_reshaped(c, x, out);
}

void convert_transpose(Converter& c) {
  const Value x = c.input(0);
  const size_t rank = c.tensor(x).shape.size();
  std::vector<int64_t> perm = c.attr_ints("perm");
  if (perm.empty()) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  if (perm.size() != rank) c.refuse("perm must have one entry per dimension");
  std::vector<int> p;
  std::vector<bool> seen(rank, false);
  for (int64_t v : perm) {
    if (v < 0 || v >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(v)]) c.refuse("perm is not a permutation");
    seen[static_cast<size_t>(v)] = true;
    p.push_back(x.nhwc ? kToNchw[v] : static_cast<int>(v));  // an NHWC input: its axis holding ONNX axis v
  }
  const int out = c.transpose(x.id, p);
  const Tensor& t = c.graph().tensor(out);
  if (out == x.id && !t.is_constant) {
    c.define(0, {c.emit1(OpKind::Reshape, {out}, t.dtype, t.shape, ReshapeOptions{t.shape}), false});
    return;
  }
  c.define(0, {out, false});
}

void convert_concat(Converter& c) {
  std::vector<Value> values;
  bool all_nhwc = true, all_constant = true;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (!c.has_input(i)) continue;
    values.push_back(c.input(i));
    all_nhwc = all_nhwc && values.back().nhwc;
    all_constant = all_constant && c.is_constant(values.back());
  }
  if (values.empty()) c.refuse("has no inputs");
  const size_t rank = c.tensor(values[0]).shape.size();
  const int axis = normalize_axis(c, c.attr_int("axis", 0), rank);
  const DType dtype = c.tensor(values[0]).dtype;
  if (all_constant && dtype == DType::kInt64 && rank == 1) {  // shape arithmetic
    std::vector<int64_t> joined;
    for (const Value& v : values) {
      const std::vector<int64_t> part = c.constant_ints(v, "input");
      joined.insert(joined.end(), part.begin(), part.end());
    }
    return c.define(0, c.int64_constant(joined));
  }
  std::vector<int> ids;
  for (const Value& v : values) ids.push_back(all_nhwc ? v.id : c.plain(v));
  const int ir_axis = all_nhwc ? kToNchw[axis] : axis;
  std::vector<int32_t> shape = c.graph().tensor(ids[0]).shape;
  shape[static_cast<size_t>(ir_axis)] = 0;
  for (int id : ids) {
    const std::vector<int32_t>& s = c.graph().tensor(id).shape;
    if (s.size() != rank) c.refuse("inputs differ in rank");
    shape[static_cast<size_t>(ir_axis)] += s[static_cast<size_t>(ir_axis)];
  }
  ConcatenationOptions o;
  o.axis = ir_axis;
  c.define(0, {c.emit1(OpKind::Concatenation, ids, dtype, shape, o), all_nhwc});
}

void convert_constant(Converter& c) {
  if (const onnx::AttributeProto* a = c.attr("value")) {
    if (a->type() != onnx::AttributeProto::TENSOR) c.refuse("value is not a tensor");
    const onnx::TensorProto& t = a->t();
    const std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
    if (t.data_type() == onnx::TensorProto::FLOAT && !t.has_raw_data()) {
      const std::vector<float> v(t.float_data().begin(), t.float_data().end());
      const std::vector<int32_t> shape = to_ir_shape(dims, c.where());
      if (static_cast<int64_t>(v.size()) != element_count(shape)) c.refuse("value has the wrong number of elements");
      return c.define(0, c.float_constant(shape, v, c.output_name(0)));
    }
    if (t.data_type() == onnx::TensorProto::INT64 && !t.has_raw_data() && dims.size() <= 1) {
      const std::vector<int64_t> v(t.int64_data().begin(), t.int64_data().end());
      if (static_cast<int64_t>(v.size()) != (dims.empty() ? 1 : dims[0])) c.refuse("value has the wrong number of elements");
      Value k = c.int64_constant(v);
      if (dims.empty()) k = {c.reshape(k.id, {}), false};
      return c.define(0, k);
    }
    return c.define(0, tensor_constant(c, t, c.output_name(0), c.where() + ": value"));  // as PyTorch writes them
  }
  if (c.has_attr("value_float")) return c.define(0, c.float_constant({}, {c.attr_float("value_float", 0)}, ""));
  if (c.has_attr("value_int")) return c.define(0, {c.reshape(c.int64_constant({c.attr_int("value_int", 0)}).id, {}), false});
  if (c.has_attr("value_ints")) return c.define(0, c.int64_constant(c.attr_ints("value_ints")));
  c.refuse("only value, value_float, value_int and value_ints are supported");
}

void convert_shape(Converter& c) {
  const std::vector<int64_t> shape = c.onnx_shape(c.input(0));
  const int64_t r = static_cast<int64_t>(shape.size());
  auto clampd = [&](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
  const int64_t start = clampd(c.attr_int("start", 0)), end = clampd(c.attr_int("end", r));
  std::vector<int64_t> out;
  for (int64_t i = start; i < end; ++i) out.push_back(shape[static_cast<size_t>(i)]);
  c.define(0, c.int64_constant(out));
}

void convert_gather(Converter& c) {
  const Value data = c.input(0);
  const Value indices_value = c.input(1);
  const std::vector<int64_t> ds = c.onnx_shape(data);
  const int axis = normalize_axis(c, c.attr_int("axis", 0), ds.size());
  std::vector<int64_t> idx = c.constant_ints(indices_value, "the indices");
  for (int64_t& i : idx) {
    if (i < -ds[static_cast<size_t>(axis)] || i >= ds[static_cast<size_t>(axis)]) c.refuse("an index is out of range");
    if (i < 0) i += ds[static_cast<size_t>(axis)];
  }
  const std::vector<int32_t> is = c.tensor(indices_value).shape;
  std::vector<int64_t> out(ds.begin(), ds.begin() + axis);
  out.insert(out.end(), is.begin(), is.end());
  out.insert(out.end(), ds.begin() + axis + 1, ds.end());
  if (c.is_constant(data) && c.tensor(data).dtype == DType::kInt64 && ds.size() == 1) {  // shape arithmetic
    const std::vector<int64_t> d = c.constant_ints(data, "data");
    std::vector<int64_t> picked;
    for (int64_t i : idx) picked.push_back(d[static_cast<size_t>(i)]);
    Value k = c.int64_constant(picked);
    return c.define(0, {c.reshape(k.id, ints32(out)), false});
  }
  std::vector<int32_t> idx32(idx.begin(), idx.end());
  const Value indices = c.int32_constant(is, idx32, "");
  GatherOptions o;
  o.axis = axis;
  const int in = c.plain(data);
  c.define(0, {c.emit1(OpKind::Gather, {in, indices.id}, c.graph().tensor(in).dtype, to_ir_shape(out, c.where()), o), false});
}

namespace {
// A reduction, with element-wise float ops applied before it (`pre`) and after it (`post`): ReduceL2 is
// SQRT(SUM(SQUARE(x))), the same arithmetic as ONNX's definition.
void reduce(Converter& c, OpKind kind, int axes_input_since, std::vector<OpKind> pre = {}, std::vector<OpKind> post = {}) {
  const Value x = c.input(0);
  if ((!pre.empty() || !post.empty()) && c.tensor(x).dtype != DType::kFloat32) c.refuse("only float32 is supported");
  const std::vector<int64_t> in = c.onnx_shape(x);
  const std::vector<int64_t> axes = axes_of(c, 1, c.version() >= axes_input_since);
  const bool keep = c.attr_int("keepdims", 1) != 0;
  if (axes.empty() && c.attr_int("noop_with_empty_axes", 0) != 0) c.refuse("noop_with_empty_axes is not supported");
  std::vector<bool> reduced(in.size(), axes.empty());
  for (int64_t a : axes) reduced[static_cast<size_t>(normalize_axis(c, a, in.size()))] = true;
  const bool nhwc = x.nhwc && keep;
  std::vector<int32_t> ir_axes;
  std::vector<int64_t> out;
  for (size_t d = 0; d < in.size(); ++d) {
    const size_t onnx_axis = nhwc ? static_cast<size_t>(kToNhwc[d]) : d;
    if (reduced[onnx_axis]) ir_axes.push_back(static_cast<int32_t>(d));
    if (!reduced[d] || keep) out.push_back(reduced[d] ? 1 : in[d]);
  }
  int id = nhwc ? x.id : c.plain(x);
  const DType dtype = c.graph().tensor(id).dtype;
  for (OpKind k : pre) id = c.emit1(k, {id}, dtype, c.graph().tensor(id).shape);
  const Value axes_value = c.int32_constant({static_cast<int32_t>(ir_axes.size())}, ir_axes, "");
  std::vector<int32_t> shape = to_ir_shape(out, c.where());
  if (nhwc) shape = permuted(shape, kToNhwc);
  id = c.emit1(kind, {id, axes_value.id}, dtype, shape);
  for (OpKind k : post) id = c.emit1(k, {id}, dtype, shape);
  c.define(0, {id, nhwc});
}

void arg_reduce(Converter& c, OpKind kind) {
  if (c.attr_int("select_last_index", 0) != 0) c.refuse("select_last_index 1 is not supported");
  const Value x = c.input(0);
  const int in = c.plain(x);
  const std::vector<int32_t> s = c.graph().tensor(in).shape;
  const int axis = normalize_axis(c, c.attr_int("axis", 0), s.size());
  const Value axis_value = c.int32_constant({1}, {axis}, "");
  std::vector<int32_t> out = s;
  out.erase(out.begin() + axis);
  int id = c.emit1(kind, {in, axis_value.id}, DType::kInt64, out);
  if (c.attr_int("keepdims", 1) != 0) {
    std::vector<int32_t> kept = s;
    kept[static_cast<size_t>(axis)] = 1;
    id = c.emit1(OpKind::Reshape, {id}, DType::kInt64, kept, ReshapeOptions{kept});
  }
  c.define(0, {id, false});
}

// Softmax over `axis` as a last-axis softmax: opsets before 13 flatten at the axis; 13 moves the axis last.
void softmax(Converter& c, OpKind kind) {
  const Value x = c.input(0);
  const size_t rank = c.tensor(x).shape.size();
  const int axis = normalize_axis(c, c.attr_int("axis", c.version() >= 13 ? -1 : 1), rank);
  const OpOptions options = kind == OpKind::Softmax ? OpOptions(SoftmaxOptions{}) : OpOptions(NoOptions{});
  const auto last_axis = [&](int id) {
    const Tensor& t = c.graph().tensor(id);
    return c.emit1(kind, {id}, t.dtype, t.shape, options);
  };
  if (x.nhwc && axis == 1 && c.version() >= 13) return c.define(0, {last_axis(x.id), true});
  const int in = c.plain(x);
  const std::vector<int32_t> s = c.graph().tensor(in).shape;
  if (axis == static_cast<int>(rank) - 1) return c.define(0, {last_axis(in), false});
  if (c.version() < 13) {
    const std::vector<int64_t> s64(s.begin(), s.end());
    const std::vector<int32_t> flat = to_ir_shape(
        {product(s64, 0, static_cast<size_t>(axis)), product(s64, static_cast<size_t>(axis), rank)}, c.where());
    return c.define(0, {c.reshape(last_axis(c.reshape(in, flat)), s), false});
  }
  std::vector<int> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<size_t>(axis)], perm.back());
  c.define(0, {c.transpose(last_axis(c.transpose(in, perm)), perm), false});
}
}  // namespace

void convert_reduce_mean(Converter& c) { reduce(c, OpKind::Mean, 18); }
void convert_reduce_max(Converter& c) { reduce(c, OpKind::ReduceMax, 18); }
void convert_reduce_min(Converter& c) { reduce(c, OpKind::ReduceMin, 18); }
void convert_reduce_sum(Converter& c) { reduce(c, OpKind::Sum, 13); }
void convert_reduce_sum_square(Converter& c) { reduce(c, OpKind::Sum, 18, {OpKind::Square}); }
void convert_reduce_l1(Converter& c) { reduce(c, OpKind::Sum, 18, {OpKind::Abs}); }
void convert_reduce_l2(Converter& c) { reduce(c, OpKind::Sum, 18, {OpKind::Square}, {OpKind::Sqrt}); }
void convert_reduce_log_sum(Converter& c) { reduce(c, OpKind::Sum, 18, {}, {OpKind::Log}); }
void convert_reduce_log_sum_exp(Converter& c) { reduce(c, OpKind::Sum, 18, {OpKind::Exp}, {OpKind::Log}); }
void convert_arg_max(Converter& c) { arg_reduce(c, OpKind::ArgMax); }
void convert_arg_min(Converter& c) { arg_reduce(c, OpKind::ArgMin); }
void convert_softmax(Converter& c) { softmax(c, OpKind::Softmax); }
void convert_log_softmax(Converter& c) { softmax(c, OpKind::LogSoftmax); }

void convert_pad(Converter& c) {
  const Value x = c.input(0);
  const std::string mode = c.attr_string("mode", "constant");
  const size_t rank = c.tensor(x).shape.size();
  std::vector<int64_t> pads = c.version() < 11 ? c.attr_ints("pads") : c.constant_ints(c.input(1), "pads");
  float value = c.version() < 11 ? c.attr_float("value", 0.0f) : 0.0f;
  if (c.version() >= 11 && c.has_input(2)) {
    const std::vector<float> v = c.constant_floats(c.input(2), "constant_value");
    if (v.size() != 1) c.refuse("constant_value must be a scalar");
    value = v[0];
  }
  std::vector<int64_t> axes;
  if (c.version() >= 18 && c.has_input(3)) axes = c.constant_ints(c.input(3), "axes");
  if (axes.empty()) {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (pads.size() != 2 * axes.size()) c.refuse("pads must have two entries per axis");
  std::vector<int32_t> paddings(2 * rank, 0);
  const bool nhwc = x.nhwc;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int onnx_axis = normalize_axis(c, axes[i], rank);
    const int d = nhwc ? kToNchw[onnx_axis] : onnx_axis;
    const int64_t lo = pads[i], hi = pads[i + axes.size()];
    if (lo < 0 || hi < 0 || lo > 65535 || hi > 65535) c.refuse("negative or huge pads are not supported");
    paddings[2 * static_cast<size_t>(d)] = static_cast<int32_t>(lo);
    paddings[2 * static_cast<size_t>(d) + 1] = static_cast<int32_t>(hi);
  }
  std::vector<int32_t> shape = c.tensor(x).shape;
  for (size_t d = 0; d < rank; ++d) shape[d] += paddings[2 * d] + paddings[2 * d + 1];
  const Value pv = c.int32_constant({static_cast<int32_t>(rank), 2}, paddings, "");
  const DType dtype = c.tensor(x).dtype;
  int out = 0;
  if (mode == "constant" && value == 0.0f) {
    out = c.emit1(OpKind::Pad, {x.id, pv.id}, dtype, shape);
  } else if (mode == "constant") {
    out = c.emit1(OpKind::PadV2, {x.id, pv.id, c.float_constant({}, {value}, "").id}, dtype, shape);
  } else if (mode == "reflect") {
    out = c.emit1(OpKind::MirrorPad, {x.id, pv.id}, dtype, shape, MirrorPadOptions{true});
  } else {
    c.refuse("mode '" + mode + "' is not supported");
  }
  c.define(0, {out, nhwc});
}

void convert_slice(Converter& c) {
  const Value x = c.input(0);
  const int in = c.plain(x);
  const std::vector<int32_t> s = c.graph().tensor(in).shape;
  const size_t rank = s.size();
  const std::vector<int64_t> starts = c.constant_ints(c.input(1), "starts"), ends = c.constant_ints(c.input(2), "ends");
  std::vector<int64_t> axes = c.has_input(3) ? c.constant_ints(c.input(3), "axes") : std::vector<int64_t>{};
  std::vector<int64_t> steps = c.has_input(4) ? c.constant_ints(c.input(4), "steps") : std::vector<int64_t>{};
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
    c.refuse("starts, ends, axes and steps differ in length");
  }
  std::vector<int32_t> begin(rank, 0), end(s.begin(), s.end()), stride(rank, 1), out(s.begin(), s.end());
  int end_mask = 0;
  for (size_t i = 0; i < axes.size(); ++i) {
    const size_t d = static_cast<size_t>(normalize_axis(c, axes[i], rank));
    const int64_t dim = s[d], step = steps[i];
    if (step == 0 || step < -65535 || step > 65535) c.refuse("a step of 0 or beyond 65535 is not supported");
    const auto resolve = [&](int64_t v, int64_t lo, int64_t hi) { return std::clamp<int64_t>(v < 0 ? v + dim : v, lo, hi); };
    const int64_t b = step > 0 ? resolve(starts[i], 0, dim) : resolve(starts[i], 0, dim - 1);
    const int64_t e = step > 0 ? resolve(ends[i], 0, dim) : resolve(ends[i], -1, dim - 1);
    const int64_t n = step > 0 ? std::max<int64_t>(0, (e - b + step - 1) / step) : std::max<int64_t>(0, (b - e - step - 1) / -step);
    if (n == 0) c.refuse("an empty slice is not supported");
    begin[d] = static_cast<int32_t>(b);
    end[d] = static_cast<int32_t>(e);
    if (step < 0 && e == -1) end_mask |= 1 << d;  // "past the start", which an index cannot say
    stride[d] = static_cast<int32_t>(step);
    out[d] = static_cast<int32_t>(n);
  }
  if (c.graph().tensor(in).is_constant && c.graph().tensor(in).dtype == DType::kInt64 && rank == 1) {
    const std::vector<int64_t> d = c.constant_ints({in, false}, "data");  // shape arithmetic
    std::vector<int64_t> picked;
    for (int64_t i = begin[0], k = 0; k < out[0]; i += stride[0], ++k) picked.push_back(d[static_cast<size_t>(i)]);
    return c.define(0, c.int64_constant(picked));
  }
  const int32_t r = static_cast<int32_t>(rank);
  const Value bv = c.int32_constant({r}, begin, ""), ev = c.int32_constant({r}, end, ""), sv = c.int32_constant({r}, stride, "");
  StridedSliceOptions o;
  o.end_mask = end_mask;
  c.define(0, {c.emit1(OpKind::StridedSlice, {in, bv.id, ev.id, sv.id}, c.graph().tensor(in).dtype, out, o), false});
}

}  // namespace microaot::onnx_detail
