// TFLM's compressed models (tflite_decode.cpp): models compressed by the test's own writer of TFLM's documented
// format (tflm_compress_test_util.h) read back as the uncompressed model's constants, exactly, with no DECODE
// left; hostile ones are refused naming the operator and the tensor.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "frontend/model_reader.h"
#include "frontend/read_model_test_util.h"
#include "frontend/tflm_compress_test_util.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace tflite_test;

// small_fc_model with 6 units of 40 inputs, each unit's weights from `values` values of its own (per-channel
// quantized, one scale a unit) or, shared, from `values` values for the whole tensor (one scale).
ModelSpec fc_model(int values, bool shared, int seed) {
  std::mt19937 rng(static_cast<uint32_t>(seed));
  std::uniform_int_distribution<int> weight(-127, 127);
  ModelSpec m = small_fc_model();
  std::vector<int8_t> w, table;
  for (int u = 0; u < 6; ++u) {
    if (!shared || u == 0) {
      table.clear();
      for (int v = 0; v < values; ++v) table.push_back(static_cast<int8_t>(weight(rng)));
    }
    for (int d = 0; d < 40; ++d) w.push_back(table[static_cast<size_t>(weight(rng) + 127) % table.size()]);
  }
  m.tensors[0] = activation("in", {1, 40}, 0.5f, -1);
  m.tensors[1] = constant("weights", tflite::TensorType::INT8, {6, 40},
                          shared ? std::vector<float>{0.01f} : std::vector<float>(6, 0.01f), bytes_of(w));
  m.tensors[2] = constant("bias", tflite::TensorType::INT32, {6}, std::vector<float>(6, 0.005f),
                          bytes_of<int32_t>({100, -7, 3000, 0, -70000, 12}));
  m.tensors[3] = activation("out", {1, 6}, 1.5f, 3);
  return m;
}

// The FULLY_CONNECTED's weights and bias after reading: the uncompressed model's bytes, marked with the width.
TEST(TflmDecode, DecodesToTheUncompressedConstantsAtEveryWidth) {
  for (int bits = 1; bits <= 7; ++bits) {
    for (bool shared : {false, true}) {
      const ModelSpec plain = fc_model(1 << bits, shared, bits);
      ModelSpec m = plain;
      tflm_compress(m, 1, bits);
      tflm_compress(m, 2, 3);  // int32 bias: 6 channels of one value each, 3-bit indices anyway
      const Graph graph = read_model(build_model(m));
      ASSERT_EQ(graph.ops.size(), 1u) << "the DECODEs are folded";
      const Tensor& w = graph.tensor(graph.ops[0].inputs[1]);
      const Tensor& b = graph.tensor(graph.ops[0].inputs[2]);
      EXPECT_TRUE(w.is_constant && b.is_constant);
      EXPECT_EQ(w.data, plain.tensors[1].data) << bits << (shared ? " shared" : " per channel");
      EXPECT_EQ(b.data, plain.tensors[2].data);
      EXPECT_EQ(w.dtype, DType::kInt8);
      EXPECT_EQ(w.shape, (std::vector<int32_t>{6, 40}));
      EXPECT_EQ(w.lut_bits, bits);
      const LutEncoding lut = encode_lut(plain.tensors[1], bits);  // tables of the fullest channel's values
      EXPECT_EQ(lut.encoded.size(), static_cast<size_t>((240 * bits + 7) / 8));
      EXPECT_EQ(lut.ancillary.size(), 16u + (shared ? 1u : 6u) * lut.ancillary[6]);
      EXPECT_EQ(w.lut_bytes, static_cast<int64_t>(lut.encoded.size() + lut.ancillary.size()));
      EXPECT_EQ(b.lut_bits, 3);
    }
  }
}

// A filter quantized along its last axis (DEPTHWISE_CONV_2D's [1, H, W, C]): element e is channel e % C.
TEST(TflmDecode, TablesAlongTheLastAxis) {
  std::vector<int8_t> w;
  for (int i = 0; i < 9 * 4; ++i) w.push_back(static_cast<int8_t>((i % 4) * 10 + (i / 4) % 2));  // 2 values a channel
  ModelSpec m;
  TensorSpec filter = constant("dw", tflite::TensorType::INT8, {1, 3, 3, 4}, std::vector<float>(4, 0.1f), bytes_of(w));
  filter.axis = 3;
  m.tensors = {activation("in", {1, 3, 3, 4}, 0.5f, 0), filter,
               constant("bias", tflite::TensorType::INT32, {4}, std::vector<float>(4, 0.05f), bytes_of<int32_t>({1, 2, 3, 4})),
               activation("out", {1, 1, 1, 4}, 1.0f, 0)};
  OpSpec dw = op(4, 1, {0, 1, 2}, {3});
  dw.options_type = tflite::BuiltinOptions::DepthwiseConv2DOptions;
  dw.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::VALID, 1, 1, 1).Union();
  };
  m.ops = {dw};
  m.inputs = {0};
  m.outputs = {3};
  const int32_t ancillary = tflm_compress(m, 1, 1);
  EXPECT_EQ(m.tensors[static_cast<size_t>(ancillary)].data.size(), 16u + 4u * 2u);  // 4 tables of 2
  const Graph graph = read_model(build_model(m));
  ASSERT_EQ(graph.ops.size(), 1u);
  EXPECT_EQ(graph.tensor(graph.ops[0].inputs[1]).data, bytes_of(w));
}

// Each hostile variant refused with the operator, the tensor and what is wrong; nothing read.
TEST(TflmDecode, RefusesHostileCompressedModels) {
  const ModelSpec plain = fc_model(8, false, 1);
  ModelSpec good = plain;
  const int32_t ancillary = tflm_compress(good, 1, 3);
  ASSERT_EQ(read_error(good), "");
  auto with = [&](auto change) {
    ModelSpec m = good;
    change(m);
    return read_error(m);
  };
  auto anc = [&](ModelSpec& m) -> std::vector<uint8_t>& { return m.tensors[static_cast<size_t>(ancillary)].data; };
  auto truncate = [&](ModelSpec& m, size_t bytes) {
    anc(m).resize(bytes);
    m.tensors[static_cast<size_t>(ancillary)].shape = {static_cast<int32_t>(bytes)};
  };
  const std::string where = "op 0 (TFLM_DECODE) (decoding 'weights_decoded0'): ";
  EXPECT_EQ(with([&](ModelSpec& m) { anc(m)[0] = 1; }),
            where + "the Huffman kind of TFLM compression is not supported (microaot reads the look-up-table kind): "
                    "compress this tensor with a look-up table, or compile the uncompressed model");
  EXPECT_NE(with([&](ModelSpec& m) { anc(m)[0] = 2; }).find("the pruning kind"), std::string::npos);
  EXPECT_NE(with([&](ModelSpec& m) { anc(m)[0] = 200; }).find("the custom (200) kind"), std::string::npos);
  EXPECT_EQ(with([&](ModelSpec& m) { anc(m)[1] = 2; }),
            where + "header version 2, table version 1; microaot reads version 1 of both");
  EXPECT_EQ(with([&](ModelSpec& m) { anc(m)[5] = 0; }),
            where + "an index width of 0 bits (the header's byte 5 takes 1 to 7)");
  EXPECT_EQ(with([&](ModelSpec& m) { anc(m)[6] = 0; }),
            where + "a value table stride of 0 (the header's byte 6: entries per table)");
  // Wrong width: 4 bits would take 120 bytes for 240 elements, the encoded tensor holds 90.
  EXPECT_NE(with([&](ModelSpec& m) { anc(m)[5] = 4; }).find("holds 90 bytes, but the output's 240 elements at 4 bits take 120"),
            std::string::npos);
  // The DECODE's output shape does not match the encoded data.
  EXPECT_NE(with([&](ModelSpec& m) { m.tensors.back().shape = {6, 41}; })
                .find("an output shape that does not match the encoded data"),
            std::string::npos);
  EXPECT_EQ(with([&](ModelSpec& m) { truncate(m, 16 + 6 * 8 - 1); }),
            where + "the value tables hold 47 bytes, but 6 table(s) of 8 entries of 1 bytes take 48");
  EXPECT_EQ(with([&](ModelSpec& m) { truncate(m, 10); }),
            where + "its ancillary data holds 10 bytes, less than the 16-byte header");
  // An index past its table: stride 5 while the data uses up to 8 entries.
  EXPECT_NE(with([&](ModelSpec& m) { anc(m)[6] = 5; }).find(", past its table of 5 entries"), std::string::npos);
  EXPECT_NE(with([&](ModelSpec& m) { m.ops[0].inputs.pop_back(); })
                .find("op 0 (TFLM_DECODE) has 1 inputs for 1 outputs (it takes an encoded and an ancillary tensor per "
                      "output)"),
            std::string::npos);
  EXPECT_NE(with([&](ModelSpec& m) { m.ops[0].inputs[0] = 0; }).find("is not a constant UINT8 tensor"),
            std::string::npos);
  EXPECT_NE(with([&](ModelSpec& m) {
              TensorSpec& out = m.tensors.back();  // 240 elements, 4 channels along a middle axis
              out.shape = {6, 4, 10}, out.scale.assign(4, 0.1f), out.zero_point.assign(4, 0), out.axis = 1;
            })
                .find("is quantized per channel along axis 1"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
