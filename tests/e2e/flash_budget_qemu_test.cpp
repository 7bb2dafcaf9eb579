// --flash-budget (compile/fit_flash.h) on QEMU (ctest label "qemu"): a model under a budget between its
// balanced and speed images widens only some layers and stays bit-exact with its golden; a budget even int8
// weights exceed is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

std::string shared_model(const std::string& name) { return shared_dir() + "/models/" + name + "/model.tflite"; }

json report_of(const std::string& model, const std::vector<std::string>& extra, const std::string& dir) {
  std::vector<std::string> args = {"compile", shared_model(model), "--target", "cortex-m4", "-o", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string errors;
  EXPECT_EQ(run_microaot_capture(args, errors), 0) << errors;
  std::ifstream in(dir + "/report.json");
  return json::parse(in);
}

TEST(FlashBudgetQemu, ABudgetBetweenBalancedAndSpeedWidensSomeLayersAndStaysBitExact) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "kws_dscnn_int8";
  MICROAOT_REQUIRE_SHARED_MODEL(model);
  const std::string tmp = make_temp_dir();
  const json speed = report_of(model, {"--flash-budget", "16M"}, tmp + "/speed");
  const json& fit = speed["flash_fit"];
  ASSERT_GE(fit["widened"].size(), 2u);
  EXPECT_TRUE(fit["kept_int8"].empty());
  const int64_t full = fit["estimated_weights_bytes"].get<int64_t>() + fit["estimated_code_bytes"].get<int64_t>();
  const int64_t half = full - fit["widened_bytes"].get<int64_t>() / 2;
  const std::vector<std::string> budget = {"--flash-budget", std::to_string(half)};
  const json some = report_of(model, budget, tmp + "/some");
  EXPECT_FALSE(some["flash_fit"]["widened"].empty());
  EXPECT_FALSE(some["flash_fit"]["kept_int8"].empty());
  EXPECT_LE(some["flash_fit"]["estimated_weights_bytes"].get<int64_t>() +
                some["flash_fit"]["estimated_code_bytes"].get<int64_t>(),
            half);
  EXPECT_NE(some["flags"].get<std::string>().find("--flash-budget " + std::to_string(half)), std::string::npos);
  EXPECT_NE(read_text(tmp + "/some/network_info.txt").find("kept int8 to fit the budget:\n  step"), std::string::npos);
  // The mix of int8 and int16 layers computes the golden outputs bit for bit on the M4.
  const json golden = json::parse(read_text(shared_dir() + "/models/" + model + "/golden.json"));
  const std::string out = tmp + "/run";
  std::vector<std::string> args = {"run", shared_model(model), "--target", "cortex-m4", "--output-dir", out};
  args.insert(args.end(), budget.begin(), budget.end());
  for (const auto& input : golden["vectors"][0]["inputs"]) {
    args.insert(args.end(), {"--input", shared_dir() + "/models/" + model + "/" + input.get<std::string>()});
  }
  ASSERT_EQ(run_microaot(args), 0);
  const json& outputs = golden["vectors"][0]["outputs"];
  for (size_t j = 0; j < outputs.size(); ++j) {
    EXPECT_EQ(compare_tensor(golden["outputs"][j]["dtype"], read_file(out + "/output" + std::to_string(j) + ".bin"),
                             read_file(shared_dir() + "/models/" + model + "/" + outputs[j].get<std::string>())),
              "");
  }
  remove_dir(tmp);
}

TEST(FlashBudgetQemu, RefusesABudgetEvenInt8WeightsExceed) {
  MICROAOT_REQUIRE_SHARED_MODEL(std::string("kws_dscnn_int8"));
  const std::string tmp = make_temp_dir();
  std::string errors;
  EXPECT_EQ(run_microaot_capture({"compile", shared_model("kws_dscnn_int8"), "--target", "cortex-m4", "--flash-budget",
                                  "20K", "-o", tmp + "/out"},
                                 errors),
            1);
  EXPECT_NE(errors.find("Flash budget exceeded. Required: "), std::string::npos) << errors;
  EXPECT_NE(errors.find("Available: 20480 bytes"), std::string::npos) << errors;
  EXPECT_FALSE(std::filesystem::exists(tmp + "/out/report.json")) << "no partial output";
  remove_dir(tmp);
}

// Fused bands unroll their calls in NAME.c: VWW within a tight RAM budget (one row a band) has hundreds of
// them, and the flash estimate it is held to still covers the library the M4 bench links.
TEST(FlashBudgetQemu, TheEstimateCoversTheFusedBandsCode) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "vww_mobilenet_int8";
  MICROAOT_REQUIRE_SHARED_MODEL(model);
  const std::string tmp = make_temp_dir();
  const std::vector<std::string> flags = {"--ram-budget", "33000", "--flash-budget", "16M"};
  const json fit = report_of(model, flags, tmp + "/out")["flash_fit"];
  ASSERT_GT(fit["estimated_band_code_bytes"].get<int64_t>(), 0);
  std::vector<std::string> args = {"bench", shared_model(model), "--target", "cortex-m4", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  const json bench = json::parse(output);
  EXPECT_LE(bench["flash_bytes"].get<int64_t>(),
            fit["estimated_weights_bytes"].get<int64_t>() + fit["estimated_code_bytes"].get<int64_t>());
  remove_dir(tmp);
}

}  // namespace
}  // namespace microaot::e2e
