// Compressed weights (issue 32) end to end on the host: KWS clustered to K values (--cluster-weights K; per
// tensor, one shared table, for its short rows) runs with its weights palettised (1-bit indices at K = 2, 3-bit
// ones crossing bytes at K = 8, 4-bit at K = 16) bit-exact with the same clustered model uncompressed, and the folder
// says which layers and bytes; the executor's blob runs them too. Hostile palettes are refused by the kernels
// (runtime/kernels/palette_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e_util.h"

namespace microaot::e2e {
namespace {

// A fresh temporary folder per test, and a skip without ../shared.
template <class Base>
class WithSharedAndTemp : public Base {
 protected:
  void SetUp() override {
    if (!shared_available()) GTEST_SKIP() << "../shared is missing";
    tmp_ = make_temp_dir();
  }
  void TearDown() override {
    if (!tmp_.empty()) remove_dir(tmp_);
  }
  std::string tmp_;
};

class CompressedWeights : public WithSharedAndTemp<::testing::TestWithParam<int>> {
 protected:
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

// The error report of --cluster-weights K --calibration (issue 32, item 3), as the quantizer's: the output's
// SQNR it states is the one of the two models' own outputs, and clustering the clustered model again changes
// nothing.
class ClusterReport : public WithSharedAndTemp<::testing::Test> {
 protected:
  const std::string model_ = shared_dir() + "/models/kws_dscnn_int8/model.tflite";
  const std::string input_ = shared_dir() + "/models/kws_dscnn_int8/vectors/0.input0.bin";
  nlohmann::json compile_with_report(const std::string& model, const std::string& k, const std::string& out) {
    std::string errors;
    EXPECT_EQ(run_microaot_capture({"compile", model, "--cluster-weights", k, "--calibration", input_, "-o", out},
                                   errors),
              0)
        << errors;
    EXPECT_NE(read_text(out + "/model_clustered.report.txt").find("microaot cluster report"), std::string::npos);
    return nlohmann::json::parse(read_text(out + "/model_clustered.report.json"));
  }
  std::vector<uint8_t> run_output(const std::string& model, const std::string& dir) {
    std::string errors;
    EXPECT_EQ(run_microaot_capture({"run", model, "--input", input_, "--output-dir", dir, "--runtime-lib", runtime_lib()},
                                   errors),
              0)
        << errors;
    return read_file(dir + "/output0.bin");
  }
};

TEST_F(ClusterReport, StatesTheOutputErrorOfTheTwoModelsAndExactWhereNothingChanged) {
  const nlohmann::json report = compile_with_report(model_, "4", tmp_ + "/k4");
  ASSERT_EQ(report["layers"].size(), 13u);  // every operator of KWS, the RESHAPE included
  ASSERT_EQ(report["outputs"].size(), 1u);
  const nlohmann::json& out = report["outputs"][0];
  const int zero_point = report["layers"].back()["zero_point"];
  const std::vector<uint8_t> ref = run_output(model_, tmp_ + "/ref");
  const std::vector<uint8_t> got = run_output(tmp_ + "/k4/model_clustered.tflite", tmp_ + "/got");
  ASSERT_EQ(ref.size(), got.size());
  double signal = 0, noise = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double r = static_cast<int8_t>(ref[i]) - zero_point, g = static_cast<int8_t>(got[i]) - zero_point;
    signal += r * r;
    noise += (r - g) * (r - g);
  }
  ASSERT_GT(noise, 0) << "clustering KWS to 4 values changed nothing";
  EXPECT_NEAR(out["sqnr_db"].get<double>(), 10 * std::log10(signal / noise), 0.01);
  EXPECT_EQ(out["top1_agreement"]["rows"], 1);

  const nlohmann::json again = compile_with_report(tmp_ + "/k4/model_clustered.tflite", "4", tmp_ + "/again");
  for (const nlohmann::json& layer : again["layers"]) EXPECT_EQ(layer["sqnr_db"], "exact") << layer.dump();
  EXPECT_EQ(again["outputs"][0]["sqnr_db"], "exact");
}

TEST_F(ClusterReport, CalibrationWithoutQuantizeOrClusterIsAUsageError) {
  std::string errors;
  EXPECT_EQ(run_microaot_capture({"compile", model_, "--calibration", input_, "-o", tmp_ + "/x"}, errors), 2);
  EXPECT_NE(errors.find("--calibration goes with --quantize"), std::string::npos) << errors;
}

}  // namespace
}  // namespace microaot::e2e
