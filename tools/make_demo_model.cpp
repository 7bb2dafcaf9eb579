// make_demo_model: writes a small int8 CNN as a real .tflite file, the way the TFLite converter lays one
// out (per-channel int8 weights, int32 biases, both opcode fields, op versions), so that the compiler can
// be demonstrated and tested without downloading anything. The output is byte-for-byte deterministic.
//
//   input 1x16x16x1 -> CONV_2D 3x3x8 s2 SAME relu -> DEPTHWISE_CONV_2D 3x3 SAME relu6
//     -> AVERAGE_POOL_2D 8x8 -> RESHAPE 1x8 -> FULLY_CONNECTED 4 -> SOFTMAX (int8, 1/256, -128)
//
// Usage: make_demo_model OUT.tflite
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "tflite_schema_generated.h"

namespace {

// xorshift32 with a fixed seed: weights are the same on every machine and run.
class Rng {
 public:
  float uniform(float lo, float hi) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return lo + (hi - lo) * static_cast<float>(state_ >> 8) / static_cast<float>(1u << 24);
  }

 private:
  uint32_t state_ = 0x2545F491u;
};

struct Quant {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int axis = 0;
};

// Quantized weights: per channel along an axis whose `inner` elements are contiguous per channel.
struct Weights {
  std::vector<float> real;  // the dequantized values, used to derive activation ranges
  std::vector<int8_t> q;
  Quant quant;
};

Weights make_weights(Rng& rng, size_t count, int channels, size_t inner, int axis) {
  Weights w;
  std::vector<float> raw(count);
  for (float& v : raw) v = rng.uniform(-1.0f, 1.0f);
  std::vector<float> max_abs(channels, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    float& m = max_abs[(i / inner) % channels];
    m = std::max(m, std::fabs(raw[i]));
  }
  for (int c = 0; c < channels; ++c) {
    w.quant.scale.push_back(max_abs[c] / 127.0f);  // symmetric, as the converter makes weights
    w.quant.zero_point.push_back(0);
  }
  w.quant.axis = axis;
  for (size_t i = 0; i < count; ++i) {
    const float scale = w.quant.scale[(i / inner) % channels];
    const long q = std::lround(raw[i] / scale);
    w.q.push_back(static_cast<int8_t>(std::clamp(q, -127L, 127L)));
    w.real.push_back(static_cast<float>(w.q.back()) * scale);
  }
  return w;
}

// Biases quantized with scale input_scale * weight_scale[c] (one scale when the weights have one), zero
// point 0.
std::vector<int32_t> make_bias(Rng& rng, float input_scale, const Quant& weights, int channels, Quant* quant) {
  for (float weight_scale : weights.scale) {
    quant->scale.push_back(input_scale * weight_scale);
    quant->zero_point.push_back(0);
  }
  std::vector<int32_t> bias;
  for (int c = 0; c < channels; ++c) {
    const float scale = quant->scale[quant->scale.size() == 1 ? 0 : c];
    bias.push_back(static_cast<int32_t>(std::lround(rng.uniform(-0.1f, 0.1f) / scale)));
  }
  return bias;
}

// The smallest and largest output, over all output channels, of a layer whose input lies in [0, in_max]
// (bias excluded). Channel of weight i: (i / inner) % channels.
void output_range(const Weights& w, size_t inner, int channels, float in_max, float* lo, float* hi) {
  *lo = 0.0f;
  *hi = 0.0f;
  for (int c = 0; c < channels; ++c) {
    float pos = 0.0f, neg = 0.0f;
    for (size_t i = 0; i < w.real.size(); ++i) {
      if (static_cast<int>((i / inner) % channels) != c) continue;
      (w.real[i] > 0 ? pos : neg) += w.real[i] * in_max;
    }
    *hi = std::max(*hi, pos);
    *lo = std::min(*lo, neg);
  }
}

// Activation quantization covering [lo, hi] (which includes 0) with int8.
Quant activation_quant(float lo, float hi) {
  const float scale = (hi - lo) / 255.0f;
  const long zero_point = std::clamp(std::lround(-128.0 - lo / scale), -128L, 127L);
  return Quant{{scale}, {zero_point}, 0};
}

template <typename T>
std::vector<uint8_t> le_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out;
  for (T v : values) {
    const auto bits = static_cast<std::make_unsigned_t<T>>(v);
    for (size_t b = 0; b < sizeof(T); ++b) out.push_back(static_cast<uint8_t>(bits >> (8 * b)));
  }
  return out;
}

// Accumulates tensors, buffers, operator codes and operators, then finishes the model.
class ModelWriter {
 public:
  flatbuffers::FlatBufferBuilder fbb;

  ModelWriter() { buffers_.push_back(tflite::CreateBuffer(fbb)); }  // buffer 0: the empty sentinel

  // Like the converter, every tensor gets its own buffer, empty unless the tensor is constant.
  int tensor(const std::string& name, tflite::TensorType type, const std::vector<int32_t>& shape, const Quant& q,
             const std::vector<uint8_t>& data = {}) {
    const auto buffer = static_cast<uint32_t>(buffers_.size());
    buffers_.push_back(data.empty() ? tflite::CreateBuffer(fbb) : tflite::CreateBufferDirect(fbb, &data));
    auto quant = tflite::CreateQuantizationParameters(fbb, fbb.CreateVector(q.scale), fbb.CreateVector(q.zero_point),
                                                      tflite::QuantizationDetails::NONE, 0, q.axis);
    tensors_.push_back(tflite::CreateTensor(fbb, fbb.CreateVector(shape), type, buffer, fbb.CreateString(name), quant));
    return static_cast<int>(tensors_.size()) - 1;
  }

  // Codes below 127 go in both fields, as current converters write them.
  void op(int code, int version, const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
          tflite::BuiltinOptions type, flatbuffers::Offset<void> options) {
    operators_.push_back(tflite::CreateOperator(fbb, opcode(code, version), fbb.CreateVector(inputs),
                                                fbb.CreateVector(outputs), type, options));
  }

  void finish(const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs) {
    auto subgraph = tflite::CreateSubGraph(fbb, fbb.CreateVector(tensors_), fbb.CreateVector(inputs),
                                           fbb.CreateVector(outputs), fbb.CreateVector(operators_),
                                           fbb.CreateString("main"));
    auto model = tflite::CreateModel(fbb, 3, fbb.CreateVector(codes_), fbb.CreateVector(&subgraph, 1),
                                     fbb.CreateString("microaot demo model"), fbb.CreateVector(buffers_));
    tflite::FinishModelBuffer(fbb, model);
  }

 private:
  uint32_t opcode(int code, int version) {
    for (size_t i = 0; i < code_keys_.size(); ++i) {
      if (code_keys_[i] == code) return static_cast<uint32_t>(i);
    }
    code_keys_.push_back(code);
    codes_.push_back(tflite::CreateOperatorCode(fbb, static_cast<int8_t>(code), 0, version, code));
    return static_cast<uint32_t>(codes_.size()) - 1;
  }

  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers_;
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors_;
  std::vector<flatbuffers::Offset<tflite::Operator>> operators_;
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes_;
  std::vector<int> code_keys_;
};

std::vector<uint8_t> s8_bytes(const std::vector<int8_t>& q) { return le_bytes(q); }

void build(ModelWriter& m) {
  using tflite::TensorType;
  using BO = tflite::BuiltinOptions;
  Rng rng;
  auto& fbb = m.fbb;
  const Quant in_q{{1.0f / 255.0f}, {-128}, 0};  // an image in [0, 1]
  const int input = m.tensor("input", TensorType::INT8, {1, 16, 16, 1}, in_q);

  // CONV_2D: OHWI weights [8,3,3,1], per channel along axis 0.
  Weights w1 = make_weights(rng, 8 * 9, 8, 9, 0);
  Quant b1q;
  const std::vector<int32_t> b1 = make_bias(rng, in_q.scale[0], w1.quant, 8, &b1q);
  float lo, hi;
  output_range(w1, 9, 8, 1.0f, &lo, &hi);
  const Quant c1q = activation_quant(0.0f, hi + 0.1f);  // relu: [0, hi], plus room for the bias
  const int w1t = m.tensor("conv1/weights", TensorType::INT8, {8, 3, 3, 1}, w1.quant, s8_bytes(w1.q));
  const int b1t = m.tensor("conv1/bias", TensorType::INT32, {8}, b1q, le_bytes(b1));
  const int c1 = m.tensor("conv1/Relu", TensorType::INT8, {1, 8, 8, 8}, c1q);
  m.op(3, 3, {input, w1t, b1t}, {c1}, BO::Conv2DOptions,
       tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 2, 2, tflite::ActivationFunctionType::RELU).Union());

  // DEPTHWISE_CONV_2D: weights [1,3,3,8], per channel along axis 3.
  Weights w2 = make_weights(rng, 9 * 8, 8, 1, 3);
  Quant b2q;
  const std::vector<int32_t> b2 = make_bias(rng, c1q.scale[0], w2.quant, 8, &b2q);
  output_range(w2, 1, 8, c1q.scale[0] * 255.0f, &lo, &hi);
  const Quant c2q = activation_quant(0.0f, std::min(hi + 0.1f, 6.0f));  // relu6: [0, min(hi, 6)]
  const int w2t = m.tensor("dw1/weights", TensorType::INT8, {1, 3, 3, 8}, w2.quant, s8_bytes(w2.q));
  const int b2t = m.tensor("dw1/bias", TensorType::INT32, {8}, b2q, le_bytes(b2));
  const int c2 = m.tensor("dw1/Relu6", TensorType::INT8, {1, 8, 8, 8}, c2q);
  m.op(4, 3, {c1, w2t, b2t}, {c2}, BO::DepthwiseConv2DOptions,
       tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 1, 1, 1, tflite::ActivationFunctionType::RELU6)
           .Union());

  // AVERAGE_POOL_2D over the whole 8x8 map, and RESHAPE to [1, 8]: both keep the input's quantization.
  const int pool = m.tensor("pool/AvgPool", TensorType::INT8, {1, 1, 1, 8}, c2q);
  m.op(1, 2, {c2}, {pool}, BO::Pool2DOptions,
       tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, 8, 8, 8, 8).Union());
  const int shape = m.tensor("flatten/shape", TensorType::INT32, {2}, Quant{}, le_bytes(std::vector<int32_t>{1, 8}));
  const int flat = m.tensor("flatten/Reshape", TensorType::INT8, {1, 8}, c2q);
  m.op(22, 1, {pool, shape}, {flat}, BO::ReshapeOptions,
       tflite::CreateReshapeOptions(fbb, fbb.CreateVector(std::vector<int32_t>{1, 8})).Union());

  // FULLY_CONNECTED: weights [4, 8], one scale for the tensor.
  const float pooled_max = c2q.scale[0] * static_cast<float>(127 - c2q.zero_point[0]);
  Weights w3 = make_weights(rng, 4 * 8, 1, 32, 0);
  Quant b3q;
  const std::vector<int32_t> b3 = make_bias(rng, c2q.scale[0], w3.quant, 4, &b3q);
  output_range(w3, 8, 4, pooled_max, &lo, &hi);
  const Quant fcq = activation_quant(lo - 0.1f, hi + 0.1f);  // room for the bias
  const int w3t = m.tensor("dense/weights", TensorType::INT8, {4, 8}, w3.quant, s8_bytes(w3.q));
  const int b3t = m.tensor("dense/bias", TensorType::INT32, {4}, b3q, le_bytes(b3));
  const int fc = m.tensor("dense/MatMul", TensorType::INT8, {1, 4}, fcq);
  m.op(9, 4, {flat, w3t, b3t}, {fc}, BO::FullyConnectedOptions, tflite::CreateFullyConnectedOptions(fbb).Union());

  const int out = m.tensor("output", TensorType::INT8, {1, 4}, Quant{{1.0f / 256.0f}, {-128}, 0});
  m.op(25, 2, {fc}, {out}, BO::SoftmaxOptions, tflite::CreateSoftmaxOptions(fbb, 1.0f).Union());
  m.finish({input}, {out});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.tflite\n", argv[0]);
    return 2;
  }
  ModelWriter writer;
  build(writer);
  std::FILE* file = std::fopen(argv[1], "wb");
  if (file == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  const size_t size = writer.fbb.GetSize();
  const bool ok = std::fwrite(writer.fbb.GetBufferPointer(), 1, size, file) == size;
  if (std::fclose(file) != 0 || !ok) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
