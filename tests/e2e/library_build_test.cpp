// The generated library as an integrator builds it: every shared model's folder clean under strict
// warnings with gcc and clang, run_steps equal to run on every shared model, two single-model Makefile
// fragments in one Makefile, and the static-arena and profiling options of CMake and Make.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "demo_fixture.h"
#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

// What integrators turn on.
const std::vector<std::string> kStrictFlags = {"-std=c99", "-Wall",        "-Wextra",        "-Wconversion",
                                               "-Wsign-conversion", "-Wshadow", "-Wcast-align",
                                               "-Wstrict-prototypes", "-Wpedantic", "-Werror", "-O2", "-c"};

bool have_tool(const std::string& tool) { return run_process({"sh", "-c", "command -v " + tool + " >/dev/null"}) == 0; }

std::vector<std::string> compilers() {
  std::vector<std::string> list = {"gcc"};
  if (have_tool("clang")) list.push_back("clang");
  return list;
}

class LibraryBuildTest : public DemoModelTest {
 protected:
  // Compiles every C file of `lib` with `cc` and the strict flags, then `extra` (a later -O wins); returns the
  // diagnostics of the failures. A file compiled before with the same flags (the same runtime file in another
  // folder, same contents) is skipped.
  std::string strict_build_errors(const std::string& lib, const std::string& cc,
                                  const std::vector<std::string>& extra = {}) {
    std::string errors, key = cc;
    for (const std::string& flag : extra) key += " " + flag;
    for (const auto& entry : fs::recursive_directory_iterator(lib)) {
      if (entry.path().extension() != ".c") continue;
      if (!compiled_[key].insert(entry.path().filename().string() + read_text(entry.path().string())).second) continue;
      std::vector<std::string> argv = {cc, "-I" + lib, "-I" + lib + "/kernels"};
      argv.insert(argv.end(), kStrictFlags.begin(), kStrictFlags.end());
      argv.insert(argv.end(), extra.begin(), extra.end());
      argv.insert(argv.end(), {entry.path().string(), "-o", tmp_ + "/object.o"});
      if (run_process(argv, tmp_ + "/cc.log") != 0) errors += cc + " " + entry.path().string() + ":\n" + read_text(tmp_ + "/cc.log");
    }
    return errors;
  }

  // Compiles shared `model` with `args` for `cpu`, then cross-compiles the folder at each of `levels` with `flags`.
  void expect_builds_at_levels(const std::string& model, const std::vector<std::string>& args, const std::string& cpu,
                               const std::vector<std::string>& flags, const std::vector<std::string>& levels) {
    std::string lib = tmp_ + "/" + model + "_" + cpu;
    for (const std::string& arg : args) lib += "_" + arg;
    std::vector<std::string> compile = {"compile", shared_dir() + "/models/" + model + "/model.tflite", "-o", lib,
                                        "--target", cpu};
    compile.insert(compile.end(), args.begin(), args.end());
    ASSERT_EQ(run_microaot(compile), 0) << model;
    for (const std::string& level : levels) {
      std::vector<std::string> extra = flags;
      extra.push_back(level);
      EXPECT_EQ(strict_build_errors(lib, "arm-none-eabi-gcc", extra), "") << model << " " << cpu << " " << level;
    }
  }

  std::map<std::string, std::set<std::string>> compiled_;  // per compiler: name + contents of the files compiled
};

class SharedModelBuildTest : public LibraryBuildTest, public ::testing::WithParamInterface<std::string> {
 protected:
  std::string model_dir() { return shared_dir() + "/models/" + GetParam(); }
};

TEST_P(SharedModelBuildTest, RunStepsGivesTheOutputsOfRun) {
  MICROAOT_REQUIRE_SHARED();
  const std::string lib = tmp_ + "/lib";
  ASSERT_EQ(run_microaot({"compile", model_dir() + "/model.tflite", "-o", lib}), 0);
  std::vector<std::string> argv = {"cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-I" + lib, "-I" + lib + "/kernels"};
  for (const auto& entry : fs::recursive_directory_iterator(lib)) {
    if (entry.path().extension() == ".c") argv.push_back(entry.path().string());
  }
  argv.insert(argv.end(), {std::string(MICROAOT_E2E_DIR) + "/run_steps_test.c", "-o", tmp_ + "/steps", "-lm"});
  ASSERT_EQ(run_process(argv), 0);
  std::ifstream in(model_dir() + "/golden.json");
  const nlohmann::json golden = nlohmann::json::parse(in);
  std::vector<std::string> run = {tmp_ + "/steps"};
  for (const auto& input : golden["vectors"][0]["inputs"]) run.push_back(model_dir() + "/" + input.get<std::string>());
  EXPECT_EQ(run_process(run), 0) << GetParam() << ": the exit status is the failed check of run_steps_test.c";
}

INSTANTIATE_TEST_SUITE_P(SharedModels, SharedModelBuildTest, ::testing::ValuesIn(shared_model_names()),
                         [](const auto& info) { return info.param; });

// One test for all models, so that each kernel is compiled once per compiler, not once per model.
TEST_F(LibraryBuildTest, EverySharedModelIsCleanUnderStrictWarnings) {
  MICROAOT_REQUIRE_SHARED();
  for (const std::string& name : shared_model_names()) {
    const std::string lib = tmp_ + "/" + name;
    ASSERT_EQ(run_microaot({"compile", shared_dir() + "/models/" + name + "/model.tflite", "-o", lib,
                            "--interface-api", "c"}),
              0);
    for (const std::string& cc : compilers()) EXPECT_EQ(strict_build_errors(lib, cc), "") << name;
  }
}

// The DSP kernels' inline assembly holds up to 14 values in registers: an unoptimised debug build (-O0, where
// GCC keeps r7 as the frame pointer) must still compile, through their C definitions, and so must -Os (the
// folder's build for small layers' kernels, and many firmware builds), which leaves fewer registers to an asm
// statement. Folders with every DSP and packed kernel flavour the MLPerf models take, cross-compiled for the
// Cortex-M4 at -O0, -Og and -Os.
TEST_F(LibraryBuildTest, DspKernelsBuildForArmAtDebugLevelsUnderStrictWarnings) {
  MICROAOT_REQUIRE_SHARED();
  MICROAOT_REQUIRE_QEMU();
  const std::vector<std::vector<std::string>> folders = {{"kws_dscnn_int8", "speed"},
                                                         {"ic_resnet8_int8", "speed"},
                                                         {"ic_resnet8_int8", "balanced"},
                                                         {"ad_autoencoder_int8", "balanced"},
                                                         {"vww_mobilenet_int8", "speed"}};
  for (const std::vector<std::string>& folder : folders) {
    expect_builds_at_levels(folder[0], {"--optimize", folder[1]}, "cortex-m4", {"-mcpu=cortex-m4", "-mthumb"},
                            {"-O0", "-Og", "-Os"});
  }
}

// The DSP kernels also run on the Cortex-M55 (Armv8.1-M with the DSP extension), whose GCC leaves inline
// assembly other registers than the M4's at the debug levels and -Os (-Og once gave a clipped window's statement
// "impossible constraints"): every source of runtime/kernels/dsp/, whichever model links it, one compiler run
// per level (compile only: a few seconds).
TEST_F(LibraryBuildTest, DspKernelsBuildForTheM55AtDebugAndSizeLevelsUnderStrictWarnings) {
  MICROAOT_REQUIRE_QEMU();
  const std::string runtime = MICROAOT_RUNTIME_DIR;
  std::vector<std::string> sources;
  for (const auto& entry : fs::directory_iterator(runtime + "/kernels/dsp")) {
    if (entry.path().extension() == ".c") sources.push_back(entry.path().string());
  }
  ASSERT_GT(sources.size(), 30u);
  for (const char* level : {"-O0", "-Og", "-Os"}) {
    // several sources in one run put their objects in the working directory: the test's own
    std::vector<std::string> argv = {"sh", "-c", "cd \"$0\" && exec \"$@\"", tmp_, "arm-none-eabi-gcc",
                                     "-I" + runtime + "/include"};
    argv.insert(argv.end(), kStrictFlags.begin(), kStrictFlags.end());
    argv.insert(argv.end(), {"-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", level});
    argv.insert(argv.end(), sources.begin(), sources.end());
    EXPECT_EQ(run_process(argv, tmp_ + "/cc.log"), 0) << level << ":\n" << read_text(tmp_ + "/cc.log");
  }
}

// The same for the Helium kernels (GCC at -O0 gives inline assembly r0-r6 only; narrowing stores need r0-r7)
// at the debug levels and -Os, which the folder's build files give the small layers' kernels: folders with every
// Helium kernel flavour (planar and gather depthwise, pools, linear ADD, convolutions, FULLY_CONNECTED).
TEST_F(LibraryBuildTest, MveKernelsBuildForTheM55AtDebugAndSizeLevelsUnderStrictWarnings) {
  MICROAOT_REQUIRE_SHARED();
  MICROAOT_REQUIRE_QEMU();
  for (const char* model : {"kws_dscnn_int8", "vww_mobilenet_int8", "ic_resnet8_int8"}) {
    expect_builds_at_levels(model, {}, "cortex-m55", {"-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"},
                            {"-O0", "-Og", "-Os"});
  }
}

// The options that change the generated C most: I/O outside the arena, pools, the microTVM entry.
TEST_F(LibraryBuildTest, EveryConfigurationIsCleanUnderStrictWarnings) {
  const std::vector<std::vector<std::string>> configurations = {
      {"--io-in-arena", "off", "--interface-api", "c"},
      {"--pool", "a:256", "--pool", "b:64k", "--interface-api", "c"},
      {"--io-in-arena", "off", "--pool", "a:256", "--pool", "b:64k", "--alignment", "4"}};
  for (size_t i = 0; i < configurations.size(); ++i) {
    const std::string lib = tmp_ + "/lib" + std::to_string(i);
    std::vector<std::string> args = {"compile", demo_, "-o", lib};
    args.insert(args.end(), configurations[i].begin(), configurations[i].end());
    ASSERT_EQ(run_microaot(args), 0) << i;
    for (const std::string& cc : compilers()) EXPECT_EQ(strict_build_errors(lib, cc), "") << "configuration " << i;
  }
}

// Two folders define the same runtime symbols: their fragments must leave the second copy out. The second
// folder's microTVM entry needs the full executor core beside the first's arena-only one: both are linked.
TEST_F(LibraryBuildTest, TwoSingleModelFragmentsLinkInOneMakefile) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/a", "--module-name", "alpha"}), 0);
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/b", "--module-name", "beta", "--alignment", "32",
                          "--interface-api", "c"}),
            0);
  fs::copy_file(std::string(MICROAOT_E2E_DIR) + "/two_modules_test.c", tmp_ + "/main.c");
  ASSERT_EQ(make_program(tmp_, "include a/alpha.mk\ninclude b/beta.mk\n"
                               "CFLAGS = -std=c99 -Wall -Wextra -Werror -O2 $(ALPHA_CFLAGS) $(BETA_CFLAGS)\n",
                         "two", "main.c $(ALPHA_SRCS) $(BETA_SRCS)"),
            "");
  EXPECT_EQ(run_process({tmp_ + "/two"}), 0);
  // Each runtime file was built once, from the first folder that has it.
  EXPECT_TRUE(fs::exists(tmp_ + "/a/kernels/status.o"));
  EXPECT_FALSE(fs::exists(tmp_ + "/b/kernels/status.o"));
  EXPECT_TRUE(fs::exists(tmp_ + "/a/kernels/executor_arena.o"));
  EXPECT_TRUE(fs::exists(tmp_ + "/b/kernels/executor.o"));
}

TEST_F(LibraryBuildTest, CMakeOptionsDropTheStaticArenaAndTurnOnProfiling) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib"}), 0);
  fs::copy_file(std::string(MICROAOT_E2E_DIR) + "/build_options_test.c", tmp_ + "/main.c");
  std::ofstream(tmp_ + "/CMakeLists.txt") << "cmake_minimum_required(VERSION 3.13)\nproject(options C)\n"
                                             "add_subdirectory(lib)\nadd_executable(options main.c)\n"
                                             "target_link_libraries(options PRIVATE model)\n";
  ASSERT_EQ(run_process({"cmake", "-S", tmp_, "-B", tmp_ + "/build", "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror",
                         "-DMODEL_STATIC_ARENA=OFF", "-DMODEL_PROFILE=ON"},
                        tmp_ + "/cmake.log", tmp_ + "/cmake.out"),
            0);
  ASSERT_EQ(run_process({"cmake", "--build", tmp_ + "/build"}, tmp_ + "/build.log", tmp_ + "/build.out"), 0)
      << read_text(tmp_ + "/build.out");
  EXPECT_EQ(run_process({tmp_ + "/build/options"}), 0);
}

TEST_F(LibraryBuildTest, MakeOptionsDropTheStaticArenaAndTurnOnProfiling) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib"}), 0);
  fs::copy_file(std::string(MICROAOT_E2E_DIR) + "/build_options_test.c", tmp_ + "/main.c");
  ASSERT_EQ(make_program(tmp_, "MODEL_STATIC_ARENA = 0\nMODEL_PROFILE = 1\ninclude lib/model.mk\n"
                               "CFLAGS = -std=c99 -Wall -Wextra -Werror -O2 $(MODEL_CFLAGS)\n",
                         "options", "main.c $(MODEL_SRCS)"),
            "");
  EXPECT_EQ(run_process({tmp_ + "/options"}), 0);
}

// The executor's API and the step function are built for size at any -O: the recursive MODEL_CFLAGS adds -Os,
// after the user's -O2, to the compile line of those files alone ($< in the rule); the user's main.c keeps -O2.
TEST_F(LibraryBuildTest, MakeBuildsTheSizeSourcesWithOsAfterTheUsersO) {
  ASSERT_EQ(run_microaot({"compile", demo_, "-o", tmp_ + "/lib"}), 0);
  std::ofstream(tmp_ + "/main.c") << "int main(void) { return 0; }\n";
  ASSERT_EQ(make_program(tmp_, "include lib/model.mk\nCFLAGS = -std=c99 -Wall -Wextra -Werror -O2 $(MODEL_CFLAGS)\n",
                         "sized", "main.c $(MODEL_SRCS)"),
            "");
  std::map<std::string, std::string> lines;  // compiled source -> its command line
  std::istringstream out(read_text(tmp_ + "/make.out"));
  for (std::string line; std::getline(out, line);) {
    const size_t at = line.rfind(' ');
    if (line.find(" -c ") != std::string::npos && at != std::string::npos) lines[line.substr(at + 1)] = line;
  }
  ASSERT_EQ(lines.count("lib/kernels/executor_arena.c"), 1u) << read_text(tmp_ + "/make.out");
  EXPECT_NE(lines["lib/kernels/executor_arena.c"].find("-O2 -Ilib/ -Ilib/kernels"), std::string::npos);
  EXPECT_NE(lines["lib/kernels/executor_arena.c"].find(" -Os"), std::string::npos);
  EXPECT_NE(lines["lib/model.c"].find(" -Os"), std::string::npos);
  EXPECT_EQ(lines["main.c"].find("-Os"), std::string::npos);
}

}  // namespace
}  // namespace microaot::e2e
