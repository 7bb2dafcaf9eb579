// Quantized ONNX: QuantizeLinear and DequantizeLinear (QDQ models), and the QOperator nodes (QLinearConv,
// QLinearMatMul) read as the QDQ groups they are. A QuantizeLinear of a computed value is a QUANTIZE, a
// DequantizeLinear a DEQUANTIZE; a DequantizeLinear of a constant folds into a float constant that remembers
// its int8 parameters (Tensor::quant on a float32 constant, cleared after fusion). fuse_qdq_groups then turns
// each DEQUANTIZE -> float op [-> RELU] -> QUANTIZE group into one int8 op on the int8 kernels
// (onnx_qdq_ops.def). uint8 is int8 with the zero point lowered by 128: the same scale and the same
// integer arithmetic, exact; only a uint8 graph input or output is converted, at the boundary.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "frontend/onnx_internal.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot::onnx_detail {

void convert_conv(Converter& c);
void convert_matmul(Converter& c);

namespace {

constexpr int64_t kUInt8Offset = 128;  // uint8 zero point z is int8 zero point z - 128, same scale

std::vector<int64_t> constant_ints_of(const Tensor& t);

// A QuantizeLinear/DequantizeLinear's scale and zero point, per tensor or along `axis` (ONNX layout).
struct QParams {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;  // as ONNX gives it (uint8, int8 or int32 values)
  DType type = DType::kInt8;        // the quantized values' ONNX type
  int axis = 0;
  bool per_axis() const { return scale.size() > 1; }
  Quantization as_int8() const {  // the int8 twin: a uint8 zero point lowered by 128
    Quantization q;
    q.scale = scale;
    for (int64_t z : zero_point) q.zero_point.push_back(type == DType::kUInt8 ? z - kUInt8Offset : z);
    q.axis = axis;
    return q;
  }
};

// The ONNX type of a value: an int8 tensor may hold uint8 values (Converter::uint8_twins).
DType onnx_type(const Converter& c, Value v) {
  return c.uint8_twins.count(v.id) != 0 ? DType::kUInt8 : c.tensor(v).dtype;
}

// Inputs scale_in and zp_in of the node; a scale of more than one value runs along `axis` of a value of
// `shape` (ONNX layout). Without a zero point the type is `fallback` (uint8 for QuantizeLinear).
QParams qparams(const Converter& c, size_t scale_in, size_t zp_in, const std::vector<int64_t>& shape, int axis,
                DType fallback) {
  QParams p;
  p.scale = c.constant_floats(c.input(scale_in), "the scale");
  if (p.scale.empty()) c.refuse("the scale is empty");
  for (float s : p.scale) {
    if (!(s > 0.0f) || !std::isfinite(s)) c.refuse("a scale must be positive and finite");
  }
  p.type = fallback;
  if (c.has_input(zp_in)) {
    const Value zv = c.input(zp_in);
    p.type = c.tensor(zv).dtype;
    if (!c.is_constant(zv)) c.refuse("the zero point must be a constant");
    if (p.type != DType::kInt8 && p.type != DType::kUInt8 && p.type != DType::kInt32) {
      c.refuse(std::string("the zero point is ") + dtype_name(p.type) + "; int8, uint8 and (for a bias) int32 are supported");
    }
    for (int64_t v : constant_ints_of(c.tensor(zv))) p.zero_point.push_back(v);
    if (p.zero_point.size() != p.scale.size()) c.refuse("the zero point and the scale differ in size");
  } else {
    p.zero_point.assign(p.scale.size(), 0);
  }
  if (p.per_axis()) {
    p.axis = normalize_axis(c, axis, shape.size());
    if (shape[static_cast<size_t>(p.axis)] != static_cast<int64_t>(p.scale.size())) {
      c.refuse("a per-axis scale needs one value per element of axis " + std::to_string(p.axis));
    }
  }
  return p;
}

// Integer values of an int8, uint8 or int32 constant.
std::vector<int64_t> constant_ints_of(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.num_elements()));
  for (size_t i = 0; i < out.size(); ++i) {
    if (t.dtype == DType::kUInt8) out[i] = t.data[i];
    if (t.dtype == DType::kInt8) out[i] = static_cast<int8_t>(t.data[i]);
    if (t.dtype == DType::kInt32) {
      int32_t v = 0;
      std::memcpy(&v, &t.data[i * 4], 4);
      out[i] = v;
    }
  }
  return out;
}

int64_t channel_of(const std::vector<int64_t>& shape, int axis, int64_t flat) {
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  return (flat / inner) % shape[static_cast<size_t>(axis)];
}

// The int8 tensor a DEQUANTIZE or an int8 op reads for `x` with parameters p: x itself when it carries them
// (a QuantizeLinear's result), a graph input (which takes them), or a uint8 graph input converted to int8.
int int8_source(Converter& c, Value x, const QParams& p) {
  const Quantization want = p.as_int8();
  Tensor& t = c.graph().tensor(x.id);
  if (t.dtype == DType::kUInt8) {
    Quantization u8 = want;
    for (int64_t& z : u8.zero_point) z += kUInt8Offset;
    if (t.quant.empty()) t.quant = u8;
    if (t.quant.scale != u8.scale || t.quant.zero_point != u8.zero_point) {
      c.refuse("the uint8 input is dequantized with two different scales or zero points");
    }
    const std::vector<int32_t> shape = t.shape;  // `t` dies when the int8 tensor is added
    const int s8 = c.add_tensor(DType::kInt8, shape, "");
    c.graph().tensor(s8).quant = want;
    c.emit(OpKind::Quantize, {x.id}, {s8});  // the same scale: the requantize only moves the zero point
    return s8;
  }
  if (t.quant.empty()) t.quant = want;
  if (t.quant.scale != want.scale || t.quant.zero_point != want.zero_point) {
    c.refuse("the int8 value is dequantized with another scale or zero point than it was quantized with");
  }
  return x.id;
}

// DequantizeLinear of input 0 by inputs 1 and 2: a folded constant, or a DEQUANTIZE.
Value dequantize(Converter& c, Value x, const QParams& p, const std::string& name) {
  const Tensor& t = c.tensor(x);
  if (t.is_constant) {
    const std::vector<int64_t> shape = c.onnx_shape(x);
    const std::vector<int64_t> q = constant_ints_of(t);
    std::vector<float> values(q.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t ch = p.per_axis() ? static_cast<size_t>(channel_of(shape, p.axis, static_cast<int64_t>(i))) : 0;
      values[i] = static_cast<float>(q[i] - p.zero_point[ch]) * p.scale[ch];
    }
    std::vector<int32_t> ir_shape = t.shape;
    const Value f = c.float_constant(ir_shape, values, name);
    c.graph().tensor(f.id).quant = p.as_int8();  // remembered for fusion, cleared after it
    return {f.id, x.nhwc};
  }
  if (p.per_axis()) c.refuse("a per-axis DequantizeLinear of a computed value is not supported (DEQUANTIZE takes one scale)");
  if (t.dtype == DType::kInt32) c.refuse("an int32 DequantizeLinear of a computed value is not supported");
  const int s8 = int8_source(c, x, p);
  return {c.emit1(OpKind::Dequantize, {s8}, DType::kFloat32, c.graph().tensor(s8).shape), x.nhwc};
}

// QuantizeLinear of a float value: ONNX's round half to even of x / scale, saturated (folded for a
// constant), or a QUANTIZE to int8 (a uint8 result is its int8 twin).
Value quantize(Converter& c, Value x, const QParams& p) {
  const Tensor& t = c.tensor(x);
  if (t.dtype != DType::kFloat32) c.refuse("only float32 input is supported");
  if (t.is_constant) {
    const std::vector<float> v = constant_values<float>(t);
    const std::vector<int64_t> shape = c.onnx_shape(x);
    std::vector<uint8_t> bytes(v.size());
    const Quantization q = p.as_int8();
    for (size_t i = 0; i < v.size(); ++i) {
      const size_t ch = p.per_axis() ? static_cast<size_t>(channel_of(shape, p.axis, static_cast<int64_t>(i))) : 0;
      const double r = std::nearbyint(static_cast<double>(v[i]) / p.scale[ch]) + static_cast<double>(q.zero_point[ch]);
      if (std::isnan(r)) c.refuse("a NaN cannot be quantized");
      bytes[i] = static_cast<uint8_t>(static_cast<int8_t>(std::clamp(r, -128.0, 127.0)));
    }
    const Value out = c.constant(DType::kInt8, t.shape, bytes, "");
    c.graph().tensor(out.id).quant = q;
    if (p.type == DType::kUInt8) c.uint8_twins.insert(out.id);
    return {out.id, x.nhwc};
  }
  if (p.per_axis()) c.refuse("a per-axis QuantizeLinear of a computed value is not supported (QUANTIZE takes one scale)");
  const int out = c.add_tensor(DType::kInt8, t.shape, "");
  c.graph().tensor(out).quant = p.as_int8();
  c.emit(OpKind::Quantize, {x.id}, {out});
  if (p.type == DType::kUInt8) c.uint8_twins.insert(out);
  return {out, x.nhwc};
}

void refuse_blocked(const Converter& c) {
  if (c.attr_int("block_size", 0) != 0) c.refuse("blocked quantization (block_size) is not supported");
}

// Converts the float operator `op_type` (its converter `convert`, version `version`) of the current node's
// attributes over `inputs`: the float body of a QOperator node. Returns its output.
Value float_body(Converter& c, const char* op_type, int version, ConvertFn convert, const std::vector<Value>& inputs) {
  onnx::NodeProto body;
  const onnx::NodeProto& node = c.node();
  body.set_name(node.name());
  body.set_op_type(op_type);
  for (const onnx::AttributeProto& a : node.attribute()) *body.add_attribute() = a;
  const std::string stem = node.output(0) + " (float " + op_type + ")";
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = stem + " input " + std::to_string(i);
    c.define_value(name, inputs[i]);
    body.add_input(name);
  }
  body.add_output(stem);
  const int index = c.index(), node_version = c.version();
  c.start_node(body, index, version);
  convert(c);
  c.start_node(node, index, node_version);
  return c.value(stem);
}
}  // namespace

void convert_dequantize_linear(Converter& c) {
  refuse_blocked(c);
  const Value x = c.input(0);
  const DType type = onnx_type(c, x);
  if (type != DType::kInt8 && type != DType::kUInt8 && type != DType::kInt32) {
    c.refuse(std::string("the input is ") + dtype_name(type) + "; int8, uint8 and (for a bias) int32 are supported");
  }
  const QParams p = qparams(c, 1, 2, c.onnx_shape(x), static_cast<int>(c.attr_int("axis", 1)), type);
  if (p.type != type) c.refuse("the zero point's type differs from the input's");
  if (type == DType::kInt32 && std::any_of(p.zero_point.begin(), p.zero_point.end(), [](int64_t z) { return z != 0; })) {
    c.refuse("an int32 DequantizeLinear needs zero point 0");
  }
  c.define(0, dequantize(c, x, p, c.output_name(0)));
}

void convert_quantize_linear(Converter& c) {
  refuse_blocked(c);
  const Value x = c.input(0);
  const int64_t output_dtype = c.attr_int("output_dtype", 0);
  if (output_dtype != 0 && output_dtype != onnx::TensorProto::INT8 && output_dtype != onnx::TensorProto::UINT8) {
    c.refuse("output_dtype " + std::to_string(output_dtype) + " is not supported (int8 and uint8 only)");
  }
  const DType fallback = output_dtype == onnx::TensorProto::INT8 ? DType::kInt8 : DType::kUInt8;
  const QParams p = qparams(c, 1, 2, c.onnx_shape(x), static_cast<int>(c.attr_int("axis", 1)), fallback);
  if (p.type == DType::kInt32) c.refuse("an int32 QuantizeLinear is not supported (int8 and uint8 only)");
  c.define(0, quantize(c, x, p));
}

namespace {
// A QOperator operand's parameters; its type must be the zero point's.
QParams operand_params(const Converter& c, Value v, size_t scale_in, size_t zp_in, int axis) {
  const QParams p = qparams(c, scale_in, zp_in, c.onnx_shape(v), axis, onnx_type(c, v));
  if (p.type != onnx_type(c, v) || (p.type != DType::kInt8 && p.type != DType::kUInt8)) {
    c.refuse("an operand's type differs from its zero point's, or is not int8 or uint8");
  }
  return p;
}
}  // namespace

// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B): DequantizeLinear of x and w (w per
// output channel), the int32 B as a bias of scale x_scale * w_scale, Conv, QuantizeLinear.
void convert_qlinear_conv(Converter& c) {
  const Value x = c.input(0), w = c.input(3);
  const QParams px = operand_params(c, x, 1, 2, 1);
  if (!c.is_constant(w)) c.refuse("the weights must be a constant");
  const QParams pw = operand_params(c, w, 4, 5, 0);
  std::vector<Value> inputs = {dequantize(c, x, px, ""), dequantize(c, w, pw, "")};
  if (c.has_input(8)) {
    const Value b = c.input(8);
    if (c.tensor(b).dtype != DType::kInt32 || !c.is_constant(b)) c.refuse("B must be an int32 constant");
    QParams pb;
    pb.type = DType::kInt32;
    for (float s : pw.scale) pb.scale.push_back(px.scale[0] * s);
    if (c.tensor(b).num_elements() != static_cast<int64_t>(c.onnx_shape(w)[0])) c.refuse("B needs one value per output channel");
    if (!pb.per_axis()) pb.scale.assign(static_cast<size_t>(c.onnx_shape(w)[0]), pb.scale[0]);
    pb.zero_point.assign(pb.scale.size(), 0);
    inputs.push_back(dequantize(c, b, pb, ""));
  }
  const Value y = float_body(c, "Conv", 11, convert_conv, inputs);
  c.define(0, quantize(c, y, qparams(c, 6, 7, c.onnx_shape(y), 1, DType::kUInt8)));
}

// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp): DequantizeLinear, MatMul, QuantizeLinear.
void convert_qlinear_matmul(Converter& c) {
  const Value a = c.input(0), b = c.input(3);
  const QParams pa = operand_params(c, a, 1, 2, 1);
  const QParams pb = operand_params(c, b, 4, 5, static_cast<int>(c.onnx_shape(b).size()) - 1);
  const Value y = float_body(c, "MatMul", 13, convert_matmul, {dequantize(c, a, pa, ""), dequantize(c, b, pb, "")});
  c.define(0, quantize(c, y, qparams(c, 6, 7, c.onnx_shape(y), 1, DType::kUInt8)));
}

namespace {
// A contrib QLinear operator of one operand (X, X_scale, X_zp, Y_scale, Y_zp): the float op between.
void qlinear_unary(Converter& c, const char* op_type, int version, ConvertFn convert) {
  const Value x = c.input(0);
  const QParams px = operand_params(c, x, 1, 2, 1);
  const Value y = float_body(c, op_type, version, convert, {dequantize(c, x, px, "")});
  c.define(0, quantize(c, y, qparams(c, 3, 4, c.onnx_shape(y), 1, px.type)));
}

// A contrib QLinear operator of two operands (A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp).
void qlinear_binary(Converter& c, const char* op_type, ConvertFn convert) {
  const Value a = c.input(0), b = c.input(3);
  const QParams pa = operand_params(c, a, 1, 2, 1), pb = operand_params(c, b, 4, 5, 1);
  const Value y = float_body(c, op_type, 14, convert, {dequantize(c, a, pa, ""), dequantize(c, b, pb, "")});
  c.define(0, quantize(c, y, qparams(c, 6, 7, c.onnx_shape(y), 1, pa.type)));
}
}  // namespace

void convert_add(Converter& c);
void convert_mul(Converter& c);
void convert_global_average_pool(Converter& c);
void convert_leaky_relu(Converter& c);
void convert_gemm(Converter& c);

void convert_qlinear_add(Converter& c) { qlinear_binary(c, "Add", convert_add); }
void convert_qlinear_mul(Converter& c) { qlinear_binary(c, "Mul", convert_mul); }
void convert_qlinear_leaky_relu(Converter& c) { qlinear_unary(c, "LeakyRelu", 16, convert_leaky_relu); }
void convert_qlinear_sigmoid(Converter& c) {
  qlinear_unary(c, "Sigmoid", 13, [](Converter& cc) { convert_unary(cc, OpKind::Logistic); });
}
void convert_qlinear_global_average_pool(Converter& c) {
  if (c.attr_int("channels_last", 0) != 0) c.refuse("channels_last 1 is not supported");
  qlinear_unary(c, "GlobalAveragePool", 1, convert_global_average_pool);
}

// QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp): B per tensor or per output column, C an
// int32 bias of scale a_scale * b_scale; without y_scale the result stays float.
void convert_qgemm(Converter& c) {
  const Value a = c.input(0), b = c.input(3);
  const bool trans_b = c.attr_int("transB", 0) != 0;
  const QParams pa = operand_params(c, a, 1, 2, 1), pb = operand_params(c, b, 4, 5, trans_b ? 0 : 1);
  std::vector<Value> inputs = {dequantize(c, a, pa, ""), dequantize(c, b, pb, "")};
  if (c.has_input(6)) {
    const Value bias = c.input(6);
    if (c.tensor(bias).dtype != DType::kInt32 || !c.is_constant(bias) || c.tensor(bias).shape.size() != 1) {
      c.refuse("C must be a 1-D int32 constant");
    }
    QParams pc;
    pc.type = DType::kInt32;
    const size_t n = static_cast<size_t>(c.tensor(bias).num_elements());
    for (size_t j = 0; j < n; ++j) pc.scale.push_back(pa.scale[0] * pb.scale[pb.per_axis() ? j % pb.scale.size() : 0]);
    pc.zero_point.assign(n, 0);
    if (pb.per_axis() && n != pb.scale.size()) c.refuse("C needs one value per output column");
    inputs.push_back(dequantize(c, bias, pc, ""));
  }
  const Value y = float_body(c, "Gemm", 13, convert_gemm, inputs);
  if (!c.has_input(7)) return c.define(0, y);
  c.define(0, quantize(c, y, qparams(c, 7, 8, c.onnx_shape(y), 1, pa.type)));
}

int uint8_boundary(Converter& c, int id, int onnx_elem_type) {
  const Tensor& t = c.graph().tensor(id);
  if (onnx_elem_type != onnx::TensorProto::UINT8 || t.dtype != DType::kInt8) return id;
  Quantization q = t.quant;
  for (int64_t& z : q.zero_point) z += kUInt8Offset;
  const int out = c.add_tensor(DType::kUInt8, t.shape, "");
  c.graph().tensor(out).quant = q;
  c.emit(OpKind::Quantize, {id}, {out});  // the same scale: the requantize only moves the zero point
  return out;
}

void keep_weight_quant(Graph& graph, int weights, const Quantization& source, int source_axis) {
  if (source.per_channel() && source.axis != source_axis) return;  // not per output channel: no int8 twin
  graph.tensor(weights).quant = source;
}

}  // namespace microaot::onnx_detail
