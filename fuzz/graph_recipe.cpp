#include "graph_recipe.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>

#include "frontend/tflite_test_ops.h"
#include "recipe.h"

namespace microaot::fuzz {

namespace {
using namespace tflite_test;
using tflite::TensorType;

constexpr TensorType kTypes[] = {TensorType::INT8, TensorType::INT8, TensorType::FLOAT32, TensorType::INT32,
                                 TensorType::INT16, TensorType::UINT8};
constexpr int32_t kDims[] = {1, 1, 2, 3, 4, 5, 8, 16, 0, 7, 32, 1000};
constexpr float kScales[] = {0.5f, 0.25f, 1.0f, 0.0078125f, 1.0f / 256, 1e-3f, 10.0f, 0.0f, 1e-30f, 1e30f,
                             -0.5f, 3e38f, 1e-45f};
constexpr int64_t kZeroPoints[] = {0, 0, -128, 127, 5, -1, 128, -32768, 255, 1000};

std::vector<uint8_t> constant_bytes(Recipe& r, TensorType type, const std::vector<int32_t>& shape) {
  int64_t count = 1;
  for (int32_t d : shape) count *= d;
  const int64_t element = type == TensorType::FLOAT32 || type == TensorType::INT32 ? 4
                          : type == TensorType::INT16                             ? 2
                                                                                  : 1;
  int64_t bytes = count * element;
  if (r.byte() % 16 == 0) bytes += 1;  // now and then a wrong length
  bytes = std::clamp<int64_t>(bytes, 0, 4096);  // odd shapes (negative dimensions) give odd counts
  std::vector<uint8_t> data(static_cast<size_t>(bytes));
  const uint8_t style = r.byte() % 4;  // zeros, small, extreme, recipe bytes
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = style == 0 ? 0 : style == 1 ? static_cast<uint8_t>(i % 3) : style == 2 ? 0x7f : r.byte();
  }
  return data;
}

// Quantization for a tensor of `type`: mostly sane (int8 per tensor), sometimes odd values or per channel.
void quantize(Recipe& r, TensorSpec& t, bool sane) {
  if (t.type == TensorType::FLOAT32 && r.byte() % 8 != 0) return;
  const bool odd = r.byte() % 8 == 0;
  if (!sane && r.byte() % 2 == 0 && !t.shape.empty()) {  // per channel along the first axis
    t.axis = odd ? r.byte() % static_cast<int>(t.shape.size()) : 0;
    const int32_t channels = std::min(odd ? r.pick(kDims) : t.shape[t.axis], 256);
    for (int32_t c = 0; c < channels; ++c) {
      t.scale.push_back(odd ? r.pick(kScales) : 0.01f * (1 + c % 7));
      t.zero_point.push_back(odd ? r.pick(kZeroPoints) : 0);
    }
    return;
  }
  t.scale = {odd ? r.pick(kScales) : r.pick({0.5f, 0.25f, 0.0078125f, 0.05f})};
  t.zero_point = {odd ? r.pick(kZeroPoints) : static_cast<int64_t>(static_cast<int8_t>(r.byte())) / 4};
}

TensorSpec new_tensor(Recipe& r, size_t index, TensorType type, std::vector<int32_t> shape) {
  TensorSpec t;
  t.name = "t" + std::to_string(index);
  t.type = r.byte() % 16 == 0 ? r.pick(kTypes) : type;
  t.shape = std::move(shape);
  if (r.byte() % 16 == 0) {  // now and then a random shape instead
    t.shape.resize(r.byte() % 6);
    for (int32_t& d : t.shape) d = r.pick(kDims);
  }
  return t;
}

int32_t small_dim(Recipe& r) { return 1 + r.byte() % 4; }

// TFLite's window output size, so that most conv/pool outputs have the shape the handler expects.
int32_t window_out(int32_t in, int32_t filter, int32_t stride, int32_t dilation, bool same) {
  if (stride < 1) return 1;
  const int32_t effective = (filter - 1) * dilation + 1;
  return same ? (in + stride - 1) / stride : std::max<int32_t>(0, (in - effective + stride) / stride);
}

struct OpChoices {
  tflite::Padding padding;
  int stride_w, stride_h, dilation_w, dilation_h, filter_w, filter_h, multiplier;
  tflite::ActivationFunctionType activation;
  float beta;
  bool keep_dims;
  int32_t out_channels = 0;  // a CONV_2D's output channels, FULLY_CONNECTED's units; 0: the recipe's small count
  bool adj_x = false, adj_y = false;  // BATCH_MATMUL's, drawn with its operands
};

OpChoices choose(Recipe& r) {
  OpChoices c;
  c.padding = r.flag() ? tflite::Padding::SAME : tflite::Padding::VALID;
  c.stride_w = 1 + r.byte() % 3, c.stride_h = 1 + r.byte() % 3;
  c.dilation_w = 1 + r.byte() % 2, c.dilation_h = 1 + r.byte() % 2;
  c.filter_w = small_dim(r), c.filter_h = small_dim(r), c.multiplier = 1 + r.byte() % 2;
  const int activation = r.byte() % 8;  // NONE, RELU, RELU_N1_TO_1, RELU6; now and then TANH (refused)
  c.activation = static_cast<tflite::ActivationFunctionType>(activation < 4 ? activation : activation == 7 ? 4 : 0);
  c.beta = r.byte() % 8 == 0 ? r.pick(kScales) : 1.0f;
  c.keep_dims = r.flag();
  return c;
}

// Options of the operators with a dedicated recipe, from the choices their shapes were made with.
// Returns false for the others.
bool set_dedicated_options(OpSpec& o, OpKind kind, const OpChoices& c) {
  using B = flatbuffers::FlatBufferBuilder;
  switch (kind) {
    case OpKind::Conv2D:
      o.options = [=](B& b) {
        return tflite::CreateConv2DOptions(b, c.padding, c.stride_w, c.stride_h, c.activation, c.dilation_w,
                                           c.dilation_h).Union();
      };
      return true;
    case OpKind::DepthwiseConv2D:
      o.options = [=](B& b) {
        return tflite::CreateDepthwiseConv2DOptions(b, c.padding, c.stride_w, c.stride_h, c.multiplier,
                                                    c.activation, c.dilation_w, c.dilation_h).Union();
      };
      return true;
    case OpKind::AveragePool2D:
    case OpKind::MaxPool2D:
      o.options = [=](B& b) {
        return tflite::CreatePool2DOptions(b, c.padding, c.stride_w, c.stride_h, c.filter_w, c.filter_h,
                                           c.activation).Union();
      };
      return true;
    case OpKind::FullyConnected:
      o.options = [=](B& b) {
        return tflite::CreateFullyConnectedOptions(b, c.activation, tflite::FullyConnectedOptionsWeightsFormat::DEFAULT,
                                                   c.keep_dims).Union();
      };
      return true;
    case OpKind::Add:
      o.options = [=](B& b) { return tflite::CreateAddOptions(b, c.activation).Union(); };
      return true;
    case OpKind::TransposeConv:
      o.options = [=](B& b) {
        return tflite::CreateTransposeConvOptions(b, c.padding, c.stride_w, c.stride_h, c.activation).Union();
      };
      return true;
    case OpKind::Softmax:
      o.options = [=](B& b) { return tflite::CreateSoftmaxOptions(b, c.beta).Union(); };
      return true;
    case OpKind::Mean:
    case OpKind::Sum:
      o.options = [=](B& b) { return tflite::CreateReducerOptions(b, c.keep_dims).Union(); };
      return true;
    case OpKind::BatchMatmul:
      o.options = [=](B& b) { return tflite::CreateBatchMatMulOptions(b, c.adj_x, c.adj_y).Union(); };
      return true;
    default: return false;
  }
}

// --- Options of any listed table: each field at its default or drawn from the recipe ---

// One field the recipe sets, written into the table when the model is built.
struct DrawnField {
  flatbuffers::voffset_t slot;
  flatbuffers::ElementaryType type;
  bool is_vector;
  int64_t integer;            // bools, enums and integers
  double real;                // floats and doubles
  std::vector<int32_t> ints;  // vectors of int (dimensions, shapes)
};

constexpr int64_t kFieldIntegers[] = {0, 1, 2, 3, -1, 4, 8, 127, -128, 1000, 2147483647};
constexpr float kFieldReals[] = {0.0f, 1.0f, 0.5f, -1.0f, 1e-6f, 1e30f, std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN()};

// A value for a scalar field: a valid enum value (now and then one past the last), or a value from the lists.
void draw_value(Recipe& r, const flatbuffers::TypeTable& table, const flatbuffers::TypeCode& code, DrawnField& f) {
  if (f.type == flatbuffers::ET_FLOAT || f.type == flatbuffers::ET_DOUBLE) {
    f.real = r.pick(kFieldReals);
  } else if (f.type == flatbuffers::ET_BOOL) {
    f.integer = r.flag();
  } else if (code.sequence_ref >= 0) {  // an enum
    const flatbuffers::TypeTable& values = *table.type_refs[code.sequence_ref]();
    const size_t at = r.byte() % (values.num_elems + 1);
    f.integer = at < values.num_elems && values.values != nullptr ? values.values[at] : static_cast<int64_t>(at);
  } else {
    f.integer = r.pick(kFieldIntegers);
  }
}

// The fields of `table` the recipe sets, about one in four; strings and nested tables are left out.
std::vector<DrawnField> draw_fields(Recipe& r, const flatbuffers::TypeTable& table) {
  std::vector<DrawnField> fields;
  for (size_t i = 0; i < table.num_elems; ++i) {
    const flatbuffers::TypeCode& code = table.type_codes[i];
    DrawnField f{flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(i)),
                 static_cast<flatbuffers::ElementaryType>(code.base_type), code.is_repeating != 0, 0, 0.0, {}};
    if (f.type == flatbuffers::ET_STRING || f.type == flatbuffers::ET_SEQUENCE) continue;
    if (f.is_vector && f.type != flatbuffers::ET_INT) continue;
    if (r.byte() % 4 != 0) continue;
    if (f.is_vector) {
      f.ints.resize(r.byte() % 5);
      for (int32_t& v : f.ints) v = r.flag() ? r.pick(kDims) : -1;
    } else {
      draw_value(r, table, code, f);
    }
    fields.push_back(std::move(f));
  }
  return fields;
}

void add_scalar(flatbuffers::FlatBufferBuilder& b, const DrawnField& f) {
  switch (f.type) {
    case flatbuffers::ET_BOOL:
    case flatbuffers::ET_UCHAR: b.AddElement<uint8_t>(f.slot, static_cast<uint8_t>(f.integer)); break;
    case flatbuffers::ET_CHAR: b.AddElement<int8_t>(f.slot, static_cast<int8_t>(f.integer)); break;
    case flatbuffers::ET_SHORT: b.AddElement<int16_t>(f.slot, static_cast<int16_t>(f.integer)); break;
    case flatbuffers::ET_USHORT: b.AddElement<uint16_t>(f.slot, static_cast<uint16_t>(f.integer)); break;
    case flatbuffers::ET_INT: b.AddElement<int32_t>(f.slot, static_cast<int32_t>(f.integer)); break;
    case flatbuffers::ET_UINT: b.AddElement<uint32_t>(f.slot, static_cast<uint32_t>(f.integer)); break;
    case flatbuffers::ET_LONG: b.AddElement<int64_t>(f.slot, f.integer); break;
    case flatbuffers::ET_ULONG: b.AddElement<uint64_t>(f.slot, static_cast<uint64_t>(f.integer)); break;
    case flatbuffers::ET_FLOAT: b.AddElement<float>(f.slot, static_cast<float>(f.real)); break;
    case flatbuffers::ET_DOUBLE: b.AddElement<double>(f.slot, f.real); break;
    default: break;
  }
}

flatbuffers::Offset<void> write_fields(flatbuffers::FlatBufferBuilder& b, const std::vector<DrawnField>& fields) {
  std::vector<flatbuffers::Offset<flatbuffers::Vector<int32_t>>> vectors;  // written before the table
  for (const DrawnField& f : fields) vectors.push_back(f.is_vector ? b.CreateVector(f.ints) : 0);
  const flatbuffers::uoffset_t start = b.StartTable();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].is_vector) {
      b.AddOffset(fields[i].slot, vectors[i]);
    } else {
      add_scalar(b, fields[i]);
    }
  }
  return flatbuffers::Offset<void>(b.EndTable(start));
}

// The listed options table: mostly at its defaults, sometimes with fields drawn from the recipe.
void set_listed_options(Recipe& r, OpSpec& o, const ListedOp& listed) {
  if (listed.options_type == tflite::BuiltinOptions::NONE) return;
  const flatbuffers::TypeTable& members = *tflite::BuiltinOptionsTypeTable();
  const flatbuffers::TypeCode& member = members.type_codes[static_cast<size_t>(listed.options_type)];
  const std::vector<DrawnField> fields = draw_fields(r, *members.type_refs[member.sequence_ref]());
  o.options = [fields](flatbuffers::FlatBufferBuilder& b) { return write_fields(b, fields); };
}

// --- Shapes and operands ---

// Adds a constant (weights, bias, second operand) and returns its index.
int32_t add_constant(Recipe& r, ModelSpec& m, TensorType type, std::vector<int32_t> shape, bool per_channel) {
  TensorSpec t = new_tensor(r, m.tensors.size(), type, std::move(shape));
  quantize(r, t, !per_channel);
  t.data = constant_bytes(r, t.type, t.shape);
  m.tensors.push_back(std::move(t));
  return static_cast<int32_t>(m.tensors.size() - 1);
}

// A second operand of `input`'s shape, or broadcast to it along one axis: a constant or a graph input.
int32_t second_operand(Recipe& r, ModelSpec& m, const TensorSpec& input) {
  std::vector<int32_t> other = input.shape;
  if (!other.empty() && r.flag()) other[r.byte() % other.size()] = 1;  // broadcast
  if (r.flag()) return add_constant(r, m, input.type, other, false);
  TensorSpec t = new_tensor(r, m.tensors.size(), input.type, other);
  quantize(r, t, true);
  m.tensors.push_back(t);
  m.inputs.push_back(static_cast<int32_t>(m.tensors.size() - 1));
  return m.inputs.back();
}

// CONV_2D / DEPTHWISE_CONV_2D on an image: weights, usually a bias, and the windowed output shape.
std::vector<int32_t> conv_operands(Recipe& r, ModelSpec& m, const TensorSpec& input, bool depthwise, const OpChoices& c,
                                   std::vector<int32_t>& inputs) {
  const std::vector<int32_t>& s = input.shape;
  const TensorType bias_type = input.type == TensorType::INT8 ? TensorType::INT32 : input.type;
  const int32_t out_c = depthwise ? s[3] * c.multiplier : c.out_channels > 0 ? c.out_channels : small_dim(r) * 2;
  const std::vector<int32_t> w = depthwise ? std::vector<int32_t>{1, c.filter_h, c.filter_w, out_c}
                                           : std::vector<int32_t>{out_c, c.filter_h, c.filter_w, s[3]};
  inputs.push_back(add_constant(r, m, input.type, w, true));
  if (r.byte() % 4 != 0) inputs.push_back(add_constant(r, m, bias_type, {out_c}, false));
  const bool same = c.padding == tflite::Padding::SAME;
  return {s[0], window_out(s[1], c.filter_h, c.stride_h, c.dilation_h, same),
          window_out(s[2], c.filter_w, c.stride_w, c.dilation_w, same), out_c};
}

// TRANSPOSE_CONV on an image, in TFLite's input order: the output shape (a constant equal to the output's: SAME
// in * stride, VALID (in - 1) * stride + filter), OHWI weights, the image, usually a bias.
std::vector<int32_t> transpose_conv_operands(Recipe& r, ModelSpec& m, const TensorSpec& input, const OpChoices& c,
                                             std::vector<int32_t>& inputs) {
  const std::vector<int32_t>& s = input.shape;
  const TensorType bias_type = input.type == TensorType::INT8 ? TensorType::INT32 : input.type;
  const int32_t out_c = c.out_channels > 0 ? c.out_channels : small_dim(r) * 2;
  const bool same = c.padding == tflite::Padding::SAME;
  const std::vector<int32_t> out = {s[0], same ? s[1] * c.stride_h : (s[1] - 1) * c.stride_h + c.filter_h,
                                    same ? s[2] * c.stride_w : (s[2] - 1) * c.stride_w + c.filter_w, out_c};
  TensorSpec shape = new_tensor(r, m.tensors.size(), TensorType::INT32, {4});
  shape.type = TensorType::INT32, shape.shape = {4};
  shape.data.resize(16);
  std::memcpy(shape.data.data(), out.data(), 16);
  m.tensors.push_back(std::move(shape));
  const int32_t image = inputs.front();
  inputs = {static_cast<int32_t>(m.tensors.size() - 1),
            add_constant(r, m, input.type, {out_c, c.filter_h, c.filter_w, s[3]}, true), image};
  if (r.byte() % 4 != 0) inputs.push_back(add_constant(r, m, bias_type, {out_c}, false));
  return out;
}

// FULLY_CONNECTED: weights [units, depth], usually a bias; rows flattened unless keep_num_dims.
std::vector<int32_t> fc_operands(Recipe& r, ModelSpec& m, const TensorSpec& input, const OpChoices& c,
                                 std::vector<int32_t>& inputs) {
  const std::vector<int32_t>& s = input.shape;
  const TensorType bias_type = input.type == TensorType::INT8 ? TensorType::INT32 : input.type;
  const int32_t units = c.out_channels > 0 ? c.out_channels : small_dim(r) * 3;
  inputs.push_back(add_constant(r, m, input.type, {units, s.back()}, true));
  if (r.byte() % 4 != 0) inputs.push_back(add_constant(r, m, bias_type, {units}, false));
  if (c.keep_dims) {
    std::vector<int32_t> out = s;
    out.back() = units;
    return out;
  }
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < s.size(); ++d) rows *= s[d];
  return {static_cast<int32_t>(rows), units};
}

// MEAN / SUM: a constant axes tensor (each dimension drawn in or out, now and then counted from the end) and the
// reduced shape, its reduced dimensions 1 (keep_dims) or gone.
std::vector<int32_t> reduce_operands(Recipe& r, ModelSpec& m, const TensorSpec& input, const OpChoices& c,
                                     std::vector<int32_t>& inputs) {
  const int32_t rank = static_cast<int32_t>(input.shape.size());
  std::vector<int32_t> axes, out;
  for (int32_t d = 0; d < rank; ++d) {
    if (r.flag()) {
      axes.push_back(r.byte() % 4 == 0 ? d - rank : d);
      if (c.keep_dims) out.push_back(1);
    } else {
      out.push_back(input.shape[static_cast<size_t>(d)]);
    }
  }
  TensorSpec t = new_tensor(r, m.tensors.size(), TensorType::INT32, {static_cast<int32_t>(axes.size())});
  for (int32_t axis : axes) {
    for (int k = 0; k < 4; ++k) t.data.push_back(static_cast<uint8_t>(static_cast<uint32_t>(axis) >> (8 * k)));
  }
  m.tensors.push_back(std::move(t));
  inputs.push_back(static_cast<int32_t>(m.tensors.size() - 1));
  return out;
}

// BATCH_MATMUL: the input the LHS (read transposed with adj_x), an RHS of its batch dimensions (each now and
// then broadcast) over its depth and `units` columns (transposed with adj_y), a constant or a graph input.
std::vector<int32_t> bmm_operands(Recipe& r, ModelSpec& m, const TensorSpec& input, OpChoices& c,
                                  std::vector<int32_t>& inputs) {
  const std::vector<int32_t>& s = input.shape;
  if (s.size() < 2) return s;
  c.adj_x = r.flag(), c.adj_y = r.flag();
  const int32_t rows = c.adj_x ? s.back() : s[s.size() - 2], depth = c.adj_x ? s[s.size() - 2] : s.back();
  const int32_t units = c.out_channels > 0 ? c.out_channels : 1 + r.byte() % 12;
  std::vector<int32_t> rhs(s.begin(), s.end() - 2), out = rhs;
  for (int32_t& d : rhs) d = r.byte() % 4 == 0 ? 1 : d;
  rhs.insert(rhs.end(), {c.adj_y ? units : depth, c.adj_y ? depth : units});
  out.insert(out.end(), {rows, units});
  if (r.flag()) {
    inputs.push_back(add_constant(r, m, input.type, rhs, false));
  } else {
    TensorSpec t = new_tensor(r, m.tensors.size(), input.type, rhs);
    quantize(r, t, true);
    m.tensors.push_back(t);
    m.inputs.push_back(static_cast<int32_t>(m.tensors.size() - 1));
    inputs.push_back(m.inputs.back());
  }
  return out;
}

// The same elements in another shape (RESHAPE, SQUEEZE).
std::vector<int32_t> flattened(Recipe& r, const std::vector<int32_t>& s) {
  int64_t count = 1;
  for (int32_t d : s) count *= d;
  const int32_t n = static_cast<int32_t>(count);
  return r.flag() ? std::vector<int32_t>{n} : std::vector<int32_t>{1, n};
}

// Operands and output shape of the op; operators without a dedicated recipe get one or two operands of
// the input's shape (the second more often for element-wise operators) and an output of that shape.
std::vector<int32_t> operands(Recipe& r, ModelSpec& m, const ListedOp& listed, const TensorSpec& input,
                              OpChoices& c, std::vector<int32_t>& inputs) {
  const std::vector<int32_t>& s = input.shape;
  const bool image = s.size() == 4;
  switch (listed.kind) {
    case OpKind::Conv2D:
    case OpKind::DepthwiseConv2D:
      return image ? conv_operands(r, m, input, listed.kind == OpKind::DepthwiseConv2D, c, inputs) : s;
    case OpKind::AveragePool2D:
    case OpKind::MaxPool2D: {
      if (!image) return s;
      const bool same = c.padding == tflite::Padding::SAME;
      return {s[0], window_out(s[1], c.filter_h, c.stride_h, 1, same),
              window_out(s[2], c.filter_w, c.stride_w, 1, same), s[3]};
    }
    case OpKind::FullyConnected: return s.empty() ? s : fc_operands(r, m, input, c, inputs);
    case OpKind::TransposeConv: return image ? transpose_conv_operands(r, m, input, c, inputs) : s;
    case OpKind::Add: inputs.push_back(second_operand(r, m, input)); return s;
    case OpKind::Reshape:
    case OpKind::Squeeze: return flattened(r, s);
    case OpKind::Softmax: return s;
    case OpKind::Mean:
    case OpKind::Sum: return reduce_operands(r, m, input, c, inputs);
    case OpKind::BatchMatmul: return bmm_operands(r, m, input, c, inputs);
    default: {
      const bool elementwise = std::strcmp(listed.family, "elementwise") == 0;
      if (r.byte() % (elementwise ? 2 : 8) == 0) inputs.push_back(second_operand(r, m, input));
      return s;
    }
  }
}

// The output tensor's type and quantization: the input's, except where the operator defines them.
TensorSpec output_tensor(Recipe& r, const ModelSpec& m, OpKind kind, const TensorSpec& input,
                         std::vector<int32_t> shape) {
  const TensorType type = input.type;
  const TensorType out_type = kind == OpKind::Dequantize                                  ? TensorType::FLOAT32
                              : kind == OpKind::Quantize && type == TensorType::FLOAT32 ? TensorType::INT8
                                                                                        : type;
  TensorSpec out = new_tensor(r, m.tensors.size(), out_type, std::move(shape));
  quantize(r, out, true);
  const bool keeps_quant = kind == OpKind::AveragePool2D || kind == OpKind::MaxPool2D || kind == OpKind::Reshape ||
                           kind == OpKind::Squeeze;
  if (keeps_quant && out.type == type && r.byte() % 8 != 0) out.scale = input.scale, out.zero_point = input.zero_point;
  if (kind == OpKind::Softmax && out.type == TensorType::INT8) out.scale = {1.0f / 256}, out.zero_point = {-128};
  return out;
}

// Operator `listed` with choices `c` reading `in`; returns the tensor it writes.
int32_t add_listed_op(Recipe& r, ModelSpec& m, int32_t in, const ListedOp& listed, OpChoices c) {
  const TensorSpec input = m.tensors[in];
  std::vector<int32_t> inputs = {in};
  std::vector<int32_t> out_shape = operands(r, m, listed, input, c, inputs);
  if (r.byte() % 16 == 0) inputs.push_back(r.flag() ? -1 : static_cast<int32_t>(r.byte() % m.tensors.size()));
  m.tensors.push_back(output_tensor(r, m, listed.kind, input, std::move(out_shape)));
  const int32_t out_id = static_cast<int32_t>(m.tensors.size() - 1);
  OpSpec o = listed_op_spec(listed, inputs, {out_id});
  o.version = r.byte() % 16 == 0 ? r.byte() % 10 : 1 + r.byte() % 3;
  if (!set_dedicated_options(o, listed.kind, c)) set_listed_options(r, o, listed);
  m.ops.push_back(o);
  return out_id;
}

// One operator of the op list reading `in`; returns the tensor it writes.
int32_t add_op(Recipe& r, ModelSpec& m, int32_t in) {
  const ListedOp& listed = kListedOps[r.byte() % kListedOpCount];
  return add_listed_op(r, m, in, listed, choose(r));
}

// The focused operator's choices, over `choose`'s: 3x3 (the depthwise ring's) or another small filter, unit
// strides, dilations and depth multiplier three times in four each (else a multiplier of 2, 3, 4 or 8), one time in four a window over the whole
// image (a global pool); 4 to 32 output channels or units (enough for the packed kernels); no activation or
// RELU (the calibrated output scale would make RELU6's and RELU_N1_TO_1's range a single value).
void focus_choices(Recipe& r, OpChoices& c, const std::vector<int32_t>& image) {
  constexpr int32_t kFilters[] = {3, 3, 1, 2, 5};
  constexpr int32_t kMultipliers[] = {2, 3, 4, 8};  // the multiplier kernel's (2, 3) and the full kernel's (4k)
  c.filter_h = r.pick(kFilters), c.filter_w = r.pick(kFilters);
  if (r.byte() % 4 != 0) c.stride_h = c.stride_w = 1;
  if (r.byte() % 4 != 0) c.dilation_h = c.dilation_w = 1;
  const uint8_t multiplier = r.byte();
  c.multiplier = multiplier % 4 != 0 ? 1 : kMultipliers[multiplier / 4 % 4];
  if (r.byte() % 4 == 0) c.filter_h = image[1], c.filter_w = image[2], c.padding = tflite::Padding::VALID;
  c.out_channels = 4 * (1 + r.byte() % 8);
  c.activation = r.flag() ? tflite::ActivationFunctionType::RELU : tflite::ActivationFunctionType::NONE;
}

// Bytes of the recipe as int16 values in int32 words (a bias of the order of a few taps' products).
void fill_bias(Recipe& r, std::vector<uint8_t>& bias) {
  for (size_t i = 0; i + 4 <= bias.size(); i += 4) {
    const uint8_t low = r.byte(), high = r.byte();
    const int32_t value = static_cast<int16_t>(low | high << 8);
    std::memcpy(&bias[i], &value, 4);
  }
}

// Per-channel scales along the output channels, as TFLite quantizes weights (the last axis of a depthwise
// filter, the first otherwise; the fuzzer's per-channel quantization takes the first only): within a factor
// of 4 of each other, so that a kernel that mixes up channels' constants shows.
void quantize_per_channel(Recipe& r, TensorSpec& weights, OpKind kind) {
  weights.axis = kind == OpKind::DepthwiseConv2D ? static_cast<int32_t>(weights.shape.size()) - 1 : 0;
  const int32_t channels = weights.shape[static_cast<size_t>(weights.axis)];
  weights.scale.clear();
  weights.zero_point.assign(static_cast<size_t>(std::max(channels, 0)), 0);
  for (int32_t c = 0; c < channels; ++c) weights.scale.push_back(0.0025f * static_cast<float>(4 + r.byte() % 13));
}

// The focused weighted operator's constants and output scale: per-channel weights, weights and bias from the
// recipe's bytes (the fuzzer's constants are mostly zeros, ramps and extremes), and an output scale that puts
// a typical sum of random inputs and weights (a standard deviation of sqrt(taps) * 128^2 / 3) near 40 steps of
// the output, so that few outputs clamp and a wrong sum shows.
void calibrate_weighted(Recipe& r, ModelSpec& m, OpKind kind) {
  const OpSpec& o = m.ops.back();
  const auto constant = [&](size_t k) -> TensorSpec* {  // input k, if the op lists a tensor there
    const bool listed = k < o.inputs.size() && o.inputs[k] >= 0 &&
                        o.inputs[k] < static_cast<int32_t>(m.tensors.size());
    return listed ? &m.tensors[static_cast<size_t>(o.inputs[k])] : nullptr;
  };
  const bool transposed = kind == OpKind::TransposeConv;  // inputs: output shape, weights, image, bias
  TensorSpec* const weights = constant(1);
  if (transposed && constant(2) == nullptr) return;
  const TensorSpec& input = m.tensors[static_cast<size_t>(o.inputs[transposed ? 2 : 0])];
  TensorSpec& output = m.tensors[static_cast<size_t>(o.outputs[0])];
  if (weights == nullptr || weights->type != TensorType::INT8 || weights->shape.empty() || weights->scale.empty() ||
      input.scale.empty()) {
    return;
  }
  quantize_per_channel(r, *weights, kind);
  if (weights->scale.empty()) return;
  for (uint8_t& b : weights->data) b = r.byte();
  TensorSpec* const bias = constant(transposed ? 3 : 2);
  if (bias != nullptr && bias->type == TensorType::INT32) fill_bias(r, bias->data);
  const int64_t channels = kind == OpKind::DepthwiseConv2D ? weights->shape.back() : weights->shape.front();
  if (channels <= 0 || output.type != TensorType::INT8) return;
  const float taps = static_cast<float>(weights->data.size()) / static_cast<float>(channels);
  const float scale = input.scale[0] * *std::max_element(weights->scale.begin(), weights->scale.end()) *
                      std::sqrt(taps) * 136.0f;
  if (std::isfinite(scale) && scale > 0) output.scale = {scale};
}

// The focused BATCH_MATMUL's output scale: a typical sum of random int8 operands (a standard deviation of
// sqrt(depth) * 128^2 / 3) near 40 steps of the output, as calibrate_weighted's, so that a wrong sum shows.
void calibrate_product(ModelSpec& m) {
  const OpSpec& o = m.ops.back();
  if (o.inputs.size() < 2 || o.inputs[1] < 0 || o.inputs[1] >= static_cast<int32_t>(m.tensors.size())) return;
  const TensorSpec& lhs = m.tensors[static_cast<size_t>(o.inputs[0])];
  const TensorSpec& rhs = m.tensors[static_cast<size_t>(o.inputs[1])];
  TensorSpec& output = m.tensors[static_cast<size_t>(o.outputs[0])];
  if (lhs.shape.size() < 2 || output.shape.size() < 2 || output.shape[output.shape.size() - 2] <= 0 ||
      lhs.scale.size() != 1 || rhs.scale.size() != 1 || output.type != TensorType::INT8) {
    return;
  }
  const float depth = static_cast<float>(lhs.shape.back()) * static_cast<float>(lhs.shape[lhs.shape.size() - 2]) /
                      static_cast<float>(output.shape[output.shape.size() - 2]);
  const float scale = lhs.scale[0] * rhs.scale[0] * std::sqrt(depth) * 136.0f;
  if (std::isfinite(scale) && scale > 0) output.scale = {scale};
}

// The focused weighted operator in 16x8 (int16 activations, int8 weights, int64 bias; TFLite's symmetric
// quantization): the int16 input and output at zero point 0, the bias's int16 values widened to int64, and an
// output scale that puts a typical sum of random int16 inputs and int8 weights (a standard deviation of
// sqrt(taps) * 32768 * 128 / 3) near 3,000 steps of the output, so that few outputs clamp and a wrong sum shows.
void make_16x8(ModelSpec& m, OpKind kind) {
  const OpSpec& o = m.ops.back();
  const auto tensor = [&](int32_t id) -> TensorSpec* {
    return id >= 0 && id < static_cast<int32_t>(m.tensors.size()) ? &m.tensors[static_cast<size_t>(id)] : nullptr;
  };
  TensorSpec* const input = tensor(o.inputs[0]);
  TensorSpec* const weights = o.inputs.size() > 1 ? tensor(o.inputs[1]) : nullptr;
  TensorSpec* const bias = o.inputs.size() > 2 ? tensor(o.inputs[2]) : nullptr;
  TensorSpec* const output = tensor(o.outputs[0]);
  if (input == nullptr || output == nullptr || weights == nullptr || weights->scale.empty() ||
      weights->shape.empty() || input->scale.empty()) {
    return;
  }
  input->type = output->type = TensorType::INT16;
  input->zero_point.assign(input->scale.size(), 0);
  output->zero_point = {0};
  if (bias != nullptr && bias->type == TensorType::INT32) {
    std::vector<uint8_t> wide;
    for (size_t i = 0; i + 4 <= bias->data.size(); i += 4) {
      int32_t value;
      std::memcpy(&value, &bias->data[i], 4);
      const int64_t widened = value;
      const auto* bytes = reinterpret_cast<const uint8_t*>(&widened);
      wide.insert(wide.end(), bytes, bytes + 8);
    }
    bias->type = TensorType::INT64;
    bias->data = std::move(wide);
  }
  const float channels =
      static_cast<float>(kind == OpKind::DepthwiseConv2D ? weights->shape.back() : weights->shape.front());
  const float taps = static_cast<float>(weights->data.size()) / std::max(channels, 1.0f);
  const float scale = input->scale[0] * *std::max_element(weights->scale.begin(), weights->scale.end()) *
                      std::sqrt(taps) * (32768.0f * 128.0f / 3.0f / 3000.0f);
  if (std::isfinite(scale) && scale > 0) output->scale = {scale};
}

// The focused ADD, SUB or MUL in int16 (TFLite's symmetric quantization: zero points 0, one scale per tensor): its
// inputs and output int16, a constant operand's int8 bytes widened to int16 values (times 257: -32896 would not
// fit, so -128 gives -32639), and an output scale that leaves most outputs unclamped (ADD, SUB: 8 times the larger
// input scale; MUL: the product of the input scales times 2^13). The DSP kernels' pairs and their ties run.
void make_16x16_binary(ModelSpec& m, bool multiply) {
  const OpSpec& o = m.ops.back();
  if (o.inputs.size() != 2 || o.outputs.size() != 1) return;
  TensorSpec* t[3] = {nullptr, nullptr, nullptr};
  const int32_t ids[3] = {o.inputs[0], o.inputs[1], o.outputs[0]};
  for (int k = 0; k < 3; ++k) {
    if (ids[k] < 0 || ids[k] >= static_cast<int32_t>(m.tensors.size())) return;
    t[k] = &m.tensors[static_cast<size_t>(ids[k])];
    if (t[k]->type != TensorType::INT8 || t[k]->scale.empty()) return;
  }
  for (TensorSpec* tensor : t) {
    tensor->type = TensorType::INT16;
    tensor->scale.resize(1);
    tensor->zero_point = {0};
    tensor->axis = 0;
    std::vector<uint8_t> wide;
    for (uint8_t byte : tensor->data) {
      const int16_t value = static_cast<int16_t>(static_cast<int8_t>(byte) * 257);
      const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
      wide.insert(wide.end(), bytes, bytes + 2);
    }
    tensor->data = std::move(wide);
  }
  const float s1 = t[0]->scale[0], s2 = t[1]->scale[0];
  t[2]->scale = {multiply ? s1 * s2 * 8192.0f : 8.0f * std::max(s1, s2)};
}

// A layer shape well outside the shared models' (wide_model_from_recipe): the input image, the filter (1x1 for a
// FULLY_CONNECTED, whose rows are the image's pixels), stride, dilation, SAME padding, output channels or units.
struct WideShape {
  int32_t height, width, depth, filter_h, filter_w, stride, dilation;
  bool same;
  int32_t channels;
};

// Windows (filter taps x input depth) beyond the packed kernels' one chunk (640 elements) and beyond 2,048:
// odd depths and channel counts, strides and dilations of 2, 1x1 and k x k; the first is the layer
// (3x3 over 128 channels), the last a single output pixel over more channels than the Helium rows' chunk (64).
// Each layer's weights below 65,536 bytes (the recipe's length; past it they are 0).
constexpr WideShape kWideConvolutions[] = {
    {6, 6, 128, 3, 3, 1, 1, true, 16},    // window 1,152
    {7, 7, 255, 3, 3, 2, 1, true, 9},     // 2,295, stride 2, odd depth and channels
    {7, 7, 96, 5, 5, 1, 2, true, 13},     // 2,400, dilation 2
    {5, 5, 1001, 1, 1, 2, 1, false, 6},   // 1x1 over 1,001 channels, stride 2 (FULLY_CONNECTED's go beyond 2,048)
    {6, 5, 231, 3, 1, 2, 1, false, 4},    // 693, a 3x1 filter, VALID
    {3, 3, 80, 3, 3, 1, 1, false, 70},    // 720, one output pixel over 70 channels (the M55's units in two chunks)
};
// FULLY_CONNECTED depths up to 4,000 (micro_speech's), odd units and rows (batches).
constexpr WideShape kWideFullyConnected[] = {
    {1, 1, 4000, 1, 1, 1, 1, false, 4},
    {1, 3, 1501, 1, 1, 1, 1, false, 7},
    {2, 1, 2049, 1, 1, 1, 1, false, 12},
    {1, 1, 700, 1, 1, 1, 1, false, 41},
};

// Recurrent layers' inputs a step beyond one chunk: the LSTM's and SVDF's rows are reduced in one pass.
constexpr int32_t kWideRecurrentInputs[] = {700, 1301};

// The weights and bias of the model's one op as shape `w` makes them, at their full size (the fuzzer's constants
// now and then take another type or shape, stop at 4,096 bytes or take a wrong length), for calibrate_weighted to
// fill.
void wide_constants(ModelSpec& m, const WideShape& w, bool fully_connected) {
  const OpSpec& o = m.ops.back();
  for (size_t k = 1; k < o.inputs.size() && k < 3; ++k) {
    if (o.inputs[k] < 0 || o.inputs[k] >= static_cast<int32_t>(m.tensors.size())) continue;
    TensorSpec& t = m.tensors[static_cast<size_t>(o.inputs[k])];
    if (t.data.empty()) continue;
    t.type = k == 1 ? TensorType::INT8 : TensorType::INT32;
    t.shape = k == 2                ? std::vector<int32_t>{w.channels}
              : fully_connected ? std::vector<int32_t>{w.channels, w.depth}
                                : std::vector<int32_t>{w.channels, w.filter_h, w.filter_w, w.depth};
    int64_t count = k == 2 ? 4 : 1;
    for (int32_t d : t.shape) count *= d;
    t.data.assign(static_cast<size_t>(count), 0);
  }
}

}  // namespace

int wide_shape_count(const tflite_test::ListedOp& focus) {
  const bool recurrent = focus.kind == OpKind::UnidirectionalSequenceLstm || focus.kind == OpKind::Svdf;
  return focus.kind == OpKind::FullyConnected ? static_cast<int>(std::size(kWideFullyConnected))
         : focus.kind == OpKind::Conv2D       ? static_cast<int>(std::size(kWideConvolutions))
         : recurrent                          ? static_cast<int>(std::size(kWideRecurrentInputs))
                                              : 0;
}

std::vector<uint8_t> wide_model_from_recipe(const tflite_test::ListedOp& focus, int shape, const uint8_t* data,
                                            size_t size) {
  const int count = wide_shape_count(focus);
  if (count == 0) return {};
  if (std::vector<uint8_t> recurrent =
          recurrent_model_from_recipe(focus, data, size, kWideRecurrentInputs[shape % std::size(kWideRecurrentInputs)]);
      !recurrent.empty()) {
    return recurrent;
  }
  const WideShape& w = focus.kind == OpKind::FullyConnected ? kWideFullyConnected[shape % count]
                                                            : kWideConvolutions[shape % count];
  Recipe r(data, size);
  ModelSpec m;
  TensorSpec in = new_tensor(r, 0, TensorType::INT8, {1, w.height, w.width, w.depth});
  in.type = TensorType::INT8, in.shape = {1, w.height, w.width, w.depth};  // not new_tensor's now-and-then others
  quantize(r, in, true);
  m.tensors.push_back(in);
  m.inputs = {0};
  OpChoices c = choose(r);
  c.filter_h = w.filter_h, c.filter_w = w.filter_w, c.stride_h = c.stride_w = w.stride;
  c.dilation_h = c.dilation_w = w.dilation, c.multiplier = 1, c.out_channels = w.channels, c.keep_dims = false;
  c.padding = w.same ? tflite::Padding::SAME : tflite::Padding::VALID;
  c.activation = r.flag() ? tflite::ActivationFunctionType::RELU : tflite::ActivationFunctionType::NONE;
  m.outputs = {add_listed_op(r, m, 0, focus, c)};
  wide_constants(m, w, focus.kind == OpKind::FullyConnected);
  calibrate_weighted(r, m, focus.kind);
  return build_model(m);
}

std::vector<uint8_t> model_from_recipe(const uint8_t* data, size_t size) {
  Recipe r(data, size);
  ModelSpec m;
  std::vector<int32_t> shape = {1, small_dim(r) * 2, small_dim(r) * 2, small_dim(r)};
  if (r.byte() % 4 == 0) shape = {1, small_dim(r) * 8};
  TensorSpec in = new_tensor(r, 0, r.byte() % 4 == 0 ? TensorType::FLOAT32 : TensorType::INT8, shape);
  quantize(r, in, true);
  m.tensors.push_back(in);
  m.inputs = {0};
  int32_t last = 0;
  const int ops = 1 + r.byte() % 4;
  for (int i = 0; i < ops; ++i) last = add_op(r, m, last);
  m.outputs = {last};
  return build_model(m);
}

const tflite_test::ListedOp* listed_op_named(const std::string& name) {
  for (const ListedOp& listed : kListedOps) {
    if (name == listed.name) return &listed;
  }
  return nullptr;
}

std::vector<uint8_t> focused_model_from_recipe(const tflite_test::ListedOp& focus, const uint8_t* data,
                                               size_t size, bool sixteen_by_eight) {
  if (std::vector<uint8_t> recurrent = recurrent_model_from_recipe(focus, data, size); !recurrent.empty()) {
    return recurrent;
  }
  Recipe r(data, size);
  ModelSpec m;
  const int32_t depth = r.flag() ? 4 * (1 + r.byte() % 16) : small_dim(r);
  TensorSpec in = new_tensor(r, 0, TensorType::INT8, {1, 1 + r.byte() % 16, 1 + r.byte() % 16, depth});
  quantize(r, in, true);
  m.tensors.push_back(in);
  m.inputs = {0};
  OpChoices c = choose(r);
  focus_choices(r, c, in.shape);
  // A transposed convolution's strides are its upsampling: 1, 2 or 3 on each axis; one time in two a filter of
  // one or two strides (the packed kernel's phases as one convolution: microaot/fit/transpose_conv.h).
  if (focus.kind == OpKind::TransposeConv) {
    c.stride_h = 1 + r.byte() % 3, c.stride_w = 1 + r.byte() % 3;
    if (r.flag()) c.filter_h = c.stride_h * (1 + r.byte() % 2), c.filter_w = c.stride_w * (1 + r.byte() % 2);
  }
  m.outputs = {add_listed_op(r, m, 0, focus, c)};
  if (focus.kind == OpKind::BatchMatmul) {
    calibrate_product(m);
  } else {
    calibrate_weighted(r, m, focus.kind);
    const bool binary = focus.kind == OpKind::Add || focus.kind == OpKind::Sub || focus.kind == OpKind::Mul;
    if (sixteen_by_eight) binary ? make_16x16_binary(m, focus.kind == OpKind::Mul) : make_16x8(m, focus.kind);
  }
  return build_model(m);
}

}  // namespace microaot::fuzz
