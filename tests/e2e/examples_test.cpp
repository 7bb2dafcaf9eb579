// The host examples (examples/rtos-loop, two-models, profiler) built and run exactly as their READMEs say,
// with -Wall -Wextra -Werror, on shared models: what they print must be TFLM's golden outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "examples_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

const std::string kKws = "kws_dscnn_int8";
const std::string kAd = "ad_autoencoder_int8";

TEST_F(ExampleTest, RtosLoopSlicesGiveTheOutputsOfRunAndOfTflm) {
  MICROAOT_REQUIRE_SHARED();
  const ExampleRun r = run("rtos-loop", model_and_input(kKws));
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  EXPECT_EQ(golden_difference(kKws, 0, hex_bytes_after(r.output, "frame 0: output 0:")), "") << r.output;
  // Slices of at most 2 operators: ceil(ops / 2) slices, a kick between two.
  const size_t ops = report_ops(r.dir + "/build/model").size();
  const size_t slices = (ops + 1) / 2;
  EXPECT_NE(r.output.find("frame 0: " + std::to_string(slices) + " slices of at most 2 operators (" +
                          std::to_string(ops) + " in all), " + std::to_string(slices - 1) + " watchdog kicks"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("frame 0: equal to model_run: yes"), std::string::npos) << r.output;

  // Several frames in one task loop: each its own golden output.
  std::vector<std::string> argv = {r.dir + "/build/rtos_loop"};
  for (int k = 0; k < 4; ++k) argv.push_back(shared_model_file(kKws, "vectors/" + std::to_string(k) + ".input0.bin"));
  ASSERT_EQ(run_process(argv, tmp_ + "/frames.err", tmp_ + "/frames.out"), 0) << read_text(tmp_ + "/frames.err");
  const std::string frames = read_text(tmp_ + "/frames.out");
  for (size_t k = 0; k < 4; ++k) {
    const std::string frame = "frame " + std::to_string(k) + ": ";
    EXPECT_EQ(golden_difference(kKws, k, hex_bytes_after(frames, frame + "output 0:")), "") << frames;
    EXPECT_NE(frames.find(frame + "equal to model_run: yes"), std::string::npos) << frames;
  }
}

TEST_F(ExampleTest, TwoModelsTakeTurnsAndTheWrongInterleavingIsClobbered) {
  MICROAOT_REQUIRE_SHARED();
  const ExampleRun r = run("two-models", {{"KWS_MODEL", shared_model_file(kKws, "model.tflite")},
                                          {"AD_MODEL", shared_model_file(kAd, "model.tflite")},
                                          {"KWS_INPUT", shared_model_file(kKws, "vectors/0.input0.bin")},
                                          {"AD_INPUT", shared_model_file(kAd, "vectors/0.input0.bin")}});
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  EXPECT_EQ(golden_difference(kKws, 0, hex_bytes_after(r.output, "  kws output 0:")), "") << r.output;
  EXPECT_EQ(golden_difference(kAd, 0, hex_bytes_after(r.output, "  ad output 0:")), "") << r.output;
  const size_t wrong = r.output.find("interleaved (wrong):");
  ASSERT_NE(wrong, std::string::npos) << r.output;
  const std::string clobbered = "arena clobbered by another context\n";
  EXPECT_NE(r.output.find("  kws_run                        " + clobbered, wrong), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  ad_get_output (after kws_run)  " + clobbered, wrong), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("UNEXPECTED"), std::string::npos) << r.output;
}

TEST_F(ExampleTest, ProfilerOnTheHostHasOneRowPerOperator) {
  MICROAOT_REQUIRE_SHARED();
  const ExampleRun r = run("profiler", model_and_input(kKws));
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  EXPECT_EQ(golden_difference(kKws, 0, hex_bytes_after(r.output, "output 0:")), "") << r.output;
  const std::vector<std::string> ops = report_ops(r.dir + "/build/model");
  const std::vector<ProfileRow> rows = profile_rows(r.output);
  ASSERT_EQ(rows.size(), ops.size() + 1) << r.output;
  uint64_t sum = 0;
  double shares = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(rows[i].step, std::to_string(i)) << r.output;
    EXPECT_EQ(rows[i].op, ops[i]) << r.output;
    EXPECT_EQ(rows[i].runs, 10u) << "main.c runs the model 10 times\n" << r.output;
    EXPECT_EQ(rows[i].per_run, (rows[i].counts + 5) / 10) << r.output;
    sum += rows[i].counts;
    shares += rows[i].share;
  }
  EXPECT_EQ(rows.back().op, "total");
  EXPECT_EQ(rows.back().counts, sum) << r.output;
  EXPECT_GT(sum, 0u) << r.output;
  EXPECT_EQ(rows.back().share, 100.0);
  EXPECT_NEAR(shares, 100.0, 0.05 * static_cast<double>(ops.size()) + 1e-9) << "each share is rounded to 0.1\n"
                                                                            << r.output;
}

// The custom-op example's model, computed here without microaot: MAX_POOL_2D 2x2 stride 2 over an int8
// 1x4x4x2 input, then ClipScale with the options make_custom_op_model writes (lo -40, hi 90, num 3,
// shift 1) from zero point -3 to zero point 5, rounded down and saturated.
std::vector<uint8_t> pool_then_clip_scale(const std::vector<uint8_t>& input) {
  auto at = [&](int y, int x, int c) { return static_cast<int8_t>(input[static_cast<size_t>((y * 4 + x) * 2 + c)]); };
  std::vector<uint8_t> out;
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 2; ++x) {
      for (int c = 0; c < 2; ++c) {
        const int pooled = std::max({at(2 * y, 2 * x, c), at(2 * y, 2 * x + 1, c), at(2 * y + 1, 2 * x, c),
                                     at(2 * y + 1, 2 * x + 1, c)});
        const int clipped = std::clamp(pooled, -40, 90);
        const double scaled = std::floor((clipped + 3) * 3 / 2.0) + 5;
        out.push_back(static_cast<uint8_t>(static_cast<int8_t>(std::clamp(scaled, -128.0, 127.0))));
      }
    }
  }
  return out;
}

// Needs no ../shared: the example has its own model. One build of the README's commands.
TEST_F(ExampleTest, CustomOpCallsTheUsersFunctionAndMatchesAnIndependentComputation) {
  std::vector<uint8_t> input(32);
  std::mt19937 random(11);
  for (uint8_t& byte : input) byte = static_cast<uint8_t>(random());
  // The first window all negative, so that rounding down differs from rounding toward zero: channel 0's
  // maximum -8 gives (-8 + 3) * 3 / 2 = -7.5, channel 1's -128 clips to -40. 127 clips to 90 and saturates.
  for (const auto& [index, value] : {std::pair<size_t, int>{0, -20}, {2, -9}, {8, -8}, {10, -100}, {1, -128},
                                     {3, -128}, {9, -128}, {11, -128}, {4, 127}}) {
    input[index] = static_cast<uint8_t>(static_cast<int8_t>(value));
  }
  const std::string input_path = tmp_ + "/input.bin";
  std::ofstream(input_path, std::ios::binary).write(reinterpret_cast<const char*>(input.data()), 32);
  const ExampleRun r = run("custom-op", {{"INPUT", input_path}});
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  EXPECT_EQ(hex_bytes_after(r.output, "input:"), input) << r.output;
  EXPECT_EQ(hex_bytes_after(r.output, "output:"), pool_then_clip_scale(input)) << r.output;
  // The reports name the op and its function; the folder holds the header it includes.
  const nlohmann::json report = nlohmann::json::parse(read_text(r.dir + "/build/model/report.json"));
  ASSERT_EQ(report["ops"].size(), 2u) << report.dump(2);
  EXPECT_EQ(report["ops"][1]["kernel"], "microaot_custom_clipscale");
  EXPECT_EQ(report["ops"][1]["custom"]["name"], "ClipScale");
  EXPECT_EQ(report["ops"][1]["custom"]["scratch_bytes"], 256);
  EXPECT_NE(read_text(r.dir + "/build/model/network_info.txt").find("CUSTOM:ClipScale"), std::string::npos);
  EXPECT_EQ(read_text(r.dir + "/build/model/custom/clip_scale.h"), read_text(r.dir + "/clip_scale.h"));
}

// The example's model is the tool's output (the tool is where it is described), so neither drifts.
TEST_F(ExampleTest, CustomOpModelIsWhatItsToolWrites) {
  const std::string made = tmp_ + "/made.tflite";
  ASSERT_EQ(run_process({MICROAOT_CUSTOM_OP_MODEL_TOOL, made}), 0);
  EXPECT_EQ(read_file(made), read_file(std::string(MICROAOT_EXAMPLES_DIR) + "/custom-op/clip_scale.tflite"));
}

// run and validate build the user's function with the library: the .c beside the header, or --custom-source;
// without either they say what to give.
TEST_F(ExampleTest, CustomOpRunsAndValidatesFromTheCommandLine) {
  const std::string dir = std::string(MICROAOT_EXAMPLES_DIR) + "/custom-op";
  const std::string model = dir + "/clip_scale.tflite", binding = "ClipScale=" + dir + "/clip_scale.h,scratch=256";
  std::vector<uint8_t> input(32);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 37 + 200);
  const std::string input_path = tmp_ + "/input.bin";
  std::ofstream(input_path, std::ios::binary).write(reinterpret_cast<const char*>(input.data()), 32);
  ASSERT_EQ(run_microaot({"run", model, "--custom-op", binding, "--input", input_path, "--output-dir", tmp_ + "/a"}), 0);
  EXPECT_EQ(read_file(tmp_ + "/a/output0.bin"), pool_then_clip_scale(input));
  ASSERT_EQ(run_microaot({"run", model, "--custom-op", binding, "--custom-source", dir + "/clip_scale.c", "--input",
                          input_path, "--output-dir", tmp_ + "/b"}),
            0);
  EXPECT_EQ(read_file(tmp_ + "/b/output0.bin"), pool_then_clip_scale(input));
  // validate: the output tensor (index 2) against the independent computation, then against a wrong one.
  fs::create_directories(tmp_ + "/ref");
  const std::vector<uint8_t> want = pool_then_clip_scale(input);
  std::ofstream(tmp_ + "/ref/t2.bin", std::ios::binary).write(reinterpret_cast<const char*>(want.data()), 8);
  std::string errors, out;
  EXPECT_EQ(run_microaot_capture({"validate", model, "--custom-op", binding, "--input", input_path, "--reference",
                                  tmp_ + "/ref"}, errors, &out), 0) << out << errors;
  EXPECT_NE(out.find("all 1 tensors match"), std::string::npos) << out;
  std::vector<uint8_t> wrong = want;
  wrong[3] ^= 1;
  std::ofstream(tmp_ + "/ref/t2.bin", std::ios::binary).write(reinterpret_cast<const char*>(wrong.data()), 8);
  EXPECT_EQ(run_microaot_capture({"validate", model, "--custom-op", binding, "--input", input_path, "--reference",
                                  tmp_ + "/ref"}, errors, &out), 1) << out << errors;
  // A header with no .c beside it and no --custom-source: refused, naming what to give.
  fs::copy_file(dir + "/clip_scale.h", tmp_ + "/clip_scale.h");
  EXPECT_EQ(run_microaot_capture({"run", model, "--custom-op", "ClipScale=" + tmp_ + "/clip_scale.h,scratch=256",
                                  "--input", input_path, "--output-dir", tmp_ + "/c"}, errors), 1);
  EXPECT_NE(errors.find("needs the C source of microaot_custom_clipscale: give --custom-source FILE.c"),
            std::string::npos) << errors;
  EXPECT_EQ(run_microaot_capture({"run", model, "--custom-source", dir + "/clip_scale.c", "--input", input_path,
                                  "--output-dir", tmp_ + "/d"}, errors), 2) << "--custom-source needs --custom-op";
}

}  // namespace
}  // namespace microaot::e2e
