// The Cortex-M bench on QEMU (ctest label "qemu"): shared models cross-compiled for the emulated boards
// must match their TFLM goldens (vector 0 here; every vector with MICROAOT_LONG_TESTS=1), `bench` must
// report the same numbers on every run, and its figures (the per-operator profile too) must hang together.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace microaot::e2e {
namespace {

bool long_tests() {
  const char* v = std::getenv("MICROAOT_LONG_TESTS");
  return v != nullptr && std::string(v) == "1";
}

// A model of ../shared/models by name, or of another collection as "models-recurrent/NAME".
std::string model_dir(const std::string& model) {
  return shared_dir() + (model.find('/') == std::string::npos ? "/models/" : "/") + model;
}

json load_golden(const std::string& model) {
  std::ifstream in(model_dir(model) + "/golden.json");
  return json::parse(in);
}

// Runs the listed golden vectors of `model` in one image on `target` into `out`/<position>/outputJ.bin.
void run_vectors(const std::string& model, const std::string& target, const std::vector<size_t>& vectors,
                 const std::vector<std::string>& extra, const std::string& out) {
  const std::string dir = model_dir(model);
  const json golden = load_golden(model);
  std::vector<std::string> args = {"run", dir + "/model.tflite", "--target", target, "--batch", "--output-dir", out};
  args.insert(args.end(), extra.begin(), extra.end());
  for (size_t k : vectors) {
    for (const auto& input : golden["vectors"][k]["inputs"]) {
      args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
    }
  }
  ASSERT_EQ(run_microaot(args), 0) << "microaot run --target " << target << " failed on " << model;
}

// Runs the listed golden vectors of `model` in one image on `target`; EXPECTs every output to match.
// `keep`: write the outputs there and leave them (else a temporary folder, removed).
void expect_vectors_match(const std::string& model, const std::string& target, const std::vector<size_t>& vectors,
                          const std::vector<std::string>& extra = {}, const std::string& keep = "") {
  const std::string dir = model_dir(model);
  const json golden = load_golden(model);
  const std::string out = keep.empty() ? make_temp_dir() : keep;
  ASSERT_NO_FATAL_FAILURE(run_vectors(model, target, vectors, extra, out));
  for (size_t position = 0; position < vectors.size(); ++position) {
    const json& outputs = golden["vectors"][vectors[position]]["outputs"];
    for (size_t j = 0; j < outputs.size(); ++j) {
      const std::string got = out + "/" + std::to_string(position) + "/output" + std::to_string(j) + ".bin";
      EXPECT_EQ(compare_tensor(golden["outputs"][j]["dtype"], read_file(got),
                               read_file(dir + "/" + outputs[j].get<std::string>())),
                "")
          << model << " on " << target << ", vector " << vectors[position] << ", output " << j;
    }
  }
  if (keep.empty()) remove_dir(out);
}

class CortexM4Models : public ::testing::TestWithParam<std::string> {};

// And the graph executor, over the same kernels, gives the same outputs bit for bit (float ones too).
TEST_P(CortexM4Models, Vector0MatchesGoldenOnBothExecutors) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const std::string aot = make_temp_dir(), graph = make_temp_dir();
  ASSERT_NO_FATAL_FAILURE(expect_vectors_match(GetParam(), "cortex-m4", {0}, {}, aot));
  ASSERT_NO_FATAL_FAILURE(run_vectors(GetParam(), "cortex-m4", {0}, {"--executor", "graph"}, graph));
  for (size_t j = 0; j < load_golden(GetParam())["outputs"].size(); ++j) {
    const std::string file = "/0/output" + std::to_string(j) + ".bin";
    EXPECT_EQ(read_file(graph + file), read_file(aot + file)) << GetParam() << " graph output " << j;
  }
  remove_dir(aot);
  remove_dir(graph);
}

// The nightly-style run: every golden vector (MICROAOT_LONG_TESTS=1, see docs/testing.md).
TEST_P(CortexM4Models, AllVectorsMatchGolden) {
  if (!long_tests()) GTEST_SKIP() << "set MICROAOT_LONG_TESTS=1 to run every golden vector on cortex-m4";
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const json golden = load_golden(GetParam());
  std::vector<size_t> all(golden["vectors"].size());
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  expect_vectors_match(GetParam(), "c -mcpu=cortex-m4", all);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, CortexM4Models, ::testing::ValuesIn(shared_model_names()),
                         [](const auto& info) { return info.param; });

// The stateful models whose operators are supported: vector 0 from the initial state.
#define MICROAOT_RECURRENT_VECTOR0(target)                                                              \
  do {                                                                                                  \
    MICROAOT_REQUIRE_QEMU();                                                                            \
    MICROAOT_REQUIRE_SHARED_MODEL(GetParam());                                                          \
    const std::string model = "models-recurrent/" + GetParam();                                         \
    const std::string refusal = unsupported_operators(model_dir(model) + "/model.tflite");              \
    if (!refusal.empty()) GTEST_SKIP() << GetParam() << " is not supported: " << refusal;               \
    expect_vectors_match(model, target, {0});                                                           \
  } while (0)

class CortexM4RecurrentModels : public ::testing::TestWithParam<std::string> {};

TEST_P(CortexM4RecurrentModels, Vector0MatchesGolden) { MICROAOT_RECURRENT_VECTOR0("cortex-m4"); }

INSTANTIATE_TEST_SUITE_P(RecurrentModels, CortexM4RecurrentModels, ::testing::ValuesIn(recurrent_model_names()),
                         [](const auto& info) { return info.param; });

// The same on the Cortex-M55, where the LSTM and the SVDF ring take their Helium kernels (docs/helium.md).
class CortexM55RecurrentModels : public ::testing::TestWithParam<std::string> {};

TEST_P(CortexM55RecurrentModels, Vector0MatchesGolden) { MICROAOT_RECURRENT_VECTOR0("cortex-m55"); }

INSTANTIATE_TEST_SUITE_P(RecurrentModels, CortexM55RecurrentModels, ::testing::ValuesIn(recurrent_model_names()),
                         [](const auto& info) { return info.param; });

// The recurrent models on a stream of 16 steps (vectors 0-7 twice, the state carried: `run --batch`): the
// host's outputs at every step, so the Helium kernels carry the LSTM's state and turn the SVDF rings from every
// position as the host does (which matches TFLM, recurrent_models_test.cpp). mww_hey_jarvis_int8's last
// convolution (70 channels, one output pixel) takes the Helium rows over two chunks of units, whose second
// chunk once took the first chunk's multipliers (58 for 53 at step 15).
class CortexM55RecurrentStreams : public ::testing::TestWithParam<std::string> {};

TEST_P(CortexM55RecurrentStreams, SixteenStepsMatchTheHost) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const std::string model = "models-recurrent/" + GetParam();
  if (!unsupported_operators(model_dir(model) + "/model.tflite").empty()) GTEST_SKIP() << "not supported";
  const std::string tmp = make_temp_dir();
  std::string outputs[2], errors;
  for (int t = 0; t < 2; ++t) {
    const std::string dir = tmp + "/" + std::to_string(t);
    const std::string target = t == 0 ? "host" : "cortex-m55";
    std::vector<std::string> run = {"run",   model_dir(model) + "/model.tflite", "--target", target, "--batch",
                                    "--output-dir", dir};
    for (int k = 0; k < 16; ++k) {
      run.insert(run.end(), {"--input", model_dir(model) + "/vectors/" + std::to_string(k % 8) + ".input0.bin"});
    }
    ASSERT_EQ(run_microaot_capture(run, errors), 0) << errors;
    for (int k = 0; k < 16; ++k) outputs[t] += read_text(dir + "/" + std::to_string(k) + "/output0.bin");
  }
  remove_dir(tmp);
  EXPECT_FALSE(outputs[0].empty());
  EXPECT_EQ(outputs[1], outputs[0]);
}

INSTANTIATE_TEST_SUITE_P(RecurrentModels, CortexM55RecurrentStreams,
                         ::testing::Values("keyword_scrambled_int8", "micro_speech_lstm_int8", "mww_hey_jarvis_int8"),
                         [](const auto& info) { return info.param; });

// One small model per other board: soft float on the M3, double-precision FPU on the M7, the
// TrustZone boards (M33 boots Secure from 0x10000000, M55 from ITCM and counts with SysTick).
TEST(CortexMBoards, CortexM3SoftFloat) {
  MICROAOT_REQUIRE_QEMU();
  expect_vectors_match("hello_world_f32", "cortex-m3", {0, 1});
}
TEST(CortexMBoards, CortexM7) {
  MICROAOT_REQUIRE_QEMU();
  expect_vectors_match("micro_speech_int8", "c -mcpu=cortex-m7", {0, 1});
}
TEST(CortexMBoards, CortexM33) {
  MICROAOT_REQUIRE_QEMU();
  expect_vectors_match("hello_world_int8", "cortex-m33", {0, 1});
}
TEST(CortexMBoards, CortexM55) {
  MICROAOT_REQUIRE_QEMU();
  expect_vectors_match("micro_speech_int8", "cortex-m55", {0, 1});
}

// The report of the model as bench compiles it: for the Cortex-M4 (its DSP kernels and packed layers).
json compile_report(const std::string& model) {
  const std::string out = make_temp_dir();
  EXPECT_EQ(run_microaot({"compile", shared_dir() + "/models/" + model + "/model.tflite", "--target", "cortex-m4",
                          "-o", out + "/lib"}),
            0);
  std::ifstream in(out + "/lib/report.json");
  const json report = json::parse(in);
  remove_dir(out);
  return report;
}

json bench_json(const std::vector<std::string>& extra, const std::string& model = "micro_speech_int8") {
  std::vector<std::string> args = {"bench", shared_dir() + "/models/" + model + "/model.tflite", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string errors, output;
  EXPECT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  return output.empty() ? json() : json::parse(output);
}

// Painting sees what was touched, the bound what was reserved, C library functions included: measured <= bound.
void expect_stack_within_bound(const json& r) {
  ASSERT_TRUE(r.is_object());
  EXPECT_GT(r["stack_bytes"].get<int64_t>(), 0);
  ASSERT_TRUE(r["stack_bound_bytes"].is_number()) << r["stack_bound_excludes"];
  EXPECT_LE(r["stack_bytes"].get<int64_t>(), r["stack_bound_bytes"].get<int64_t>());
  EXPECT_TRUE(r["stack_bound_excludes"].empty()) << r["stack_bound_excludes"];
}

TEST(CortexMBench, RepeatedRunsReportIdenticalNumbers) {
  MICROAOT_REQUIRE_QEMU();
  const json first = bench_json({});
  const json second = bench_json({});
  ASSERT_TRUE(first.is_object());
  EXPECT_EQ(first.dump(), second.dump());
}

TEST(CortexMBench, FiguresAreConsistent) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = shared_dir() + "/models/micro_speech_int8";
  const json r = bench_json({"--target", "c -mcpu=cortex-m4", "--input", model + "/vectors/0.input0.bin"});
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r["target"], "cortex-m4");
  EXPECT_EQ(r["machine"], "mps2-an386");
  EXPECT_TRUE(r["outputs_match"].get<bool>());
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << "int8 outputs must equal the host build's";
  // A model with MACs cannot take fewer instructions than it has MACs (one multiply each at least).
  const json report = compile_report("micro_speech_int8");
  EXPECT_GT(r["instructions"].get<int64_t>(), report["macs"].get<int64_t>());
  EXPECT_GT(r["init_instructions"].get<int64_t>(), 0);
  EXPECT_EQ(r["flash_bytes"].get<int64_t>(), r["code_bytes"].get<int64_t>() + r["weights_bytes"].get<int64_t>());
  EXPECT_GE(r["weights_bytes"].get<int64_t>(), report["flash_weights_bytes"].get<int64_t>());
  EXPECT_GE(r["ram_bytes"].get<int64_t>(), report["arena_bytes"].get<int64_t>());
  EXPECT_GT(r["image_flash_bytes"].get<int64_t>(), r["flash_bytes"].get<int64_t>());
  expect_stack_within_bound(r);
  // Its depthwise layer (depth multiplier 8) runs the multiplier kernel's pair path, no longer the full kernel's
  // tap-by-tap code (4.37 instructions per MAC): 3.13 measured.
  ASSERT_FALSE(r["per_op"].empty());
  EXPECT_EQ(r["per_op"][0]["kernel"], "microaot_depthwise_conv_2d_s8_multiplier");
  EXPECT_LT(r["per_op"][0]["instructions_per_mac"].get<double>(), 3.5);
}

// The harness's clock check holds whatever --cflags the user gives (at -O0 it once measured one instruction too
// many and bench refused to count): the model's figures at -O0 and -Os, bit-exact, the unoptimised the larger.
TEST(CortexMBench, CountsAtEveryOptimisationLevel) {
  MICROAOT_REQUIRE_QEMU();
  std::map<std::string, int64_t> instructions;
  for (const std::string level : {"-O0", "-Os"}) {
    const json r = bench_json({"--target", "cortex-m4", "--cflags=" + level}, "simple_add_int8");
    ASSERT_TRUE(r.is_object()) << level;
    EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << level;
    instructions[level] = r["instructions"].get<int64_t>();
  }
  EXPECT_GT(instructions["-O0"], instructions["-Os"]);
}

// At speed every depthwise layer of VWW takes the groups' words (depthwise_conv_2d_s8_w16: each channel group's
// widened weights and output steps from weights.c), bit-exact; its 3x3 map (step 25) and 6x6 maps (steps 13-21)
// within 3.5 instructions per MAC (3.33 and 2.76 measured; 4.27 and 3.00 with the groups set up at run time).
TEST(CortexMBench, VwwDepthwiseTakesTheGroupWords) {
  MICROAOT_REQUIRE_QEMU();
  const std::string name = "vww_mobilenet_int8";
  const json r = bench_json({"--target", "cortex-m4", "--input", shared_dir() + "/models/" + name + "/vectors/0.input0.bin"},
                            name);
  ASSERT_TRUE(r.is_object());
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
  int within = 0;
  for (const json& row : r["per_op"]) {
    if (row["op"] != "DEPTHWISE_CONV_2D") continue;
    EXPECT_EQ(row["kernel"].get<std::string>().rfind("microaot_depthwise_conv_2d_s8_w16", 0), 0u) << row;
    const int step = row["step"].get<int>();
    if (step == 25 || (step >= 13 && step <= 21)) {
      EXPECT_LT(row["instructions_per_mac"].get<double>(), 3.5) << row;
      ++within;
    }
  }
  EXPECT_EQ(within, 6);
}

// The model's vector 0 whole (--tiling off) and within `budget` (a function of the whole run): bit-exact with the
// host build, the budget met, at most 10% more instructions, the stack within its bound. Returns {whole, tiled}.
std::pair<json, json> expect_bands_meet_budget(const std::string& name, const std::function<int64_t(const json&)>& budget_of) {
  const std::string input = shared_dir() + "/models/" + name + "/vectors/0.input0.bin";
  const json whole = bench_json({"--input", input, "--tiling", "off"}, name);
  if (!whole.is_object()) {
    ADD_FAILURE() << "bench --tiling off failed on " << name;
    return {};
  }
  const int64_t budget = budget_of(whole);
  const json tiled = bench_json({"--input", input, "--ram-budget", std::to_string(budget)}, name);
  if (!tiled.is_object()) {
    ADD_FAILURE() << "bench --ram-budget " << budget << " failed on " << name;
    return {};
  }
  EXPECT_TRUE(tiled["outputs_bit_exact"].get<bool>());
  EXPECT_TRUE(tiled["outputs_match"].get<bool>());
  EXPECT_LE(tiled["ram_bytes"].get<int64_t>(), budget);
  EXPECT_LE(tiled["instructions"].get<int64_t>() * 10, whole["instructions"].get<int64_t>() * 11);
  expect_stack_within_bound(tiled);
  return {whole, tiled};
}

// Fused bands on the M4's DSP kernels (docs/tiling.md): VWW within 0.6x of its classic bound, the RAM bench counts
// the plan's, the image holding no more beside it than the untiled build's.
TEST(CortexMBench, FusedBandsMeetTheBudgetExactly) {
  MICROAOT_REQUIRE_QEMU();
  const std::string name = "vww_mobilenet_int8";
  const int64_t bound = compile_report(name)["untiled_bound_bytes"];
  const auto [whole, tiled] = expect_bands_meet_budget(name, [&](const json&) { return bound * 6 / 10; });
  ASSERT_TRUE(tiled.is_object());
  EXPECT_EQ(tiled["image_ram_bytes"].get<int64_t>() - tiled["ram_bytes"].get<int64_t>(),
            whole["image_ram_bytes"].get<int64_t>() - whole["ram_bytes"].get<int64_t>());
}

// A residual ADD inside a chain on the M4 (IC's first ResNet block, the DSP kernels on row ranges).
TEST(CortexMBench, ResidualBlocksInBandsMeetTheBudgetExactly) {
  MICROAOT_REQUIRE_QEMU();
  // M4 floor: 28,800 of 34,528
  const auto [whole, tiled] = expect_bands_meet_budget(
      "ic_resnet8_int8", [](const json& w) { return w["ram_bytes"].get<int64_t>() * 85 / 100; });
  EXPECT_TRUE(tiled.is_object());
}

// --ram-budget swept downwards on the M4 as on the host (memory_test.cpp): from one byte below the untiled plan's
// arena, then one byte below the RAM each build reached, until the compiler refuses. At each budget the RAM reported
// covers the RAM used, stack included: the library's static RAM in the linked image (bench's ram_bytes) is the
// arena the report states (arena_buffer_bytes, what the budget counts, within it), the image holds the same beside
// it at every budget, and the stack painted during run() is within the static bound bench reports (reported
// arena + stack bound >= static RAM + measured stack). Outputs bit-exact with the host build, which the host sweep
// checks against the golden.
TEST(CortexMBench, RamBudgetSweepStaysWithinTheReportedRam) {
  MICROAOT_REQUIRE_QEMU();
  const std::string name = "vww_mobilenet_int8";
  const std::string input = model_dir(name) + "/vectors/0.input0.bin";
  const auto compile = [&](const std::vector<std::string>& flags, std::string& errors) {
    const std::string out = make_temp_dir();
    std::vector<std::string> args = {"compile", model_dir(name) + "/model.tflite", "--target", "cortex-m4", "-o",
                                     out + "/lib"};
    args.insert(args.end(), flags.begin(), flags.end());
    const int status = run_microaot_capture(args, errors);
    const json report = status == 0 ? json::parse(read_text(out + "/lib/report.json")) : json();
    remove_dir(out);
    return report;
  };
  std::string errors;
  const json whole = compile({"--tiling", "off"}, errors);
  ASSERT_TRUE(whole.is_object()) << errors;
  int64_t beside = -1;
  size_t met = 0;
  for (int64_t budget = whole["arena_buffer_bytes"].get<int64_t>() - 1;; ++met) {
    const std::vector<std::string> flags = {"--ram-budget", std::to_string(budget)};
    const json report = compile(flags, errors);
    if (!report.is_object()) {
      EXPECT_NE(errors.find("the most they can do is bring the classic bound from"), std::string::npos) << errors;
      break;
    }
    const json r = bench_json({"--input", input, "--ram-budget", std::to_string(budget)}, name);
    ASSERT_TRUE(r.is_object()) << budget;
    EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << budget;
    const int64_t ram = r["ram_bytes"];
    EXPECT_EQ(ram, report["arena_buffer_bytes"].get<int64_t>()) << budget;
    EXPECT_LE(ram, budget);
    if (beside < 0) beside = r["image_ram_bytes"].get<int64_t>() - ram;
    EXPECT_EQ(r["image_ram_bytes"].get<int64_t>() - ram, beside) << budget;
    expect_stack_within_bound(r);
    std::printf("budget %lld: RAM %lld B + stack %lld B (bound %s B), %lld instructions, chains %zu\n",
                static_cast<long long>(budget), static_cast<long long>(ram),
                static_cast<long long>(r["stack_bytes"].get<int64_t>()), r["stack_bound_bytes"].dump().c_str(),
                static_cast<long long>(r["instructions"].get<int64_t>()), report["bands"].size());
    if (HasFailure()) break;
    budget = ram - 1;
  }
  EXPECT_GE(met, 2u);
}

// IC's deepest path runs through the C library's memset: painting saw its frame above a bound that counted
// the C library as 0 (372 > 368 bytes). Its depth now comes from the image's disassembly.
TEST(CortexMBench, StackBoundCoversTheCLibrary) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "ic_resnet8_int8";
  expect_stack_within_bound(bench_json({"--input", shared_dir() + "/models/" + model + "/vectors/0.input0.bin"}, model));
}

// KWS's deepest path runs through the depthwise ring's rows of pairs, a naked function whose pushes GCC's call
// graph does not count (it gave 0 bytes: 1,472 measured > 1,468 bound). Its depth now comes from the image's code.
TEST(CortexMBench, StackBoundCoversNakedFunctions) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "kws_dscnn_int8";
  expect_stack_within_bound(bench_json({"--input", shared_dir() + "/models/" + model + "/vectors/0.input0.bin"}, model));
}

// The per-operator profile: one row per step of the compiled model (operator, kernel and MACs as report.json
// gives them), measured in a second run with the op hooks, adding up to the plain run's instructions.
TEST(CortexMBench, PerOperatorRowsAddUpToTheTotal) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "ad_autoencoder_int8";
  const json r = bench_json({"--input", shared_dir() + "/models/" + model + "/vectors/0.input0.bin"}, model);
  ASSERT_TRUE(r.is_object());
  const json report = compile_report(model);
  const json& ops = report["ops"];
  ASSERT_EQ(r["per_op"].size(), ops.size());
  int64_t sum = 0;
  for (size_t step = 0; step < ops.size(); ++step) {
    const json& row = r["per_op"][step];
    EXPECT_EQ(row["step"], step);
    for (const char* key : {"op", "op_index", "kernel", "macs"}) EXPECT_EQ(row[key], ops[step][key]) << key << ", step " << step;
    EXPECT_NE(row["kernel"].get<std::string>().find("fully_connected"), std::string::npos) << row;
    const int64_t instructions = row["instructions"].get<int64_t>(), macs = row["macs"].get<int64_t>();
    // SMLAD, two MACs in one instruction, is the most any Cortex-M4 instruction does.
    EXPECT_GT(2 * instructions, macs) << "at least one instruction per two MACs, step " << step;
    ASSERT_GT(macs, 0);
    EXPECT_NEAR(row["instructions_per_mac"].get<double>(), double(instructions) / double(macs), 0.001);
    sum += instructions;
  }
  const int64_t total = r["instructions"].get<int64_t>();
  EXPECT_EQ(r["per_op_instructions"].get<int64_t>(), sum);
  EXPECT_NEAR(double(sum), double(total), 0.03 * double(total));
  EXPECT_LE(sum, total) << "the executor's own instructions between the steps are in no row";
  EXPECT_NEAR(r["per_op_coverage"].get<double>(), double(sum) / double(total), 1e-5);
  ASSERT_EQ(r["per_op_types"].size(), 1u) << "ten FULLY_CONNECTED layers";
  EXPECT_EQ(r["per_op_types"][0]["count"], ops.size());
  EXPECT_EQ(r["per_op_types"][0]["instructions"], sum);
  EXPECT_EQ(r["per_op_types"][0]["macs"], report["macs"]);
}

// On the M55 (SysTick, 31.25 instructions per tick, Helium kernels) the per-operator rows add up too: every
// row counted, none negative, their sum the run's instructions less the executor's own between the steps.
TEST(CortexMBench, PerOperatorRowsAddUpOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "ad_autoencoder_int8";
  const json r = bench_json({"--target", "cortex-m55", "--input", shared_dir() + "/models/" + model + "/vectors/0.input0.bin"},
                            model);
  ASSERT_TRUE(r.is_object());
  int64_t sum = 0;
  for (const json& row : r["per_op"]) {
    EXPECT_GT(row["instructions"].get<int64_t>(), 0) << row;
    sum += row["instructions"].get<int64_t>();
  }
  const int64_t total = r["instructions"].get<int64_t>();
  EXPECT_EQ(r["per_op_instructions"].get<int64_t>(), sum);
  EXPECT_LE(sum, total);
  EXPECT_GT(double(sum), 0.97 * double(total));
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>());
}

// The table view prints the same rows: one per step, with its kernel.
TEST(CortexMBench, TablePrintsEveryStep) {
  MICROAOT_REQUIRE_QEMU();
  const std::string model = "hello_world_int8";
  std::string errors, table;
  ASSERT_EQ(run_microaot_capture({"bench", shared_dir() + "/models/" + model + "/model.tflite"}, errors, &table), 0)
      << errors;
  const json report = compile_report(model);
  size_t at = table.find("per operator");
  ASSERT_NE(at, std::string::npos) << table;
  for (const json& op : report["ops"]) {
    const std::string row = " " + op["op"].get<std::string>() + " ";
    at = table.find(row, at);
    ASSERT_NE(at, std::string::npos) << "step " << op["step"] << "\n" << table;
    at += row.size();
    EXPECT_EQ(table.compare(table.find_first_not_of(' ', at), op["kernel"].get<std::string>().size(),
                            op["kernel"].get<std::string>()), 0) << "step " << op["step"] << "\n" << table;
  }
  EXPECT_NE(table.find("per operator type"), std::string::npos) << table;
}

TEST(CortexMBench, RefusesWhatItCannotMeasure) {
  MICROAOT_REQUIRE_SHARED();
  const std::string model = shared_dir() + "/models/hello_world_int8/model.tflite";
  std::string errors;
  // Usage errors, exit status 2.
  EXPECT_EQ(run_microaot_capture({"bench", model, "--executor", "magic"}, errors), 2);
  EXPECT_NE(errors.find("executor 'magic' is not supported"), std::string::npos) << errors;
  EXPECT_EQ(run_microaot_capture({"bench", model, "--target", "cortex-m0"}, errors), 2);
  EXPECT_NE(errors.find("no QEMU board for 'cortex-m0'"), std::string::npos) << errors;
  EXPECT_EQ(run_microaot_capture({"bench", model, "--target", "host"}, errors), 2);
  EXPECT_NE(errors.find("runs on an emulated Cortex-M only"), std::string::npos) << errors;
}

// bench builds the user's --custom-op code (the .c beside the header) into the Cortex-M image, and its outputs
// match the host run's, which builds it too.
TEST(CortexMBench, BuildsTheUsersCustomOpCode) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = std::string(MICROAOT_EXAMPLES_DIR) + "/custom-op";
  std::string errors, output;
  ASSERT_EQ(run_microaot_capture({"bench", dir + "/clip_scale.tflite", "--custom-op",
                                  "ClipScale=" + dir + "/clip_scale.h,scratch=256", "--json"}, errors, &output), 0)
      << errors;
  const json r = json::parse(output);
  EXPECT_TRUE(r["outputs_bit_exact"].get<bool>()) << output;
  EXPECT_GT(r["instructions"].get<int64_t>(), 0) << output;
}

}  // namespace
}  // namespace microaot::e2e
