// Which runtime sources a folder builds for size at --optimize speed: the executor's API and the kernels of
// layers that do under 1/1000 of the work, never a file that a busy layer's kernel links.
#include "codegen/source_levels.h"

#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "frontend/tflite_test_builder.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

// 'in' [1, depth] -> FULLY_CONNECTED (4 units: 4 * depth MACs) -> RELU (4 elements) -> 'out' [1, 4].
ModelSpec fc_then_relu(int32_t depth) {
  ModelSpec m;
  m.tensors = {activation("in", {1, depth}, 0.5f, -1),
               constant("weights", tflite::TensorType::INT8, {4, depth}, {0.25f},
                        std::vector<uint8_t>(static_cast<size_t>(4 * depth), 3)),
               constant("bias", tflite::TensorType::INT32, {4}, {0.125f}, bytes_of<int32_t>({1, 2, 3, 4})),
               activation("fc", {1, 4}, 1.5f, 3), activation("out", {1, 4}, 1.5f, 3)};
  m.ops = {op(9, 4, {0, 1, 2}, {3}), op(19, 1, {3}, {4})};
  m.inputs = {0};
  m.outputs = {4};
  return m;
}

// 'in' [1, 4] -> RELU -> 'out': the one layer does all of the work.
ModelSpec relu_only() {
  ModelSpec m;
  m.tensors = {activation("in", {1, 4}, 1.5f, 3), activation("out", {1, 4}, 1.5f, 3)};
  m.ops = {op(19, 1, {0}, {1})};
  m.inputs = {0};
  m.outputs = {1};
  return m;
}

CompiledModel compile_spec(const ModelSpec& spec, CompileOptions options = CompileOptions{}) {
  return compile_model(build_model(spec), options);
}

// The folder path of the step's kernel source ("kernels/<file>.c").
std::string kernel_file(const CompiledModel& model, size_t step) {
  const std::string& source = model.calls.at(step).source;
  return "kernels/" + source.substr(source.find_last_of('/') + 1);
}

TEST(SourceLevels, TheKernelOfALayerWithLittleOfTheWorkIsBuiltForSize) {
  const CompiledModel model = compile_spec(fc_then_relu(4096));
  ASSERT_EQ(model.calls.size(), 2u);
  EXPECT_EQ(step_work(model, 0), 4 * 4096);
  EXPECT_EQ(step_work(model, 1), 4);  // no MACs: its output elements
  const SourceLevels levels = source_levels(model);
  for (const std::string& file : {std::string("kernels/executor_arena.c"), std::string("kernels/status.c"),
                                  std::string("platform.c"), std::string("model.c"), kernel_file(model, 1)}) {
    EXPECT_EQ(levels.size.count(file), 1u) << file;
  }
  EXPECT_EQ(levels.speed.count(kernel_file(model, 0)), 1u);
  EXPECT_EQ(levels.size.count(kernel_file(model, 0)), 0u);
}

// 4 elements of 4 * 64 + 4 units of work: over 1/1000, so the RELU's kernel keeps the user's -O.
TEST(SourceLevels, ALayerWithOneThousandthOfTheWorkOrMoreKeepsItsSpeed) {
  const CompiledModel model = compile_spec(fc_then_relu(64));
  EXPECT_EQ(source_levels(model).speed.count(kernel_file(model, 1)), 1u);
}

TEST(SourceLevels, AtOptimizeSizeTheWholeLibraryIsBuiltForSizeAlready) {
  CompileOptions options;
  options.target.optimize_size = true;
  const SourceLevels levels = source_levels(compile_spec(fc_then_relu(4096), options));
  EXPECT_TRUE(levels.size.empty());
  EXPECT_TRUE(levels.speed.empty());
}

// A blob may be any model's: every kernel (but for its per-call sources, below) and the interpreter's loop keep
// their speed.
TEST(SourceLevels, TheGraphExecutorKeepsItsKernelsAndLoopAtSpeed) {
  CompileOptions options;
  options.executor = "graph";
  const CompiledModel model = compile_spec(fc_then_relu(4096), options);
  const SourceLevels levels = source_levels(model);
  EXPECT_EQ(levels.speed.count(kernel_file(model, 1)), 1u);
  EXPECT_EQ(levels.speed.count("kernels/graph_run.c"), 1u);
  EXPECT_EQ(levels.size.count("kernels/graph_load.c"), 1u);
  EXPECT_EQ(levels.size.count("kernels/executor.c"), 1u);
}

// The packed FULLY_CONNECTED links the row machinery ("microaot-links:"): as busy as the layer.
TEST(SourceLevels, AFileThatABusyKernelLinksKeepsItsSpeed) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  const CompiledModel model = compile_spec(fc_then_relu(512), options);
  ASSERT_NE(model.calls[0].function().find("_packed"), std::string::npos) << model.calls[0].function();
  const SourceLevels levels = source_levels(model);
  EXPECT_EQ(levels.speed.count(kernel_file(model, 0)), 1u);
  EXPECT_EQ(levels.speed.count("kernels/packed_rows_w16.c"), 1u);
  EXPECT_EQ(levels.size.count("kernels/packed_rows_w16.c"), 0u);
}

// 'in' [1, 9, width, 8] -> DEPTHWISE_CONV_2D 3x3 "same", stride 1 -> 'out': on a DSP target, the ring's layer (a
// row in one tile: width 12 or less).
ModelSpec ring_depthwise(int32_t width = 6) {
  ModelSpec m;
  m.tensors = {activation("in", {1, 9, width, 8}, 0.05f, 3),
               constant("w", tflite::TensorType::INT8, {1, 3, 3, 8}, {0.01f}, std::vector<uint8_t>(72, 1)),
               constant("b", tflite::TensorType::INT32, {8}, {0.0005f}, bytes_of<int32_t>(std::vector<int32_t>(8, 5))),
               activation("out", {1, 9, width, 8}, 0.05f, 3)};
  m.ops = {op(4, 3, {0, 1, 2}, {3})};
  m.ops[0].options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
  m.ops[0].options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 1, 1, 1).Union();
  };
  m.inputs = {0};
  m.outputs = {3};
  return m;
}

// The one layer does all of the work, but its kernel's entry and set-up say their work is per call
// ("microaot-work: per call"): built for size, under either executor, while the ring's rows keep their speed.
TEST(SourceLevels, ASourceWhoseWorkIsPerCallIsBuiltForSizeInABusyLayer) {
  for (const char* executor : {"aot", "graph"}) {
    CompileOptions options;
    options.target = parse_target("cortex-m4");
    options.target.optimize_balanced = true;  // at speed the widened group words' (depthwise_conv_2d_s8_ring_w16)
    options.executor = executor;
    const CompiledModel model = compile_spec(ring_depthwise(), options);
    ASSERT_EQ(model.calls.at(0).stem, "depthwise_conv_2d_s8_ring_w8") << executor;
    const SourceLevels levels = source_levels(model);
    EXPECT_EQ(levels.size.count("kernels/depthwise_conv_2d_s8_ring_w8.c"), 1u) << executor;
    EXPECT_EQ(levels.size.count("kernels/depthwise_conv_2d_s8_compact.c"), 1u) << executor;
    EXPECT_EQ(levels.speed.count("kernels/depthwise_conv_2d_s8_ring_rows.c"), 1u) << executor;
  }
}

// A model whose depthwise layers the ring alone computes links none of the DSP kernel's other paths (the small-map
// patch, the unrolled windows): at balanced through depthwise_conv_2d_s8_ring_w8 (the compact groups' words), at
// speed through depthwise_conv_2d_s8_ring_w16 (the widened ones), with a palette asked for (--compress-weights) through
// depthwise_conv_2d_s8_ring_palette; rows over one tile (13 pixels) take the full kernels, which link the unrolled
// windows and their own build of the patch (the full palette kernel none).
TEST(SourceLevels, ARingOnlyModelLinksNoPatchOrUnrolledRows) {
  struct Setting {
    bool balanced, palette;
    const char* ring_stem;
    const char* full_stem;
    const char* patch;
  };
  const char* const patch = "kernels/depthwise_conv_2d_s8_patch.c";
  for (const Setting& s : {Setting{true, false, "depthwise_conv_2d_s8_ring_w8", "depthwise_conv_2d_s8_w8",
                                   "kernels/depthwise_conv_2d_s8_patch_w8.c"},
                           Setting{false, false, "depthwise_conv_2d_s8_ring_w16", "depthwise_conv_2d_s8_w16", patch},
                           Setting{true, true, "depthwise_conv_2d_s8_ring_palette",
                                   "depthwise_conv_2d_s8_widened_palette", patch}}) {
    for (const int32_t width : {6, 13}) {
      CompileOptions options;
      options.target = parse_target("cortex-m4");
      options.target.optimize_balanced = s.balanced;
      if (s.palette) {
        options.target.compress_bits = default_compress_bits(options.target);
        options.target.compress_fast_only = false;
      }
      const CompiledModel model = compile_spec(ring_depthwise(width), options);
      const bool ring = width <= 12;
      const std::string stem = ring ? s.ring_stem : s.full_stem;
      ASSERT_EQ(model.calls.at(0).stem, stem) << s.balanced << " " << width;
      const FileSet files = emit_library(model);
      EXPECT_EQ(files.count("kernels/depthwise_conv_2d_s8_ring_rows.c"), 1u) << stem;
      EXPECT_EQ(files.count("kernels/depthwise_conv_2d_s8_rows_3x3.c"), ring ? 0u : 1u) << stem;
      // The palette kernels never take the patch (a block per group, not the padded map).
      EXPECT_EQ(files.count(s.patch), ring || s.palette ? 0u : 1u) << stem;
      const size_t patches = files.count(patch) + files.count("kernels/depthwise_conv_2d_s8_patch_w8.c");
      EXPECT_EQ(patches, ring || s.palette ? 0u : 1u) << stem;  // one build of the patch, not both
    }
  }
}

// The build files and the report list them; a folder of several models builds for size only what no
// model's layers need fast.
TEST(SourceLevels, BuildFilesAndReportsListThem) {
  const CompiledModel model = compile_spec(fc_then_relu(4096));
  const FileSet files = emit_library(model);
  const std::string relu = kernel_file(model, 1);
  const std::string& cmake = files.at("CMakeLists.txt");
  const size_t properties = cmake.find("set_source_files_properties(");
  ASSERT_NE(properties, std::string::npos);
  EXPECT_NE(cmake.find(relu, properties), std::string::npos);
  EXPECT_NE(cmake.find("PROPERTIES COMPILE_OPTIONS -Os", properties), std::string::npos);
  EXPECT_EQ(cmake.find("target_compile_options(model PRIVATE -Os)"), std::string::npos);
  const std::string& make = files.at("model.mk");
  EXPECT_NE(make.find("MODEL_CFLAGS = $(MICROAOT_MODEL_BASE_CFLAGS) $(MICROAOT_SIZE_FLAG)"), std::string::npos);
  EXPECT_NE(make.find("$(MICROAOT_MODEL_DIR)" + relu), std::string::npos);
  EXPECT_NE(files.at("network_info.txt").find("built for size"), std::string::npos);

  std::vector<CompiledModel> models;
  for (const bool busy_relu : {false, true}) {
    CompileOptions options;
    options.module_name = busy_relu ? "second" : "first";
    options.shared_arena = kSharedArenaSymbol;
    models.push_back(compile_spec(busy_relu ? relu_only() : fc_then_relu(4096), options));
  }
  const std::string shared = emit_shared_library(models).at("CMakeLists.txt");
  const size_t shared_properties = shared.find("set_source_files_properties(");
  ASSERT_NE(shared_properties, std::string::npos);
  EXPECT_EQ(shared.find(relu, shared_properties), std::string::npos);
  EXPECT_NE(shared.find("kernels/executor_arena.c", shared_properties), std::string::npos);
  EXPECT_NE(shared.find("first/first.c", shared_properties), std::string::npos);  // its step function
}

}  // namespace
}  // namespace microaot
