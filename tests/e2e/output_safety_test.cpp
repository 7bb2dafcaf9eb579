// "Nothing is lost" through the command line: `compile -o` writes only into an absent or empty folder or
// one microaot wrote; everything else is refused (exit status 1, a message naming --force) and stays as it
// was; --force moves a foreign folder aside; some outputs are refused even with --force.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "support/sha256.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

class OutputSafetyTest : public DemoModelTest {
 protected:
  // Exit status of `compile demo -o dir [extra...]`, with stderr in errors_ and stdout in output_.
  int compile_to(const std::string& dir, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"compile", demo_, "-o", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_microaot_capture(args, errors_, &output_);
  }

  void write_text(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  std::string text_of(const std::string& path) {
    const std::vector<uint8_t> bytes = read_file(path);
    return std::string(bytes.begin(), bytes.end());
  }

  // Every entry below tmp_, staging folders included, to check that a refusal changed nothing.
  std::vector<std::string> listing() {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(tmp_)) names.push_back(fs::relative(e.path(), tmp_).string());
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string errors_;
  std::string output_;
};

TEST_F(OutputSafetyTest, OwnOutputCarriesVersionAndModelHashAndIsReplaced) {
  fs::create_directories(tmp_ + "/empty");
  ASSERT_EQ(compile_to(tmp_ + "/empty"), 0) << errors_;
  ASSERT_EQ(compile_to(tmp_ + "/out"), 0) << errors_;
  ASSERT_EQ(compile_to(tmp_ + "/out", {"--module-name", "again"}), 0) << errors_;
  EXPECT_TRUE(fs::exists(tmp_ + "/out/again.h"));
  EXPECT_FALSE(fs::exists(tmp_ + "/out/model.h"));  // the previous output was replaced whole
  std::ifstream in(tmp_ + "/out/microaot.json");
  const nlohmann::json marker = nlohmann::json::parse(in);
  EXPECT_EQ(marker["generator"], "microaot");
  EXPECT_EQ(marker["version"], MICROAOT_VERSION);
  EXPECT_EQ(marker["models"][0]["sha256"], sha256_hex(read_file(demo_)));
  EXPECT_EQ(marker["files"]["again.c"], sha256_hex(read_file(tmp_ + "/out/again.c")));
}

TEST_F(OutputSafetyTest, UserProjectIsRefusedThenMovedAsideWithForce) {
  write_text(tmp_ + "/userproj/src/main.c", "int main(void) { return 0; }\n");
  const std::vector<std::string> before = listing();
  EXPECT_EQ(compile_to(tmp_ + "/userproj"), 1);
  EXPECT_NE(errors_.find("--force"), std::string::npos) << errors_;
  EXPECT_EQ(listing(), before);
  ASSERT_EQ(compile_to(tmp_ + "/userproj", {"--force"}), 0) << errors_;
  EXPECT_EQ(text_of(tmp_ + "/userproj.microaot-backup-1/src/main.c"), "int main(void) { return 0; }\n");
  EXPECT_NE(output_.find("userproj.microaot-backup-1"), std::string::npos) << output_;
  EXPECT_TRUE(fs::exists(tmp_ + "/userproj/model.h"));
}

TEST_F(OutputSafetyTest, FilesAddedToOwnOutputAreNotLost) {
  ASSERT_EQ(compile_to(tmp_ + "/out"), 0) << errors_;
  write_text(tmp_ + "/out/app/main.c", "mine\n");
  EXPECT_EQ(compile_to(tmp_ + "/out"), 1);
  EXPECT_NE(errors_.find("app/main.c"), std::string::npos) << errors_;
  EXPECT_EQ(text_of(tmp_ + "/out/app/main.c"), "mine\n");
}

TEST_F(OutputSafetyTest, PlainFileIsNeverReplaced) {
  write_text(tmp_ + "/afile", "keep me");
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--force"}}) {
    EXPECT_EQ(compile_to(tmp_ + "/afile", extra), 1);
    EXPECT_NE(errors_.find("is a file"), std::string::npos) << errors_;
  }
  EXPECT_EQ(text_of(tmp_ + "/afile"), "keep me");
}

TEST_F(OutputSafetyTest, CurrentFolderIsRefusedEvenWithForce) {
  fs::create_directories(tmp_ + "/work");
  const std::vector<std::string> before = listing();
  const std::string logs = make_temp_dir();
  const std::string command = "cd '" + tmp_ + "/work' && exec '" + MICROAOT_BIN + "' compile '" + demo_ + "' -o . --force";
  EXPECT_EQ(run_process({"sh", "-c", command}, logs + "/stderr.txt"), 1);
  const std::string errors = text_of(logs + "/stderr.txt");
  remove_dir(logs);
  EXPECT_NE(errors.find("is the current folder"), std::string::npos) << errors;
  EXPECT_EQ(listing(), before);
}

TEST_F(OutputSafetyTest, ModelFolderAndItsAncestorsAreRefusedEvenWithForce) {
  write_text(tmp_ + "/models/kws/vectors/0.input0.bin", "vector");
  fs::copy_file(demo_, tmp_ + "/models/kws/model.tflite");
  const std::vector<std::string> before = listing();
  for (const std::string& dir : {tmp_ + "/models/kws", tmp_ + "/models", tmp_}) {
    EXPECT_EQ(run_microaot_capture({"compile", tmp_ + "/models/kws/model.tflite", "-o", dir, "--force"}, errors_), 1);
    EXPECT_NE(errors_.find("holds the input model"), std::string::npos) << dir << ": " << errors_;
  }
  // Any input of a multi-model compile counts.
  EXPECT_EQ(run_microaot_capture({"compile", demo_, tmp_ + "/models/kws/model.tflite", "-o", tmp_ + "/models/kws",
                                  "--force"},
                                 errors_),
            1);
  EXPECT_NE(errors_.find("holds the input model"), std::string::npos) << errors_;
  EXPECT_EQ(listing(), before);
}

TEST_F(OutputSafetyTest, FailedCompileLeavesTheOutputAsItWas) {
  ASSERT_EQ(compile_to(tmp_ + "/out"), 0) << errors_;
  std::vector<uint8_t> bytes = read_file(demo_);
  bytes.resize(bytes.size() / 2);
  std::ofstream(tmp_ + "/cut.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const std::vector<std::string> before = listing();
  const std::string header = text_of(tmp_ + "/out/model.h");
  EXPECT_EQ(run_microaot_capture({"compile", tmp_ + "/cut.tflite", "-o", tmp_ + "/out"}, errors_), 1);
  EXPECT_EQ(listing(), before);
  EXPECT_EQ(text_of(tmp_ + "/out/model.h"), header);
}

}  // namespace
}  // namespace microaot::e2e
