#include "quantize/quant_report.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

namespace microaot {
namespace {

TEST(QuantReport, ComparesOutputsRowByRow) {
  // Two samples of [2 rows x 3 classes]; the second sample's second row picks another class.
  const std::vector<std::vector<float>> ref = {{0.1f, 0.7f, 0.2f, 0.5f, 0.3f, 0.2f}, {0.0f, 0.0f, 1.0f, 0.4f, 0.5f, 0.1f}};
  const std::vector<std::vector<float>> got = {{0.1f, 0.7f, 0.2f, 0.5f, 0.3f, 0.2f}, {0.0f, 0.0f, 1.0f, 0.5f, 0.4f, 0.1f}};
  const OutputError e = compare_output(ref, got, 3);
  EXPECT_EQ(e.rows, 4);
  EXPECT_EQ(e.top1_agree, 3);
  EXPECT_NEAR(e.max_abs_error, 0.1, 1e-6);
  EXPECT_GT(e.sqnr_db, 10.0);
  EXPECT_EQ(compare_output(ref, got, 1).rows, 0);  // not class scores: no top-1
}

TEST(QuantReport, TextAndJsonHoldTheSameFigures) {
  QuantReport r;
  r.model = "m.tflite";
  r.output = "q.tflite";
  r.method = "mse";
  r.weights = "per-channel";
  r.input_type = r.output_type = "int8";
  r.samples = 4;
  r.activations = "int8";
  r.layers = {{7, "conv", "CONV_2D (op 0)", "int16", 0.5f, 0, 31.256},
              {8, "same", "RESHAPE (op 1)", "int8", 0.5f, -128, std::numeric_limits<double>::infinity()}};
  OutputError out;
  out.tensor = 8;
  out.name = "same";
  out.sqnr_db = 25.0;
  out.max_abs_error = 0.25;
  out.rows = 4;
  out.top1_agree = 4;
  r.outputs = {out};
  const std::string text = report_text(r);
  EXPECT_EQ(text.rfind(kReportTextHeader, 0), 0u);
  EXPECT_NE(text.find("31.26"), std::string::npos) << text;
  EXPECT_NE(text.find("exact"), std::string::npos) << text;
  EXPECT_NE(text.find("top-1 agreement 4/4"), std::string::npos) << text;
  const nlohmann::json j = nlohmann::json::parse(report_json(r));
  EXPECT_EQ(j[kReportJsonKey], 1);
  EXPECT_DOUBLE_EQ(j["layers"][0]["sqnr_db"].get<double>(), 31.26);
  EXPECT_EQ(j["layers"][1]["sqnr_db"], "exact");
  EXPECT_EQ(j["layers"][0]["type"], "int16");
  EXPECT_NE(text.find("int16"), std::string::npos) << text;
  EXPECT_EQ(j["outputs"][0]["top1_agreement"]["agree"], 4);
  EXPECT_EQ(j["calibration_samples"], 4);
}

}  // namespace
}  // namespace microaot
