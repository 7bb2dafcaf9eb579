// Variable tensors (`is_variable`, the state SVDF and LSTM update in place) in the reader and the planner:
// persistent, started as TFLM resets them, placed apart from the reused arena; refused as graph inputs.
// The model: y = x + s, then s = x + y (an op writes the state that an earlier one read).
#include <gtest/gtest.h>

#include "compile/compile_model.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;
constexpr int kAdd = 0;

OpSpec add(int a, int b, int out) {
  OpSpec o = op(kAdd, 1, {a, b}, {out});
  o.options_type = tflite::BuiltinOptions::AddOptions;
  o.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateAddOptions(fbb).Union(); };
  return o;
}

// 0 x, 1 s (the variable, with a buffer TFLM ignores), 2 y.
ModelSpec accumulator(tflite::TensorType type) {
  ModelSpec m;
  TensorSpec state = activation("s", {4}, 0.5f, -3);
  state.variable = true;
  state.data = {9, 9, 9, 9};
  m.tensors = {activation("x", {4}, 0.5f, -3), state, activation("y", {4}, 0.5f, -3)};
  if (type == tflite::TensorType::FLOAT32) {
    for (TensorSpec& t : m.tensors) {
      t.type = type;
      t.scale.clear();
      t.zero_point.clear();
    }
    m.tensors[1].data = std::vector<uint8_t>(16, 9);
  }
  m.ops = {add(0, 1, 2), add(0, 2, 1)};
  m.inputs = {0};
  m.outputs = {2};
  return m;
}

TEST(TfliteVariableTensors, AnInt8VariableStartsAtItsZeroPointWhateverItsBuffer) {
  const Graph g = read_tflite(build_model(accumulator(tflite::TensorType::INT8)));
  const Tensor& s = g.tensor(1);
  EXPECT_TRUE(s.is_persistent);
  EXPECT_FALSE(s.is_constant);
  EXPECT_EQ(s.data, std::vector<uint8_t>(4, static_cast<uint8_t>(-3)));  // TFLM's reset, not the buffer
  EXPECT_EQ(g.ops[1].outputs, std::vector<int>{1});
}

TEST(TfliteVariableTensors, AFloatVariableStartsAtZero) {
  const Graph g = read_tflite(build_model(accumulator(tflite::TensorType::FLOAT32)));
  EXPECT_TRUE(g.tensor(1).is_persistent);
  EXPECT_EQ(g.tensor(1).data, std::vector<uint8_t>(16, 0));
}

TEST(TfliteVariableTensors, TheVariableIsPlannedInThePersistentRegion) {
  const CompiledModel model = compile_model(build_model(accumulator(tflite::TensorType::INT8)), CompileOptions{});
  ASSERT_EQ(model.persistent.size(), 1u);
  EXPECT_EQ(model.persistent[0].tensor_id, 1);
  EXPECT_EQ(model.persistent_bytes, 16);
  EXPECT_GE(arena_offset(model, 1), model.plan.arena_size);
  for (const BufferRecord& b : model.buffers) EXPECT_NE(b.tensor_id, 1);
  // Both ops reach the same persistent bytes: the reader reads what the writer leaves for the next run.
  ASSERT_EQ(model.calls.size(), 2u);
  EXPECT_EQ(model.calls[0].args[1], 1);
  EXPECT_EQ(model.calls[1].args.back(), 1);
}

TEST(TfliteVariableTensors, AVariableAsGraphInputIsRefused) {
  ModelSpec m = accumulator(tflite::TensorType::INT8);
  m.tensors[0].variable = true;
  try {
    read_tflite(build_model(m));
    FAIL() << "a variable graph input was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'x' (tensor 0) of the graph inputs is a variable (stateful) tensor"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace microaot
