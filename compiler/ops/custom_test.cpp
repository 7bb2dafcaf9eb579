// Operators bound with --custom-op: how the reader binds them (CUSTOM by custom_code, a builtin by name),
// the refusals, the handler's checks, the lowered call (arguments, scratch) and the memory plan around it.
#include <gtest/gtest.h>

#include <any>

#include "compile/compile_model.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_builder.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;

constexpr int kCustomCode = 32;
constexpr int kSoftmaxCode = 25;

// input 0 (int8 1x2x2x4) and the constant tensor 2 -> CUSTOM "ClipScale" (input 1 absent) -> tensor 1.
ModelSpec custom_model(const std::string& custom_code = "ClipScale") {
  ModelSpec m;
  m.tensors = {activation("in", {1, 2, 2, 4}, 0.5f, -3), activation("out", {1, 2, 2, 4}, 0.25f, 5),
               constant("table", tflite::TensorType::INT8, {4}, {0.125f}, {1, 2, 3, 4})};
  m.ops = {op(kCustomCode, 1, {0, -1, 2}, {1}, custom_code)};
  m.ops[0].custom_options = {7, 0, 255};
  m.inputs = {0};
  m.outputs = {1};
  return m;
}

CustomOpBinding binding(const std::string& name, int64_t scratch = 0) {
  CustomOpBinding b;
  b.name = name;
  b.header = "ops/" + name + ".h";
  b.function = default_custom_function(name);
  b.scratch_bytes = scratch;
  return b;
}

std::string read_refusal(const ModelSpec& m, const CustomOpBindings& bindings) {
  try {
    read_tflite(build_model(m), bindings);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(CustomOp, WithoutABindingTheOpIsRefusedByIndexAndName) {
  const std::string refusal = read_refusal(custom_model(), {});
  EXPECT_EQ(refusal.rfind("unsupported operators:\n  op 0: custom operator 'ClipScale', version 1 (custom: needs "
                          "--custom-op)\nWhat to do: ", 0), 0u) << refusal;
  EXPECT_NE(refusal.find("--custom-op ClipScale=clipscale.h,function=my_clipscale"), std::string::npos) << refusal;
}

TEST(CustomOp, ABindingReadsTheOpWithItsOptionsBytesVerbatim) {
  const Graph g = read_tflite(build_model(custom_model()), {binding("ClipScale")});
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].kind, OpKind::Custom);
  const auto& custom = std::any_cast<const CustomOpOptions&>(g.ops[0].options);
  EXPECT_EQ(custom.options, (std::vector<uint8_t>{7, 0, 255}));
  EXPECT_EQ(custom.replaced_builtin, "");
  EXPECT_EQ(describe_op(g, g.ops[0]), "custom operator 'ClipScale' (op 0, bound to microaot_custom_clipscale)");
}

TEST(CustomOp, ABindingForABuiltinReplacesEveryOpOfIt) {
  ModelSpec m = custom_model();
  m.ops[0] = op(kSoftmaxCode, 1, {0}, {1});
  const Graph g = read_tflite(build_model(m), {binding("SOFTMAX")});
  EXPECT_EQ(g.ops[0].kind, OpKind::Custom);
  const auto& custom = std::any_cast<const CustomOpOptions&>(g.ops[0].options);
  EXPECT_EQ(custom.replaced_builtin, "SOFTMAX");
  EXPECT_TRUE(custom.options.empty());
}

TEST(CustomOp, ABindingNoOpUsesIsRefused) {
  EXPECT_EQ(read_refusal(custom_model(), {binding("ClipScale"), binding("Clip")}),
            "--custom-op Clip: no operator of the model is 'Clip' (a CUSTOM op's custom_code, or a builtin name such "
            "as SOFTMAX; `microaot inspect` lists the model's operators)");
  // Names are matched exactly: the custom_code is case-sensitive.
  EXPECT_NE(read_refusal(custom_model(), {binding("clipscale")}), "");
}

// The reader refuses dynamic shapes for every op; the handler checks again for tensors passes make.
TEST(CustomOp, AnOutputOfUnknownShapeIsRefused) {
  ModelSpec m = custom_model();
  m.tensors[1].shape = {1, -1, 2, 4};
  EXPECT_NE(read_refusal(m, {binding("ClipScale")}).find("'out' (tensor 1) has shape [1, -1, 2, 4] with an unknown"),
            std::string::npos);
  Graph g = read_tflite(build_model(custom_model()), {binding("ClipScale")});
  g.tensors[1].shape = {1, -1, 2, 4};
  try {
    op_handler(OpKind::Custom).check(g, g.ops[0]);
    FAIL() << "accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("output 0 'out' (tensor 1): has an unknown dimension"), std::string::npos)
        << e.what();
  }
}

TEST(CustomOp, LoweringPassesInputsThenOutputsAndAsksForTheScratch) {
  const Graph g = read_tflite(build_model(custom_model()), {binding("ClipScale", 64)});
  op_handler(OpKind::Custom).check(g, g.ops[0]);
  const KernelCall call = op_handler(OpKind::Custom).lower(g, g.ops[0]);
  EXPECT_TRUE(call.custom);
  EXPECT_EQ(call.function(), "microaot_custom_clipscale");
  EXPECT_EQ(call.args, (std::vector<int>{0, kNoTensor, 2, 1}));
  EXPECT_EQ(call.scratch_bytes, 64);
  EXPECT_EQ(op_handler(OpKind::Custom).in_place, nullptr);  // outputs never overlap inputs
}

TEST(CustomOp, ThePlannerGivesTheScratchAndNoInPlaceReuse) {
  ModelSpec m = custom_model();
  m.ops[0] = op(kSoftmaxCode, 1, {0}, {1});  // SOFTMAX may run in place; its replacement may not
  CompileOptions options;
  options.custom_ops = {binding("SOFTMAX", 100)};
  const CompiledModel model = compile_model(build_model(m), options);
  ASSERT_EQ(model.calls.size(), 1u);
  EXPECT_TRUE(model.calls[0].custom);
  EXPECT_TRUE(model.permits.empty());
  ASSERT_GE(model.scratch_buffer[0], 0);
  EXPECT_GE(model.buffers[static_cast<size_t>(model.scratch_buffer[0])].size, 100);
  EXPECT_NE(arena_offset(model, 0), arena_offset(model, 1));
}

}  // namespace
}  // namespace microaot
