// The host examples (examples/rtos-loop, two-models, profiler) built and run exactly as their READMEs say,
// with -Wall -Wextra -Werror, on shared models: what they print must be TFLM's golden outputs.
#include <gtest/gtest.h>

#include "e2e_util.h"
#include "examples_util.h"
#include "support/process.h"

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

}  // namespace
}  // namespace microaot::e2e
