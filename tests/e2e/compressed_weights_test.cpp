// Compressed weights (issue 32) end to end on the host: KWS clustered to K values (--cluster-weights K; per
// tensor, one shared table, for its short rows) runs with its weights palettised (1-bit indices at K = 2, 3-bit
// ones crossing bytes at K = 8, 4-bit at K = 16) bit-exact with the same clustered model uncompressed, and the folder
// says which layers and bytes; the executor's blob runs them too. Hostile palettes are refused by the kernels
// (runtime/kernels/palette_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "e2e_util.h"

namespace microaot::e2e {
namespace {

class CompressedWeights : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (!shared_available()) GTEST_SKIP() << "../shared is missing";
    tmp_ = make_temp_dir();
  }
  void TearDown() override {
    if (!tmp_.empty()) remove_dir(tmp_);
  }
  // Runs KWS clustered to GetParam() values with --compress-weights `compress` on vector 0; the output's bytes.
  std::vector<uint8_t> run_kws(const std::string& compress, const std::string& executor) {
    const std::string model = shared_dir() + "/models/kws_dscnn_int8";
    const std::string dir = tmp_ + "/" + compress + executor;
    std::string errors;
    EXPECT_EQ(run_microaot_capture({"run", model + "/model.tflite", "--cluster-weights", std::to_string(GetParam()),
                                    "--compress-weights", compress, "--executor", executor, "--input",
                                    model + "/vectors/0.input0.bin", "--output-dir", dir, "--runtime-lib",
                                    runtime_lib()},
                                   errors),
              0)
        << errors;
    return read_file(dir + "/output0.bin");
  }
  std::string tmp_;
};

TEST_P(CompressedWeights, ClusteredKwsRunsBitExactWithItsUncompressedSelf) {
  const std::vector<uint8_t> plain = run_kws("off", "aot");
  ASSERT_FALSE(plain.empty());
  EXPECT_EQ(run_kws("lossless", "aot"), plain);
  EXPECT_EQ(run_kws("lossless", "graph"), plain);

  const std::string out = tmp_ + "/compiled";
  std::string errors;
  ASSERT_EQ(run_microaot_capture({"compile", shared_dir() + "/models/kws_dscnn_int8/model.tflite", "--cluster-weights",
                                  std::to_string(GetParam()), "--optimize", "size", "-o", out},
                                 errors),
            0)
      << errors;
  const std::string info = read_text(out + "/network_info.txt");
  // Every layer: KWS's rows (9, 40 and 64 weights) are clustered per tensor, whose one shared table pays also
  // for the 9-tap depthwise filters.
  EXPECT_NE(info.find("compressed weights (--compress-weights lossless): 10 layers palettised"), std::string::npos)
      << info;
  EXPECT_NE(info.find("values in one table for all channels"), std::string::npos) << info;
  EXPECT_NE(info.find("weights changed by --cluster-weights " + std::to_string(GetParam())), std::string::npos);
  EXPECT_FALSE(read_file(out + "/model_clustered.tflite").empty());
  EXPECT_NE(read_text(out + "/report.json").find("\"format\": \"palette"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Kws, CompressedWeights, ::testing::Values(2, 8, 16));

}  // namespace
}  // namespace microaot::e2e
