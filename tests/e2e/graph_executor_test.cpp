// The graph executor from the command line and from C: one firmware runs other models' blobs loaded at run
// time (graph_swap_test.c), --blob-only writes by the output rules, and what the graph executor does not
// take is refused as a usage error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

class GraphExecutorTest : public DemoModelTest {
 protected:
  std::string model(const std::string& name) const { return shared_dir() + "/models/" + name + "/model.tflite"; }
  std::string vector0(const std::string& name) const { return shared_dir() + "/models/" + name + "/vectors/0.input0.bin"; }

  // The AOT build's outputs of vector 0, back to back: what any executor must give.
  std::string aot_outputs(const std::string& name) {
    const std::string out = tmp_ + "/aot_" + name;
    EXPECT_EQ(run_microaot({"run", model(name), "--input", vector0(name), "--output-dir", out, "--runtime-lib",
                            runtime_lib()}),
              0);
    std::vector<uint8_t> all;
    for (int j = 0; fs::exists(out + "/output" + std::to_string(j) + ".bin"); ++j) {
      const std::vector<uint8_t> bytes = read_file(out + "/output" + std::to_string(j) + ".bin");
      all.insert(all.end(), bytes.begin(), bytes.end());
    }
    const std::string path = out + "/all.bin";
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(all.data()),
                                                static_cast<std::streamsize>(all.size()));
    return path;
  }

  std::string blob(const std::string& name) {
    const std::string path = tmp_ + "/" + name + ".blob";
    EXPECT_EQ(run_microaot({"compile", model(name), "--executor", "graph", "--blob-only", "-o", path}), 0);
    return path;
  }

  std::string build(const std::string& lib, const std::string& program) {
    std::vector<std::string> argv = {"cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
                                     "-I" + lib, "-I" + lib + "/kernels"};
    for (const auto& entry : fs::recursive_directory_iterator(lib)) {
      if (entry.path().extension() == ".c") argv.push_back(entry.path().string());
    }
    const std::string exe = lib + "/test_program";
    argv.insert(argv.end(), {std::string(MICROAOT_E2E_DIR) + "/" + program, "-o", exe, "-lm"});
    EXPECT_EQ(run_process(argv), 0) << "building " << program;
    return exe;
  }
};

// A keyword-spotting firmware that also links the float fully-connected kernel runs its own model, the
// anomaly detector's blob (the same kernels) and the float sine model's (the linked one), each with the
// outputs of its AOT build; the ResNet's blob needs ADD, which it does not link.
TEST_F(GraphExecutorTest, OneFirmwareRunsOtherModelsBlobs) {
  MICROAOT_REQUIRE_SHARED();
  ASSERT_EQ(run_microaot({"compile", model("kws_dscnn_int8"), "--executor", "graph", "--module-name", "fw",
                          "--link-kernels", "fully_connected_f32", "-o", tmp_ + "/fw"}),
            0);
  std::vector<std::string> args = {build(tmp_ + "/fw", "graph_swap_test.c"), vector0("kws_dscnn_int8"),
                                   aot_outputs("kws_dscnn_int8")};
  for (const char* name : {"ad_autoencoder_int8", "hello_world_f32"}) {
    args.insert(args.end(), {blob(name), vector0(name), aot_outputs(name)});
  }
  args.insert(args.end(), {"--", blob("ic_resnet8_int8")});
  EXPECT_EQ(run_process(args), 0) << "the exit status counts the failed checks of graph_swap_test.c";
}

TEST_F(GraphExecutorTest, BlobOnlyWritesOneFileByTheOutputRules) {
  const std::string path = tmp_ + "/demo.blob";
  ASSERT_EQ(run_microaot({"compile", demo_, "--executor", "graph", "--blob-only", "-o", path}), 0);
  const std::vector<uint8_t> bytes = read_file(path);
  ASSERT_GE(bytes.size(), 80u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "MAOB");
  EXPECT_EQ(run_microaot({"compile", demo_, "--executor", "graph", "--blob-only", "-o", path}), 0)
      << "a blob microaot wrote is replaced";
  const std::string mine = tmp_ + "/notes.txt";
  std::ofstream(mine) << "my notes";
  std::string errors;
  EXPECT_EQ(run_microaot_capture({"compile", demo_, "--executor", "graph", "--blob-only", "-o", mine}, errors), 1);
  EXPECT_EQ(read_text(mine), "my notes") << "a file microaot did not write is kept";
}

TEST_F(GraphExecutorTest, WhatTheGraphExecutorDoesNotTakeIsAUsageError) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--executor", "graph", "--pool", "main:64K", "--pool", "sram2:64K"}, "--pool"},
      {{"--executor", "graph", "--io-in-arena", "off"}, "--io-in-arena off"},
      {{"--executor", "graph", "--interface-api", "c"}, "--interface-api c"},
      {{"--executor", "graph", "--alignment", "2"}, "--alignment"},
      {{"--executor", "graph", "--output-format", "mlf"}, "mlf"},
      {{"--executor", "graph", "--link-kernels", "no_such_kernel"}, "no_such_kernel"},
      {{"--blob-only"}, "--blob-only"},
      {{"--link-kernels", "all"}, "--link-kernels is for --executor graph"},
      {{"--executor", "magic"}, "executor 'magic' is not supported"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> args = {"compile", demo_, "-o", tmp_ + "/out"};
    args.insert(args.end(), flags.begin(), flags.end());
    std::string errors;
    EXPECT_EQ(run_microaot_capture(args, errors), 2) << flags.back();
    EXPECT_NE(errors.find(message), std::string::npos) << errors;
    EXPECT_FALSE(fs::exists(tmp_ + "/out")) << flags.back();
  }
}

}  // namespace
}  // namespace microaot::e2e
