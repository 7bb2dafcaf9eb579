// The ustar writer against GNU tar (it must list and extract what we write) and the reader.
#include "support/tar_archive.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/diagnostics.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot {
namespace {

const std::string kLongPath = "./codegen/host/src/" + std::string(90, 'x') + "/" + std::string(60, 'y') + ".c";

std::string sample_archive() {
  TarWriter tar;
  tar.add_directory("./");
  tar.add_directory("./codegen/");
  tar.add_file("./codegen/model.c", "int x;\n");
  tar.add_file("./empty.txt", "");
  tar.add_file("./block.bin", std::string(512, '\x7f'));
  tar.add_file(kLongPath, "long\n");
  return tar.finish();
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class TarTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("microaot-tar-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "a.tar", std::ios::binary) << sample_archive();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(TarTest, GnuTarListsEveryMember) {
  ASSERT_EQ(run_process({"tar", "-tf", (dir_ / "a.tar").string()}, "", (dir_ / "list.txt").string()), 0);
  EXPECT_EQ(read_text(dir_ / "list.txt"),
            "./\n./codegen/\n./codegen/model.c\n./empty.txt\n./block.bin\n" + kLongPath + "\n");
}

TEST_F(TarTest, GnuTarExtractsTheContents) {
  fs::create_directories(dir_ / "x");
  ASSERT_EQ(run_process({"tar", "-xf", (dir_ / "a.tar").string(), "-C", (dir_ / "x").string()}), 0);
  EXPECT_EQ(read_text(dir_ / "x/codegen/model.c"), "int x;\n");
  EXPECT_EQ(read_text(dir_ / "x/empty.txt"), "");
  EXPECT_EQ(read_text(dir_ / "x/block.bin"), std::string(512, '\x7f'));
  EXPECT_EQ(read_text(dir_ / "x" / kLongPath), "long\n");
  EXPECT_EQ(fs::status(dir_ / "x/codegen/model.c").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST(Tar, ReaderReturnsWhatTheWriterWrote) {
  const std::vector<TarMember> members = read_tar(sample_archive());
  ASSERT_EQ(members.size(), 6u);
  EXPECT_EQ(members[0].path, "./");
  EXPECT_EQ(members[0].type, '5');
  EXPECT_EQ(members[2].path, "./codegen/model.c");
  EXPECT_EQ(members[2].type, '0');
  EXPECT_EQ(members[2].contents, "int x;\n");
  EXPECT_EQ(members[4].contents, std::string(512, '\x7f'));
  EXPECT_EQ(members[5].path, kLongPath);
}

TEST(Tar, SameEntriesGiveSameBytesInWholeBlocks) {
  const std::string archive = sample_archive();
  EXPECT_EQ(archive, sample_archive());
  EXPECT_EQ(archive.size() % 512, 0u);
  EXPECT_EQ(archive.substr(archive.size() - 1024), std::string(1024, '\0'));
}

TEST(Tar, TruncatedOrDamagedArchivesStopAtTheDamage) {
  const std::string archive = sample_archive();
  EXPECT_EQ(read_tar(archive.substr(0, 512 * 3 + 3)).size(), 2u);  // model.c's 7 bytes cut after 3
  std::string damaged = archive;
  damaged[512 * 2 + 10] ^= 1;  // a byte of model.c's header: the checksum no longer holds
  EXPECT_EQ(read_tar(damaged).size(), 2u);
  EXPECT_TRUE(read_tar("not a tar archive").empty());
}

TEST(Tar, PathsUstarCannotHoldAreRefused) {
  TarWriter tar;
  EXPECT_THROW(tar.add_file("./" + std::string(120, 'z') + ".c", ""), CompileError);
  EXPECT_THROW(tar.add_file(std::string(200, 'p') + "/" + std::string(20, 'n'), ""), CompileError);
}

}  // namespace
}  // namespace microaot
