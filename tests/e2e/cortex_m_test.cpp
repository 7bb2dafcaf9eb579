// The Cortex-M bench on QEMU (ctest label "qemu"): shared models cross-compiled for the emulated boards
// must match their TFLM goldens (vector 0 here; every vector with MICROAOT_LONG_TESTS=1), `bench` must
// report the same numbers on every run, and its figures must hang together.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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

json load_golden(const std::string& model, const std::string& collection = "models") {
  std::ifstream in(shared_dir() + "/" + collection + "/" + model + "/golden.json");
  return json::parse(in);
}

// Runs the listed golden vectors of `model` (of ../shared/`collection`) in one image on `target`; EXPECTs
// every output to match.
void expect_vectors_match(const std::string& model, const std::string& target, const std::vector<size_t>& vectors,
                          const std::string& collection = "models") {
  const std::string dir = shared_dir() + "/" + collection + "/" + model;
  const json golden = load_golden(model, collection);
  const std::string out = make_temp_dir();
  std::vector<std::string> args = {"run", dir + "/model.tflite", "--target", target, "--batch", "--output-dir", out};
  for (size_t k : vectors) {
    for (const auto& input : golden["vectors"][k]["inputs"]) {
      args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
    }
  }
  ASSERT_EQ(run_microaot(args), 0) << "microaot run --target " << target << " failed on " << model;
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
  remove_dir(out);
}

class CortexM4Models : public ::testing::TestWithParam<std::string> {};

TEST_P(CortexM4Models, Vector0MatchesGolden) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  expect_vectors_match(GetParam(), "cortex-m4", {0});
}

// The nightly-style run: every golden vector (MICROAOT_LONG_TESTS=1, see README).
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
class CortexM4RecurrentModels : public ::testing::TestWithParam<std::string> {};

TEST_P(CortexM4RecurrentModels, Vector0MatchesGolden) {
  MICROAOT_REQUIRE_QEMU();
  MICROAOT_REQUIRE_SHARED_MODEL(GetParam());
  const std::string refusal = unsupported_operators(shared_dir() + "/models-recurrent/" + GetParam() + "/model.tflite");
  if (!refusal.empty()) GTEST_SKIP() << GetParam() << " is not supported: " << refusal;
  expect_vectors_match(GetParam(), "cortex-m4", {0}, "models-recurrent");
}

INSTANTIATE_TEST_SUITE_P(RecurrentModels, CortexM4RecurrentModels, ::testing::ValuesIn(recurrent_model_names()),
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

json bench_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"bench", shared_dir() + "/models/micro_speech_int8/model.tflite", "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::string errors, output;
  EXPECT_EQ(run_microaot_capture(args, errors, &output), 0) << errors;
  return output.empty() ? json() : json::parse(output);
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
  const std::string out = make_temp_dir();
  ASSERT_EQ(run_microaot({"compile", model + "/model.tflite", "-o", out + "/lib"}), 0);
  std::ifstream in(out + "/lib/report.json");
  const json report = json::parse(in);
  remove_dir(out);
  EXPECT_GT(r["instructions"].get<int64_t>(), report["macs"].get<int64_t>());
  EXPECT_GT(r["init_instructions"].get<int64_t>(), 0);
  EXPECT_EQ(r["flash_bytes"].get<int64_t>(), r["code_bytes"].get<int64_t>() + r["weights_bytes"].get<int64_t>());
  EXPECT_GE(r["weights_bytes"].get<int64_t>(), report["flash_weights_bytes"].get<int64_t>());
  EXPECT_GE(r["ram_bytes"].get<int64_t>(), report["arena_bytes"].get<int64_t>());
  EXPECT_GT(r["image_flash_bytes"].get<int64_t>(), r["flash_bytes"].get<int64_t>());
  EXPECT_GT(r["stack_bytes"].get<int64_t>(), 0);
  // Painting sees what was touched, the call graph what was reserved: measured <= bound.
  ASSERT_TRUE(r["stack_bound_bytes"].is_number());
  EXPECT_LE(r["stack_bytes"].get<int64_t>(), r["stack_bound_bytes"].get<int64_t>());
}

TEST(CortexMBench, RefusesWhatItCannotMeasure) {
  MICROAOT_REQUIRE_SHARED();
  const std::string model = shared_dir() + "/models/hello_world_int8/model.tflite";
  std::string errors;
  // Usage errors, exit status 2.
  EXPECT_EQ(run_microaot_capture({"bench", model, "--executor", "graph"}, errors), 2);
  EXPECT_NE(errors.find("executor graph"), std::string::npos) << errors;
  EXPECT_EQ(run_microaot_capture({"bench", model, "--target", "cortex-m0"}, errors), 2);
  EXPECT_NE(errors.find("no QEMU board for 'cortex-m0'"), std::string::npos) << errors;
  EXPECT_EQ(run_microaot_capture({"bench", model, "--target", "host"}, errors), 2);
  EXPECT_NE(errors.find("runs on an emulated Cortex-M only"), std::string::npos) << errors;
}

}  // namespace
}  // namespace microaot::e2e
