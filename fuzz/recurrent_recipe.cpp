// The focused models of the recurrent operators (graph_recipe.h): one int8 UNIDIRECTIONAL_SEQUENCE_LSTM or SVDF
// with its state as variable tensors, sizes from the recipe's bytes (odd input and state sizes, time-major or
// batch-major, several batches and steps, ranks and memories, SVDF units past the DSP kernels' chunks of 16),
// weights and biases its bytes, scales that keep the gates and sums mostly within their ranges. The quantization
// follows TFLite's converter: the LSTM's gates Q3.12 through its weight and bias scales, its cell a power of two;
// the SVDF's bias at state x weights_time.
#include <cmath>
#include <cstring>
#include <string>

#include "graph_recipe.h"
#include "recipe.h"

namespace microaot::fuzz {
namespace {
using namespace tflite_test;
using tflite::TensorType;

int32_t add_tensor(ModelSpec& m, TensorType type, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  TensorSpec t;
  t.name = "t" + std::to_string(m.tensors.size());
  t.type = type;
  t.shape = std::move(shape);
  t.scale = {scale};
  t.zero_point = {zero_point};
  m.tensors.push_back(std::move(t));
  return static_cast<int32_t>(m.tensors.size() - 1);
}

// A constant of `count` elements of `element` bytes: each element's low byte from the recipe, its higher bytes
// its sign (int8 weights: any value; wider: a small value).
int32_t add_constant(Recipe& b, ModelSpec& m, TensorType type, std::vector<int32_t> shape, float scale, size_t element) {
  size_t count = 1;
  for (int32_t d : shape) count *= static_cast<size_t>(d);
  const int32_t id = add_tensor(m, type, std::move(shape), scale, 0);
  std::vector<uint8_t>& data = m.tensors[static_cast<size_t>(id)].data;
  for (size_t k = 0; k < count; ++k) {
    const uint8_t low = b.byte();
    data.push_back(low);
    for (size_t e = 1; e < element; ++e) data.push_back(low & 0x80 ? 0xFF : 0);
  }
  return id;
}

int32_t add_variable(ModelSpec& m, TensorType type, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  const int32_t id = add_tensor(m, type, std::move(shape), scale, zero_point);
  m.tensors[static_cast<size_t>(id)].variable = true;
  return id;
}

// `wide_input`: the input size (0: drawn from 1 to 40).
std::vector<uint8_t> lstm_model(Recipe& b, const ListedOp& listed, int32_t wide_input) {
  const int32_t batches = b.in(1, 3), steps = b.in(1, 6), input = wide_input > 0 ? wide_input : b.in(1, 40);
  const int32_t state = b.in(1, 24);
  const bool time_major = b.byte() % 2 == 1;
  ModelSpec m;
  const float input_scale = 0.02f * static_cast<float>(b.in(1, 8));
  const int32_t x = add_tensor(m, TensorType::INT8, time_major ? std::vector<int32_t>{steps, batches, input}
                                                               : std::vector<int32_t>{batches, steps, input},
                               input_scale, b.in(-20, 20));
  std::vector<int32_t> inputs(24, -1);
  inputs[0] = x;
  const float hidden_scale = 1.0f / 128;
  for (int gate = 0; gate < 4; ++gate) {
    // a gate's sums of random terms near a few units of Q3.12: the weight scale over the root of the depth
    const float wi = 4.0f / (input_scale * 128 * 128 * std::sqrt(static_cast<float>(input)));
    inputs[1 + gate] = add_constant(b, m, TensorType::INT8, {state, input}, wi, 1);
    inputs[5 + gate] = add_constant(b, m, TensorType::INT8, {state, state},
                                     2.0f / (hidden_scale * 128 * 128 * std::sqrt(static_cast<float>(state))), 1);
    inputs[12 + gate] = add_constant(b, m, TensorType::INT32, {state}, input_scale * wi, 4);
  }
  inputs[18] = add_variable(m, TensorType::INT8, {batches, state}, hidden_scale, b.in(-3, 3));
  inputs[19] = add_variable(m, TensorType::INT16, {batches, state}, std::ldexp(1.0f, -b.in(9, 13)), 0);
  const int32_t out = add_tensor(m, TensorType::INT8, {m.tensors[0].shape[0], m.tensors[0].shape[1], state},
                                 hidden_scale, m.tensors[static_cast<size_t>(inputs[18])].zero_point[0]);
  OpSpec o = listed_op_spec(listed, inputs, {out});
  const float clip = b.byte() % 2 == 0 ? 0.0f : 0.5f * static_cast<float>(b.in(1, 8));
  o.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateUnidirectionalSequenceLSTMOptions(fbb, tflite::ActivationFunctionType::TANH, clip, 0.0f,
                                                           time_major)
        .Union();
  };
  m.ops.push_back(std::move(o));
  m.inputs = {x};
  m.outputs = {out};
  return build_model(m);
}

std::vector<uint8_t> svdf_model(Recipe& b, const ListedOp& listed, int32_t wide_input) {
  // a third of the layers past the DSP kernels' chunks of 16 units, half the memories whole words of int8
  const int32_t batches = b.in(1, 2), input = wide_input > 0 ? wide_input : b.in(1, 40);
  const int32_t units = b.byte() % 3 == 0 ? b.in(17, 20) : b.in(1, 12);
  const int32_t rank = b.in(1, 3), memory = b.byte() % 2 == 0 ? 4 * b.in(1, 3) : b.in(1, 12), filters = units * rank;
  const bool wide = b.byte() % 2 == 0;
  const TensorType state_type = wide ? TensorType::INT16 : TensorType::INT8;
  ModelSpec m;
  const float input_scale = 0.05f, feature_scale = 0.008f, state_scale = wide ? 0.002f : 0.15f;
  const float time_scale = wide ? 1.0f / (32 * 128) : 0.01f;
  const int32_t x = add_tensor(m, TensorType::INT8, {batches, input}, input_scale, b.in(-20, 20));
  const int32_t features = add_constant(b, m, TensorType::INT8, {filters, input}, feature_scale, 1);
  const int32_t time = add_constant(b, m, state_type, {filters, memory}, time_scale, wide ? 2 : 1);
  const int32_t bias = b.byte() % 4 == 0 ? -1 : add_constant(b, m, TensorType::INT32, {units}, state_scale * time_scale, 4);
  const int32_t state = add_variable(m, state_type, {batches, memory * filters}, state_scale, wide ? 0 : b.in(-10, 10));
  const float out_scale = state_scale * time_scale * 128 * 40 * std::sqrt(static_cast<float>(memory * rank));
  const int32_t out = add_tensor(m, TensorType::INT8, {batches, units}, out_scale, b.in(-5, 5));
  OpSpec o = listed_op_spec(listed, {x, features, time, bias, state}, {out});
  o.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateSVDFOptions(fbb, rank, tflite::ActivationFunctionType::NONE).Union();
  };
  m.ops.push_back(std::move(o));
  m.inputs = {x};
  m.outputs = {out};
  return build_model(m);
}

}  // namespace

std::vector<uint8_t> recurrent_model_from_recipe(const ListedOp& focus, const uint8_t* data, size_t size,
                                                 int32_t wide_input) {
  Recipe b(data, size);
  if (focus.kind == OpKind::UnidirectionalSequenceLstm) return lstm_model(b, focus, wide_input);
  if (focus.kind == OpKind::Svdf) return svdf_model(b, focus, wide_input);
  return {};
}

}  // namespace microaot::fuzz
