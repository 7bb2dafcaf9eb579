// `--output-format=mlf`: a shared model compiled to a Model Library Format archive, listed and extracted
// with tar, built with the host C compiler at -Wall -Wextra -Werror from the archive's own layout
// (codegen/host/src + runtime/src, include folders codegen/host/include + runtime/include), and run on a
// golden vector; metadata.json must give the same memory figures as report.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace microaot::e2e {
namespace {

json load_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

std::vector<std::string> c_files_under(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".c") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class MlfTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override { remove_dir(tmp_); }
  std::string tmp_;
};

TEST_P(MlfTest, ExtractedArchiveBuildsAndMatchesTheGolden) {
  MICROAOT_REQUIRE_SHARED();
  const std::string model_dir = shared_dir() + "/models/" + GetParam();
  const std::string archive = tmp_ + "/model.tar";
  ASSERT_EQ(run_microaot({"compile", model_dir + "/model.tflite", "--output=" + archive, "--output-format=mlf",
                          "--target=cmsis-nn, c", "--target-c-mcpu=cortex-m4"}),
            0);
  ASSERT_EQ(run_process({"tar", "-tf", archive}, "", tmp_ + "/list.txt"), 0);
  const std::vector<uint8_t> list = read_file(tmp_ + "/list.txt");
  const std::string listing(list.begin(), list.end());
  for (const char* member : {"./metadata.json\n", "./microaot.json\n", "./codegen/host/src/model.c\n",
                             "./codegen/host/include/model.h\n", "./runtime/include/microaot/status.h\n"}) {
    EXPECT_NE(listing.find(member), std::string::npos) << member << " missing from\n" << listing;
  }
  const std::string root = tmp_ + "/x";
  fs::create_directories(root);
  ASSERT_EQ(run_process({"tar", "-xf", archive, "-C", root}), 0);

  std::vector<std::string> cc = {"cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
                                 "-I" + root + "/codegen/host/include", "-I" + root + "/runtime/include"};
  for (const std::string& dir : {root + "/codegen/host/src", root + "/runtime/src"}) {
    for (const std::string& file : c_files_under(dir)) cc.push_back(file);
  }
  cc.insert(cc.end(), {std::string(MICROAOT_E2E_DIR) + "/mlf_main.c", "-o", tmp_ + "/run", "-lm"});
  ASSERT_EQ(run_process(cc), 0);

  const json golden = load_json(model_dir + "/golden.json");
  std::vector<std::string> argv = {tmp_ + "/run", tmp_};
  for (const json& input : golden["vectors"][0]["inputs"]) argv.push_back(model_dir + "/" + input.get<std::string>());
  ASSERT_EQ(run_process(argv), 0);
  const json& outputs = golden["vectors"][0]["outputs"];
  for (size_t j = 0; j < outputs.size(); ++j) {
    EXPECT_EQ(compare_tensor(golden["outputs"][j]["dtype"], read_file(tmp_ + "/output" + std::to_string(j) + ".bin"),
                             read_file(model_dir + "/" + outputs[j].get<std::string>())),
              "")
        << "output " << j;
  }
}

TEST_P(MlfTest, MetadataGivesTheMemoryFigures) {
  MICROAOT_REQUIRE_SHARED();
  const std::string model = shared_dir() + "/models/" + GetParam() + "/model.tflite";
  ASSERT_EQ(run_microaot({"compile", model, "-o", tmp_ + "/model.tar", "--output-format", "mlf"}), 0);
  ASSERT_EQ(run_microaot({"compile", model, "-o", tmp_ + "/lib"}), 0);
  // Compiling to the same archive again replaces it without --force: microaot wrote it.
  ASSERT_EQ(run_microaot({"compile", model, "-o", tmp_ + "/model.tar", "--output-format", "mlf"}), 0);
  fs::create_directories(tmp_ + "/x");
  ASSERT_EQ(run_process({"tar", "-xf", tmp_ + "/model.tar", "-C", tmp_ + "/x"}), 0);
  const json metadata = load_json(tmp_ + "/x/metadata.json");
  const json report = load_json(tmp_ + "/lib/report.json");
  EXPECT_EQ(metadata["version"], 7);
  const json& module = metadata["modules"]["model"];
  EXPECT_EQ(module["executors"], json::array({"aot"}));
  EXPECT_EQ(module["style"], "full-model");
  const json& main = module["memory"]["functions"]["main"][0];
  EXPECT_EQ(main["workspace_size_bytes"], report["arena_buffer_bytes"]);  // what init needs: header included
  EXPECT_EQ(main["constants_size_bytes"], report["flash_weights_bytes"]);
  int64_t io = 0;
  for (const char* side : {"inputs", "outputs"}) {
    ASSERT_EQ(main[side].size(), report[side].size()) << side;
    for (const json& t : report[side]) {
      EXPECT_EQ(main[side][t["name"].get<std::string>()]["size"], t["bytes"]) << side;
      EXPECT_EQ(main[side][t["name"].get<std::string>()]["dtype"], t["dtype"]) << side;
      io += t["bytes"].get<int64_t>();
    }
  }
  EXPECT_EQ(main["io_size_bytes"], io);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, MlfTest, ::testing::Values("kws_dscnn_int8", "hello_world_f32"));

}  // namespace
}  // namespace microaot::e2e
