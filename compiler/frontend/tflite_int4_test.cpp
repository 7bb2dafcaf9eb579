// TFLite's int4 weights (two a byte, the lower nibble first, sign-extended): a model with packed int4 weights reads
// back as its int8 twin, compiles to the same C, and int4 tensors without constant data or of the wrong packed
// size are refused naming the tensor.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compile/compile_model.h"
#include "frontend/model_reader.h"
#include "frontend/read_model_test_util.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;

// small_fc_model with 5 units of 7 inputs (35 weights: an odd count, so the last byte holds one) in [-8, 7].
ModelSpec fc_model(std::vector<int8_t>* weights) {
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> weight(-8, 7);
  weights->clear();
  for (int k = 0; k < 35; ++k) weights->push_back(static_cast<int8_t>(k < 2 ? (k == 0 ? -8 : 7) : weight(rng)));
  ModelSpec m = small_fc_model();
  m.tensors[0] = activation("in", {1, 7}, 0.5f, -1);
  m.tensors[1] = constant("weights", tflite::TensorType::INT8, {5, 7}, std::vector<float>(5, 0.1f), bytes_of(*weights));
  m.tensors[2] = constant("bias", tflite::TensorType::INT32, {5}, std::vector<float>(5, 0.05f),
                          bytes_of<int32_t>({100, -7, 30, 0, -700}));
  m.tensors[3] = activation("out", {1, 5}, 0.7f, 3);
  return m;
}

// The int8 values packed as TFLite packs int4: value 2k in the lower nibble of byte k, value 2k + 1 in the upper.
std::vector<uint8_t> pack_int4(const std::vector<int8_t>& values) {
  std::vector<uint8_t> packed((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    packed[i / 2] = static_cast<uint8_t>(packed[i / 2] | (static_cast<uint8_t>(values[i]) & 0xF) << (i % 2 ? 4 : 0));
  }
  return packed;
}

ModelSpec int4_twin(const ModelSpec& plain, const std::vector<int8_t>& weights) {
  ModelSpec m = plain;
  m.tensors[1].type = tflite::TensorType::INT4;
  m.tensors[1].data = pack_int4(weights);
  return m;
}

TEST(TfliteInt4, PackedWeightsReadAsTheirInt8Twin) {
  std::vector<int8_t> weights;
  const ModelSpec plain = fc_model(&weights);
  const Graph want = read_model(build_model(plain)), got = read_model(build_model(int4_twin(plain, weights)));
  const Tensor& w = got.tensor(got.ops[0].inputs[1]);
  EXPECT_EQ(w.dtype, DType::kInt8);
  EXPECT_TRUE(w.is_constant);
  EXPECT_EQ(w.data, want.tensor(want.ops[0].inputs[1]).data);
  EXPECT_EQ(w.quant.scale, want.tensor(want.ops[0].inputs[1]).quant.scale);
}

TEST(TfliteInt4, CompilesToTheSameKernelsAndConstantsAsItsInt8Twin) {
  std::vector<int8_t> weights;
  const ModelSpec plain = fc_model(&weights);
  for (const bool balanced : {false, true}) {
    CompileOptions options;
    options.target.optimize_balanced = balanced;
    const CompiledModel want = compile_model(build_model(plain), options);
    const CompiledModel got = compile_model(build_model(int4_twin(plain, weights)), options);
    ASSERT_EQ(got.calls.size(), want.calls.size());
    for (size_t i = 0; i < got.calls.size(); ++i) EXPECT_EQ(got.calls[i].stem, want.calls[i].stem);
    ASSERT_EQ(got.graph.tensors.size(), want.graph.tensors.size());
    for (size_t i = 0; i < got.graph.tensors.size(); ++i) {
      EXPECT_EQ(got.graph.tensors[i].data, want.graph.tensors[i].data) << got.graph.tensors[i].name;
    }
  }
}

TEST(TfliteInt4, RefusesWrongSizesAndTensorsWithoutData) {
  std::vector<int8_t> weights;
  const ModelSpec plain = fc_model(&weights);
  ModelSpec short_data = int4_twin(plain, weights);
  short_data.tensors[1].data.pop_back();
  EXPECT_NE(read_error(short_data).find("int4 tensor 'weights'"), std::string::npos) << read_error(short_data);
  EXPECT_NE(read_error(short_data).find("packs into 18"), std::string::npos) << read_error(short_data);
  ModelSpec unpacked = int4_twin(plain, weights);
  unpacked.tensors[1].data = bytes_of(weights);  // int8 bytes under an int4 type
  EXPECT_NE(read_error(unpacked).find("holds 35 bytes"), std::string::npos) << read_error(unpacked);
  ModelSpec activation_int4 = plain;
  activation_int4.tensors[0].type = tflite::TensorType::INT4;
  EXPECT_NE(read_error(activation_int4).find("int4 without constant data"), std::string::npos)
      << read_error(activation_int4);
}

}  // namespace
}  // namespace microaot
