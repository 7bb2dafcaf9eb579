#include "quantize/cluster_report.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

namespace microaot {
namespace {

ClusterReport sample_report() {
  ClusterReport r;
  r.model = "net.tflite";
  r.clustered_model = "net_clustered.tflite";
  r.values = 4;
  r.samples = 2;
  r.weights.layers.push_back({"w", "CONV_2D", 8, false, 97, 4, 18.5});
  r.layers.push_back({3, "conv_out", "CONV_2D (op 0)", "int8", 0.5f, -128, 21.25});
  r.layers.push_back({4, "pool_out", "MAX_POOL_2D (op 1)", "int8", 0.5f, -128, std::numeric_limits<double>::infinity()});
  r.outputs.push_back({4, "pool_out", 19.5, 1.5, 4, 3});  // tensor, name, SQNR, largest error, rows, top-1 agree
  return r;
}

TEST(ClusterReport, TextSaysLossyAndGivesEveryLayerAndOutput) {
  const std::string text = cluster_report_text(sample_report());
  EXPECT_EQ(text.rfind("microaot cluster report: net.tflite -> net_clustered.tflite\n", 0), 0u) << text;
  EXPECT_NE(text.find("LOSSY: --cluster-weights 4, 2 calibration sample(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("CONV_2D 'w': 8 channels, 97 -> 4 values in the fullest, weights SQNR 18.5 dB"), std::string::npos);
  EXPECT_NE(text.find("21.25  conv_out"), std::string::npos) << text;
  EXPECT_NE(text.find("exact  pool_out"), std::string::npos) << text;
  EXPECT_NE(text.find("pool_out (tensor 4): SQNR 19.50 dB, largest error 1.5, top-1 agreement 3/4"), std::string::npos);
}

TEST(ClusterReport, JsonHasTheSameFacts) {
  const nlohmann::json j = nlohmann::json::parse(cluster_report_json(sample_report()));
  EXPECT_EQ(j[kClusterReportJsonKey], 1);
  EXPECT_EQ(j["values"], 4);
  EXPECT_EQ(j["calibration_samples"], 2);
  EXPECT_EQ(j["weights"][0]["values_before"], 97);
  ASSERT_EQ(j["layers"].size(), 2u);
  EXPECT_EQ(j["layers"][0]["sqnr_db"], 21.25);
  EXPECT_EQ(j["layers"][1]["sqnr_db"], "exact");
  EXPECT_EQ(j["outputs"][0]["top1_agreement"]["agree"], 3);
}

}  // namespace
}  // namespace microaot
