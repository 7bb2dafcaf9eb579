// Every model in ../shared/models, compiled and run on the host: outputs of all golden vectors must match
// TFLM's (int8 bit for bit, float within the README's tolerance), and so must every intermediate tensor
// of vectors 0 and 4, which pinpoints the first wrong layer when an output is off. The first test builds the
// generated folder exactly as a user does (all its sources); the second links the prebuilt runtime.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace microaot::e2e {
namespace {

json load_golden(const std::string& dir) {
  std::ifstream in(dir + "/golden.json");
  return json::parse(in);
}

class ModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = shared_dir() + "/models/" + GetParam();
    out_ = make_temp_dir();
  }
  void TearDown() override { remove_dir(out_); }

  // Runs the listed vectors in one build; vector k's results land in out_/<position>/.
  void run_vectors(const json& golden, const std::vector<size_t>& vectors, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", dir_ + "/model.tflite", "--batch", "--output-dir", out_ + "/out"};
    args.insert(args.end(), extra.begin(), extra.end());
    for (size_t k : vectors) {
      for (const auto& input : golden["vectors"][k]["inputs"]) args.insert(args.end(), {"--input", dir_ + "/" + input.get<std::string>()});
    }
    ASSERT_EQ(run_microaot(args), 0) << "microaot run failed on " << GetParam();
  }

  std::string dir_;
  std::string out_;
};

// Then the graph executor (an interpreter over the same kernels) must give the same outputs bit for bit.
TEST_P(ModelTest, AllGoldenVectorsMatchOnBothExecutors) {
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const json golden = load_golden(dir_);
  std::vector<size_t> all(golden["vectors"].size());
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  ASSERT_NO_FATAL_FAILURE(run_vectors(golden, all, {}));
  for (size_t k = 0; k < all.size(); ++k) {
    const json& outputs = golden["vectors"][k]["outputs"];
    for (size_t j = 0; j < outputs.size(); ++j) {
      const std::string got = out_ + "/out/" + std::to_string(k) + "/output" + std::to_string(j) + ".bin";
      const std::string diff = compare_tensor(golden["outputs"][j]["dtype"], read_file(got),
                                              read_file(dir_ + "/" + outputs[j].get<std::string>()));
      EXPECT_EQ(diff, "") << GetParam() << " vector " << k << " output " << j;
    }
  }
  fs::rename(out_ + "/out", out_ + "/aot");
  ASSERT_NO_FATAL_FAILURE(run_vectors(golden, all, {"--runtime-lib", runtime_lib(), "--executor", "graph"}));
  for (size_t k = 0; k < all.size(); ++k) {
    for (size_t j = 0; j < golden["outputs"].size(); ++j) {
      const std::string file = "/" + std::to_string(k) + "/output" + std::to_string(j) + ".bin";
      EXPECT_EQ(read_file(out_ + "/out" + file), read_file(out_ + "/aot" + file)) << GetParam() << " graph" << file;
    }
  }
}

TEST_P(ModelTest, IntermediatesOfVectors0And4Match) {
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const json golden = load_golden(dir_);
  const std::vector<std::string> extra = {"--dump-tensors", out_ + "/dump", "--runtime-lib", runtime_lib()};
  ASSERT_NO_FATAL_FAILURE(run_vectors(golden, {0, 4}, extra));
  size_t checked = 0;
  for (const json& t : golden["intermediates"]) {
    const int vector = t["vector"];
    const std::string got = out_ + "/dump/" + std::to_string(vector == 0 ? 0 : 1) + "/t" +
                            std::to_string(t["tensor"].get<int>()) + ".bin";
    const std::string diff =
        compare_tensor(t["dtype"], read_file(got), read_file(dir_ + "/" + t["path"].get<std::string>()));
    ASSERT_EQ(diff, "") << GetParam() << " vector " << vector << ": first wrong tensor " << t["tensor"] << " '"
                        << t["name"].get<std::string>() << "' written by op " << t["producer_op_index"] << " ("
                        << t["producer_op"].get<std::string>() << ")";
    ++checked;
  }
  EXPECT_GT(checked, 0u) << "golden.json lists no intermediates";
}

// The kernels report.json lists that are not the portable ones: ISA implementations and packed kernels.
std::vector<std::string> specialised_kernels(const std::string& report_path) {
  std::vector<std::string> found;
  const json report = json::parse(read_text(report_path));
  for (const json& op : report["ops"]) {
    const std::string kernel = op["kernel"];
    if (op["implementation"] != "portable" || kernel.find("_packed") != std::string::npos) found.push_back(kernel);
  }
  return found;
}

// --optimize size on a DSP cpu: no layer takes an ISA or packed kernel (speed does, on the same model), and
// the model built with -Os still matches its golden on the host (one vector of KWS: a few seconds).
TEST(OptimizeSize, KwsKeepsThePortableKernelsAndMatchesItsGolden) {
  MICROAOT_REQUIRE_SHARED();
  const std::string dir = shared_dir() + "/models/kws_dscnn_int8";
  const std::string model = dir + "/model.tflite";
  const std::string out = make_temp_dir();
  ASSERT_EQ(run_microaot({"compile", model, "-o", out + "/speed", "--target", "cortex-m4"}), 0);
  EXPECT_FALSE(specialised_kernels(out + "/speed/report.json").empty());
  ASSERT_EQ(run_microaot({"compile", model, "-o", out + "/size", "--target", "cortex-m4", "--optimize", "size"}), 0);
  EXPECT_EQ(specialised_kernels(out + "/size/report.json"), std::vector<std::string>{});
  const json golden = load_golden(dir);
  const json& vector = golden["vectors"][0];
  ASSERT_EQ(run_microaot({"run", model, "--optimize", "size", "--output-dir", out + "/out", "--input",
                          dir + "/" + vector["inputs"][0].get<std::string>()}),
            0);
  EXPECT_EQ(compare_tensor(golden["outputs"][0]["dtype"], read_file(out + "/out/output0.bin"),
                           read_file(dir + "/" + vector["outputs"][0].get<std::string>())),
            "");
  remove_dir(out);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, ModelTest, ::testing::ValuesIn(shared_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace microaot::e2e
