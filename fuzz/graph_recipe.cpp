#include "graph_recipe.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "frontend/tflite_test_builder.h"

namespace microaot::fuzz {

namespace {
using namespace tflite_test;
using tflite::TensorType;

// Reads the recipe; past the end every read is 0, so any byte string is a recipe.
class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  template <typename T, size_t N>
  T pick(const T (&choices)[N]) { return choices[byte() % N]; }
  bool flag() { return byte() & 1; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

constexpr TensorType kTypes[] = {TensorType::INT8, TensorType::INT8, TensorType::FLOAT32, TensorType::INT32,
                                 TensorType::INT16, TensorType::UINT8};
constexpr int32_t kDims[] = {1, 1, 2, 3, 4, 5, 8, 16, 0, 7, 32, 1000};
constexpr float kScales[] = {0.5f, 0.25f, 1.0f, 0.0078125f, 1.0f / 256, 1e-3f, 10.0f, 0.0f, 1e-30f, 1e30f,
                             -0.5f, 3e38f, 1e-45f};
constexpr int64_t kZeroPoints[] = {0, 0, -128, 127, 5, -1, 128, -32768, 255, 1000};
constexpr int kCodes[] = {0, 1, 3, 4, 6, 9, 17, 22, 25, 114, 43};

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

void set_options(OpSpec& o, int code, const OpChoices& c) {
  switch (code) {
    case 3:
      o.options_type = tflite::BuiltinOptions::Conv2DOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) {
        return tflite::CreateConv2DOptions(b, c.padding, c.stride_w, c.stride_h, c.activation, c.dilation_w,
                                           c.dilation_h).Union();
      };
      break;
    case 4:
      o.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) {
        return tflite::CreateDepthwiseConv2DOptions(b, c.padding, c.stride_w, c.stride_h, c.multiplier,
                                                    c.activation, c.dilation_w, c.dilation_h).Union();
      };
      break;
    case 1:
    case 17:
      o.options_type = tflite::BuiltinOptions::Pool2DOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) {
        return tflite::CreatePool2DOptions(b, c.padding, c.stride_w, c.stride_h, c.filter_w, c.filter_h,
                                           c.activation).Union();
      };
      break;
    case 9:
      o.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) {
        return tflite::CreateFullyConnectedOptions(b, c.activation, tflite::FullyConnectedOptionsWeightsFormat::DEFAULT,
                                                   c.keep_dims).Union();
      };
      break;
    case 0:
      o.options_type = tflite::BuiltinOptions::AddOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) { return tflite::CreateAddOptions(b, c.activation).Union(); };
      break;
    case 25:
      o.options_type = tflite::BuiltinOptions::SoftmaxOptions;
      o.options = [=](flatbuffers::FlatBufferBuilder& b) { return tflite::CreateSoftmaxOptions(b, c.beta).Union(); };
      break;
    default: break;
  }
}

// Adds a constant (weights, bias, second operand) and returns its index.
int32_t add_constant(Recipe& r, ModelSpec& m, TensorType type, std::vector<int32_t> shape, bool per_channel) {
  TensorSpec t = new_tensor(r, m.tensors.size(), type, std::move(shape));
  quantize(r, t, !per_channel);
  t.data = constant_bytes(r, t.type, t.shape);
  m.tensors.push_back(std::move(t));
  return static_cast<int32_t>(m.tensors.size() - 1);
}

// One operator reading `in`; returns the tensor it writes.
int32_t add_op(Recipe& r, ModelSpec& m, int32_t in) {
  const int code = r.pick(kCodes);
  const OpChoices c = choose(r);
  const TensorSpec input = m.tensors[in];
  const TensorType type = input.type;
  const TensorType bias_type = type == TensorType::INT8 ? TensorType::INT32 : type;
  const std::vector<int32_t>& s = input.shape;
  const bool image = s.size() == 4;
  std::vector<int32_t> inputs = {in};
  std::vector<int32_t> out_shape = s;
  if ((code == 3 || code == 4) && image) {
    const int32_t out_c = code == 3 ? small_dim(r) * 2 : s[3] * c.multiplier;
    const std::vector<int32_t> w = code == 3 ? std::vector<int32_t>{out_c, c.filter_h, c.filter_w, s[3]}
                                             : std::vector<int32_t>{1, c.filter_h, c.filter_w, out_c};
    inputs.push_back(add_constant(r, m, type, w, true));
    if (r.byte() % 4 != 0) inputs.push_back(add_constant(r, m, bias_type, {out_c}, false));
    const bool same = c.padding == tflite::Padding::SAME;
    out_shape = {s[0], window_out(s[1], c.filter_h, c.stride_h, c.dilation_h, same),
                 window_out(s[2], c.filter_w, c.stride_w, c.dilation_w, same), out_c};
  } else if ((code == 1 || code == 17) && image) {
    const bool same = c.padding == tflite::Padding::SAME;
    out_shape = {s[0], window_out(s[1], c.filter_h, c.stride_h, 1, same), window_out(s[2], c.filter_w, c.stride_w, 1, same),
                 s[3]};
  } else if (code == 9 && !s.empty()) {
    const int32_t units = small_dim(r) * 3;
    inputs.push_back(add_constant(r, m, type, {units, s.back()}, true));
    if (r.byte() % 4 != 0) inputs.push_back(add_constant(r, m, bias_type, {units}, false));
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < s.size(); ++d) rows *= s[d];
    out_shape = c.keep_dims ? s : std::vector<int32_t>{static_cast<int32_t>(rows), units};
    if (c.keep_dims) out_shape.back() = units;
  } else if (code == 0) {
    std::vector<int32_t> other = s;
    if (!other.empty() && r.flag()) other[r.byte() % other.size()] = 1;  // broadcast
    if (r.flag()) {
      inputs.push_back(add_constant(r, m, type, other, false));
    } else {  // a second graph input
      TensorSpec t = new_tensor(r, m.tensors.size(), type, other);
      quantize(r, t, true);
      m.tensors.push_back(t);
      m.inputs.push_back(static_cast<int32_t>(m.tensors.size() - 1));
      inputs.push_back(m.inputs.back());
    }
  } else if (code == 22 || code == 43) {  // RESHAPE / SQUEEZE: same elements, another shape
    int64_t count = 1;
    for (int32_t d : s) count *= d;
    out_shape = r.flag() ? std::vector<int32_t>{static_cast<int32_t>(count)} : std::vector<int32_t>{1, static_cast<int32_t>(count)};
  }
  if (r.byte() % 16 == 0) inputs.push_back(r.flag() ? -1 : static_cast<int32_t>(r.byte() % m.tensors.size()));
  const TensorType out_type = code == 6 ? TensorType::FLOAT32 : code == 114 && type == TensorType::FLOAT32 ? TensorType::INT8 : type;
  TensorSpec out = new_tensor(r, m.tensors.size(), out_type, out_shape);
  quantize(r, out, true);
  const bool keeps_quant = code == 1 || code == 17 || code == 22 || code == 43;
  if (keeps_quant && out.type == type && r.byte() % 8 != 0) out.scale = input.scale, out.zero_point = input.zero_point;
  if (code == 25 && out.type == TensorType::INT8) out.scale = {1.0f / 256}, out.zero_point = {-128};
  m.tensors.push_back(out);
  const int32_t out_id = static_cast<int32_t>(m.tensors.size() - 1);
  OpSpec o = op(code, r.byte() % 16 == 0 ? r.byte() % 10 : 1 + r.byte() % 3, inputs, {out_id});
  set_options(o, code, c);
  m.ops.push_back(o);
  return out_id;
}
}  // namespace

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

}  // namespace microaot::fuzz
