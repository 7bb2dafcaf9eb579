// TFLM's compressed models end to end (frontend/tflite_decode.cpp): a CONV_2D -> DEPTHWISE_CONV_2D ->
// FULLY_CONNECTED model whose weights take few values, compressed by the test's own writer of TFLM's format
// (per-channel tables for the per-channel filters, one shared table for the FC's per-tensor weights, the int32
// biases too, at several widths), runs bit-exact with the uncompressed model: its weights decoded inside the
// palette kernels, its biases expanded at compile time, and with --compress-weights off everything expanded.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>
#include <string>

#include "e2e_util.h"
#include "frontend/tflm_compress_test_util.h"

namespace microaot::e2e {
namespace {

using namespace tflite_test;

// count weights, each from the first `values` of `table`s of channel i / per (or one table when per == count).
std::vector<int8_t> few_values(std::mt19937& rng, int channels, int per, int values, bool last_axis) {
  std::uniform_int_distribution<int> weight(-127, 127), pick(0, values - 1);
  std::vector<std::vector<int8_t>> tables(static_cast<size_t>(channels));
  for (auto& t : tables) {
    for (int v = 0; v < values; ++v) t.push_back(static_cast<int8_t>(weight(rng)));
  }
  std::vector<int8_t> w(static_cast<size_t>(channels * per));
  for (size_t e = 0; e < w.size(); ++e) {
    const size_t c = last_axis ? e % static_cast<size_t>(channels) : e / static_cast<size_t>(per);
    w[e] = tables[c][static_cast<size_t>(pick(rng))];
  }
  return w;
}

tflite_test::OpSpec with_options(tflite_test::OpSpec spec, tflite::BuiltinOptions type, OptionsFn options) {
  spec.options_type = type;
  spec.options = std::move(options);
  return spec;
}

// x [1,6,6,3] -> CONV_2D 3x3 SAME (8) -> DEPTHWISE_CONV_2D 3x3 SAME -> FULLY_CONNECTED (10); weights at 2^bits,
// 2^(bits+1) values per channel and 2^min(bits+3, 7) values for the whole FC.
ModelSpec three_layer_model(int bits) {
  std::mt19937 rng(static_cast<uint32_t>(bits));
  const std::vector<float> eight(8, 0.01f);
  ModelSpec m;
  TensorSpec dw_filter = constant("dw_filter", tflite::TensorType::INT8, {1, 3, 3, 8}, eight,
                                  bytes_of(few_values(rng, 8, 9, 1 << (bits + 1), true)));
  dw_filter.axis = 3;
  m.tensors = {
      activation("x", {1, 6, 6, 3}, 0.05f, -5),
      constant("conv_filter", tflite::TensorType::INT8, {8, 3, 3, 3}, eight,
               bytes_of(few_values(rng, 8, 27, 1 << bits, false))),
      constant("conv_bias", tflite::TensorType::INT32, {8}, std::vector<float>(8, 0.0005f),
               bytes_of<int32_t>({300, -2000, 0, 77, 5, -5, 1000, 40})),
      activation("conv_out", {1, 6, 6, 8}, 0.15f, 0),
      dw_filter,
      constant("dw_bias", tflite::TensorType::INT32, {8}, std::vector<float>(8, 0.0015f),
               bytes_of<int32_t>({-50, 900, 5, 0, 0, 11, -300, 2})),
      activation("dw_out", {1, 6, 6, 8}, 0.2f, 1),
      constant("fc_weights", tflite::TensorType::INT8, {10, 288}, {0.005f},
               bytes_of(few_values(rng, 1, 2880, 1 << std::min(bits + 3, 7), false))),
      constant("fc_bias", tflite::TensorType::INT32, {10}, {0.001f},
               bytes_of<int32_t>({10, 20, -30, 40, 0, 0, 7, -7, 100, -100})),
      activation("out", {1, 10}, 0.25f, 0),
  };
  m.ops = {
      with_options(op(3, 1, {0, 1, 2}, {3}), tflite::BuiltinOptions::Conv2DOptions,
                   [](flatbuffers::FlatBufferBuilder& fbb) {
                     return tflite::CreateConv2DOptions(fbb, tflite::Padding::SAME, 1, 1).Union();
                   }),
      with_options(op(4, 1, {3, 4, 5}, {6}), tflite::BuiltinOptions::DepthwiseConv2DOptions,
                   [](flatbuffers::FlatBufferBuilder& fbb) {
                     return tflite::CreateDepthwiseConv2DOptions(fbb, tflite::Padding::SAME, 1, 1, 1).Union();
                   }),
      with_options(op(9, 1, {6, 7, 8}, {9}), tflite::BuiltinOptions::FullyConnectedOptions,
                   [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateFullyConnectedOptions(fbb).Union(); }),
  };
  m.inputs = {0};
  m.outputs = {9};
  return m;
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class TflmCompressed : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override { remove_dir(tmp_); }
  // `microaot run` of model `name` on the input; the output's bytes (and the compiled network_info.txt in info).
  std::vector<uint8_t> run(const std::string& name, const std::string& compress, std::string* info = nullptr) {
    const std::string dir = tmp_ + "/" + name + compress;
    std::vector<std::string> args = {tmp_ + "/" + name + ".tflite"};
    if (!compress.empty()) args.insert(args.end(), {"--compress-weights", compress});
    std::vector<std::string> run = {"run"}, compile = {"compile"};
    run.insert(run.end(), args.begin(), args.end());
    run.insert(run.end(), {"--input", tmp_ + "/x.bin", "--output-dir", dir, "--runtime-lib", runtime_lib()});
    compile.insert(compile.end(), args.begin(), args.end());
    compile.insert(compile.end(), {"-o", dir + "_c"});
    std::string errors;
    EXPECT_EQ(run_microaot_capture(run, errors), 0) << errors;
    if (info != nullptr) {
      EXPECT_EQ(run_microaot_capture(compile, errors), 0) << errors;
      *info = read_text(dir + "_c/network_info.txt");
    }
    return read_file(dir + "/output0.bin");
  }
  std::string tmp_;
};

TEST_P(TflmCompressed, RunsBitExactWithTheUncompressedModel) {
  const int bits = GetParam();
  const ModelSpec plain = three_layer_model(bits);
  ModelSpec compressed = plain;
  tflm_compress(compressed, 1, bits);
  tflm_compress(compressed, 4, bits + 1);
  tflm_compress(compressed, 7, std::min(bits + 3, 7));
  for (int32_t bias : {2, 5, 8}) tflm_compress(compressed, bias, 4);
  write_bytes(tmp_ + "/plain.tflite", build_model(plain));
  write_bytes(tmp_ + "/tflm.tflite", build_model(compressed));
  std::mt19937 rng(7);
  std::vector<uint8_t> x(108);
  for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
  write_bytes(tmp_ + "/x.bin", x);

  const std::vector<uint8_t> expected = run("plain", "off");
  ASSERT_EQ(expected.size(), 10u);
  EXPECT_GT(std::set<uint8_t>(expected.begin(), expected.end()).size(), 3u) << "a non-trivial output";
  std::string info;
  EXPECT_EQ(run("tflm", "", &info), expected);
  // At 4 bits the conv's 27-weight filters with 16 values each and the depthwise's 9 taps with 32 do not repay
  // per-channel tables (a palette larger than the int8 weights): those are expanded too, exactly.
  const size_t folded = bits == 1 ? 3 : 1;
  EXPECT_EQ(count_of(info, ": decoded in its palette kernel"), folded) << info;
  EXPECT_EQ(count_of(info, ": expanded at compile time into a plain constant"), 6 - folded) << info;
  EXPECT_NE(info.find("TFLM-compressed constants (TFLM_DECODE folded at compile time, exact)"), std::string::npos);
  const size_t fc = info.find("'fc_weights_decoded");
  ASSERT_NE(fc, std::string::npos) << info;
  EXPECT_NE(info.find("' (" + std::to_string(std::min(bits + 3, 7)) + "-bit indices, TFLM", fc), std::string::npos)
      << info;
  EXPECT_NE(info.find("one table"), std::string::npos) << "the FC's per-tensor table stays shared";
  EXPECT_EQ(run("tflm", "off", &info), expected);  // everything expanded
  EXPECT_EQ(count_of(info, ": expanded at compile time into a plain constant"), 6u) << info;
}

// 1-bit conv / 2-bit depthwise / 4-bit FC (all three folded), and 4 / 5 / 7 bits (the FC folded).
INSTANTIATE_TEST_SUITE_P(Widths, TflmCompressed, ::testing::Values(1, 4));

}  // namespace
}  // namespace microaot::e2e
