// Resource variables in the reader: handles to one variable by name, READ_VARIABLE/ASSIGN_VARIABLE onto its
// persistent tensor, CALL_ONCE's initialisation evaluated at compile time, and the refusals. The model is a
// delay line: output = the variable, then the variable = the input.
#include <gtest/gtest.h>

#include "codegen/graph_blob.h"
#include "codegen/graph_check.h"

#include "compile/compile_model.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;
constexpr int kCallOnce = 129, kVarHandle = 142, kRead = 143, kAssign = 144, kAdd = 0;

TensorSpec resource(const std::string& name) {
  TensorSpec t;
  t.name = name;
  t.type = tflite::TensorType::RESOURCE;
  return t;
}

OpSpec var_handle(int output, const char* shared_name) {
  OpSpec o = op(kVarHandle, 1, {}, {output});
  o.options_type = tflite::BuiltinOptions::VarHandleOptions;
  o.options = [shared_name](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateVarHandleOptionsDirect(fbb, nullptr, shared_name).Union();
  };
  return o;
}

OpSpec call_once(int subgraph) {
  OpSpec o = op(kCallOnce, 1, {}, {});
  o.options_type = tflite::BuiltinOptions::CallOnceOptions;
  o.options = [subgraph](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateCallOnceOptions(fbb, subgraph).Union(); };
  return o;
}

// Main: 0 input, 1 output, 2 handle, 3 a second handle to the same variable. Init: 0 handle, 1 constant.
ModelSpec delay_line(bool with_init) {
  ModelSpec m;
  m.tensors = {activation("x", {4}, 0.5f, -3), activation("y", {4}, 0.5f, -3), resource("h"), resource("h2")};
  m.ops = {var_handle(2, "state"), var_handle(3, "state"), op(kRead, 1, {2}, {1}), op(kAssign, 1, {3, 0}, {})};
  if (with_init) {
    m.ops.insert(m.ops.begin(), call_once(1));
    m.subgraphs.push_back({{resource("h_init"), constant("zeros", tflite::TensorType::INT8, {4}, {0.5f}, {1, 2, 3, 4})},
                           {var_handle(0, "state"), op(kAssign, 1, {0, 1}, {})}});
  }
  m.inputs = {0};
  m.outputs = {1};
  return m;
}

std::string refusal(const ModelSpec& m) {
  try {
    read_tflite(build_model(m));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(TfliteVariables, HandlesOfOneNameAreOneVariableReadAndAssigned) {
  const Graph g = read_tflite(build_model(delay_line(true)));
  ASSERT_EQ(g.ops.size(), 2u);
  EXPECT_EQ(g.ops[0].kind, OpKind::ReadVariable);
  EXPECT_EQ(g.ops[1].kind, OpKind::AssignVariable);
  EXPECT_EQ(g.ops[0].inputs, std::vector<int>{2});
  EXPECT_EQ(g.ops[1].inputs, std::vector<int>{0});
  EXPECT_EQ(g.ops[1].outputs, std::vector<int>{2});  // the second handle reaches the same variable
  EXPECT_TRUE(g.tensor(2).is_persistent);
  EXPECT_FALSE(g.tensor(2).is_constant);
  EXPECT_EQ(g.tensor(2).dtype, DType::kInt8);
  EXPECT_EQ(g.tensor(2).data, (std::vector<uint8_t>{1, 2, 3, 4}));  // CALL_ONCE's constant
  EXPECT_TRUE(g.tensor(3).is_dead);
}

TEST(TfliteVariables, WithoutInitialisationAVariableStartsAtTheZeroPoint) {
  const Graph g = read_tflite(build_model(delay_line(false)));
  EXPECT_EQ(g.tensor(2).data, std::vector<uint8_t>(4, static_cast<uint8_t>(-3)));
}

TEST(TfliteVariables, TheVariableIsPlannedApartFromTheReusedArena) {
  const CompiledModel model = compile_model(build_model(delay_line(true)), CompileOptions{});
  ASSERT_EQ(model.persistent.size(), 1u);
  EXPECT_EQ(model.persistent[0].tensor_id, 2);
  EXPECT_EQ(model.persistent_bytes, 16);
  EXPECT_GE(arena_offset(model, 2), model.plan.arena_size);
  for (const BufferRecord& b : model.buffers) EXPECT_NE(b.tensor_id, 2);
}

TEST(TfliteVariables, TheStateMustFitTheFirstPoolAfterItsActivations) {
  CompileOptions options;
  options.pools = {{"main", 40, 16}, {"slow", 1024, 16}};  // 32 bytes of activations fit, the state does not
  try {
    compile_model(build_model(delay_line(true)), options);
    FAIL() << "a first pool without room for the state was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("Required: 48 bytes, Available: 40 bytes in pool main"), std::string::npos)
        << e.what();
  }
}

// The graph executor's blob carries the state: its place in the arena and its initial value.
TEST(TfliteVariables, TheGraphBlobCarriesTheState) {
  CompileOptions options;
  options.executor = "graph";
  const CompiledModel model = compile_model(build_model(delay_line(true)), options);
  const std::vector<uint8_t> blob = build_graph_blob(model).bytes;
  const auto word = [&](size_t index) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(blob[4 * index + i]) << (8 * i);
    return value;
  };
  EXPECT_EQ(word(MICROAOT_BLOB_W_STATE_BYTES), static_cast<uint32_t>(model.persistent_bytes));
  EXPECT_GT(model.persistent_bytes, 0);
  EXPECT_EQ(word(MICROAOT_BLOB_W_STATE_AT), static_cast<uint32_t>(persistent_base(model)));
  const BlobCheck check = check_blob(blob);
  EXPECT_EQ(check.init, MICROAOT_STATUS_OK);
  EXPECT_EQ(check.problem, "");
}

TEST(TfliteVariables, AnotherOperatorInTheInitialisationIsRefusedNamingItAndTheSubgraph) {
  ModelSpec m = delay_line(true);
  m.subgraphs[0].ops[1] = op(kAdd, 1, {1, 1}, {0});
  EXPECT_NE(refusal(m).find("ADD (op 1) of subgraph 1: microaot evaluates initialisation subgraphs at compile time"),
            std::string::npos)
      << refusal(m);
}

TEST(TfliteVariables, AssigningANonConstantInTheInitialisationIsRefused) {
  ModelSpec m = delay_line(true);
  m.subgraphs[0].tensors[1].data.clear();
  EXPECT_NE(refusal(m).find("ASSIGN_VARIABLE (op 1) of subgraph 1"), std::string::npos) << refusal(m);
}

TEST(TfliteVariables, CallOnceOfAMissingSubgraphIsRefused) {
  ModelSpec m = delay_line(true);
  m.ops[0] = call_once(5);
  EXPECT_NE(refusal(m).find("CALL_ONCE names subgraph 5"), std::string::npos) << refusal(m);
}

TEST(TfliteVariables, ReadingSomethingElseThanAHandleIsRefused) {
  ModelSpec m = delay_line(false);
  m.ops[2].inputs = {0};
  EXPECT_EQ(refusal(m).rfind("READ_VARIABLE (op 2): input 0 'x' (tensor 0) is not the output of a VAR_HANDLE", 0), 0u)
      << refusal(m);
}

TEST(TfliteVariables, AValueOfAnotherSizeIsRefused) {
  ModelSpec m = delay_line(true);
  m.subgraphs[0].tensors[1] = constant("wide", tflite::TensorType::INT8, {5}, {0.5f}, {1, 2, 3, 4, 5});
  EXPECT_NE(refusal(m).find("the variable holds int8 of 4 bytes"), std::string::npos) << refusal(m);
}

TEST(TfliteVariables, AVariableNeverAssignedIsRefused) {
  ModelSpec m = delay_line(false);
  m.ops.pop_back();
  m.tensors[3] = resource("unused");
  EXPECT_NE(refusal(m).find("resource variable 'state'"), std::string::npos) << refusal(m);
}

}  // namespace
}  // namespace microaot
