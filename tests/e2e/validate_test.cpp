// `microaot validate` against the per-layer goldens of ../shared/models: a faithful model exits 0, a
// corrupted reference makes it exit 1 and name the corrupted tensor and the operator that writes it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace microaot::e2e {
namespace {

class ValidateTest : public ::testing::Test {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override { remove_dir(tmp_); }

  // Exit status of `validate` on vector 0 of `model` against `reference`; stdout in output_.
  int validate(const std::string& model, const std::string& reference, const std::vector<std::string>& flags = {}) {
    const std::string dir = shared_dir() + "/models/" + model;
    std::vector<std::string> args = {"validate", dir + "/model.tflite", "--reference", reference};
    args.insert(args.end(), flags.begin(), flags.end());
    std::ifstream in(dir + "/golden.json");
    golden_ = json::parse(in);
    for (const json& input : golden_["vectors"][0]["inputs"]) {
      args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
    }
    return run_microaot_capture(args, errors_, &output_);
  }

  std::string tmp_;
  json golden_;
  std::string output_;
  std::string errors_;
};

TEST_F(ValidateTest, FaithfulModelsMatchEveryLayer) {
  MICROAOT_REQUIRE_SHARED();
  for (const char* model : {"kws_dscnn_int8", "hello_world_f32"}) {
    EXPECT_EQ(validate(model, shared_dir() + "/models/" + model + "/vectors/0.tensors"), 0) << output_ << errors_;
    EXPECT_NE(output_.find("tensors match the reference"), std::string::npos) << output_;
    size_t rows = 0;
    for (const json& t : golden_["intermediates"]) {
      if (t["vector"] != 0) continue;
      ++rows;
      EXPECT_NE(output_.find(t["producer_op"].get<std::string>() + " (op " + std::to_string(t["producer_op_index"].get<int>()) + ")"),
                std::string::npos)
          << model << " tensor " << t["tensor"];
    }
    EXPECT_NE(output_.find("all " + std::to_string(rows) + " tensors match"), std::string::npos) << output_;
  }
}

TEST_F(ValidateTest, CorruptedReferenceNamesTheTensorAndItsOperator) {
  MICROAOT_REQUIRE_SHARED();
  const std::string model = "kws_dscnn_int8";
  const std::string reference = tmp_ + "/reference";
  fs::copy(shared_dir() + "/models/" + model + "/vectors/0.tensors", reference);
  std::ifstream in(shared_dir() + "/models/" + model + "/golden.json");
  const json intermediates = json::parse(in)["intermediates"];
  const json& victim = intermediates[3];  // a layer in the middle (vector 0 comes first)
  ASSERT_EQ(victim["vector"], 0);
  const std::string file = reference + "/t" + std::to_string(victim["tensor"].get<int>()) + ".bin";
  std::vector<uint8_t> bytes = read_file(file);
  bytes[bytes.size() / 2] ^= 0x10;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));

  EXPECT_EQ(validate(model, reference), 1) << output_ << errors_;
  const std::string layer = victim["producer_op"].get<std::string>() + " (op " +
                            std::to_string(victim["producer_op_index"].get<int>()) + "), writing tensor " +
                            std::to_string(victim["tensor"].get<int>());
  EXPECT_NE(output_.find("1 of "), std::string::npos) << output_;
  EXPECT_NE(output_.find("the first differing layer is " + layer), std::string::npos) << output_;
  EXPECT_NE(output_.find("(1 of " + std::to_string(bytes.size()) + " differ)"), std::string::npos) << output_;
}

TEST_F(ValidateTest, MissingOrUnrelatedReferenceIsAnError) {
  MICROAOT_REQUIRE_SHARED();
  EXPECT_EQ(validate("kws_dscnn_int8", tmp_ + "/absent"), 1);
  EXPECT_NE(errors_.find("not a folder"), std::string::npos) << errors_;
  fs::create_directories(tmp_ + "/unrelated");
  std::ofstream(tmp_ + "/unrelated/notes.txt") << "no tensors here";
  EXPECT_EQ(validate("kws_dscnn_int8", tmp_ + "/unrelated"), 1);
  EXPECT_NE(errors_.find("no tN.bin"), std::string::npos) << errors_;
}

// VWW's untiled plan needs about 46 KB: 40000 bytes takes fused bands; its floor is about 29 KB.
constexpr const char* kVww = "vww_mobilenet_int8";
const std::string kTiledBudget = "40000";

TEST_F(ValidateTest, UnderABudgetTheOutputsComeFromTheTiledBuild) {
  MICROAOT_REQUIRE_SHARED();
  const std::string reference = shared_dir() + "/models/" + kVww + "/vectors/0.tensors";
  EXPECT_EQ(validate(kVww, reference, {"--ram-budget", kTiledBudget}), 0) << output_ << errors_;
  EXPECT_NE(output_.find("outputs: the --ram-budget " + kTiledBudget + " build (fused bands "), std::string::npos)
      << output_;
  EXPECT_NE(output_.find("intermediates: the whole-layer build"), std::string::npos) << output_;
  EXPECT_NE(output_.find("the outputs of the build as it ships match the reference"), std::string::npos) << output_;
  EXPECT_NE(output_.find("tensors match the reference"), std::string::npos) << output_;
}

TEST_F(ValidateTest, UnderABudgetABrokenOutputGoldenFails) {
  MICROAOT_REQUIRE_SHARED();
  const std::string dir = shared_dir() + "/models/" + kVww;
  const std::string reference = tmp_ + "/reference";
  fs::copy(dir + "/vectors/0.tensors", reference);
  std::ifstream in(dir + "/golden.json");
  const json intermediates = json::parse(in)["intermediates"];
  int last = -1;  // the model's output: the last tensor of vector 0
  for (const json& t : intermediates) last = t["vector"] == 0 ? t["tensor"].get<int>() : last;
  const std::string file = reference + "/t" + std::to_string(last) + ".bin";
  std::vector<uint8_t> bytes = read_file(file);
  ASSERT_EQ(bytes, read_file(dir + "/vectors/0.output0.bin"));
  bytes[0] ^= 0x01;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));

  EXPECT_EQ(validate(kVww, reference, {"--ram-budget", kTiledBudget}), 1) << output_ << errors_;
  EXPECT_NE(output_.find("1 of 1 outputs of the build as it ships differ"), std::string::npos) << output_;
}

TEST_F(ValidateTest, ABudgetBelowTheFloorGetsCompilesError) {
  MICROAOT_REQUIRE_SHARED();
  const std::string reference = shared_dir() + "/models/" + kVww + "/vectors/0.tensors";
  EXPECT_EQ(validate(kVww, reference, {"--ram-budget", "20000"}), 1) << output_ << errors_;
  EXPECT_NE(errors_.find("Static memory planning failed"), std::string::npos) << errors_;
  EXPECT_NE(errors_.find("the most they can do is bring the classic bound"), std::string::npos) << errors_;
  EXPECT_EQ(output_, "");  // no partial report
}

TEST_F(ValidateTest, CompileFlagsAreCheckedAsRunChecksThem) {
  MICROAOT_REQUIRE_SHARED();
  const std::string reference = shared_dir() + "/models/" + kVww + "/vectors/0.tensors";
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{
           {"--ram-budget", "-5"}, {"--tiling", "sideways"}, {"--optimize", "fast"}, {"--target", "cortex-m4"}}) {
    EXPECT_EQ(validate(kVww, reference, flags), 2) << flags[0] << " " << flags[1] << errors_;
    EXPECT_NE(errors_.find(flags[0]), std::string::npos) << errors_;
  }
}

}  // namespace
}  // namespace microaot::e2e
