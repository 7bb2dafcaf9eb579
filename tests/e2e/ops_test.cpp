// The single-operator suite in ../shared/ops: every case of an operator microaot supports is compiled,
// run on its golden vectors and compared. Cases whose type combination the compiler refuses with a clear
// "not supported" error are skipped (and listed); int8 and float32 cases must all pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e_util.h"
#include "ir/graph.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

std::set<std::string> supported_ops() {
  std::set<std::string> names;
  for (int k = 0; k < kOpKindCount; ++k) names.insert(op_kind_name(static_cast<OpKind>(k)));
  return names;
}

std::vector<std::string> case_paths() {
  std::vector<std::string> paths;
  std::ifstream in(shared_dir() + "/ops/index.json");
  if (in) {
    const std::set<std::string> ops = supported_ops();
    for (const json& entry : json::parse(in)) {
      if (ops.count(entry["op"].get<std::string>()) != 0) paths.push_back(entry["path"]);
    }
  }
  if (paths.empty()) paths.push_back("no_shared_ops");
  return paths;
}

std::string test_name(const std::string& path) {
  std::string name;
  for (char c : path) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

class OpCaseTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OpCaseTest, MatchesGoldens) {
  MICROAOT_REQUIRE_SHARED();
  if (GetParam() == "no_shared_ops") MICROAOT_PLACEHOLDER("../shared/ops");
  const std::string dir = shared_dir() + "/ops/" + GetParam();
  std::ifstream in(dir + "/golden.json");
  const json golden = json::parse(in);
  const std::string out = make_temp_dir();
  std::vector<std::string> args = {"run", dir + "/model.tflite", "--batch", "--output-dir", out};
  for (const json& v : golden["vectors"]) {
    for (const auto& input : v["inputs"]) args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
  }
  std::string errors;
  const int status = run_microaot_capture(args, errors);
  const std::string dtype = golden["dtype"];
  if (status != 0 && errors.find("not supported") != std::string::npos && dtype != "int8" && dtype != "float32") {
    remove_dir(out);
    GTEST_SKIP() << "refused as unsupported: " << errors;
  }
  ASSERT_EQ(status, 0) << errors;
  const bool quirk = golden.contains("tflm_quirk");
  for (size_t k = 0; k < golden["vectors"].size(); ++k) {
    const json& outputs = golden["vectors"][k]["outputs"];
    for (size_t j = 0; j < outputs.size(); ++j) {
      const std::string diff =
          compare_tensor(golden["outputs"][j]["dtype"],
                         read_file(out + "/" + std::to_string(k) + "/output" + std::to_string(j) + ".bin"),
                         read_file(dir + "/" + outputs[j].get<std::string>()));
      if (quirk && !diff.empty()) {
        std::cout << "[ INFO ] " << GetParam() << ": differs where TFLM departs from TFLite (" << diff << ")\n";
        continue;
      }
      EXPECT_EQ(diff, "") << GetParam() << " vector " << k << " output " << j;
    }
  }
  remove_dir(out);
}

INSTANTIATE_TEST_SUITE_P(SharedOps, OpCaseTest, ::testing::ValuesIn(case_paths()),
                         [](const auto& info) { return test_name(info.param); });

}  // namespace
}  // namespace microaot::e2e
