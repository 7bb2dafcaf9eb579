// The pipeline on small models built in the test: passes (views become aliases, dead code goes), the
// memory plan, and the generated files (contents, only the kernels used, determinism).
#include "compile/compile_model.h"

#include <gtest/gtest.h>

#include <sstream>

#include "codegen/emit.h"
#include "frontend/tflite_test_builder.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

// small_fc_model() plus: RESHAPE of the FC output as the graph output, and a second FC nobody reads.
ModelSpec model_with_view_and_dead_op() {
  ModelSpec m = small_fc_model();
  m.tensors.push_back(activation("flat", {2}, 1.5f, 3));                                  // 4
  m.tensors.push_back(constant("dead_weights", tflite::TensorType::INT8, {2, 4}, {0.5f, 0.5f},
                               bytes_of<int8_t>({9, 9, 9, 9, 9, 9, 9, 9})));              // 5
  m.tensors.push_back(activation("dead_out", {1, 2}, 1.0f, 0));                           // 6
  m.ops.push_back(op(22, 1, {3}, {4}));
  m.ops.push_back(op(9, 4, {0, 5, -1}, {6}));
  m.outputs = {4};
  return m;
}

TEST(CompileModel, ViewsBecomeAliasesAndDeadCodeGoes) {
  const CompiledModel model = compile_model(build_model(model_with_view_and_dead_op()), CompileOptions{});
  ASSERT_EQ(model.graph.ops.size(), 1u);  // the FC that feeds the output
  EXPECT_EQ(model.graph.ops[0].kind, OpKind::FullyConnected);
  EXPECT_EQ(model.graph.storage_of(4), 3);
  EXPECT_TRUE(model.graph.tensor(5).is_dead);
  EXPECT_TRUE(model.graph.tensor(5).data.empty());
  EXPECT_EQ(arena_offset(model, 4), arena_offset(model, 3));
}

TEST(CompileModel, InputAndOutputGetDisjointArenaBytes) {
  const CompiledModel model = compile_model(build_model(small_fc_model()), CompileOptions{});
  ASSERT_EQ(model.buffers.size(), 2u);
  const int64_t in = arena_offset(model, 0);
  const int64_t out = arena_offset(model, 3);
  EXPECT_TRUE(in + 4 <= out || out + 2 <= in);
  EXPECT_EQ(in % 16, 0);
  EXPECT_EQ(out % 16, 0);
}

// small_fc_model() with 4 units of depth 6: on a DSP target the packed kernel, whose widened rows are
// kernel scratch planned in the arena (two rows of 8 int16, the depth rounded up to four), not stack.
TEST(CompileModel, PackedKernelGetsItsRowsAsArenaScratch) {
  ModelSpec m = small_fc_model();
  m.tensors[0] = activation("in", {1, 6}, 0.5f, -1);
  m.tensors[1] = constant("weights", tflite::TensorType::INT8, {4, 6}, {0.25f, 0.125f, 0.5f, 0.25f},
                          std::vector<uint8_t>(24, 3));
  m.tensors[2] = constant("bias", tflite::TensorType::INT32, {4}, {0.125f, 0.0625f, 0.25f, 0.125f},
                          bytes_of<int32_t>({100, -7, 0, 5}));
  m.tensors[3] = activation("out", {1, 4}, 1.5f, 3);
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  const CompiledModel model = compile_model(build_model(m), options);
  ASSERT_EQ(model.calls.size(), 1u);
  EXPECT_EQ(model.calls[0].function(), "microaot_fully_connected_s8_packed_w16");
  ASSERT_GE(model.scratch_buffer[0], 0);
  const BufferRecord& scratch = model.buffers[static_cast<size_t>(model.scratch_buffer[0])];
  EXPECT_EQ(scratch.kind, BufferKind::kScratch);
  EXPECT_EQ(scratch.size, 2 * 8 * 2);
  EXPECT_EQ(model.plan.offsets[static_cast<size_t>(model.scratch_buffer[0])] % 4, 0);
}

TEST(CompileModel, ConstantOutputIsRefusedByName) {
  ModelSpec m = small_fc_model();
  m.tensors.push_back(activation("const_view", {8}, 1.0f, 0));  // 4: a view of the weights
  m.tensors[4].type = tflite::TensorType::INT8;
  m.ops.push_back(op(22, 1, {1}, {4}));
  m.outputs = {3, 4};
  try {
    compile_model(build_model(m), CompileOptions{});
    FAIL() << "a constant output was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("'const_view'"), std::string::npos) << e.what();
  }
}

TEST(CompileModel, BadOptionsAreRefused) {
  CompileOptions options;
  options.alignment = 12;
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
  options = CompileOptions{};
  options.planner = "no_such_planner";
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
  options = CompileOptions{};
  options.dump_ir_after = "no_such_pass";
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
  options = CompileOptions{};
  options.executor = "magic";
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
  options = CompileOptions{};
  options.link_kernels = {"all"};  // graph only
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
  options.executor = "graph";
  options.io_in_arena = false;
  EXPECT_THROW(compile_model(build_model(small_fc_model()), options), CompileError);
}

TEST(Codegen, EmitsOnlyUsedKernelsAndConstants) {
  const CompiledModel model = compile_model(build_model(model_with_view_and_dead_op()), CompileOptions{});
  const FileSet files = emit_library(model);
  EXPECT_EQ(files.count("kernels/fully_connected_s8.c"), 1u);
  EXPECT_EQ(files.count("kernels/conv_2d_s8.c"), 0u);
  const std::string& weights = files.at("weights.c");
  EXPECT_NE(weights.find("model_tensor_1["), std::string::npos);
  EXPECT_EQ(weights.find("model_tensor_5["), std::string::npos) << "dead weights reached flash";
  const std::string& header = files.at("model.h");
  EXPECT_NE(header.find("#define MODEL_ARENA_SIZE " + std::to_string(arena_buffer_bytes(model)) + "u"), std::string::npos);
  EXPECT_NE(files.at("model.c").find("microaot_fully_connected_s8(&model_op0_params"), std::string::npos);
}

TEST(Codegen, ModuleNamePrefixesEverySymbol) {
  CompileOptions options;
  options.module_name = "kws";
  options.interface_api_c = true;
  const FileSet files = emit_library(compile_model(build_model(small_fc_model()), options));
  EXPECT_EQ(files.count("kws.h"), 1u);
  EXPECT_EQ(files.count("kws.c"), 1u);
  EXPECT_NE(files.at("kws.h").find("microaot_status kws_run(kws_context *ctx);"), std::string::npos);
  EXPECT_NE(files.at("kws.h").find("int32_t tvmgen_kws_run("), std::string::npos);
  EXPECT_EQ(files.at("kws.c").find("model_"), std::string::npos);
}

TEST(Codegen, SameModelSameBytes) {
  const std::vector<uint8_t> bytes = build_model(model_with_view_and_dead_op());
  EXPECT_EQ(emit_library(compile_model(bytes, CompileOptions{})), emit_library(compile_model(bytes, CompileOptions{})));
}

TEST(Passes, DumpAfterNamedPass) {
  // The dump goes to stderr; capture it through gtest.
  CompileOptions options;
  options.dump_ir_after = "alias_views";
  testing::internal::CaptureStderr();
  compile_model(build_model(model_with_view_and_dead_op()), options);
  const std::string dump = testing::internal::GetCapturedStderr();
  EXPECT_NE(dump.find("// IR after alias_views"), std::string::npos) << dump;
  EXPECT_NE(dump.find("alias_of(%3)"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("IR after remove_dead_code"), std::string::npos);
}

}  // namespace
}  // namespace microaot
