// The C text of a call bound with --custom-op: the header copied and included, the const tables in flash
// (tensor descriptions, options bytes), the absent input, the scratch, the returned status.
#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "compile/compile_model.h"
#include "frontend/tflite_test_builder.h"

namespace microaot {
namespace {

using namespace tflite_test;

// input 0 (int8 1x2x2x4) and the constant tensor 2 -> CUSTOM "ClipScale" (input 1 absent) -> tensor 1.
CompiledModel compile_custom(int64_t scratch) {
  ModelSpec m;
  m.tensors = {activation("in", {1, 2, 2, 4}, 0.5f, -3), activation("out", {1, 2, 2, 4}, 0.25f, 5),
               constant("table", tflite::TensorType::INT8, {4}, {0.125f}, {1, 2, 3, 4})};
  m.ops = {op(32, 1, {0, -1, 2}, {1}, "ClipScale")};
  m.ops[0].custom_options = {7, 0, 255};
  m.inputs = {0};
  m.outputs = {1};
  CompileOptions options;
  options.custom_ops = {{"ClipScale", "/somewhere/clip_scale.h", "clip_scale", scratch, "/* the header */\n"}};
  return compile_model(build_model(m), options);
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing:\n" << part << "\nin:\n" << text;
}

TEST(EmitCustomCall, TheCallReadsConstTablesAndReturnsTheFunctionsStatus) {
  const std::string c = emit_model_source(compile_custom(64));
  expect_contains(c, "#include \"microaot/custom_op.h\"\n");
  expect_contains(c, "#include \"custom/clip_scale.h\" /* --custom-op: the user's header */\n");
  expect_contains(c, "static const int32_t model_op0_in0_dims[4] = {\n  1, 2, 2, 4};\n");
  expect_contains(c, "static const int32_t model_op0_in0_zero_points[1] = {\n  -3};\n");
  expect_contains(c, "static const microaot_custom_tensor_info model_op0_in0 = {MICROAOT_DTYPE_INT8, 4, "
                     "model_op0_in0_dims, 16, 1, model_op0_in0_scales, model_op0_in0_zero_points, 0};\n");
  expect_contains(c, "static const microaot_custom_tensor_info model_op0_in2 = {MICROAOT_DTYPE_INT8, 1, "
                     "model_op0_in2_dims, 4, 1, model_op0_in2_scales, model_op0_in2_zero_points, 0};\n");
  expect_contains(c, "static const uint8_t model_op0_options[3] = {\n  7, 0, 255};\n");
  expect_contains(c, "    case 0u: { /* custom operator 'ClipScale' (op 0, bound to clip_scale) */\n"
                     "      const microaot_custom_input inputs[3] = {{(const void *)(arena + MODEL_TENSOR_0_OFFSET), "
                     "&model_op0_in0}, {NULL, NULL}, {(const void *)model_tensor_2, &model_op0_in2}};\n"
                     "      const microaot_custom_output outputs[1] = {{(void *)(arena + MODEL_TENSOR_1_OFFSET), "
                     "&model_op0_out0}};\n"
                     "      const microaot_custom_op_args args = {inputs, 3u, outputs, 1u, model_op0_options, 3u, "
                     "(void *)(arena + MODEL_SCRATCH_0_OFFSET), 64u};\n"
                     "      return clip_scale(&args);\n    }\n");
}

TEST(EmitCustomCall, TheFlagsRecordTheBindingByTheHeadersFileName) {
  EXPECT_NE(compile_flags_text(compile_custom(64).options)
                .find(" --custom-op ClipScale=clip_scale.h,function=clip_scale,scratch=64"),
            std::string::npos);
}

TEST(EmitCustomCall, NoScratchIsNull) {
  expect_contains(emit_model_source(compile_custom(0)), "model_op0_options, 3u, NULL, 0u};\n");
}

TEST(EmitCustomCall, TheFolderHoldsTheHeaderAndTheAbiButNoKernelForTheOp) {
  const FileSet files = emit_library(compile_custom(0));
  ASSERT_EQ(files.count("custom/clip_scale.h"), 1u);
  EXPECT_EQ(files.at("custom/clip_scale.h"), "/* the header */\n");
  EXPECT_EQ(files.count("kernels/microaot/custom_op.h"), 1u);
  for (const auto& [path, text] : files) {
    EXPECT_TRUE(path.rfind("kernels/", 0) != 0 || path.find(".c") == std::string::npos ||
                path.find("kernels/executor") == 0 || path == "kernels/status.c")
        << path << " is a kernel no op calls";
  }
  expect_contains(files.at("network_info.txt"), "CUSTOM:ClipScale");
  expect_contains(files.at("report.json"), "\"function\": \"clip_scale\"");
}

}  // namespace
}  // namespace microaot
