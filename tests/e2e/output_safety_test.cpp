// "Nothing is lost" through the command line: `compile -o` writes only into an absent or empty folder or
// one microaot wrote; everything else is refused (exit status 1, a message naming --force) and stays as it
// was; --force moves a foreign folder aside; some outputs are refused even with --force. `run --output-dir`
// follows the same rules.
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

  // Exit status of `microaot ARGS` (shell words) run from the folder `dir`, with stderr in errors_.
  int microaot_in(const std::string& dir, const std::string& args) {
    const std::string logs = make_temp_dir();
    const int status = run_process({"sh", "-c", "cd '" + dir + "' && exec '" + MICROAOT_BIN + "' " + args},
                                   logs + "/stderr.txt");
    errors_ = text_of(logs + "/stderr.txt");
    remove_dir(logs);
    return status;
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

// An empty folder a user made inside the output is theirs too: a recompile refuses, naming it, and keeps it.
TEST_F(OutputSafetyTest, EmptyUserFolderInOwnOutputIsKept) {
  ASSERT_EQ(compile_to(tmp_ + "/out"), 0) << errors_;
  fs::create_directories(tmp_ + "/out/app");
  EXPECT_EQ(compile_to(tmp_ + "/out"), 1);
  EXPECT_NE(errors_.find("app/ (an empty folder)"), std::string::npos) << errors_;
  EXPECT_TRUE(fs::is_directory(tmp_ + "/out/app"));
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
  EXPECT_EQ(microaot_in(tmp_ + "/work", "compile '" + demo_ + "' -o . --force"), 1);
  EXPECT_NE(errors_.find("is the current folder"), std::string::npos) << errors_;
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

// `run --output-dir` (and --dump-tensors) follow the same rules as `compile -o`: the cases a user hit.
class RunOutputSafetyTest : public OutputSafetyTest {
 protected:
  void SetUp() override {
    OutputSafetyTest::SetUp();
    input_ = tmp_ + "/in.bin";
    write_text(input_, std::string(256, '\x05'));  // the demo model's one input
  }
  int run_to(const std::string& dir, const std::vector<std::string>& extra = {}, const std::string& model = "") {
    std::vector<std::string> args = {"run", model.empty() ? demo_ : model, "--input", input_, "--output-dir", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_microaot_capture(args, errors_, &output_);
  }
  std::string input_;
};

TEST_F(RunOutputSafetyTest, ModelFolderIsRefusedEvenWithForce) {
  fs::create_directories(tmp_ + "/models/kws");
  fs::copy_file(demo_, tmp_ + "/models/kws/model.tflite");
  const std::vector<std::string> before = listing();
  for (const std::string& dir : {tmp_ + "/models/kws", tmp_ + "/models"}) {
    EXPECT_EQ(run_to(dir, {"--force"}, tmp_ + "/models/kws/model.tflite"), 1);
    EXPECT_NE(errors_.find("holds the input model"), std::string::npos) << dir << ": " << errors_;
  }
  EXPECT_EQ(listing(), before);
}

TEST_F(RunOutputSafetyTest, CurrentFolderIsRefused) {
  fs::create_directories(tmp_ + "/work");
  const std::vector<std::string> before = listing();
  EXPECT_EQ(microaot_in(tmp_ + "/work", "run '" + demo_ + "' --input '" + input_ + "' --output-dir ."), 1);
  EXPECT_NE(errors_.find("is the current folder"), std::string::npos) << errors_;
  EXPECT_EQ(listing(), before);
}

TEST_F(RunOutputSafetyTest, FolderWithNotesAndAnOldOutputIsKept) {
  write_text(tmp_ + "/results/notes.txt", "my notes\n");
  write_text(tmp_ + "/results/output0.bin", "an older result");
  const std::vector<std::string> before = listing();
  EXPECT_EQ(run_to(tmp_ + "/results"), 1);
  EXPECT_NE(errors_.find("--force"), std::string::npos) << errors_;
  EXPECT_EQ(listing(), before);
  EXPECT_EQ(text_of(tmp_ + "/results/output0.bin"), "an older result");
  // The same folder as --dump-tensors is refused too.
  EXPECT_EQ(run_to(tmp_ + "/out", {"--dump-tensors", tmp_ + "/results"}), 1);
  EXPECT_EQ(listing(), before);
  // --force moves it aside whole, as compile -o --force does.
  ASSERT_EQ(run_to(tmp_ + "/results", {"--force"}), 0) << errors_;
  EXPECT_EQ(text_of(tmp_ + "/results.microaot-backup-1/notes.txt"), "my notes\n");
  EXPECT_EQ(text_of(tmp_ + "/results.microaot-backup-1/output0.bin"), "an older result");
  EXPECT_NE(output_.find("moved aside to '" + tmp_ + "/results.microaot-backup-1'"), std::string::npos) << output_;
}

TEST_F(RunOutputSafetyTest, OwnFolderIsMarkedStatedAndReplacedOnRerun) {
  ASSERT_EQ(run_to(tmp_ + "/out"), 0) << errors_;
  EXPECT_NE(output_.find("-> " + tmp_ + "/out (output0.bin, microaot.json)"), std::string::npos) << output_;
  std::ifstream in(tmp_ + "/out/microaot.json");
  const nlohmann::json marker = nlohmann::json::parse(in);
  EXPECT_EQ(marker["files"]["output0.bin"], sha256_hex(read_file(tmp_ + "/out/output0.bin")));
  EXPECT_EQ(marker["models"][0]["sha256"], sha256_hex(read_file(demo_)));
  ASSERT_EQ(run_to(tmp_ + "/out"), 0) << errors_;  // a rerun replaces its own folder
  write_text(tmp_ + "/out/mine.txt", "added");
  EXPECT_EQ(run_to(tmp_ + "/out"), 1);  // but not once a user's file is in it
  EXPECT_NE(errors_.find("mine.txt"), std::string::npos) << errors_;
}

TEST_F(RunOutputSafetyTest, FailedRunWritesNothing) {
  write_text(input_, "short");
  const std::vector<std::string> before = listing();
  EXPECT_EQ(run_to(tmp_ + "/out"), 1);
  EXPECT_EQ(listing(), before);
}

}  // namespace
}  // namespace microaot::e2e
