// More ONNX operators onto existing kernels: Reciprocal, Pow by 2 or 0.5, Mean, Split, DepthToSpace and
// SpaceToDepth (NHWC), CumSum, Cast, Expand, and the shape-only ConstantOfShape and Size (folded).
#include <cmath>
#include <cstring>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"

namespace microaot::onnx_detail {

void convert_sum(Converter& c);
void convert_identity(Converter& c);

void convert_reciprocal(Converter& c) {
  const Value x = c.input(0);
  if (c.tensor(x).dtype != DType::kFloat32) c.refuse("only float32 is supported");
  const Value one = c.float_constant({}, {1.0f}, "");
  std::vector<int32_t> shape = c.tensor(x).shape;
  const int k = c.reshape(one.id, std::vector<int32_t>(shape.size(), 1));
  c.define(0, {c.emit1(OpKind::Div, {k, x.id}, DType::kFloat32, shape, FusedActivationOptions{}), x.nhwc});
}

void convert_pow(Converter& c) {
  const Value x = c.input(0);
  const Tensor& t = c.tensor(x);
  if (t.dtype != DType::kFloat32) c.refuse("only float32 is supported");
  const std::vector<float> e = c.constant_floats(c.input(1), "the exponent");
  if (e.size() != 1) c.refuse("only a scalar exponent is supported");
  if (e[0] == 2.0f) {
    return c.define(0, {c.emit1(OpKind::Mul, {x.id, x.id}, t.dtype, t.shape, FusedActivationOptions{}), x.nhwc});
  }
  if (e[0] == 0.5f) return c.define(0, {c.emit1(OpKind::Sqrt, {x.id}, t.dtype, t.shape), x.nhwc});
  c.refuse("only exponents 2 and 0.5 are supported (exponent " + std::to_string(e[0]) + ")");
}

void convert_mean(Converter& c) {
  if (c.num_inputs() == 1) return convert_identity(c);
  const onnx::NodeProto& original = c.node();
  const int index = c.index(), version = c.version();
  onnx::NodeProto sum = original;  // the sum of the inputs, then one division, as the reference does
  const std::string partial = c.output_name(0) + "/sum";
  sum.set_output(0, partial);
  c.start_node(sum, index, version);
  convert_sum(c);
  c.start_node(original, index, version);
  const Value total = c.value(partial);
  const Tensor t = header_of(c.tensor(total));  // a copy: the divisor's constant is added below
  const int n = c.reshape(c.float_constant({}, {static_cast<float>(original.input_size())}, "").id,
                          std::vector<int32_t>(t.shape.size(), 1));
  c.define(0, {c.emit1(OpKind::Div, {total.id, n}, t.dtype, t.shape, FusedActivationOptions{}), total.nhwc});
}

void convert_split(Converter& c) {
  const Value x = c.input(0);
  const std::vector<int64_t> shape = c.onnx_shape(x);
  const int axis = normalize_axis(c, c.attr_int("axis", 0), shape.size());
  std::vector<int64_t> sizes = c.version() < 13 ? c.attr_ints("split")
                               : c.has_input(1) ? c.constant_ints(c.input(1), "split")
                                                : std::vector<int64_t>{};
  const int64_t dim = shape[static_cast<size_t>(axis)];
  const size_t n = c.num_outputs();
  if (sizes.empty()) {
    if (c.version() >= 18 && c.has_attr("num_outputs")) {
      const int64_t k = c.attr_int("num_outputs", 1);
      if (k != static_cast<int64_t>(n) || k <= 0) c.refuse("num_outputs does not match the outputs");
      const int64_t piece = (dim + k - 1) / k;
      for (int64_t i = 0; i < k; ++i) sizes.push_back(std::min(piece, dim - i * piece));
    } else {
      if (n == 0 || dim % static_cast<int64_t>(n) != 0) c.refuse("the axis does not split evenly");
      sizes.assign(n, dim / static_cast<int64_t>(n));
    }
  }
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0 || s > dim) c.refuse("split sizes must be 1 to the axis' size");
    total += s;
  }
  if (sizes.size() != n || total != dim) c.refuse("split sizes do not match the outputs and the axis");
  const bool nhwc = x.nhwc;
  const int in = nhwc ? x.id : c.plain(x);
  const int ir_axis = nhwc ? kToNchw[axis] : axis;
  std::vector<int> outs;
  std::vector<int32_t> sizes32;
  for (int64_t s : sizes) {
    std::vector<int32_t> piece = c.graph().tensor(in).shape;
    piece[static_cast<size_t>(ir_axis)] = static_cast<int32_t>(s);
    outs.push_back(c.add_tensor(c.graph().tensor(in).dtype, piece, ""));
    sizes32.push_back(static_cast<int32_t>(s));
  }
  const Value sv = c.int32_constant({static_cast<int32_t>(n)}, sizes32, "");
  const Value av = c.int32_constant({}, {ir_axis}, "");
  c.emit(OpKind::SplitV, {in, sv.id, av.id}, outs);
  for (size_t i = 0; i < n; ++i) c.define(i, {outs[i], nhwc});
}

namespace {
void depth_space(Converter& c, OpKind kind, bool to_space) {
  if (to_space && c.attr_string("mode", "DCR") != "DCR") c.refuse("mode CRD is not supported");
  const Value x = c.input(0);
  if (c.tensor(x).shape.size() != 4) c.refuse("needs a rank-4 input");
  const int in = c.nhwc(x);
  const int b = static_cast<int>(c.attr_int("blocksize", 0));
  if (b < 1 || b > 64) c.refuse("blocksize out of range");
  std::vector<int32_t> s = c.graph().tensor(in).shape;
  if (to_space) {
    if (s[3] % (b * b) != 0) c.refuse("channels are not a multiple of blocksize^2");
    s = {s[0], s[1] * b, s[2] * b, s[3] / (b * b)};
  } else {
    if (s[1] % b != 0 || s[2] % b != 0) c.refuse("height and width are not multiples of blocksize");
    s = {s[0], s[1] / b, s[2] / b, s[3] * b * b};
  }
  c.define(0, {c.emit1(kind, {in}, c.graph().tensor(in).dtype, s, BlockSizeOptions{b}), true});
}
}  // namespace

void convert_depth_to_space(Converter& c) { depth_space(c, OpKind::DepthToSpace, true); }
void convert_space_to_depth(Converter& c) { depth_space(c, OpKind::SpaceToDepth, false); }

void convert_cumsum(Converter& c) {
  const Value x = c.input(0);
  const int in = c.plain(x);
  const std::vector<int64_t> axis = c.constant_ints(c.input(1), "axis");
  if (axis.size() != 1) c.refuse("axis must be one value");
  const int a = normalize_axis(c, axis[0], c.graph().tensor(in).shape.size());
  CumsumOptions o;
  o.exclusive = c.attr_int("exclusive", 0) != 0;
  o.reverse = c.attr_int("reverse", 0) != 0;
  const Value av = c.int32_constant({}, {a}, "");
  const Tensor& t = c.graph().tensor(in);
  c.define(0, {c.emit1(OpKind::Cumsum, {in, av.id}, t.dtype, t.shape, o), false});
}

namespace {
template <typename From, typename To>
std::vector<uint8_t> convert_values(const std::vector<uint8_t>& bytes) {
  std::vector<uint8_t> out(bytes.size() / sizeof(From) * sizeof(To));
  for (size_t i = 0; i < bytes.size() / sizeof(From); ++i) {
    From f;
    std::memcpy(&f, &bytes[i * sizeof(From)], sizeof(From));
    const To t = static_cast<To>(f);
    std::memcpy(&out[i * sizeof(To)], &t, sizeof(To));
  }
  return out;
}

DType onnx_dtype(const Converter& c, int64_t type) {
  switch (type) {
    case onnx::TensorProto::FLOAT: return DType::kFloat32;
    case onnx::TensorProto::INT64: return DType::kInt64;
    case onnx::TensorProto::INT32: return DType::kInt32;
    case onnx::TensorProto::INT16: return DType::kInt16;
    case onnx::TensorProto::INT8: return DType::kInt8;
    case onnx::TensorProto::BOOL: return DType::kBool;
    default: c.refuse("element type " + std::to_string(type) + " is not supported");
  }
}
}  // namespace

void convert_cast(Converter& c) {
  const Value x = c.input(0);
  const Tensor& t = c.tensor(x);
  const DType to = onnx_dtype(c, c.attr_int("to", 0));
  if (to == t.dtype) return convert_identity(c);
  if (t.is_constant && (t.dtype == DType::kInt64 || t.dtype == DType::kInt32) &&
      (to == DType::kInt64 || to == DType::kInt32)) {  // shape arithmetic
    const std::vector<uint8_t> data = t.dtype == DType::kInt64 ? convert_values<int64_t, int32_t>(t.data)
                                                               : convert_values<int32_t, int64_t>(t.data);
    return c.define(0, c.constant(to, t.shape, data, ""));
  }
  if (to == DType::kBool || to == DType::kInt64) c.refuse("a cast to this type is not supported");
  if (t.dtype == DType::kFloat32 && to != DType::kFloat32) {
    c.refuse("float to integer casts are not supported (saturation and NaN differ)");
  }
  c.define(0, {c.emit1(OpKind::Cast, {x.id}, to, t.shape), x.nhwc});
}

void convert_constant_of_shape(Converter& c) {
  const std::vector<int32_t> shape = to_ir_shape(c.constant_ints(c.input(0), "the shape"), c.where());
  DType dtype = DType::kFloat32;
  std::vector<uint8_t> one(4, 0);
  if (const onnx::AttributeProto* a = c.attr("value")) {
    const onnx::TensorProto& v = a->t();
    if (v.data_type() == onnx::TensorProto::FLOAT && v.float_data_size() == 1) {
      const float f = v.float_data(0);
      std::memcpy(one.data(), &f, 4);
    } else if (v.data_type() == onnx::TensorProto::INT64 && v.int64_data_size() == 1) {
      dtype = DType::kInt64;
      const int64_t i = v.int64_data(0);
      one.resize(8);
      std::memcpy(one.data(), &i, 8);
    } else if (v.raw_data().size() == 4 && v.data_type() == onnx::TensorProto::FLOAT) {
      std::memcpy(one.data(), v.raw_data().data(), 4);
    } else {
      c.refuse("only a float or int64 value is supported");
    }
  }
  if (element_count(shape) * static_cast<int64_t>(one.size()) > (int64_t{1} << 26)) {
    c.refuse("a constant of more than 64 MiB is not supported");
  }
  std::vector<uint8_t> data;
  for (int64_t i = 0; i < element_count(shape); ++i) data.insert(data.end(), one.begin(), one.end());
  c.define(0, c.constant(dtype, shape, data, ""));
}

void convert_size(Converter& c) {
  int64_t n = 1;
  for (int64_t d : c.onnx_shape(c.input(0))) n *= d;
  c.define(0, {c.reshape(c.int64_constant({n}).id, {}), false});
}

void convert_expand(Converter& c) {
  const Value x = c.input(0);
  const int in = c.plain(x);
  const std::vector<int64_t> target = c.constant_ints(c.input(1), "the shape");
  std::vector<int32_t> s = c.graph().tensor(in).shape;
  const size_t rank = std::max(s.size(), target.size());
  std::vector<int32_t> out(rank);
  s.insert(s.begin(), rank - s.size(), 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t t = i + target.size() >= rank ? target[i + target.size() - rank] : 1;
    if (s[i] != 1 && t != 1 && t != s[i]) c.refuse("the shape does not broadcast with the input");
    if (t < 1 || t > 65535) c.refuse("shape entries must be 1 to 65535");
    out[i] = s[i] == 1 ? static_cast<int32_t>(t) : s[i];
  }
  const int reshaped = c.reshape(in, s);
  const Value sv = c.int32_constant({static_cast<int32_t>(rank)}, out, "");
  const Tensor& t = c.graph().tensor(reshaped);
  if (out == t.shape) return convert_identity(c);
  c.define(0, {c.emit1(OpKind::BroadcastTo, {reshaped, sv.id}, t.dtype, out), false});
}

}  // namespace microaot::onnx_detail
