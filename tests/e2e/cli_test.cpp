// The command line and the generated library as a user meets them: the output layout, determinism, the
// API's misuse checks, the microTVM entry, the generated CMake project, and clear errors for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "support/process.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

class CliTest : public DemoModelTest {
 protected:
  // Builds the C files of a generated library plus `extra` into an executable; returns its path.
  std::string build_program(const std::string& lib, const std::string& extra, const std::string& define = "") {
    std::vector<std::string> argv = {"cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
                                     "-I" + lib, "-I" + lib + "/kernels"};
    if (!define.empty()) argv.push_back("-D" + define);
    for (const auto& entry : fs::recursive_directory_iterator(lib)) {
      if (entry.path().extension() == ".c") argv.push_back(entry.path().string());
    }
    argv.push_back(std::string(MICROAOT_E2E_DIR) + "/" + extra);
    const std::string exe = lib + "/test_program";
    argv.insert(argv.end(), {"-o", exe, "-lm"});
    EXPECT_EQ(run_process(argv), 0) << "building " << extra;
    return exe;
  }
};

TEST_F(CliTest, CompileWritesTheDocumentedLayout) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/out"}), 0);
  for (const char* file : {"model.h", "model.c", "memory_map.h", "weights.c", "platform.h", "platform.c",
                           "CMakeLists.txt", "model.mk", "memory_plan.txt", "memory_map.svg", "network_info.txt",
                           "report.json", "microaot.json", "kernels/microaot/status.h"}) {
    EXPECT_TRUE(fs::exists(tmp_ + "/out/" + file)) << file;
  }
  std::ifstream in(tmp_ + "/out/report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  for (const char* key : {"arena_bytes", "ram_bytes", "flash_weights_bytes", "ops", "macs"}) {
    EXPECT_TRUE(report.contains(key)) << key;
  }
  EXPECT_GT(report["macs"].get<int64_t>(), 0);
  EXPECT_GE(report["ram_bytes"].get<int64_t>(), report["arena_bytes"].get<int64_t>());
}

// NAME.h and report.json say which microaot made them, from which model file (its SHA-256 as sha256sum
// computes it) and with which flags.
TEST_F(CliTest, CompileRecordsVersionModelHashAndFlags) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/out", "--module-name", "kws", "--alignment", "8"}), 0);
  ASSERT_EQ(run_process({"sha256sum", demo_}, "", tmp_ + "/sum.txt"), 0);
  const std::string sha = read_text(tmp_ + "/sum.txt").substr(0, 64);
  const std::string header = read_text(tmp_ + "/out/kws.h");
  EXPECT_NE(header.find("by microaot " MICROAOT_VERSION), std::string::npos) << header;
  EXPECT_NE(header.find("#define KWS_MODEL_SHA256 \"" + sha + "\""), std::string::npos) << header;
  EXPECT_NE(header.find("Flags: --module-name kws --target 'c' --executor aot --planner best --alignment 8"),
            std::string::npos)
      << header;
  std::ifstream in(tmp_ + "/out/report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["microaot_version"], MICROAOT_VERSION);
  EXPECT_EQ(report["model_sha256"], sha);
  EXPECT_NE(report["flags"].get<std::string>().find("--alignment 8"), std::string::npos);
}

TEST_F(CliTest, SameModelGivesByteIdenticalOutput) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/a"}), 0);
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/b"}), 0);
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(tmp_ + "/a")) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), tmp_ + "/a").string();
    EXPECT_EQ(read_file(entry.path().string()), read_file(tmp_ + "/b/" + rel)) << rel;
    ++files;
  }
  EXPECT_GT(files, 10u);
}

TEST_F(CliTest, GeneratedApiRejectsMisuse) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib", "--module-name", "demo"}), 0);
  EXPECT_EQ(run_process({build_program(tmp_ + "/lib", "api_test.c")}), 0);
  // With the profiling hooks, api_test.c also calls the API from inside run().
  EXPECT_EQ(run_process({build_program(tmp_ + "/lib", "api_test.c", "MICROAOT_PROFILE")}), 0);
}

TEST_F(CliTest, IoOutsideTheArenaBindsCallerBuffers) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib", "--io-in-arena", "off"}), 0);
  const std::string exe = build_program(tmp_ + "/lib", "io_binding_test.c");
  EXPECT_EQ(run_process({exe}), 0);
}

TEST_F(CliTest, TvmInterfaceMatchesNativeApi) {
  // Spelled as tvmc users spell it.
  ASSERT_EQ(run_microaot({"compile", demo_, "--output-dir", tmp_ + "/lib", "--module-name=demo", "--executor=aot",
                          "--executor-aot-interface-api=c", "--executor-aot-unpacked-api=1", "--runtime=crt",
                          "--target=c -mcpu=cortex-m4"}),
            0);
  const std::string exe = build_program(tmp_ + "/lib", "tvm_test.c");
  EXPECT_EQ(run_process({exe}), 0);
}

// microTVM's --executor-aot-... io-in-arena off: tvmgen_NAME_run binds the caller's buffers (zero copy).
TEST_F(CliTest, TvmInterfaceWithIoOutsideTheArena) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib", "--module-name", "demo", "--interface-api", "c",
                          "--io-in-arena", "off"}),
            0);
  const std::string exe = build_program(tmp_ + "/lib", "tvm_test.c");
  EXPECT_EQ(run_process({exe}), 0);
}

TEST_F(CliTest, GeneratedCMakeProjectBuilds) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib"}), 0);
  ASSERT_EQ(run_process({"cmake", "-S", tmp_ + "/lib", "-B", tmp_ + "/build", "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"},
                        tmp_ + "/cmake.log"),
            0);
  EXPECT_EQ(run_process({"cmake", "--build", tmp_ + "/build"}, tmp_ + "/build.log"), 0);
}

TEST_F(CliTest, TwoModulesLinkIntoOneProgram) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/a", "--module-name", "alpha"}), 0);
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/b", "--module-name", "beta", "--alignment", "32"}), 0);
  fs::copy_file(std::string(MICROAOT_E2E_DIR) + "/two_modules_test.c", tmp_ + "/main.c");
  std::ofstream(tmp_ + "/CMakeLists.txt") << "cmake_minimum_required(VERSION 3.13)\nproject(two C)\n"
                                             "add_subdirectory(a)\nadd_subdirectory(b)\n"
                                             "add_executable(two main.c)\ntarget_link_libraries(two PRIVATE alpha beta)\n";
  ASSERT_EQ(run_process({"cmake", "-S", tmp_, "-B", tmp_ + "/build", "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"},
                        tmp_ + "/cmake.log"),
            0);
  ASSERT_EQ(run_process({"cmake", "--build", tmp_ + "/build"}, tmp_ + "/build.log"), 0);
  EXPECT_EQ(run_process({tmp_ + "/build/two"}), 0);
}

TEST_F(CliTest, TruncatedModelIsRefusedWithoutOutput) {
  std::vector<uint8_t> bytes = read_file(demo_);
  bytes.resize(bytes.size() / 2);
  std::ofstream(tmp_ + "/cut.tflite", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                                static_cast<std::streamsize>(bytes.size()));
  std::string errors;
  EXPECT_NE(run_microaot_capture({"compile", tmp_ + "/cut.tflite", "-o", tmp_ + "/out"}, errors), 0);
  EXPECT_NE(errors.find("error"), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(tmp_ + "/out"));
  for (const auto& entry : fs::directory_iterator(tmp_)) {
    EXPECT_EQ(entry.path().filename().string().find("microaot-tmp"), std::string::npos) << "leftover staging folder";
  }
}

TEST_F(CliTest, UnsupportedOperatorIsNamed) {
  std::string errors;
  const std::string model = write_unsupported_op_model(tmp_);
  EXPECT_NE(run_microaot_capture({"compile", model, "-o", tmp_ + "/out"}, errors), 0);
  EXPECT_NE(errors.find("LSH_PROJECTION"), std::string::npos) << errors;
  EXPECT_NE(errors.find("op 0"), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(tmp_ + "/out"));
}

TEST_F(CliTest, BadOptionsAreRefused) {
  std::string errors;
  EXPECT_NE(run_microaot_capture({"compile", demo_, "-o", tmp_ + "/o", "--target", "c -mcpu=pentium"}, errors), 0);
  EXPECT_NE(errors.find("pentium"), std::string::npos) << errors;
  EXPECT_NE(run_microaot_capture({"compile", tmp_ + "/missing.tflite", "-o", tmp_ + "/o"}, errors), 0);
  EXPECT_NE(errors.find("missing.tflite"), std::string::npos) << errors;
  EXPECT_NE(run_microaot_capture({"compile", demo_, "-o", tmp_ + "/o", "--planner", "magic"}, errors), 0);
  EXPECT_NE(errors.find("magic"), std::string::npos) << errors;
  EXPECT_FALSE(fs::exists(tmp_ + "/o"));
}

TEST_F(CliTest, RunChecksInputSizes) {
  std::ofstream(tmp_ + "/short.bin", std::ios::binary) << "xy";
  std::string errors;
  EXPECT_NE(run_microaot_capture({"run", demo_, "--input", tmp_ + "/short.bin", "--output-dir", tmp_ + "/o"}, errors), 0);
  EXPECT_NE(errors.find("bytes"), std::string::npos) << errors;
}

// --runtime-lib links prebuilt kernels instead of compiling the folder's: the outputs are the same, and with
// a library that holds no kernels the link fails, so the folder's kernels really were left out.
TEST_F(CliTest, RunLinksAPrebuiltRuntime) {
  std::string input(16 * 16, '\0');  // the demo model's input: 16x16x1 int8
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>(i * 37);
  std::ofstream(tmp_ + "/in.bin", std::ios::binary) << input;
  const auto run = [&](const std::string& out, const std::string& lib, std::string& errors) {
    std::vector<std::string> args = {"run", demo_, "--input", tmp_ + "/in.bin", "--output-dir", tmp_ + "/" + out};
    if (!lib.empty()) args.insert(args.end(), {"--runtime-lib", lib});
    return run_microaot_capture(args, errors);
  };
  std::string errors;
  ASSERT_EQ(run("own", "", errors), 0) << errors;
  ASSERT_EQ(run("prebuilt", runtime_lib(), errors), 0) << errors;
  const std::vector<uint8_t> own = read_file(tmp_ + "/own/output0.bin");
  EXPECT_FALSE(own.empty());
  EXPECT_EQ(read_file(tmp_ + "/prebuilt/output0.bin"), own);

  ASSERT_EQ(run_process({"ar", "rc", tmp_ + "/empty.a"}), 0);
  EXPECT_NE(run("empty", tmp_ + "/empty.a", errors), 0);
  EXPECT_NE(errors.find("host C compiler failed"), std::string::npos) << errors;
  EXPECT_NE(run("missing", tmp_ + "/missing.a", errors), 0);
  EXPECT_NE(errors.find("missing.a"), std::string::npos) << errors;
}

TEST_F(CliTest, InspectListsOperatorsTensorsAndMacs) {
  std::string errors;
  std::string output;
  ASSERT_EQ(run_microaot_capture({"inspect", demo_}, errors, &output), 0) << errors;
  for (const char* text : {"CONV_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "RESHAPE", "FULLY_CONNECTED", "SOFTMAX",
                           "conv1/weights", "[1, 16, 16, 1]", "scale 0.00392157 zp -128", "MACs", "parameter bytes",
                           // tensors by name where it helps: the model's I/O and each op's data flow
                           "inputs: 0:input int8[1, 16, 16, 1]", "outputs: 13:output int8[1, 4]",
                           "0:input 1 2 -> 3:conv1/Relu[1, 8, 8, 8]"}) {
    EXPECT_NE(output.find(text), std::string::npos) << text << " missing from:\n" << output;
  }
}

// docs/operators.md is the output of `inspect --supported`, so it cannot fall behind the operator list.
TEST_F(CliTest, InspectSupportedPrintsDocsOperators) {
  std::string errors;
  std::string output;
  ASSERT_EQ(run_microaot_capture({"inspect", "--supported"}, errors, &output), 0) << errors;
  EXPECT_NE(output.find("| CONV_2D | 3 | conv |"), std::string::npos) << output;
  const std::vector<uint8_t> docs = read_file(std::string(MICROAOT_RUNTIME_DIR) + "/../docs/operators.md");
  EXPECT_EQ(std::string(docs.begin(), docs.end()), output)
      << "regenerate it: build/microaot inspect --supported > docs/operators.md";
  EXPECT_NE(run_microaot_capture({"inspect", "--supported", demo_}, errors), 0);
  EXPECT_NE(run_microaot_capture({"inspect"}, errors), 0);
}

}  // namespace
}  // namespace microaot::e2e
