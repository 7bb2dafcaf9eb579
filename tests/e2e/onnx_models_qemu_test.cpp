// Real ONNX models on the emulated Cortex-M4 (ctest label qemu): each model of tests/onnx/make_models.py
// runs under QEMU and its output is compared with onnxruntime's (the goldens' float tolerance); `bench`
// measures it (the line printed per model is the docs/onnx.md table's row), its schedule keeps no
// TRANSPOSE but the one at an NCHW image input of several channels, and an ONNX twin of a ../shared .tflite costs exactly what
// the .tflite costs: the same instructions and RAM.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e_util.h"
#include "onnx_models_util.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

json bench(const std::string& model, const std::string& input) {
  std::string errors, output;
  const int status = run_microaot_capture({"bench", model, "--target", "cortex-m4", "--json", "--input", input},
                                          errors, &output);
  EXPECT_EQ(status, 0) << "bench " << model << ":\n" << errors;
  return status == 0 ? json::parse(output) : json::object();
}

struct Cost {
  int64_t macs = 0;
  int transposes = 0;
  std::set<std::string> ops;
};

Cost cost_of(const json& report) {
  Cost cost;
  for (const json& step : report["per_op"]) {
    cost.macs += step["macs"].get<int64_t>();
    cost.ops.insert(step["op"].get<std::string>());
    if (step["op"] == "TRANSPOSE") ++cost.transposes;
  }
  return cost;
}

class OnnxRealModelsM4 : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxRealModelsM4, MatchesOnnxruntimeWithoutRunTimeTransposes) {
  const std::string& name = GetParam();
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_ONNX_MODELS();
  const OnnxModels& models = onnx_real_models();
  const std::string out = make_temp_dir();
  ASSERT_EQ(run_microaot({"run", models.model(name), "--target", "cortex-m4", "--input", models.input(name),
                          "--output-dir", out + "/run"}),
            0)
      << name;
  const std::vector<uint8_t> got = read_file(out + "/run/output0.bin"), want = read_file(models.oracle(name));
  EXPECT_EQ(compare_tensor("float32", got, want), "") << name << " on cortex-m4 against onnxruntime";
  remove_dir(out);

  const json report = bench(models.model(name), models.input(name));
  ASSERT_FALSE(report.empty());
  EXPECT_TRUE(report["outputs_match"].get<bool>()) << name;
  const Cost cost = cost_of(report);
  // NCHW to NHWC moves bytes only for an image of several channels
  const std::vector<int64_t>& shape = models.input_shape.at(name);
  const int at_input = shape.size() == 4 && shape[1] > 1 ? 1 : 0;
  EXPECT_EQ(cost.transposes, at_input) << name << ": a TRANSPOSE left in the schedule";
  std::string ops;
  for (const std::string& op : cost.ops) ops += (ops.empty() ? "" : " ") + op;
  std::cout << "| " << name << " | " << ops << " | " << cost.macs << " | " << report["instructions"] << " | "
            << report["ram_bytes"] << " | " << max_abs_difference(got, want) << " |\n";

  if (!is_tflite_twin(name)) return;
  const json twin = bench(tflite_twin_path(name), models.input(name));
  ASSERT_FALSE(twin.empty());
  EXPECT_EQ(report["instructions"], twin["instructions"]) << name << ": the ONNX build against the .tflite build";
  EXPECT_EQ(report["ram_bytes"], twin["ram_bytes"]) << name;
  EXPECT_EQ(report["flash_bytes"], twin["flash_bytes"]) << name;
  std::cout << "  .tflite twin: " << twin["instructions"] << " instructions, " << twin["ram_bytes"]
            << " bytes of RAM, " << twin["flash_bytes"] << " bytes of flash\n";
}

INSTANTIATE_TEST_SUITE_P(Models, OnnxRealModelsM4, ::testing::ValuesIn(onnx_real_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace microaot::e2e
