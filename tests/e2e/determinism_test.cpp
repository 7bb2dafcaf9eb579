// Determinism: the same model compiles to byte-identical folders (whatever the output path), and the
// generated code gives byte-identical outputs whichever host compiler and optimisation level builds it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

// Relative path -> contents of every file below `dir`.
std::map<std::string, std::vector<uint8_t>> folder_contents(const std::string& dir) {
  std::map<std::string, std::vector<uint8_t>> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), dir).string()] = read_file(entry.path().string());
  }
  return files;
}

void expect_same_folders(const std::string& a, const std::string& b) {
  const auto files_a = folder_contents(a);
  const auto files_b = folder_contents(b);
  EXPECT_GT(files_a.size(), 10u);
  ASSERT_EQ(files_a.size(), files_b.size()) << a << " and " << b << " hold different file lists";
  for (const auto& [path, contents] : files_a) {
    const auto other = files_b.find(path);
    ASSERT_NE(other, files_b.end()) << path << " only in " << a;
    EXPECT_TRUE(contents == other->second) << path << " differs between two compiles of the same model";
  }
}

class DeterminismTest : public ::testing::Test {
 protected:
  void SetUp() override { tmp_ = make_temp_dir(); }
  void TearDown() override {
    if (!HasFailure()) remove_dir(tmp_);
  }
  std::string tmp_;
};

TEST_F(DeterminismTest, SameModelGivesByteIdenticalFolders) {
  MICROAOT_REQUIRE_SHARED();
  for (const char* model : {"hello_world_f32", "micro_speech_int8", "kws_dscnn_int8", "ic_resnet8_int8",
                            "ad_autoencoder_f32"}) {
    SCOPED_TRACE(model);
    const std::string path = shared_dir() + "/models/" + model + "/model.tflite";
    // Different output paths and the second one nested: the path must not leak into the files.
    const std::string a = tmp_ + "/" + model + "_a", b = tmp_ + "/nested/dir/" + model + "_b";
    ASSERT_EQ(run_microaot({"compile", path, "-o", a, "--interface-api", "c"}), 0);
    ASSERT_EQ(run_microaot({"compile", path, "-o", b, "--interface-api", "c"}), 0);
    expect_same_folders(a, b);
  }
}

bool have_tool(const std::string& tool) {
  return run_process({"sh", "-c", "command -v " + tool + " > /dev/null"}) == 0;
}

// Runs every golden vector of `model` through a build with `cc` and `opt`; returns output path -> bytes.
std::map<std::string, std::vector<uint8_t>> run_build(const std::string& tmp, const std::string& model,
                                                      const std::string& cc, const std::string& opt) {
  const std::string dir = shared_dir() + "/models/" + model;
  std::ifstream in(dir + "/golden.json");
  const nlohmann::json golden = nlohmann::json::parse(in);
  const std::string out = tmp + "/" + model + "_" + cc + opt;
  std::vector<std::string> args = {"run", dir + "/model.tflite", "--batch", "--output-dir", out, "--cc", cc};
  const char* extra = std::getenv("MICROAOT_CFLAGS");  // the sanitizer run's flags, kept
  args.push_back("--cflags=" + opt + (extra != nullptr ? std::string(" ") + extra : ""));
  for (const auto& vector : golden["vectors"]) {
    for (const auto& input : vector["inputs"]) args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
  }
  std::string errors;
  EXPECT_EQ(run_microaot_capture(args, errors), 0) << cc << " " << opt << ": " << errors;
  return folder_contents(out);
}

// x86-64 without -march has no fused multiply-add, so float results must agree bit for bit too.
TEST_F(DeterminismTest, OutputsDoNotDependOnHostCompilerOrOptimisation) {
  MICROAOT_REQUIRE_SHARED();
  std::vector<std::string> compilers = {"gcc"};
  if (have_tool("clang")) {
    compilers.push_back("clang");
  } else if (in_ci()) {
    FAIL() << "CI is set but clang is not installed";
  }
  for (const char* model : {"hello_world_f32", "kws_dscnn_int8", "ic_resnet8_int8"}) {
    SCOPED_TRACE(model);
    std::map<std::string, std::vector<uint8_t>> reference;
    std::string reference_build;
    for (const std::string& cc : compilers) {
      for (const char* opt : {"-O0", "-O2"}) {
        const auto outputs = run_build(tmp_, model, cc, opt);
        ASSERT_FALSE(outputs.empty()) << cc << " " << opt << " wrote no outputs";
        if (reference.empty()) {
          reference = outputs;
          reference_build = cc + " " + opt;
          continue;
        }
        ASSERT_EQ(outputs.size(), reference.size());
        for (const auto& [path, bytes] : reference) {
          EXPECT_TRUE(outputs.at(path) == bytes)
              << path << ": " << cc << " " << opt << " differs from " << reference_build;
        }
      }
    }
  }
}

}  // namespace
}  // namespace microaot::e2e
