// The Cortex-M4 examples (examples/bare-metal-m4, and the profiler on it) built with arm-none-eabi-gcc and
// run on QEMU exactly as their READMEs say: the firmware must print TFLM's golden output, and the
// profiler's counts must add up to the instructions `microaot bench` measures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "examples_util.h"

namespace microaot::e2e {
namespace {

const std::string kKws = "kws_dscnn_int8";

using ExampleQemuTest = ExampleTest;

TEST_F(ExampleQemuTest, BareMetalM4PrintsTheGoldenOutput) {
  MICROAOT_REQUIRE_QEMU();
  const ExampleRun r = run("bare-metal-m4", model_and_input(kKws));
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  for (const char* call : {"init", "set_input", "run", "get_output"}) {
    EXPECT_NE(r.output.find(std::string(call) + ": ok\n"), std::string::npos) << r.output;
  }
  const std::vector<uint8_t> output = hex_bytes_after(r.output, "output 0:");
  EXPECT_EQ(golden_difference(kKws, 0, output), "") << r.output;
  ASSERT_FALSE(output.empty());
  const auto top = std::max_element(output.begin(), output.end(),
                                    [](uint8_t a, uint8_t b) { return int8_t(a) < int8_t(b); });
  EXPECT_NE(r.output.find("top class: " + std::to_string(top - output.begin()) + "\n"), std::string::npos) << r.output;
}

// QEMU runs SysTick on virtual time (MPS2: 25 MHz) and, with -icount shift=0, 1 ns per instruction: one
// count is 40 instructions. bench counts the instructions of the same run without the hooks.
TEST_F(ExampleQemuTest, ProfilerOnCortexM4CountsTheInstructionsOfBench) {
  MICROAOT_REQUIRE_QEMU();
  const ExampleRun r = run("profiler", model_and_input(kKws), 1);
  ASSERT_EQ(r.status, 0) << r.output << r.errors;
  EXPECT_EQ(golden_difference(kKws, 0, hex_bytes_after(r.output, "output 0:")), "") << r.output;
  EXPECT_NE(r.output.find("cycle counter: SysTick"), std::string::npos) << r.output;
  const std::vector<std::string> ops = report_ops(r.dir + "/build/model-m4");
  const std::vector<ProfileRow> rows = profile_rows(r.output);
  ASSERT_EQ(rows.size(), ops.size() + 1) << r.output;
  for (size_t i = 0; i < ops.size(); ++i) EXPECT_EQ(rows[i].op, ops[i]) << r.output;

  std::string errors, json;
  ASSERT_EQ(run_microaot_capture({"bench", shared_model_file(kKws, "model.tflite"), "--json", "--input",
                                  shared_model_file(kKws, "vectors/0.input0.bin")},
                                 errors, &json),
            0)
      << errors;
  const double instructions = nlohmann::json::parse(json)["instructions"].get<double>();
  const double profiled = 40.0 * static_cast<double>(rows.back().counts);
  // The hooks' own instructions and the executor's between the steps are the difference: well below 0.5%.
  EXPECT_NEAR(profiled, instructions, 0.005 * instructions) << r.output;
}

}  // namespace
}  // namespace microaot::e2e
