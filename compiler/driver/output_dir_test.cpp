// The output rules: what may be replaced, what is refused (and stays as it was), what --force moves aside.
#include "driver/output_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "driver/output_marker.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {
namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Files plus the marker that lists them, as compile writes them.
FileSet with_marker(FileSet files) {
  files[kMarkerFile] = marker_json({{"m.tflite", "00"}}, files);
  return files;
}

FileSet library(const std::string& version_text) {
  return with_marker({{"model.c", "int model;" + version_text}, {"kernels/k.c", "int k;"}});
}

bool never_ours(const std::string&) { return false; }
bool always_ours(const std::string&) { return true; }

class OutputDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("microaot-output-test-" + std::to_string(getpid()));
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  // The error message of writing `files` to `dir`, "" when it was written.
  std::string refusal(const fs::path& dir, const FileSet& files, const OutputPolicy& policy = {}) {
    try {
      write_output_dir(dir.string(), files, policy);
    } catch (const CompileError& e) {
      return e.what();
    }
    return "";
  }

  // Every entry under tmp_, for "nothing changed" checks.
  std::vector<std::string> listing() {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(tmp_)) names.push_back(fs::relative(e.path(), tmp_).string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path tmp_;
};

TEST_F(OutputDirTest, AbsentAndEmptyFoldersAreWritten) {
  EXPECT_EQ(refusal(tmp_ / "new/deep/out", library("1")), "");
  EXPECT_EQ(read_text(tmp_ / "new/deep/out/kernels/k.c"), "int k;");
  fs::create_directories(tmp_ / "empty");
  EXPECT_EQ(refusal(tmp_ / "empty/", library("1")), "");
  EXPECT_TRUE(fs::exists(tmp_ / "empty" / kMarkerFile));
}

TEST_F(OutputDirTest, OwnUntouchedOutputIsReplacedWhole) {
  const FileSet first = with_marker({{"model.c", "int model;1"}, {"kernels/k.c", "int k;"}, {"old_kernel.c", "gone"}});
  ASSERT_EQ(refusal(tmp_ / "out", first), "");
  ASSERT_EQ(refusal(tmp_ / "out", library("2")), "");
  EXPECT_EQ(read_text(tmp_ / "out/model.c"), "int model;2");
  EXPECT_FALSE(fs::exists(tmp_ / "out/old_kernel.c"));
  EXPECT_EQ(listing(), (std::vector<std::string>{"out", "out/kernels", "out/kernels/k.c", "out/microaot.json", "out/model.c"}));
}

TEST_F(OutputDirTest, ForeignFolderIsRefusedAndKept) {
  write_text(tmp_ / "userproj/src/main.c", "int main(void) { return 0; }");
  const std::string message = refusal(tmp_ / "userproj", library("1"));
  EXPECT_NE(message.find("--force"), std::string::npos) << message;
  EXPECT_NE(message.find("microaot.json"), std::string::npos) << message;
  EXPECT_EQ(listing(), (std::vector<std::string>{"userproj", "userproj/src", "userproj/src/main.c"}));
}

TEST_F(OutputDirTest, AddedOrEditedFilesInOwnOutputAreRefused) {
  ASSERT_EQ(refusal(tmp_ / "out", library("1")), "");
  write_text(tmp_ / "out/src/main.c", "mine");
  std::string message = refusal(tmp_ / "out", library("2"));
  EXPECT_NE(message.find("src/main.c"), std::string::npos) << message;
  EXPECT_NE(message.find("--force"), std::string::npos) << message;
  fs::remove_all(tmp_ / "out/src");
  write_text(tmp_ / "out/model.c", "edited");
  message = refusal(tmp_ / "out", library("2"));
  EXPECT_NE(message.find("model.c"), std::string::npos) << message;
  EXPECT_EQ(read_text(tmp_ / "out/model.c"), "edited");
}

TEST_F(OutputDirTest, ForceMovesAForeignFolderAsideWithoutDeletingIt) {
  write_text(tmp_ / "userproj/src/main.c", "mine");
  write_text(tmp_ / "userproj.microaot-backup-1/x", "an older backup");
  const std::string backup = write_output_dir((tmp_ / "userproj").string(), library("1"), {true, {}});
  EXPECT_EQ(backup, (tmp_ / "userproj.microaot-backup-2").string());
  EXPECT_EQ(read_text(tmp_ / "userproj.microaot-backup-2/src/main.c"), "mine");
  EXPECT_EQ(read_text(tmp_ / "userproj.microaot-backup-1/x"), "an older backup");
  EXPECT_EQ(read_text(tmp_ / "userproj/model.c"), "int model;1");
  // The next compile replaces its own output without a new backup.
  EXPECT_EQ(write_output_dir((tmp_ / "userproj").string(), library("2"), {true, {}}), "");
  EXPECT_FALSE(fs::exists(tmp_ / "userproj.microaot-backup-3"));
}

TEST_F(OutputDirTest, AFileIsNeverReplacedByAFolder) {
  write_text(tmp_ / "afile", "data");
  for (bool force : {false, true}) {
    const std::string message = refusal(tmp_ / "afile", library("1"), {force, {}});
    EXPECT_NE(message.find("is a file"), std::string::npos) << message;
  }
  EXPECT_EQ(read_text(tmp_ / "afile"), "data");
  EXPECT_EQ(listing(), std::vector<std::string>{"afile"});
}

TEST_F(OutputDirTest, InputModelsAndTheirFoldersAreNeverOutputs) {
  write_text(tmp_ / "models/kws/model.tflite", "model");
  const OutputPolicy policy{true, {(tmp_ / "models/kws/model.tflite").string()}};
  for (const fs::path& dir : {tmp_ / "models/kws", tmp_ / "models", tmp_, tmp_ / "models/kws/../kws/"}) {
    const std::string message = refusal(dir, library("1"), policy);
    EXPECT_NE(message.find("holds the input model"), std::string::npos) << dir << ": " << message;
  }
  EXPECT_NE(refusal(tmp_ / "models/kws/model.tflite", library("1"), policy).find("is the input model"), std::string::npos);
  EXPECT_EQ(refusal(tmp_ / "models/kws/out", library("1"), policy), "");  // beside the model is fine
}

TEST_F(OutputDirTest, CurrentFolderAndItsAncestorsAreNeverOutputs) {
  fs::create_directories(tmp_ / "work");
  const fs::path before = fs::current_path();
  fs::current_path(tmp_ / "work");
  const std::string dot = refusal(".", library("1"), {true, {}});
  const std::string parent = refusal("..", library("1"), {true, {}});
  fs::current_path(before);
  EXPECT_NE(dot.find("is the current folder"), std::string::npos) << dot;
  EXPECT_NE(parent.find("holds the current folder"), std::string::npos) << parent;
  EXPECT_NE(refusal("/", library("1"), {true, {}}).find("not even with --force"), std::string::npos);
}

TEST_F(OutputDirTest, ALinkToAFolderWritesThatFolder) {
  fs::create_directories(tmp_ / "real");
  fs::create_directory_symlink(tmp_ / "real", tmp_ / "link");
  ASSERT_EQ(refusal(tmp_ / "link", library("1")), "");
  EXPECT_TRUE(fs::is_symlink(tmp_ / "link"));
  EXPECT_EQ(read_text(tmp_ / "real/model.c"), "int model;1");
  fs::create_directory_symlink(tmp_ / "missing", tmp_ / "dangling");
  EXPECT_NE(refusal(tmp_ / "dangling", library("1")).find("symbolic link"), std::string::npos);
}

TEST_F(OutputDirTest, FailedWriteLeavesTheOldOutputAndNoStaging) {
  ASSERT_EQ(refusal(tmp_ / "out", library("1")), "");
  FileSet bad = library("2");
  bad["model.c/impossible"] = "a file under a file";  // cannot be written
  EXPECT_NE(refusal(tmp_ / "out", bad), "");
  EXPECT_EQ(read_text(tmp_ / "out/model.c"), "int model;1");
  EXPECT_EQ(listing(), (std::vector<std::string>{"out", "out/kernels", "out/kernels/k.c", "out/microaot.json", "out/model.c"}));
}

TEST_F(OutputDirTest, ArchiveFilesFollowTheSameRules) {
  const std::string path = (tmp_ / "out.tar").string();
  EXPECT_EQ(write_output_file(path, "one", {}, never_ours), "");
  EXPECT_EQ(write_output_file(path, "two", {}, always_ours), "");
  EXPECT_EQ(read_text(path), "two");
  EXPECT_THROW(write_output_file(path, "three", {}, never_ours), CompileError);
  EXPECT_EQ(read_text(path), "two");
  EXPECT_EQ(write_output_file(path, "three", {true, {}}, never_ours), path + ".microaot-backup-1");
  EXPECT_EQ(read_text(path + ".microaot-backup-1"), "two");
  fs::create_directories(tmp_ / "folder.tar");
  EXPECT_THROW(write_output_file((tmp_ / "folder.tar").string(), "x", {true, {}}, always_ours), CompileError);
  write_text(tmp_ / "m.tflite", "model");
  EXPECT_THROW(write_output_file((tmp_ / "m.tflite").string(), "x", {true, {(tmp_ / "m.tflite").string()}}, always_ours),
               CompileError);
  EXPECT_EQ(read_text(tmp_ / "m.tflite"), "model");
}

}  // namespace
}  // namespace microaot
