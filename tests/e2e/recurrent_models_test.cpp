// Every model of ../shared/models-recurrent whose operators microaot supports, on the host: each golden
// vector from a fresh state (`run --batch --fresh-state`), and each `repeated` entry: 16 runs of one
// vector through one context, state carried from run to run (`run --batch`), the 16th outputs against
// TFLM's after 16 Invokes of one interpreter. Models with unsupported operators are skipped, naming them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <sstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "support/process.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

class RecurrentModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = shared_dir() + "/models-recurrent/" + GetParam();
    out_ = make_temp_dir();
  }
  void TearDown() override { remove_dir(out_); }

  json golden() const {
    std::ifstream in(dir_ + "/golden.json");
    return json::parse(in);
  }

  // `vector`'s inputs `times` times in a row, as --input arguments.
  std::vector<std::string> inputs_of(const json& g, size_t vector, int times) const {
    std::vector<std::string> args;
    for (int i = 0; i < times; ++i) {
      for (const auto& input : g["vectors"][vector]["inputs"]) {
        args.insert(args.end(), {"--input", dir_ + "/" + input.get<std::string>()});
      }
    }
    return args;
  }

  // Output `j` of set `set` of the run into `dir` against the golden file `golden_path`.
  void expect_output(const json& g, const std::string& dir, size_t set, size_t j, const std::string& golden_path,
                     const std::string& what) const {
    const std::string got = dir + "/" + std::to_string(set) + "/output" + std::to_string(j) + ".bin";
    EXPECT_EQ(compare_tensor(g["outputs"][j]["dtype"], read_file(got), read_file(dir_ + "/" + golden_path)), "")
        << GetParam() << " " << what << " output " << j;
  }

  std::string dir_;
  std::string out_;
};

#define MICROAOT_REQUIRE_SUPPORTED_MODEL()                                              \
  do {                                                                                  \
    MICROAOT_REQUIRE_SHARED_MODEL(GetParam());                                          \
    const std::string refusal = unsupported_operators(dir_ + "/model.tflite");          \
    if (!refusal.empty()) GTEST_SKIP() << GetParam() << " is not supported: " << refusal; \
  } while (0)

TEST_P(RecurrentModelTest, EveryVectorFromAFreshStateMatches) {
  MICROAOT_REQUIRE_SUPPORTED_MODEL();
  const json g = golden();
  std::vector<std::string> args = {"run", dir_ + "/model.tflite", "--batch", "--fresh-state", "--runtime-lib",
                                   runtime_lib(), "--output-dir", out_ + "/fresh"};
  for (size_t k = 0; k < g["vectors"].size(); ++k) {
    const std::vector<std::string> inputs = inputs_of(g, k, 1);
    args.insert(args.end(), inputs.begin(), inputs.end());
  }
  ASSERT_EQ(run_microaot(args), 0) << "microaot run failed on " << GetParam();
  for (size_t k = 0; k < g["vectors"].size(); ++k) {
    const json& outputs = g["vectors"][k]["outputs"];
    for (size_t j = 0; j < outputs.size(); ++j) {
      expect_output(g, out_ + "/fresh", k, j, outputs[j].get<std::string>(), "vector " + std::to_string(k));
    }
  }
}

TEST_P(RecurrentModelTest, RepeatedEntriesCarryStateLikeTflm) {
  MICROAOT_REQUIRE_SUPPORTED_MODEL();
  const json g = golden();
  if (!g.contains("repeated")) GTEST_SKIP() << GetParam() << " has no repeated entries";
  // Every entry under AOT; the first one under the graph executor too, whose blob carries the state.
  for (size_t e = 0; e <= g["repeated"].size(); ++e) {
    const bool graph = e == g["repeated"].size();
    const json& entry = g["repeated"][graph ? 0 : e];
    const size_t vector = entry["vector"];
    const int invokes = entry["invokes"];
    const std::string dir = out_ + "/x" + std::to_string(vector) + (graph ? "graph" : "");
    std::vector<std::string> args = {"run", dir_ + "/model.tflite", "--batch", "--runtime-lib", runtime_lib(),
                                     "--output-dir", dir, "--executor", graph ? "graph" : "aot"};
    const std::vector<std::string> inputs = inputs_of(g, vector, invokes);
    args.insert(args.end(), inputs.begin(), inputs.end());
    ASSERT_EQ(run_microaot(args), 0) << "microaot run failed on " << GetParam();
    for (size_t j = 0; j < entry["outputs"].size(); ++j) {
      expect_output(g, dir, static_cast<size_t>(invokes - 1), j, entry["outputs"][j].get<std::string>(),
                    "vector " + std::to_string(vector) + " after " + std::to_string(invokes) + " runs");
      expect_output(g, dir, 0, j, g["vectors"][vector]["outputs"][j].get<std::string>(),
                    "vector " + std::to_string(vector) + " run 1");
    }
  }
}

// The SVDF keyword model over more than two turns of its longest ring (memory 32): its 8 vectors in turn,
// 9 times over, through one context under each executor. The graph executor's blob carries the rings'
// positions as the AOT library does (the same outputs run by run), and the first run is TFLM's.
TEST(RecurrentModelExecutors, SvdfRingsTurnAlikeUnderBothExecutors) {
  MICROAOT_REQUIRE_SHARED();
  const std::string dir = shared_dir() + "/models-recurrent/keyword_scrambled_int8";
  std::ifstream golden_file(dir + "/golden.json");
  const json g = json::parse(golden_file);
  const std::string out = make_temp_dir();
  constexpr int kRuns = 72;
  for (const std::string executor : {"aot", "graph"}) {
    std::vector<std::string> args = {"run",          dir + "/model.tflite", "--batch",  "--runtime-lib", runtime_lib(),
                                     "--output-dir", out + "/" + executor,  "--executor", executor};
    for (int run = 0; run < kRuns; ++run) {
      args.insert(args.end(), {"--input", dir + "/" + g["vectors"][run % 8]["inputs"][0].get<std::string>()});
    }
    ASSERT_EQ(run_microaot(args), 0) << executor;
  }
  const auto output = [&](const std::string& executor, int run) {
    return read_file(out + "/" + executor + "/" + std::to_string(run) + "/output0.bin");
  };
  for (int run = 0; run < kRuns; ++run) EXPECT_EQ(output("aot", run), output("graph", run)) << "run " << run;
  EXPECT_EQ(compare_tensor(g["outputs"][0]["dtype"], output("aot", 0),
                           read_file(dir + "/" + g["vectors"][0]["outputs"][0].get<std::string>())),
            "");
  remove_dir(out);
}

// The C API on a model with state (state_test.c): two contexts on two arenas keep two states, state carries
// over 16 runs (TFLM's 16th output where golden.json has it, else the 16th output of a context run alone),
// reset brings back the fresh result, a context whose state another overwrote gets ARENA_CLOBBERED until it
// resets.
void expect_state_api(const std::string& model, const std::string& after_16) {
  const std::string dir = shared_dir() + "/models-recurrent/" + model;
  const std::string out = make_temp_dir();
  ASSERT_EQ(run_microaot({"compile", dir + "/model.tflite", "-o", out + "/lib"}), 0);
  std::vector<std::string> cc = {"cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-I" + out + "/lib",
                                 "-I" + out + "/lib/kernels", out + "/lib/model.c", out + "/lib/weights.c",
                                 out + "/lib/platform.c", std::string(MICROAOT_E2E_DIR) + "/state_test.c",
                                 runtime_lib(), "-o", out + "/state_test", "-lm"};
  // The sanitizer pass builds the prebuilt runtime with its flags: the program needs them too.
  std::istringstream extra(std::getenv("MICROAOT_CFLAGS") ? std::getenv("MICROAOT_CFLAGS") : "");
  for (std::string flag; extra >> flag;) cc.push_back(flag);
  ASSERT_EQ(run_process(cc), 0);
  const std::string v = dir + "/vectors/";
  EXPECT_EQ(run_process({out + "/state_test", "16", v + "0.input0.bin", v + "0.output0.bin",
                         after_16 == "-" ? after_16 : v + after_16, v + "2.input0.bin", v + "2.output0.bin"}),
            0)
      << model << ": the exit status is the failed check of state_test.c";
  remove_dir(out);
}

TEST(RecurrentModelApi, TwoContextsKeepTheirStateAndResetRestoresIt) {
  MICROAOT_REQUIRE_SHARED();
  expect_state_api("mww_hey_jarvis_int8", "0.output0.x16.bin");
}

// SVDF's state is a variable tensor (no resource variables, no 16-run golden).
TEST(RecurrentModelApi, TwoContextsKeepTheirSvdfState) {
  MICROAOT_REQUIRE_SHARED();
  expect_state_api("keyword_scrambled_int8", "-");
}

// report.json of a model of ../shared/models-recurrent, compiled with the defaults (null when it fails).
json compiled_report(const std::string& name) {
  const std::string out = make_temp_dir();
  const std::string model = shared_dir() + "/models-recurrent/" + name + "/model.tflite";
  json report;
  if (run_microaot({"compile", model, "-o", out + "/lib"}) == 0) {
    std::ifstream in(out + "/lib/report.json");
    report = json::parse(in);
  }
  remove_dir(out);
  return report;
}

// The wake-word model reads each variable once and assigns it once per step. Its reads become views of the
// variables (alias_variable_reads), so a step copies each variable's bytes once, where TFLM copies them twice;
// the repeated entries above check that the results stay TFLM's.
TEST(RecurrentModelReport, EveryFrameBufferIsARingThatAStepPushesOneFrameInto) {
  MICROAOT_REQUIRE_SHARED();
  const json report = compiled_report("mww_hey_jarvis_int8");
  ASSERT_FALSE(report.is_null());
  int pushes = 0;
  for (const json& op : report["ops"]) {
    EXPECT_NE(op["op"], "READ_VARIABLE") << "step " << op["step"];
    EXPECT_NE(op["op"], "STRIDED_SLICE") << "step " << op["step"];
    pushes += op["kernel"] == "microaot_ring_push";
  }
  // Each variable is a ring with a position beside it; a step writes two frames and the position per ring.
  int64_t rings = 0, positions = 0, written = 0;
  for (const json& p : report["persistent"]) {
    const std::string name = p["name"];
    if (name.size() > 14 && name.compare(name.size() - 14, 14, "_ring_position") == 0) {
      ++positions;
      continue;
    }
    ASSERT_TRUE(p.contains("ring")) << name;
    const json& ring = p["ring"];
    ++rings;
    EXPECT_EQ(p["bytes"].get<int64_t>(), (2 * ring["slots"].get<int64_t>() - 1) * ring["unit_bytes"].get<int64_t>());
    written += 2 * ring["unit_bytes"].get<int64_t>() + 4;
  }
  EXPECT_GT(rings, 0);
  EXPECT_EQ(positions, rings);
  EXPECT_EQ(pushes, rings);
  EXPECT_EQ(report["state_copy_bytes_per_step"].get<int64_t>(), written);
}

// Nothing but its SVDF sees each state of the keyword model: each keeps its int8 state as a ring with an
// int32 position beside it, so a step writes one value per filter (from `inspect`: 64 filters of memory 8 in
// each of four 512-byte states, 32 of memory 32 in each of three 1024-byte ones) and the 7 positions.
TEST(RecurrentModelReport, EachSvdfWritesOneValuePerFilterIntoItsRing) {
  MICROAOT_REQUIRE_SHARED();
  const json report = compiled_report("keyword_scrambled_int8");
  ASSERT_FALSE(report.is_null());
  int states = 0, positions = 0;
  for (const json& p : report["persistent"]) {
    const bool position = p["name"].get<std::string>().find("_ring_position") != std::string::npos;
    (position ? positions : states) += 1;
    EXPECT_EQ(p["bytes"].get<int64_t>(), position ? 4 : (states <= 4 ? 512 : 1024)) << p.dump();
  }
  EXPECT_EQ(states, 7);
  EXPECT_EQ(positions, 7);
  EXPECT_EQ(report["state_copy_bytes_per_step"].get<int64_t>(), 4 * 64 + 3 * 32 + 7 * 4);
}

INSTANTIATE_TEST_SUITE_P(RecurrentModels, RecurrentModelTest, ::testing::ValuesIn(recurrent_model_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace microaot::e2e
