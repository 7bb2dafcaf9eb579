// Fused bands headed by a layout op (docs/tiling.md): an NCHW input TRANSPOSEd to NHWC feeding convolutions,
// as PyTorch exports (MobileNetV2-224). Untiled, the input and its transpose exist whole together; with the
// TRANSPOSE at a chain's head its output lives in a line buffer, so only that chain meets a budget below both.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {
namespace {

using nlohmann::json;
using tflite_test::activation;
using tflite_test::bytes_of;
using tflite_test::constant;
using tflite_test::op;

constexpr int kConv2D = 3, kDepthwiseConv2D = 4, kTranspose = 39;  // builtin codes
constexpr int kChannels = 3, kSide = 24;
constexpr int64_t kInputBytes = kChannels * kSide * kSide;

std::vector<int8_t> weights(size_t count, int seed) {
  std::vector<int8_t> values;
  for (size_t i = 0; i < count; ++i) values.push_back(static_cast<int8_t>((i * 37 + seed * 11) % 201 - 100));
  return values;
}

tflite_test::OpSpec conv(int code, std::vector<int32_t> inputs, int32_t output, int stride) {
  tflite_test::OpSpec spec = op(code, 1, std::move(inputs), {output});
  if (code == kConv2D) {
    spec.options_type = tflite::BuiltinOptions::Conv2DOptions;
    spec.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, stride, stride).Union();
    };
  } else {
    spec.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
    spec.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, stride, stride, 1).Union();
    };
  }
  return spec;
}

// x [1,3,24,24] -> TRANSPOSE (0,2,3,1) -> [1,24,24,3] -> CONV_2D 3x3 stride 2 -> [1,12,12,8] -> DEPTHWISE 3x3
// -> [1,12,12,8] -> CONV_2D 1x1 -> [1,12,12,4]: MobileNetV2's stem behind PyTorch's input layout.
tflite_test::ModelSpec nchw_stem() {
  tflite_test::ModelSpec m;
  m.tensors = {
      activation("x", {1, kChannels, kSide, kSide}, 0.05f, -5),
      constant("perm", tflite::TensorType::INT32, {4}, {}, bytes_of<int32_t>({0, 2, 3, 1})),
      activation("x_nhwc", {1, kSide, kSide, kChannels}, 0.05f, -5),
      constant("stem_filter", tflite::TensorType::INT8, {8, 3, 3, 3}, {0.02f}, bytes_of(weights(216, 1))),
      constant("stem_bias", tflite::TensorType::INT32, {8}, {0.001f}, bytes_of<int32_t>({300, -2000, 0, 77, 5, 9, -40, 1000})),
      activation("stem", {1, kSide / 2, kSide / 2, 8}, 0.1f, 2),
      constant("dw_filter", tflite::TensorType::INT8, {1, 3, 3, 8}, {0.03f}, bytes_of(weights(72, 2))),
      constant("dw_bias", tflite::TensorType::INT32, {8}, {0.003f}, bytes_of<int32_t>({-50, 90, 5, 0, 7, -3, 11, 2})),
      activation("dw", {1, kSide / 2, kSide / 2, 8}, 0.08f, -1),
      constant("pw_filter", tflite::TensorType::INT8, {4, 1, 1, 8}, {0.02f}, bytes_of(weights(32, 3))),
      constant("pw_bias", tflite::TensorType::INT32, {4}, {0.0016f}, bytes_of<int32_t>({10, -20, 30, -40})),
      activation("y", {1, kSide / 2, kSide / 2, 4}, 0.1f, 0),
  };
  m.ops = {op(kTranspose, 1, {0, 1}, {2}), conv(kConv2D, {2, 3, 4}, 5, 2), conv(kDepthwiseConv2D, {5, 6, 7}, 8, 1),
           conv(kConv2D, {8, 9, 10}, 11, 1)};
  m.inputs = {0};
  m.outputs = {11};
  return m;
}

std::string write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(BandsEndToEnd, TransposeHeadStreamsBelowItsInputAndOutputExactly) {
  const std::string dir = make_temp_dir();
  const std::string model = write_bytes(dir + "/nchw.tflite", tflite_test::build_model(nchw_stem()));
  std::vector<uint8_t> x(kInputBytes);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 89 + 7);
  const std::string input = write_bytes(dir + "/x.bin", x);
  const auto run = [&](const std::string& name, std::vector<std::string> flags) {
    std::vector<std::string> args = {"run", model, "--input", input, "--output-dir", dir + "/" + name,
                                     "--runtime-lib", runtime_lib()};
    args.insert(args.end(), flags.begin(), flags.end());
    std::string errors;
    EXPECT_EQ(run_microaot_capture(args, errors), 0) << name << ": " << errors;
    return read_file(dir + "/" + name + "/output0.bin");
  };
  const std::vector<uint8_t> whole = run("whole", {"--tiling", "off"});
  ASSERT_EQ(whole.size(), 12u * 12u * 4u);
  EXPECT_GT(std::set<uint8_t>(whole.begin(), whole.end()).size(), 8u);  // a saturated output would prove nothing

  // Below the input and its transpose together: only a chain headed by the TRANSPOSE fits.
  const std::string budget = std::to_string(2 * kInputBytes - 1);
  EXPECT_EQ(run("banded", {"--ram-budget", budget}), whole);
  std::string errors;
  ASSERT_EQ(run_microaot_capture({"compile", model, "-o", dir + "/c", "--ram-budget", budget}, errors), 0) << errors;
  const json r = json::parse(text_of(dir + "/c/report.json"));
  ASSERT_FALSE(r["bands"].empty());
  EXPECT_EQ(r["bands"][0]["first_step"], 0) << r["bands"].dump();  // the TRANSPOSE heads the first chain
  EXPECT_GE(r["bands"][0]["last_step"].get<int>(), 1) << r["bands"].dump();
  const int64_t arena = r["arena_bytes"];
  EXPECT_LE(r["arena_buffer_bytes"].get<int64_t>(), 2 * kInputBytes - 1);
  EXPECT_EQ(r["arena_buffer_bytes"].get<int64_t>(), arena + r["arena_header_bytes"].get<int64_t>());
  EXPECT_NE(text_of(dir + "/c/memory_map.h").find("MODEL_MEMORY_ARENA_SIZE " + std::to_string(arena) + "u"),
            std::string::npos);
  EXPECT_NE(text_of(dir + "/c/memory_plan.txt").find("line buffer of"), std::string::npos);
  // The plan's estimate is its chains' and the variant switches' outside them (none inside a chain).
  int64_t estimated = 0;
  for (const json& c : r["bands"]) estimated += c["estimated_extra_instructions"].get<int64_t>();
  for (const json& v : r["band_variant_switches"]) {
    estimated += v["estimated_extra_instructions"].get<int64_t>();
    for (const json& c : r["bands"]) EXPECT_FALSE(v["step"] >= c["first_step"] && v["step"] <= c["last_step"]);
  }
  EXPECT_EQ(r["bands_estimated_extra_instructions"].get<int64_t>(), estimated);

  // The interpreter runs whole steps: the same budget is refused, naming what the AOT executor reaches.
  EXPECT_EQ(run_microaot_capture({"compile", model, "-o", dir + "/g", "--executor", "graph", "--ram-budget", budget},
                                 errors),
            1);
  EXPECT_NE(errors.find("--executor aot"), std::string::npos) << errors;
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
