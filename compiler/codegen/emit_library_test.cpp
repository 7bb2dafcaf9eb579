// The library folder around the executor core: which runtime files each configuration gets, the arena
// header and context in every memory figure, the recorded provenance, and the build files' options.
#include "codegen/emit.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "frontend/tflite_test_builder.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

CompiledModel compile_small(const CompileOptions& options = CompileOptions{}) {
  return compile_model(build_model(small_fc_model()), options);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A model with its I/O in the arena, one pool and no state runs on the arena-only build of the core; the
// microTVM entry and I/O outside the arena need the full one.
TEST(EmitLibrary, EveryFolderGetsTheExecutorAndOnlyTheCallsItUses) {
  const FileSet plain = emit_library(compile_small());
  for (const char* file : {"kernels/executor_arena.c", "kernels/executor_core.h", "kernels/executor_internal.h",
                           "kernels/status.c", "kernels/microaot/executor.h", "kernels/microaot/platform.h",
                           "kernels/microaot/status.h"}) {
    EXPECT_EQ(plain.count(file), 1u) << file;
  }
  for (const char* file : {"kernels/executor.c", "kernels/executor_bind.c", "kernels/executor_once.c"}) {
    EXPECT_EQ(plain.count(file), 0u) << file;
  }
  EXPECT_TRUE(contains(plain.at("model.c"), "return microaot_arena_init(&ctx->core"));
  EXPECT_TRUE(contains(plain.at("model.c"), "return microaot_arena_run(model_core(ctx));"));
  CompileOptions tvm;
  tvm.interface_api_c = true;
  const FileSet once = emit_library(compile_small(tvm));
  EXPECT_EQ(once.count("kernels/executor_once.c"), 1u);
  EXPECT_EQ(once.count("kernels/executor.c"), 1u);
  EXPECT_EQ(once.count("kernels/executor_arena.c"), 0u);
  EXPECT_TRUE(contains(once.at("model.c"), "return microaot_run(model_core(ctx));"));
  CompileOptions outside = tvm;
  outside.io_in_arena = false;
  const FileSet bound = emit_library(compile_small(outside));
  EXPECT_EQ(bound.count("kernels/executor_bind.c"), 1u);
  EXPECT_EQ(bound.count("kernels/executor.c"), 1u);
  EXPECT_EQ(bound.count("kernels/executor_once.c"), 0u);
  EXPECT_TRUE(contains(bound.at("model.c"), "microaot_run_once_bound("));
}

// A packed kernel's source names the row machinery of its weight form ("microaot-links:"): the folder gets
// that source, and not the other form's.
TEST(EmitLibrary, APackedKernelBringsTheRowSourceOfItsWeightForm) {
  for (const bool balanced : {false, true}) {
    CompileOptions options;
    options.target = parse_target("cortex-m4");
    options.target.optimize_balanced = balanced;
    const CompiledModel model = compile_model(build_model(small_packed_fc_model()), options);
    ASSERT_EQ(model.calls.size(), 1u);
    ASSERT_TRUE(contains(model.calls[0].function(), "_packed")) << model.calls[0].function();
    const FileSet files = emit_library(model);
    const std::string used = balanced ? "kernels/packed_rows.c" : "kernels/packed_rows_w16.c";
    const std::string other = balanced ? "kernels/packed_rows_w16.c" : "kernels/packed_rows.c";
    EXPECT_EQ(files.count(used), 1u) << used;
    EXPECT_EQ(files.count("kernels/microaot/internal/templates/packed_rows.h"), 1u);
    EXPECT_EQ(files.count(other), 0u) << other;
    EXPECT_TRUE(contains(files.at("CMakeLists.txt"), used.substr(std::string("kernels/").size())));
  }
  // A portable folder has no packed kernel, and no row source.
  EXPECT_EQ(emit_library(compile_small()).count("kernels/packed_rows.c"), 0u);
}

TEST(EmitLibrary, TheArenaHeaderAndTheContextAreInEveryFigure) {
  CompileOptions options;
  options.alignment = 4;
  const CompiledModel model = compile_small(options);
  const int64_t header = 8;  // a pointer, rounded up to the alignment
  EXPECT_EQ(arena_header_bytes(model), header);
  EXPECT_EQ(arena_buffer_bytes(model), model.plan.arena_size + header);
  EXPECT_EQ(context_bytes32(model), 24 + 8);  // the core and one input slot
  const FileSet files = emit_library(model);
  EXPECT_TRUE(contains(files.at("model.h"), "#define MODEL_ARENA_SIZE " + std::to_string(model.plan.arena_size + header) + "u"));
  EXPECT_TRUE(contains(files.at("model.h"), "#define MODEL_ARENA_HEADER_SIZE 8u"));
  EXPECT_TRUE(contains(files.at("model.c"), "sizeof(model_context) == 32u"));
  EXPECT_TRUE(contains(files.at("memory_plan.txt"), "init needs:   " + std::to_string(model.plan.arena_size + header)));
  const nlohmann::json report = nlohmann::json::parse(files.at("report.json"));
  EXPECT_EQ(report["arena_header_bytes"], header);
  EXPECT_EQ(report["arena_buffer_bytes"], model.plan.arena_size + header);
  EXPECT_EQ(report["context_bytes"], 32);
  EXPECT_EQ(report["ram_bytes"], model.plan.arena_size + header + 32);
  CompileOptions outside;
  outside.io_in_arena = false;
  const CompiledModel bound = compile_small(outside);
  EXPECT_EQ(context_bytes32(bound), 24 + 2 * 8);  // an input and an output slot
  EXPECT_TRUE(has_static_owner(bound));
}

TEST(EmitLibrary, ProvenanceIsRecordedWhenKnown) {
  const FileSet plain = emit_library(compile_small());
  EXPECT_FALSE(contains(plain.at("model.h"), "SHA-256"));
  EXPECT_FALSE(nlohmann::json::parse(plain.at("report.json")).contains("model_sha256"));
  EXPECT_TRUE(contains(plain.at("model.h"), "Flags: --module-name model --target 'c' --executor aot"));
  CompileOptions options;
  options.microaot_version = "9.8.7";
  options.model_sha256 = std::string(64, 'a');
  const FileSet files = emit_library(compile_small(options));
  EXPECT_TRUE(contains(files.at("model.h"), "by microaot 9.8.7"));
  EXPECT_TRUE(contains(files.at("model.h"), "#define MODEL_MICROAOT_VERSION \"9.8.7\""));
  EXPECT_TRUE(contains(files.at("model.h"), "#define MODEL_MODEL_SHA256 \"" + options.model_sha256 + "\""));
  const nlohmann::json report = nlohmann::json::parse(files.at("report.json"));
  EXPECT_EQ(report["microaot_version"], "9.8.7");
  EXPECT_EQ(report["model_sha256"], options.model_sha256);
  EXPECT_EQ(report["flags"], compile_flags_text(options));
}

TEST(EmitLibrary, BuildFilesOfferTheStaticArenaAndProfilingOptions) {
  const FileSet files = emit_library(compile_small());
  const std::string& cmake = files.at("CMakeLists.txt");
  EXPECT_TRUE(contains(cmake, "option(MODEL_STATIC_ARENA"));
  EXPECT_TRUE(contains(cmake, "option(MODEL_PROFILE"));
  EXPECT_TRUE(contains(cmake, "target_compile_definitions(model PUBLIC MODEL_NO_STATIC_ARENA)"));
  EXPECT_TRUE(contains(cmake, "target_compile_definitions(model PUBLIC MICROAOT_PROFILE)"));
  const std::string& make = files.at("model.mk");
  EXPECT_TRUE(contains(make, "MODEL_STATIC_ARENA ?= 1"));
  EXPECT_TRUE(contains(make, "-DMODEL_NO_STATIC_ARENA"));
  EXPECT_TRUE(contains(make, "$(MICROAOT_MODEL_DIR)kernels/executor_arena.c"));
  EXPECT_TRUE(contains(make, "MICROAOT_RUNTIME_SRCS := $(MICROAOT_RUNTIME_SRCS) $(MICROAOT_MODEL_RUNTIME_NEW)"));
}

// --optimize size: both build files add -Os and the reports name the setting; speed leaves -O to the user
// but for the sources built for size (source_levels_test.cpp).
TEST(EmitLibrary, OptimizeSizeBuildsWithOsAndIsReported) {
  const FileSet speed = emit_library(compile_small());
  EXPECT_FALSE(contains(speed.at("CMakeLists.txt"), "target_compile_options(model PRIVATE -Os)"));
  EXPECT_FALSE(contains(speed.at("model.mk"), "-DMICROAOT_PROFILE) -Os"));
  EXPECT_TRUE(contains(speed.at("network_info.txt"), "\noptimize: speed\n"));
  EXPECT_EQ(nlohmann::json::parse(speed.at("report.json"))["optimize"], "speed");
  CompileOptions options;
  options.target.optimize_size = true;
  const FileSet size = emit_library(compile_small(options));
  EXPECT_TRUE(contains(size.at("CMakeLists.txt"), "target_compile_options(model PRIVATE -Os)"));
  EXPECT_TRUE(contains(size.at("model.mk"), "-DMICROAOT_PROFILE) -Os\n"));
  EXPECT_TRUE(contains(size.at("network_info.txt"), "\noptimize: size\n"));
  EXPECT_EQ(nlohmann::json::parse(size.at("report.json"))["optimize"], "size");
}

TEST(EmitLibrary, ASharedFolderHasOneMakefileFragmentAndArenaForAll) {
  std::vector<CompiledModel> models;
  for (const char* name : {"first", "second"}) {
    CompileOptions options;
    options.module_name = name;
    options.shared_arena = kSharedArenaSymbol;
    options.alignment = std::string(name) == "first" ? 16 : 32;
    models.push_back(compile_small(options));
  }
  const FileSet files = emit_shared_library(models);
  const int64_t largest = std::max(arena_buffer_bytes(models[0]), arena_buffer_bytes(models[1]));
  EXPECT_TRUE(contains(files.at("shared_arena.h"), "MICROAOT_SHARED_ARENA_SIZE " + std::to_string(largest) + "u"));
  const std::string& make = files.at("microaot_models.mk");
  EXPECT_TRUE(contains(make, "$(MICROAOT_MODELS_DIR)first/first.c"));
  EXPECT_TRUE(contains(make, "-I$(MICROAOT_MODELS_DIR)second"));
  EXPECT_TRUE(contains(make, "-DFIRST_NO_STATIC_ARENA -DSECOND_NO_STATIC_ARENA"));
  EXPECT_TRUE(contains(files.at("CMakeLists.txt"), "list(APPEND MICROAOT_MODELS_SOURCES shared_arena.c)"));
  EXPECT_EQ(files.count("kernels/executor_arena.c"), 1u);
}

}  // namespace
}  // namespace microaot
