// The graph blob as the compiler writes it and the firmware's loader reads it: a compiled model loads and
// every step stays inside the blob and the arena; each kind of damage gets its status.
#include "codegen/graph_blob.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "codegen/emit.h"
#include "codegen/graph_check.h"
#include "frontend/tflite_test_builder.h"
#include "target/target.h"

namespace microaot {
namespace {

using namespace tflite_test;

CompiledModel compile_small_graph() {
  CompileOptions options;
  options.executor = "graph";
  return compile_model(build_model(small_fc_model()), options);
}

uint32_t word(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(bytes[4 * index + i]) << (8 * i);
  return value;
}

void set_word(std::vector<uint8_t>& bytes, size_t index, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[4 * index + i] = static_cast<uint8_t>(value >> (8 * i));
}

// The blob with header word `index` set to `value` and the checksum made right again: damage the checksum
// alone would catch, to reach the loader's other checks.
std::vector<uint8_t> with_header_word(std::vector<uint8_t> bytes, size_t index, uint32_t value) {
  set_word(bytes, index, value);
  set_word(bytes, MICROAOT_BLOB_W_CHECKSUM, microaot_blob_checksum(bytes.data() + 16, bytes.size() - 16));
  return bytes;
}

TEST(GraphBlob, CompiledModelLoadsAndEveryStepStaysInside) {
  const CompiledModel model = compile_small_graph();
  const GraphBlob blob = build_graph_blob(model);
  EXPECT_EQ(blob.bytes.size() % MICROAOT_BLOB_ALIGN, 0u);
  EXPECT_EQ(word(blob.bytes, MICROAOT_BLOB_W_NUM_STEPS), model.calls.size());
  EXPECT_EQ(blob.constants_bytes + blob.description_bytes, static_cast<int64_t>(blob.bytes.size()));
  EXPECT_GE(blob.constants_bytes, weights_bytes(model));
  const BlobCheck check = check_blob(blob.bytes);
  EXPECT_EQ(check.init, MICROAOT_STATUS_OK);
  EXPECT_EQ(check.run, MICROAOT_STATUS_OK);
  EXPECT_EQ(check.steps, model.calls.size());
  EXPECT_EQ(check.problem, "");
}

TEST(GraphBlob, SameModelSameBytes) {
  EXPECT_EQ(build_graph_blob(compile_small_graph()).bytes, build_graph_blob(compile_small_graph()).bytes);
}

TEST(GraphBlob, EveryChangedByteAfterTheFirstWordsIsCaught) {
  const std::vector<uint8_t> good = build_graph_blob(compile_small_graph()).bytes;
  for (size_t at = 16; at < good.size(); ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= 0x10;
    ASSERT_EQ(check_blob(bad).init, MICROAOT_STATUS_BAD_MODEL) << "byte " << at;
  }
}

TEST(GraphBlob, DamageWithARightChecksumIsCaughtByTheLayoutChecks) {
  const std::vector<uint8_t> good = build_graph_blob(compile_small_graph()).bytes;
  const uint32_t arena = word(good, MICROAOT_BLOB_W_ARENA_BYTES);
  const std::vector<std::pair<size_t, uint32_t>> bad_words = {
      {MICROAOT_BLOB_W_ARENA_BYTES, 4},  // the tensors no longer fit the arena
      {MICROAOT_BLOB_W_ARENA_ALIGN, 3},
      {MICROAOT_BLOB_W_ARENA_HEADER, 2},
      {MICROAOT_BLOB_W_NUM_OUTPUTS, 0},
      {MICROAOT_BLOB_W_NUM_TENSORS, 0xFFFFFFFFu},
      {MICROAOT_BLOB_W_NUM_STEPS, 1000},
      {MICROAOT_BLOB_W_NUM_ARGS, 1},
      {MICROAOT_BLOB_W_STEPS_AT, 12},
      {MICROAOT_BLOB_W_PARAMS_BYTES, 4},
      {MICROAOT_BLOB_W_CONSTANTS_AT, static_cast<uint32_t>(good.size())},
      {MICROAOT_BLOB_W_CONSTANTS_BYTES, 0},
  };
  for (const auto& [index, value] : bad_words) {
    EXPECT_EQ(check_blob(with_header_word(good, index, value)).init, MICROAOT_STATUS_BAD_MODEL) << "word " << index;
  }
  EXPECT_EQ(check_blob(with_header_word(good, MICROAOT_BLOB_W_ARENA_BYTES, arena + 64)).init, MICROAOT_STATUS_OK)
      << "a larger arena than needed is fine";
}

TEST(GraphBlob, WhatThisFirmwareCannotRunIsUnsupportedOrMissingAKernel) {
  const std::vector<uint8_t> good = build_graph_blob(compile_small_graph()).bytes;
  std::vector<uint8_t> version = good;
  set_word(version, MICROAOT_BLOB_W_VERSION, MICROAOT_BLOB_VERSION + 1);
  EXPECT_EQ(check_blob(version).init, MICROAOT_STATUS_UNSUPPORTED_MODEL);
  EXPECT_EQ(check_blob(good, 0).init, MICROAOT_STATUS_UNSUPPORTED_MODEL) << "a context without input slots";
  std::vector<uint8_t> kernel = good;  // step 0 names a kernel id no firmware links
  const size_t step0 = word(good, MICROAOT_BLOB_W_STEPS_AT) / 4;
  set_word(kernel, step0 + MICROAOT_BLOB_S_KERNEL, 60000);
  set_word(kernel, MICROAOT_BLOB_W_CHECKSUM, microaot_blob_checksum(kernel.data() + 16, kernel.size() - 16));
  const BlobCheck missing = check_blob(kernel);
  EXPECT_EQ(missing.init, MICROAOT_STATUS_MISSING_KERNEL);
  EXPECT_EQ(missing.missing_kernel, 60000u);
  EXPECT_EQ(check_blob(good).missing_kernel, MICROAOT_BLOB_NONE);
}

std::vector<int> kernel_ids(const CompiledModel& model) {
  std::vector<int> ids;
  for (const KernelInfo* kernel : linked_kernels(model)) ids.push_back(kernel->id);
  return ids;
}

// A firmware built for cortex-m4 at --optimize speed links the packed kernels with int16 weights; the same
// model's blob at balanced (int8 packed weights) or for generic C needs others. The loader names the first
// step's kernel the firmware lacks; the blob made with the firmware's own settings loads.
TEST(GraphBlob, ABlobForOtherSettingsNamesTheKernelTheFirmwareLacks) {
  CompileOptions options;
  options.executor = "graph";
  options.target = parse_target("cortex-m4");
  const CompiledModel firmware = compile_model(build_model(small_packed_fc_model()), options);
  const std::vector<int> linked = kernel_ids(firmware);
  EXPECT_EQ(check_blob(build_graph_blob(firmware).bytes, 4, &linked).init, MICROAOT_STATUS_OK);
  options.target.optimize_balanced = true;
  const CompiledModel balanced = compile_model(build_model(small_packed_fc_model()), options);
  options.target = parse_target("c");
  const CompiledModel generic = compile_model(build_model(small_packed_fc_model()), options);
  for (const CompiledModel* other : {&balanced, &generic}) {
    int first_missing = -1;
    for (const KernelCall& call : other->calls) {
      if (first_missing < 0 && std::find(linked.begin(), linked.end(), call.kernel) == linked.end()) first_missing = call.kernel;
    }
    ASSERT_GE(first_missing, 0) << "the settings link other kernels";
    const BlobCheck check = check_blob(build_graph_blob(*other).bytes, 4, &linked);
    EXPECT_EQ(check.init, MICROAOT_STATUS_MISSING_KERNEL);
    EXPECT_EQ(check.missing_kernel, static_cast<uint32_t>(first_missing))
        << kernel_registry().by_id(first_missing).symbol;
  }
}

// A packed kernel's step without its output step table (the argument absent, as for an optional one) is a bad
// model: the loader requires what the signature does not mark optional, so a blob never calls the kernel
// without it (the kernel itself would refuse with MICROAOT_STATUS_NULL_POINTER).
TEST(GraphBlob, APackedStepWithoutItsOutputStepTableIsBadModel) {
  CompileOptions options;
  options.executor = "graph";
  options.target = parse_target("cortex-m4");
  const CompiledModel model = compile_model(build_model(small_packed_fc_model()), options);
  ASSERT_EQ(model.calls.size(), 1u);
  ASSERT_EQ(model.calls[0].function(), "microaot_fully_connected_s8_packed_w16");
  const std::vector<uint8_t> good = build_graph_blob(model).bytes;
  ASSERT_EQ(check_blob(good).init, MICROAOT_STATUS_OK);
  const size_t step0 = word(good, MICROAOT_BLOB_W_STEPS_AT) / 4;
  const size_t table = word(good, MICROAOT_BLOB_W_ARGS_AT) / 4 + word(good, step0 + MICROAOT_BLOB_S_FIRST_ARG) + 2;
  // Arguments: input, packed weights, table, output; the table: 2 unit pairs x MICROAOT_PACKED_STEP_WORDS.
  const size_t record = word(good, MICROAOT_BLOB_W_TENSORS_AT) / 4 + MICROAOT_BLOB_TENSOR_WORDS * word(good, table);
  ASSERT_EQ(word(good, record + MICROAOT_BLOB_T_BYTES), 2u * 8 * 4);
  std::vector<uint8_t> bad = good;
  set_word(bad, table, MICROAOT_BLOB_NONE);
  set_word(bad, MICROAOT_BLOB_W_CHECKSUM, microaot_blob_checksum(bad.data() + 16, bad.size() - 16));
  EXPECT_EQ(check_blob(bad).init, MICROAOT_STATUS_BAD_MODEL);
}

TEST(GraphBlob, TruncatedOrEmptyIsBadModel) {
  const std::vector<uint8_t> good = build_graph_blob(compile_small_graph()).bytes;
  EXPECT_EQ(check_blob(std::vector<uint8_t>(good.begin(), good.end() - 16)).init, MICROAOT_STATUS_BAD_MODEL);
  EXPECT_EQ(check_blob(std::vector<uint8_t>(good.begin(), good.begin() + 40)).init, MICROAOT_STATUS_BAD_MODEL);
  EXPECT_EQ(check_blob({}).init, MICROAOT_STATUS_BAD_MODEL);
}

TEST(GraphBlob, GraphFolderHoldsTheBlobTheTableAndTheInterpreter) {
  const FileSet files = emit_library(compile_small_graph());
  for (const char* file : {"model.blob", "kernel_table.c", "weights.c", "kernels/graph_load.c", "kernels/graph_run.c",
                           "kernels/microaot/graph.h"}) {
    EXPECT_EQ(files.count(file), 1u) << file;
  }
  const std::string blob = files.at("model.blob");
  EXPECT_EQ(std::vector<uint8_t>(blob.begin(), blob.end()), build_graph_blob(compile_small_graph()).bytes);
  EXPECT_NE(files.at("model.h").find("model_init_blob("), std::string::npos);
}

}  // namespace
}  // namespace microaot
