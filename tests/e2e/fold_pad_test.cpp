// fold_pad end to end: one model holds each PAD -> convolution (or max pool) twice, once foldable and once with the PAD's
// output also a graph output (so the PAD stays and the convolution reads the padded bytes). Built and run
// once: the folded and the kept convolution must give the same bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "frontend/tflite_test_builder.h"

namespace microaot::e2e {
namespace {

using tflite_test::activation;
using tflite_test::bytes_of;
using tflite_test::constant;
using tflite_test::op;

constexpr int kPad = 34, kPadV2 = 60, kConv2D = 3, kDepthwiseConv2D = 4, kMaxPool2D = 17;  // builtin codes

// Deterministic weights in [-100, 100].
std::vector<int8_t> weights(size_t count, int seed) {
  std::vector<int8_t> values;
  for (size_t i = 0; i < count; ++i) values.push_back(static_cast<int8_t>((i * 37 + seed * 11) % 201 - 100));
  return values;
}

tflite_test::OpSpec conv(int code, std::vector<int32_t> inputs, int32_t output, tflite::Padding padding, int stride) {
  tflite_test::OpSpec spec = op(code, 1, std::move(inputs), {output});
  if (code == kConv2D) {
    spec.options_type = tflite::BuiltinOptions::Conv2DOptions;
    spec.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateConv2DOptions(fbb, padding, stride, stride).Union();
    };
  } else {
    spec.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
    spec.options = [=](flatbuffers::FlatBufferBuilder& fbb) {
      return tflite::CreateDepthwiseConv2DOptions(fbb, padding, stride, stride, 1).Union();
    };
  }
  return spec;
}

tflite_test::OpSpec max_pool(int32_t input, int32_t output) {  // 3x3 stride 2 VALID
  tflite_test::OpSpec spec = op(kMaxPool2D, 1, {input}, {output});
  spec.options_type = tflite::BuiltinOptions::Pool2DOptions;
  spec.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, 2, 2, 3, 3).Union();
  };
  return spec;
}

// x [1,9,9,3] -> PAD (0,1)(0,1) -> CONV_2D 3x3 stride 2 VALID (MobileNetV2's stem) -> [1,4,4,4], and
// x -> PAD (1,1)(2,0) -> DEPTHWISE_CONV_2D 3x3 SAME -> [1,11,11,3]; each twice. Outputs: conv folded, conv
// kept, its PAD, depthwise folded, depthwise kept, its PAD; then x -> PADV2 of -128 (1,1)(1,1) -> MAX_POOL_2D
// 3x3 stride 2 -> [1,5,5,3]: folded, kept, its PAD.
tflite_test::ModelSpec twin_model() {
  tflite_test::ModelSpec m;
  m.tensors = {
      activation("x", {1, 9, 9, 3}, 0.05f, -5),
      constant("stem_pads", tflite::TensorType::INT32, {4, 2}, {}, bytes_of<int32_t>({0, 0, 0, 1, 0, 1, 0, 0})),
      activation("stem_padded", {1, 10, 10, 3}, 0.05f, -5),
      constant("conv_filter", tflite::TensorType::INT8, {4, 3, 3, 3}, {0.02f}, bytes_of(weights(108, 1))),
      constant("conv_bias", tflite::TensorType::INT32, {4}, {0.001f}, bytes_of<int32_t>({300, -2000, 0, 77})),
      activation("conv_folded", {1, 4, 4, 4}, 0.1f, 2),
      activation("stem_padded_kept", {1, 10, 10, 3}, 0.05f, -5),
      activation("conv_kept", {1, 4, 4, 4}, 0.1f, 2),
      constant("dw_pads", tflite::TensorType::INT32, {4, 2}, {}, bytes_of<int32_t>({0, 0, 1, 1, 2, 0, 0, 0})),
      activation("dw_padded", {1, 11, 11, 3}, 0.05f, -5),
      constant("dw_filter", tflite::TensorType::INT8, {1, 3, 3, 3}, {0.03f}, bytes_of(weights(27, 2))),
      constant("dw_bias", tflite::TensorType::INT32, {3}, {0.0015f}, bytes_of<int32_t>({-50, 900, 5})),
      activation("dw_folded", {1, 11, 11, 3}, 0.08f, -1),
      activation("dw_padded_kept", {1, 11, 11, 3}, 0.05f, -5),
      activation("dw_kept", {1, 11, 11, 3}, 0.08f, -1),
      constant("pool_pads", tflite::TensorType::INT32, {4, 2}, {}, bytes_of<int32_t>({0, 0, 1, 1, 1, 1, 0, 0})),
      constant("lowest", tflite::TensorType::INT8, {}, {0.05f}, bytes_of<int8_t>({-128})),
      activation("pool_padded", {1, 11, 11, 3}, 0.05f, -5),
      activation("pool_folded", {1, 5, 5, 3}, 0.05f, -5),
      activation("pool_padded_kept", {1, 11, 11, 3}, 0.05f, -5),
      activation("pool_kept", {1, 5, 5, 3}, 0.05f, -5),
  };
  m.tensors[16].zero_point = {-5};  // the PADV2 value is quantized as the PAD's output
  m.ops = {
      op(kPad, 1, {0, 1}, {2}),   conv(kConv2D, {2, 3, 4}, 5, tflite::Padding::VALID, 2),
      op(kPad, 1, {0, 1}, {6}),   conv(kConv2D, {6, 3, 4}, 7, tflite::Padding::VALID, 2),
      op(kPad, 1, {0, 8}, {9}),   conv(kDepthwiseConv2D, {9, 10, 11}, 12, tflite::Padding::SAME, 1),
      op(kPad, 1, {0, 8}, {13}),  conv(kDepthwiseConv2D, {13, 10, 11}, 14, tflite::Padding::SAME, 1),
      op(kPadV2, 1, {0, 15, 16}, {17}), max_pool(17, 18),
      op(kPadV2, 1, {0, 15, 16}, {19}), max_pool(19, 20),
  };
  m.inputs = {0};
  m.outputs = {5, 7, 6, 12, 14, 13, 18, 20, 19};
  return m;
}

std::string write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

size_t distinct_values(const std::vector<uint8_t>& bytes) {
  return std::set<uint8_t>(bytes.begin(), bytes.end()).size();
}

TEST(FoldPadEndToEnd, FoldedConvolutionsMatchTheirKeptTwins) {
  const std::string dir = make_temp_dir();
  const std::string model = write_bytes(dir + "/twins.tflite", tflite_test::build_model(twin_model()));
  std::vector<uint8_t> x(243);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 89 + 7);  // every int8 value range
  const std::string input = write_bytes(dir + "/x.bin", x);

  std::string dump;
  ASSERT_EQ(run_microaot_capture({"compile", model, "-o", dir + "/c", "--dump-ir-after", "fold_pad"}, dump), 0)
      << dump;
  EXPECT_EQ(count_of(dump, "= PAD/"), 2u) << dump;  // only the PADs whose output is a graph output stay
  EXPECT_EQ(count_of(dump, "= PADV2/"), 1u) << dump;

  std::string errors;
  ASSERT_EQ(run_microaot_capture({"run", model, "--input", input, "--output-dir", dir + "/out", "--runtime-lib",
                                  runtime_lib()},
                                 errors),
            0)
      << errors;
  const auto output = [&](int j) { return read_file(dir + "/out/output" + std::to_string(j) + ".bin"); };
  ASSERT_EQ(output(0).size(), 64u);
  EXPECT_GT(distinct_values(output(0)), 8u);  // a saturated, constant output would prove nothing
  EXPECT_EQ(output(0), output(1)) << "CONV_2D: folded PAD differs from the kept one";
  ASSERT_EQ(output(3).size(), 363u);
  EXPECT_GT(distinct_values(output(3)), 8u);
  EXPECT_EQ(output(3), output(4)) << "DEPTHWISE_CONV_2D: folded PAD differs from the kept one";
  ASSERT_EQ(output(6).size(), 75u);
  EXPECT_GT(distinct_values(output(6)), 8u);
  EXPECT_EQ(output(6), output(7)) << "MAX_POOL_2D: folded PADV2 differs from the kept one";
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
