// Reader tests on built and damaged models: each test breaks one thing in a valid model and checks the
// CompileError names it; truncations and bit flips must give CompileError and never crash (run these
// under -DMICROAOT_SANITIZE=ON).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using tflite_test::build_model;
using tflite_test::bytes_of;
using tflite_test::ModelSpec;
using tflite_test::OpSpec;
using tflite_test::small_fc_model;
using tflite::TensorType;

// The CompileError message of reading `spec`, or "" if it was accepted.
std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    read_tflite(bytes);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}
std::string error_of(const ModelSpec& spec) { return error_of(build_model(spec)); }

#define EXPECT_ERROR_HAS(spec, text) EXPECT_NE(error_of(spec).find(text), std::string::npos) << error_of(spec)

TEST(TfliteReader, ConvertsAValidModel) {
  const Graph g = read_tflite(build_model(small_fc_model()));
  EXPECT_EQ(g.description, "test model");
  ASSERT_EQ(g.tensors.size(), 4u);
  EXPECT_EQ(g.inputs, std::vector<int>{0});
  EXPECT_EQ(g.outputs, std::vector<int>{3});
  const Tensor& w = g.tensor(1);
  EXPECT_EQ(w.name, "weights");
  EXPECT_EQ(w.dtype, DType::kInt8);
  EXPECT_TRUE(w.is_constant);
  EXPECT_EQ(w.data, bytes_of<int8_t>({1, 2, 3, 4, -1, -2, -3, -4}));
  EXPECT_EQ(w.quant.scale, (std::vector<float>{0.25f, 0.125f}));
  EXPECT_EQ(w.quant.axis, 0);
  EXPECT_EQ(g.tensor(2).data, bytes_of<int32_t>({100, -7}));
  EXPECT_FALSE(g.tensor(3).is_constant);
  EXPECT_EQ(g.tensor(3).quant.zero_point, std::vector<int64_t>{3});
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::FullyConnected);
  EXPECT_EQ(g.ops[0].version, 4);
  EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(options_if<FullyConnectedOptions>(g.ops[0])->activation, Activation::kRelu);
}

TEST(TfliteReader, AbsentOptionalInputBecomesNoTensor) {
  ModelSpec m = small_fc_model();
  m.ops[0].inputs = {0, 1, -1};
  EXPECT_EQ(read_tflite(build_model(m)).ops[0].inputs, (std::vector<int>{0, 1, kNoTensor}));
}

TEST(TfliteReader, ListsEveryUnsupportedOperatorInOneError) {
  ModelSpec m = small_fc_model();
  m.ops.push_back(tflite_test::op(16, 1, {3}, {}));
  m.ops.push_back(tflite_test::op(32, 1, {3}, {}, "MyOp"));
  m.ops.push_back(tflite_test::op(150, 2, {3}, {}));  // above 127: the byte field holds the placeholder
  EXPECT_EQ(error_of(m),
            "unsupported operators:\n"
            "  op 1: LSTM (code 16), version 1 (or convert the Keras LSTM layer to UNIDIRECTIONAL_SEQUENCE_LSTM, the "
            "TFLite converter's default)\n"
            "  op 2: custom operator 'MyOp', version 1 (custom: needs --custom-op)\n"
            "  op 3: GELU (code 150), version 2 (or write it out in the model with TANH, MUL and ADD (GELU's tanh "
            "form) before converting)\n"
            "What to do: bind each to a C function of yours with --custom-op NAME=HEADER,function=FN[,scratch=BYTES], "
            "e.g. --custom-op LSTM=lstm.h,function=my_lstm (examples/custom-op/README.md); `microaot inspect "
            "--supported` lists the operators microaot compiles.");
}

TEST(TfliteReader, OtherSubgraphsAreIgnored) {
  ModelSpec m = small_fc_model();
  m.extra_subgraphs = 2;
  EXPECT_EQ(read_tflite(build_model(m)).ops.size(), 1u);
}

TEST(TfliteReader, RefusesOutOfRangeTensorIndices) {
  ModelSpec m = small_fc_model();
  m.ops[0].inputs[1] = 99;
  EXPECT_ERROR_HAS(m, "input of FULLY_CONNECTED (op 0), position 1 is tensor index 99, but the subgraph has 4");
  m = small_fc_model();
  m.ops[0].outputs[0] = -1;
  EXPECT_ERROR_HAS(m, "output of FULLY_CONNECTED (op 0), position 0 is tensor index -1");
  m = small_fc_model();
  m.inputs = {4};
  EXPECT_ERROR_HAS(m, "graph input 0 is tensor index 4");
}

TEST(TfliteReader, RefusesConstantOfTheWrongLength) {
  ModelSpec m = small_fc_model();
  m.tensors[1].data.pop_back();
  EXPECT_ERROR_HAS(m, "constant tensor 'weights' (tensor 1) holds 7 bytes, but its shape [2, 4] of int8 needs 8");
}

TEST(TfliteReader, ReadsExternalBufferData) {
  // The flatbuffer's size does not depend on the offset's value, so build once to learn it.
  ModelSpec m = small_fc_model();
  m.tensors[1].offset = 2;
  m.tensors[1].size = 8;
  const std::vector<uint8_t> weights = m.tensors[1].data;
  m.tensors[1].data.clear();
  const size_t at = (build_model(m).size() + 15) / 16 * 16;
  m.tensors[1].offset = at;
  std::vector<uint8_t> file = build_model(m);
  file.resize(at);
  file.insert(file.end(), weights.begin(), weights.end());
  EXPECT_EQ(read_tflite(file).tensor(1).data, weights);
  file.pop_back();
  EXPECT_NE(error_of(file).find("buffer 1 of tensor 'weights' (tensor 1) lies outside the file"), std::string::npos)
      << error_of(file);
}

TEST(TfliteReader, RefusesReadBeforeWriteAndDoubleWrites) {
  ModelSpec m = small_fc_model();
  m.tensors.push_back(tflite_test::activation("later", {1, 4}, 0.5f, 0));
  m.ops[0].inputs[0] = 4;
  EXPECT_ERROR_HAS(m, "tensor 'later' (tensor 4) is read by FULLY_CONNECTED (op 0) before it is written");
  m = small_fc_model();
  m.ops.push_back(m.ops[0]);
  EXPECT_ERROR_HAS(m, "tensor 'out' (tensor 3) is written twice, by FULLY_CONNECTED (op 0) and by "
                      "FULLY_CONNECTED (op 1)");
  m = small_fc_model();
  m.ops[0].outputs = {1};
  EXPECT_ERROR_HAS(m, "FULLY_CONNECTED (op 0) writes constant 'weights' (tensor 1)");
  m = small_fc_model();
  m.inputs = {1};
  EXPECT_ERROR_HAS(m, "graph input 'weights' (tensor 1) is a constant");
}

TEST(TfliteReader, RefusesFusedActivationsItCannotClamp) {
  ModelSpec m = small_fc_model();
  m.ops[0].options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateFullyConnectedOptions(fbb, tflite::ActivationFunctionType::TANH).Union();
  };
  EXPECT_ERROR_HAS(m, "FULLY_CONNECTED (op 0): fused activation TANH is not supported");
}

TEST(TfliteReader, RefusesConvWithoutOptionsOrWithZeroStride) {
  ModelSpec m = small_fc_model();
  m.ops[0].code = 3;
  m.ops[0].options_type = tflite::BuiltinOptions::NONE;
  EXPECT_ERROR_HAS(m, "CONV_2D (op 0): missing Conv2DOptions");
  m.ops[0].options_type = tflite::BuiltinOptions::Conv2DOptions;
  m.ops[0].options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 0, 1).Union();
  };
  EXPECT_ERROR_HAS(m, "CONV_2D (op 0): stride_w is 0, must be at least 1");
}

TEST(TfliteReader, ChecksQuantizationConsistency) {
  ModelSpec m = small_fc_model();
  m.tensors[1].zero_point = {0, 0, 0};
  EXPECT_ERROR_HAS(m, "tensor 'weights' (tensor 1) has 2 quantization scales but 3 zero points");
  m = small_fc_model();
  m.tensors[1].axis = 1;
  EXPECT_ERROR_HAS(m, "'weights' (tensor 1) has 2 per-channel scales but dimension 1 of shape [2, 4] has size 4");
  m = small_fc_model();
  m.tensors[1].axis = 5;
  EXPECT_ERROR_HAS(m, "quantized per channel along dimension 5");
  m = small_fc_model();
  m.tensors[0].scale = {std::numeric_limits<float>::quiet_NaN()};
  EXPECT_ERROR_HAS(m, "tensor 'in' (tensor 0) has a quantization scale that is not finite");
}

TEST(TfliteReader, ChecksShapesAndTypes) {
  ModelSpec m = small_fc_model();
  m.tensors[3].shape = {1, -1};
  EXPECT_ERROR_HAS(m, "tensor 'out' (tensor 3) has shape [1, -1] with an unknown (negative) dimension");
  m = small_fc_model();
  m.tensors[3].shape = {65536, 65536, 65536, 65536};
  EXPECT_ERROR_HAS(m, "has 2 GiB or more");
  m = small_fc_model();
  m.tensors[3].type = static_cast<TensorType>(42);
  EXPECT_ERROR_HAS(m, "tensor 'out' (tensor 3) has unknown element type 42");
  m = small_fc_model();
  m.tensors[3].type = TensorType::FLOAT16;
  EXPECT_ERROR_HAS(m, "tensor 'out' (tensor 3) used by FULLY_CONNECTED (op 0) has element type FLOAT16");
  m = small_fc_model();
  m.tensors[0].variable = true;
  EXPECT_ERROR_HAS(m, "is a variable (stateful) tensor");
}

TEST(TfliteReader, ChecksVersionAndIdentifier) {
  ModelSpec m = small_fc_model();
  m.version = 2;
  EXPECT_ERROR_HAS(m, "unsupported .tflite schema version 2");
  std::vector<uint8_t> bytes = build_model(small_fc_model());
  std::copy_n("ABCD", 4, bytes.begin() + 4);
  EXPECT_EQ(error_of(bytes), "not a .tflite model: file identifier is 'ABCD', expected 'TFL3'");
  m = small_fc_model();
  m.identifier = false;  // a flatbuffer written without identifier is still a model
  EXPECT_EQ(read_tflite(build_model(m)).ops.size(), 1u);
  EXPECT_NE(error_of(std::vector<uint8_t>(8, 0)).find("too small"), std::string::npos);
}

// Every damaged file must give a CompileError or a graph: no crash, no other exception.
void expect_survives(const std::vector<uint8_t>& bytes, int* errors) {
  try {
    read_tflite(bytes);
  } catch (const CompileError&) {
    ++*errors;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception: " << e.what();
  }
}

std::vector<std::vector<uint8_t>> fuzz_seeds() {
  std::vector<std::vector<uint8_t>> seeds = {build_model(small_fc_model())};
  const std::filesystem::path models = std::filesystem::path(MICROAOT_SHARED_DIR) / "models";
  for (const char* name : {"hello_world_int8", "simple_add_int8", "micro_speech_int8"}) {
    std::ifstream in(models / name / "model.tflite", std::ios::binary);
    if (in) seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return seeds;
}

TEST(TfliteReaderFuzz, TruncatedFilesAreRefused) {
  for (const std::vector<uint8_t>& seed : fuzz_seeds()) {
    const size_t step = std::max<size_t>(1, seed.size() / 2000);
    int errors = 0, tries = 0;
    for (size_t len = 0; len < seed.size(); len += step, ++tries) {
      expect_survives(std::vector<uint8_t>(seed.begin(), seed.begin() + static_cast<ptrdiff_t>(len)), &errors);
    }
    EXPECT_EQ(errors, tries) << "a truncated model was accepted";
  }
}

TEST(TfliteReaderFuzz, BitFlipsNeverCrash) {
  uint32_t state = 12345;  // xorshift32: the same flips on every run
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  for (const std::vector<uint8_t>& seed : fuzz_seeds()) {
    int errors = 0;
    for (int round = 0; round < 3000; ++round) {
      std::vector<uint8_t> bytes = seed;
      const int flips = 1 + static_cast<int>(next() % 4);
      for (int f = 0; f < flips; ++f) bytes[next() % bytes.size()] ^= static_cast<uint8_t>(1u << (next() % 8));
      expect_survives(bytes, &errors);
    }
    EXPECT_GT(errors, 0);
  }
}

}  // namespace
}  // namespace microaot
