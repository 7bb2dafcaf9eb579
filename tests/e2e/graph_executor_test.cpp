// The graph executor from the command line and from C: one firmware runs other models' blobs loaded at run
// time (graph_swap_test.c), --blob-only writes by the output rules, and what the graph executor does not
// take is refused as a usage error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "microaot/graph.h"
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

  // The id of the first step's kernel in `blob` that firmware folder `fw` does not link (read from the blob's
  // step table and the folder's report.json, apart from the loader and `inspect`), or -1.
  static int first_missing_kernel(const std::string& blob, const std::string& fw) {
    const std::vector<uint8_t> bytes = read_file(blob);
    const auto word = [&](size_t i) {
      return bytes[4 * i] | bytes[4 * i + 1] << 8 | bytes[4 * i + 2] << 16 | static_cast<uint32_t>(bytes[4 * i + 3]) << 24;
    };
    const nlohmann::json linked = nlohmann::json::parse(read_text(fw + "/report.json"))["firmware"]["kernels"];
    for (uint32_t step = 0; step < word(MICROAOT_BLOB_W_NUM_STEPS); ++step) {
      const uint32_t id = word(word(MICROAOT_BLOB_W_STEPS_AT) / 4 + MICROAOT_BLOB_STEP_WORDS * step);
      bool found = false;
      for (const nlohmann::json& k : linked) found = found || k["id"].get<uint32_t>() == id;
      if (!found) return static_cast<int>(id);
    }
    return -1;
  }

  std::string build(const std::string& lib, const std::string& program) {
    std::vector<std::string> argv = {"cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
                                     "-I" + lib, "-I" + lib + "/kernels"};
    for (const auto& entry : fs::recursive_directory_iterator(lib)) {
      if (entry.path().extension() == ".c") argv.push_back(entry.path().string());
    }
    // The sanitizer pass's flags (scripts/test.sh): the loader then runs under ASan/UBSan too.
    const char* flags = std::getenv("MICROAOT_CFLAGS");
    std::istringstream words(flags == nullptr ? "" : flags);
    for (std::string flag; words >> flag;) argv.push_back(flag);
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
  const std::string resnet = blob("ic_resnet8_int8");
  const int missing = first_missing_kernel(resnet, tmp_ + "/fw");
  ASSERT_GE(missing, 0);
  args.insert(args.end(), {"--", resnet, std::to_string(missing)});
  EXPECT_EQ(run_process(args), 0) << "the exit status counts the failed checks of graph_swap_test.c";
}

// The user's case: a Cortex-M4 firmware (packed kernels, int16 weights) and the same model's blob made at
// --optimize balanced (int8 packed weights: other kernels). Init refuses it naming the first kernel the
// firmware lacks, `inspect --firmware` says so before flashing, and `--for` builds the blob the firmware runs
// (the firmware's own built-in blob, byte for byte) with the AOT build's outputs.
TEST_F(GraphExecutorTest, ABlobForAnotherOptimizeLevelIsRefusedNamingTheKernelAndForBuildsOneThatRuns) {
  MICROAOT_REQUIRE_SHARED();
  const std::string name = "kws_dscnn_int8", fw = tmp_ + "/fw";
  ASSERT_EQ(run_microaot({"compile", model(name), "--executor", "graph", "--target", "cortex-m4", "--module-name",
                          "fw", "-o", fw}),
            0);
  const std::string balanced = tmp_ + "/balanced.blob", fitting = tmp_ + "/for.blob";
  ASSERT_EQ(run_microaot({"compile", model(name), "--executor", "graph", "--target", "cortex-m4", "--optimize",
                          "balanced", "--blob-only", "-o", balanced}),
            0);
  const int missing = first_missing_kernel(balanced, fw);
  ASSERT_GE(missing, 0) << "balanced links other kernels than speed";
  std::string out, errors;
  EXPECT_EQ(run_microaot_capture({"inspect", balanced, "--firmware", fw}, errors, &out), 1);
  EXPECT_NE(out.find("init: model blob needs a kernel this firmware does not link"), std::string::npos) << out;
  EXPECT_NE(out.find("  kernel " + std::to_string(missing) + " "), std::string::npos) << out;
  EXPECT_NE(out.find("--for " + fw), std::string::npos) << out;

  ASSERT_EQ(run_microaot({"compile", model(name), "--executor", "graph", "--blob-only", "--for", fw, "-o", fitting}),
            0);
  EXPECT_EQ(read_file(fitting), read_file(fw + "/fw.blob")) << "the firmware's settings, the firmware's blob";
  EXPECT_EQ(run_microaot_capture({"inspect", fitting, "--firmware", fw}, errors, &out), 0);
  EXPECT_NE(out.find("init: ok"), std::string::npos) << out;
  EXPECT_NE(out.find("version: " + std::to_string(MICROAOT_BLOB_VERSION)), std::string::npos) << out;
  const nlohmann::json report = nlohmann::json::parse(read_text(fw + "/report.json"));
  EXPECT_NE(out.find("arena: " + std::to_string(report["arena_buffer_bytes"].get<int64_t>()) + " bytes"),
            std::string::npos) << out;
  EXPECT_NE(out.find("kernels needed: " + std::to_string(report["firmware"]["kernels"].size())), std::string::npos)
      << out << "the firmware links exactly its model's kernels";
  EXPECT_NE(out.find("inputs:\n     0  " + std::to_string(report["inputs"][0]["bytes"].get<int64_t>()) + " bytes"),
            std::string::npos) << out;
  std::vector<uint8_t> corrupt = read_file(fitting);
  corrupt[corrupt.size() / 2] ^= 1;
  const std::string corrupt_path = tmp_ + "/corrupt.blob";
  std::ofstream(corrupt_path, std::ios::binary).write(reinterpret_cast<const char*>(corrupt.data()),
                                                      static_cast<std::streamsize>(corrupt.size()));
  EXPECT_EQ(run_microaot_capture({"inspect", corrupt_path}, errors, &out), 1);
  EXPECT_NE(errors.find("is a corrupt model blob"), std::string::npos) << errors;

  const std::string resnet = tmp_ + "/resnet.blob";
  EXPECT_EQ(run_microaot_capture({"compile", model("ic_resnet8_int8"), "--executor", "graph", "--blob-only", "--for",
                                  fw, "-o", resnet}, errors), 1);
  EXPECT_NE(errors.find("does not link kernels this model needs:\n  kernel "), std::string::npos) << errors;
  EXPECT_NE(errors.find("rebuild the firmware with --link-kernels "), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(resnet));

  const std::string input = vector0(name), expected = aot_outputs(name);
  EXPECT_EQ(run_process({build(fw, "graph_swap_test.c"), input, expected, fitting, input, expected, "--", balanced,
                         std::to_string(missing)}),
            0)
      << "the exit status counts the failed checks of graph_swap_test.c";
}

// --for takes the firmware's settings: others given are usage errors, as are a blob with --link-kernels and
// --for without --blob-only; a folder that is not a firmware's is refused. Nothing is written.
TEST_F(GraphExecutorTest, ForRefusesWhatTheFirmwareCannotRun) {
  const std::string fw = tmp_ + "/fw", blob_path = tmp_ + "/x.blob";
  ASSERT_EQ(run_microaot({"compile", demo_, "--executor", "graph", "--target", "cortex-m4", "-o", fw}), 0);
  std::string errors;
  EXPECT_EQ(run_microaot_capture({"compile", demo_, "--executor", "graph", "--blob-only", "--for", fw, "-o",
                                  blob_path}, errors), 0) << errors;
  const std::vector<std::pair<std::vector<std::string>, std::string>> usage = {
      {{"--blob-only", "--for", fw, "--optimize", "size"}, "--optimize size differs from the firmware's (speed)"},
      {{"--blob-only", "--for", fw, "--target", "cortex-m7"}, "leave --target out with --for"},
      {{"--blob-only", "--link-kernels", "all"}, "a blob carries no code"},
      {{"--for", fw}, "--for requires --blob-only"},
  };
  fs::remove(blob_path);
  for (const auto& [flags, message] : usage) {
    std::vector<std::string> args = {"compile", demo_, "--executor", "graph", "-o", blob_path};
    args.insert(args.end(), flags.begin(), flags.end());
    EXPECT_EQ(run_microaot_capture(args, errors), 2) << flags.back();
    EXPECT_NE(errors.find(message), std::string::npos) << errors;
    EXPECT_FALSE(fs::exists(blob_path)) << flags.back();
  }
  EXPECT_EQ(run_microaot_capture({"compile", demo_, "--executor", "graph", "--blob-only", "--for", tmp_ + "/nowhere",
                                  "-o", blob_path}, errors), 1);
  EXPECT_NE(errors.find("is not a folder"), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(blob_path));
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
