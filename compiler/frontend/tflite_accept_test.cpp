// Models TensorFlow Lite Micro loads that microaot used to refuse over fields TFLM ignores: one test per
// relaxed rule (docs/errors.md, "What TFLite Micro ignores"), each model compiled whole, plus the
// neighbouring cases that stay refused because they would give a wrong answer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

// The CompileError of compiling `spec` to C (frontend, passes, checks, codegen), or "" if it compiled.
std::string compile_error(const ModelSpec& spec) {
  try {
    compile_model(build_model(spec), CompileOptions{});
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

// The CompileError of reading `spec` (the frontend alone), or "" if it was read.
std::string read_error(const ModelSpec& spec) {
  try {
    read_tflite(build_model(spec));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

// small_fc_model() in float32, without quantization tables.
ModelSpec float_fc_model() {
  ModelSpec m = small_fc_model();
  for (TensorSpec& t : m.tensors) {
    t.type = TensorType::FLOAT32;
    t.scale.clear();
    t.zero_point.clear();
  }
  m.tensors[1].data = bytes_of<float>({1, 2, 3, 4, 5, 6, 7, 8});
  m.tensors[2].data = bytes_of<float>({0.5f, -0.5f});
  return m;
}

// TFLM gives every channel zero_point[0] when a per-channel tensor has a single zero point.
TEST(TfliteAccept, OneZeroPointServesEveryChannel) {
  ModelSpec m = small_fc_model();
  m.tensors[1].zero_point = {0};  // two scales
  EXPECT_EQ(compile_error(m), "");
  EXPECT_EQ(read_tflite(build_model(m)).tensor(1).quant.zero_point, (std::vector<int64_t>{0, 0}));
  m.tensors[1].zero_point = {0, 0, 0};  // neither one nor one per scale: which zero point is meant?
  EXPECT_EQ(compile_error(m), "tensor 'weights' (tensor 1) has 2 quantization scales but 3 zero points");
}

// TFLM keeps a tensor's quantization only when it has both scales and zero points.
TEST(TfliteAccept, AHalfQuantizationTableIsNoQuantization) {
  ModelSpec m = float_fc_model();
  m.tensors[3].scale = {0.5f};  // scales without zero points
  EXPECT_EQ(compile_error(m), "");
  EXPECT_TRUE(read_tflite(build_model(m)).tensor(3).quant.empty());
  m.tensors[3].scale.clear();
  m.tensors[3].zero_point = {0};  // zero points without scales
  EXPECT_EQ(compile_error(m), "");
  EXPECT_TRUE(read_tflite(build_model(m)).tensor(3).quant.empty());
  // On an int8 tensor that leaves it unquantized, which the operator refuses: never a guessed zero point.
  m = small_fc_model();
  m.tensors[0].zero_point.clear();
  EXPECT_EQ(compile_error(m),
            "FULLY_CONNECTED (op 0), input 0 'in' (tensor 0): needs per-tensor quantization (one scale and zero "
            "point)");
}

// A 1-D tensor has one axis; converters may copy the weights' quantized_dimension into the bias.
TEST(TfliteAccept, TheQuantizedDimensionOfA1DTensorIsIgnored) {
  ModelSpec m = small_fc_model();
  m.tensors[2].axis = 3;  // bias [2], two scales
  EXPECT_EQ(compile_error(m), "");
  EXPECT_EQ(read_tflite(build_model(m)).tensor(2).quant.axis, 0);
  m.tensors[2].scale = {0.125f, 0.0625f, 0.5f};
  m.tensors[2].zero_point = {0, 0, 0};  // but the scales must still match its one dimension
  EXPECT_EQ(compile_error(m), "tensor 'bias' (tensor 2) has 3 per-channel scales but dimension 0 of shape [2] has "
                              "size 2");
}

// small_fc_model() with a fifth tensor that no operator and no graph input or output mentions.
ModelSpec with_unmentioned(const TensorSpec& extra) {
  ModelSpec m = small_fc_model();
  m.tensors.push_back(extra);
  return m;
}

TensorSpec unmentioned(std::vector<int32_t> shape) { return activation("unused", std::move(shape), 0.5f, 0); }

// TFLM reads nothing of an unmentioned tensor but its type and shape; the other fields may be broken.
TEST(TfliteAccept, TensorsNoOperatorMentionsAreNotChecked) {
  std::vector<std::pair<const char*, TensorSpec>> cases;
  TensorSpec t = unmentioned({4});
  t.scale = {0.5f, 0.5f, 0.5f};
  t.zero_point = {0, 0};
  cases.emplace_back("scale and zero point counts", t);
  t = unmentioned({4});
  t.scale = {std::numeric_limits<float>::quiet_NaN()};
  cases.emplace_back("NaN scale", t);
  t = unmentioned({4});
  t.zero_point = {int64_t{1} << 40};
  cases.emplace_back("zero point beyond int32", t);
  t = unmentioned({2, 3});
  t.scale = {0.5f, 0.25f};
  t.zero_point = {0, 0};
  t.axis = 5;
  cases.emplace_back("per-channel axis", t);
  t = unmentioned({4});
  t.data = bytes_of<int8_t>({1, 2, 3, 4});
  t.sparse = true;
  cases.emplace_back("sparse data", t);
  t = unmentioned({4});
  t.data = bytes_of<int8_t>({1, 2, 3});
  cases.emplace_back("data of the wrong size", t);
  t = unmentioned({2});
  t.type = TensorType::FLOAT32;
  t.data = bytes_of<float>({1.0f, std::numeric_limits<float>::quiet_NaN()});
  cases.emplace_back("NaN data", t);
  t = unmentioned({4});
  t.data = bytes_of<int8_t>({1, 2, 3, 4});
  t.offset = 8, t.size = 4;
  cases.emplace_back("inline and external data", t);
  t = unmentioned({4});
  t.offset = 1u << 30, t.size = 4;
  cases.emplace_back("external data outside the file", t);
  for (const auto& [what, extra] : cases) {
    SCOPED_TRACE(what);
    const ModelSpec m = with_unmentioned(extra);
    EXPECT_EQ(compile_error(m), "");
    EXPECT_TRUE(read_tflite(build_model(m)).tensor(4).is_dead);
    ModelSpec read = m;  // the same tensor read by an operator is refused, by the reader
    read.ops[0].inputs[0] = 4;
    EXPECT_NE(read_error(read).find("'unused' (tensor 4)"), std::string::npos) << read_error(read);
  }
}

// TFLM converts the type of every tensor, refusing one it does not know, and plans an arena buffer for
// every tensor without data, which fails for a negative or oversized shape.
TEST(TfliteAccept, AnUnmentionedTensorStillNeedsAKnownTypeAndSize) {
  TensorSpec t = unmentioned({4});
  t.type = static_cast<TensorType>(42);
  EXPECT_EQ(compile_error(with_unmentioned(t)), "tensor 'unused' (tensor 4) has unknown element type 42");
  EXPECT_EQ(compile_error(with_unmentioned(unmentioned({1, -1}))),
            "tensor 'unused' (tensor 4) has shape [1, -1] with an unknown (negative) dimension; microaot needs "
            "static shapes");
  EXPECT_NE(compile_error(with_unmentioned(unmentioned({65536, 65536, 65536}))).find("has 2 GiB or more"),
            std::string::npos);
}

// Without MirrorPadOptions the format's default mode is REFLECT but TFLM pads SYMMETRIC: refused.
TEST(TfliteAccept, MirrorPadWithoutItsOptionsIsRefused) {
  ModelSpec m;
  TensorSpec in = activation("in", {4}, 0.5f, 0), out = activation("out", {6}, 0.5f, 0);
  in.type = out.type = TensorType::FLOAT32;
  in.scale.clear(), in.zero_point.clear(), out.scale.clear(), out.zero_point.clear();
  m.tensors = {in, constant("paddings", TensorType::INT32, {1, 2}, {}, bytes_of<int32_t>({1, 1})), out};
  m.ops = {op(100, 1, {0, 1}, {2})};
  m.inputs = {0};
  m.outputs = {2};
  EXPECT_EQ(read_error(m), "MIRROR_PAD (op 0): missing MirrorPadOptions");
  m.ops[0].options_type = tflite::BuiltinOptions::MirrorPadOptions;
  m.ops[0].options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateMirrorPadOptions(fbb, tflite::MirrorPadMode::SYMMETRIC).Union();
  };
  EXPECT_EQ(compile_error(m), "");
}

// Metadata only describes the model or guides TFLM's planner, except TFLM's compression: its tensors'
// buffers hold packed indices into value tables, which read as values would be wrong.
TEST(TfliteAccept, MetadataIsIgnoredUnlessItSaysTheConstantsAreCompressed) {
  ModelSpec m = small_fc_model();
  m.metadata = {"min_runtime_version", "CONVERSION_METADATA", "OfflineMemoryAllocation"};
  EXPECT_EQ(compile_error(m), "");
  m.metadata.push_back("COMPRESSION_METADATA");
  EXPECT_EQ(read_error(m),
            "the model's constants are compressed for TensorFlow Lite Micro in its earlier form (metadata "
            "'COMPRESSION_METADATA', decoded inside each kernel), which microaot does not read: compile the "
            "uncompressed model, or compress it with TFLM's current tooling (DECODE operators, look-up-table kind), "
            "which microaot reads");
}

}  // namespace
}  // namespace microaot
