// Hostile-input checks added for issue 5: NaN weights, cycles and self-reads, rank, tensor and arena
// size limits, and shared flatbuffer data that would make a small file expand without bound.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;
using tflite::TensorType;

std::string error_of(const std::vector<uint8_t>& bytes, bool whole_compile = false) {
  try {
    if (whole_compile) {
      compile_model(bytes, CompileOptions{});
    } else {
      read_tflite(bytes);
    }
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_HAS(message, text) EXPECT_NE((message).find(text), std::string::npos) << (message)

// small_fc_model() with float32 tensors and the given weights.
ModelSpec float_fc_model(const std::vector<float>& weights) {
  ModelSpec m = small_fc_model();
  for (TensorSpec& t : m.tensors) {
    t.type = TensorType::FLOAT32;
    t.scale.clear();
    t.zero_point.clear();
  }
  m.tensors[1].data = bytes_of<float>(weights);
  m.tensors[2].data = bytes_of<float>({0.5f, -0.5f});
  return m;
}

TEST(TfliteLimits, RefusesNanWeightsButKeepsInfinities) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(error_of(build_model(float_fc_model({1, 2, nan, 4, 5, 6, 7, 8}))),
            "constant tensor 'weights' (tensor 1) holds NaN at element 2");
  EXPECT_EQ(error_of(build_model(float_fc_model({1, 2, inf, 4, 5, 6, 7, -inf}))), "");
}

TEST(TfliteLimits, NamesTheWriterOfATensorReadTooEarly) {
  // op 0 reads 'mid', which op 1 writes from op 0's output: a cycle no order can run.
  ModelSpec m = small_fc_model();
  m.tensors.push_back(activation("mid", {1, 4}, 0.5f, 0));  // tensor 4
  m.ops[0].inputs = {4, 1, 2};
  OpSpec back = m.ops[0];
  back.inputs = {3, 1, 2};
  back.outputs = {4};
  m.ops.push_back(back);
  EXPECT_EQ(error_of(build_model(m)),
            "tensor 'mid' (tensor 4) is read by FULLY_CONNECTED (op 0) before it is written (by FULLY_CONNECTED "
            "(op 1); operators must be listed in execution order and may not form a cycle)");
}

TEST(TfliteLimits, RefusesAnOperatorThatReadsItsOwnOutput) {
  ModelSpec m = small_fc_model();
  m.ops[0].inputs = {3, 1, 2};
  EXPECT_EQ(error_of(build_model(m)),
            "tensor 'out' (tensor 3) is read by FULLY_CONNECTED (op 0) before it is written (it is also its "
            "output; operators must be listed in execution order and may not form a cycle)");
}

TEST(TfliteLimits, RefusesATensorNobodyWrites) {
  ModelSpec m = small_fc_model();
  m.tensors.push_back(activation("orphan", {1, 4}, 0.5f, 0));
  m.ops[0].inputs = {4, 1, 2};
  EXPECT_HAS(error_of(build_model(m)), "tensor 'orphan' (tensor 4) is read by FULLY_CONNECTED (op 0) before it is "
                                       "written (no operator writes it and it is not a graph input or constant)");
}

TEST(TfliteLimits, RefusesTooManyDimensions) {
  ModelSpec m = small_fc_model();
  m.tensors[3].shape = std::vector<int32_t>(17, 1);
  EXPECT_EQ(error_of(build_model(m)), "tensor 'out' (tensor 3) has 17 dimensions; microaot supports up to 16");
}

TEST(TfliteLimits, RefusesTensorsOfTwoGibibytes) {
  ModelSpec m = small_fc_model();
  m.tensors[3].shape = {2, 1024, 1024, 1024};  // 2^31 int8 elements: one more than int32 counts
  EXPECT_HAS(error_of(build_model(m)), "tensor 'out' (tensor 3) with shape [2, 1024, 1024, 1024] has 2 GiB or more");
  m.tensors[3].shape = {1, 1024, 1024, 1024};
  EXPECT_EQ(error_of(build_model(m)), "");  // 1 GiB: the reader accepts it (the FC handler will not)
}

TEST(TfliteLimits, RefusesAnArenaBeyondTwoGibibytes) {
  // Float ADD of two 1.5 GiB inputs: all three tensors are live at once.
  ModelSpec m;
  const std::vector<int32_t> shape = {3, 128, 1024, 1024};
  for (const char* name : {"a", "b", "sum"}) {
    TensorSpec t;
    t.name = name;
    t.type = TensorType::FLOAT32;
    t.shape = shape;
    m.tensors.push_back(t);
  }
  m.ops = {op(0, 1, {0, 1}, {2})};
  m.inputs = {0, 1};
  m.outputs = {2};
  // Three 1.5 GiB buffers plus the arena's 16-byte header (the RAM the application provides).
  EXPECT_HAS(error_of(build_model(m), true), "the model needs 4831838224 bytes of RAM for its buffers; the limit is 2 GiB - 1");
}

// input * weight / output scale = 1.25e29 needs a left shift of ~97 bits: no kernel can apply it.
TEST(TfliteLimits, RefusesRescalesBeyondTheKernelsRange) {
  ModelSpec m = small_fc_model();
  m.tensors[3].scale = {1e-30f};
  EXPECT_HAS(error_of(build_model(m), true), "FULLY_CONNECTED (op 0): a rescale factor of");
  EXPECT_HAS(error_of(build_model(m), true), "needs a left shift of 97 bits, more than the kernels' 31");
}

// Finite scales whose rescale factor is not: per-tensor weights multiply input and weight scale in float
// (as TFLM does), and 1e38f * 1e38f overflows to infinity.
TEST(TfliteLimits, RefusesARescaleThatOverflowsToInfinity) {
  ModelSpec m = small_fc_model();
  m.tensors[0].scale = {1e38f};
  m.tensors[1].scale = {1e38f};
  m.tensors[1].zero_point = {0};
  m.ops[0].inputs = {0, 1, -1};  // no bias: its scale would have to be the infinite product
  m.tensors[3].scale = {1e-38f};
  EXPECT_HAS(error_of(build_model(m), true), "FULLY_CONNECTED (op 0): a rescale factor of inf is not a finite number");
}

// One 256 KiB name shared by 100 tensors: 25 MiB of copies from a file of ~260 KiB.
TEST(TfliteLimits, RefusesSharedDataThatExpandsWithoutBound) {
  flatbuffers::FlatBufferBuilder fbb;
  const auto name = fbb.CreateString(std::string(256 * 1024, 'n'));
  const auto shape = fbb.CreateVector(std::vector<int32_t>{1});
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  for (int i = 0; i < 100; ++i) tensors.push_back(tflite::CreateTensor(fbb, shape, TensorType::INT8, 0, name));
  const auto io = fbb.CreateVector(std::vector<int32_t>{0});
  const auto subgraph = tflite::CreateSubGraph(fbb, fbb.CreateVector(tensors), io, io);
  const auto buffers = fbb.CreateVector(std::vector<flatbuffers::Offset<tflite::Buffer>>{tflite::CreateBuffer(fbb)});
  const auto model = tflite::CreateModel(fbb, 3, 0, fbb.CreateVector(std::vector{subgraph}), 0, buffers);
  tflite::FinishModelBuffer(fbb, model);
  const std::vector<uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  EXPECT_HAS(error_of(bytes), "malformed .tflite model: its " + std::to_string(bytes.size()) + "-byte file refers to more");
}

}  // namespace
}  // namespace microaot
