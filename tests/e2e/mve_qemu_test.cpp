// The Helium code (runtime/kernels/mve/, microaot/internal/mve_*.h) on the emulated Cortex-M55 against the
// portable arithmetic, on the values and shapes random models seldom reach: checks in e2e/mve/, built bare-metal
// with the bench harness's start-up code and run under QEMU mps3-an547. The output step on ties of the rounding
// shift in both signs, int32 extremes and every shift (output_step_check.c: a model's sums rarely land on a tie,
// so the differential cases pass without the ties' fix-up); microaot_mve_row_times_units over more units than
// its chunk of sums (row_times_units_check.c); the CONV_2D and FULLY_CONNECTED kernels (conv_fc_check.c) and
// the depthwise, pool, ADD and MUL kernels (kernels_check.c) on many more layer shapes than the differential
// cases' few models reach.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {
namespace {

const std::string kRuntime = MICROAOT_RUNTIME_DIR;
const std::string kTarget = kRuntime + "/../targets/cortex-m";
const std::vector<std::string> kFlags = {"-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-std=c99",
                                         "-Wall", "-Wextra", "-Werror", "-I" + kRuntime + "/include", "-I" + kTarget};

// Links e2e/mve/CHECK with `inputs` (sources or objects) bare-metal for the M55 in `dir` and runs it under
// QEMU: its exit status (0: every value matched), -1 when it does not build.
int run_check(const std::string& dir, const std::string& check, const std::vector<std::string>& inputs) {
  const std::string elf = dir + "/check.elf";
  std::vector<std::string> build = {"arm-none-eabi-gcc", "-pedantic"};
  build.insert(build.end(), kFlags.begin(), kFlags.end());
  build.insert(build.end(), inputs.begin(), inputs.end());
  build.insert(build.end(), {std::string(MICROAOT_E2E_DIR) + "/mve/" + check, kTarget + "/startup.c",
                             kTarget + "/semihost.c", "-nostartfiles", "--specs=nano.specs", "-T",
                             kTarget + "/mps3_an547.ld", "-L" + kTarget, "-Wl,--no-warn-rwx-segments", "-o", elf});
  if (run_process(build) != 0) {
    ADD_FAILURE() << "building " << check;
    return -1;
  }
  return run_process({"timeout", "120", "qemu-system-arm", "-M", "mps3-an547", "-nographic", "-monitor", "none",
                      "-serial", "none", "-semihosting-config", "enable=on,target=native", "-kernel", elf});
}

int run_check(const std::string& check, const std::vector<std::string>& runtime_sources) {
  const std::string dir = make_temp_dir();
  std::vector<std::string> inputs;
  for (const std::string& source : runtime_sources) inputs.push_back(kRuntime + "/" + source);
  const int status = run_check(dir, check, inputs);
  remove_dir(dir);
  return status;
}

TEST(MveOutputStep, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  EXPECT_EQ(run_check("output_step_check.c", {}), 0) << "the Helium output step differs from the portable arithmetic";
}

// More units than one chunk of sums (a CONV_2D of one output pixel over 70 channels, mww_hey_jarvis_int8's last
// convolution): the second chunk was requantized with the first chunk's multipliers and shifts before the fix.
TEST(MveRowTimesUnits, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  EXPECT_EQ(run_check("row_times_units_check.c", {}), 0) << "row times units differs from the portable arithmetic";
}

// The Helium CONV_2D and FULLY_CONNECTED kernels against the portable ones on 400 random layers each, shaped to
// reach every blocking and tail of their loops (e2e/mve/conv_fc_check.c); about a second.
TEST(MveConvFullyConnected, MatchThePortableKernelsOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  EXPECT_EQ(run_check("conv_fc_check.c", {"kernels/mve/fully_connected_s8.c", "kernels/mve/conv_2d_s8_mve.c",
                                              "kernels/mve/fully_connected_s8_mve.c"}), 0)
      << "a Helium CONV_2D or FULLY_CONNECTED differs from the portable kernel";
}

// The Helium DEPTHWISE_CONV_2D, pools, linear ADD and MUL (e2e/mve/kernels_check.c), compiled at `level`, against
// the portable kernels compiled from their own sources under ref_* names, on 600 rounds of random shapes (depth
// multipliers, strides, dilations, padding, channel tails, broadcasting), about a second under QEMU.
void expect_kernels_match_portable(const std::string& level) {
  const std::string dir = make_temp_dir();
  struct Kernel {
    const char *source, *name, *ref;
  };
  const Kernel kernels[] = {{"depthwise_conv_2d_s8", "microaot_depthwise_conv_2d_s8", "ref_dw"},
                            {"average_pool_2d_s8", "microaot_average_pool_2d_s8", "ref_average"},
                            {"max_pool_2d_s8", "microaot_max_pool_2d_s8", "ref_max"},
                            {"add_s8_linear", "microaot_add_s8_linear", "ref_add_linear"},
                            {"mul_s8", "microaot_mul_s8", "ref_mul"}};
  std::vector<std::string> inputs;
  for (const Kernel& k : kernels) {
    const std::string ref = dir + "/" + k.ref + ".o", mve = dir + "/" + k.source + ".o";
    std::vector<std::string> build = {"arm-none-eabi-gcc"};
    build.insert(build.end(), kFlags.begin(), kFlags.end());
    build.insert(build.end(), {"-D" + std::string(k.name) + "=" + k.ref,
                               "-D" + std::string(k.name) + "_overlap=" + k.ref + "_overlap", "-c",
                               kRuntime + "/kernels/portable/" + k.source + ".c", "-o", ref});
    ASSERT_EQ(run_process(build), 0) << "building the portable " << k.source;
    build = {"arm-none-eabi-gcc", "-pedantic"};
    build.insert(build.end(), kFlags.begin(), kFlags.end());
    build.insert(build.end(), {level, "-c", kRuntime + "/kernels/mve/" + k.source + ".c", "-o", mve});
    ASSERT_EQ(run_process(build), 0) << "building the Helium " << k.source << " at " << level;
    inputs.insert(inputs.end(), {ref, mve});
  }
  EXPECT_EQ(run_check(dir, "kernels_check.c", inputs), 0) << "a Helium kernel at " << level << " differs from the portable one";
  remove_dir(dir);
}

TEST(MveKernels, MatchThePortableKernelsOnRandomShapes) {
  MICROAOT_REQUIRE_QEMU();
  expect_kernels_match_portable("-O2");
}

// At -O0 the widest assembly blocks give way to C definitions (MICROAOT_MVE_WIDE_ASM, microaot/internal/mve_dot.h):
// the same results.
TEST(MveKernels, MatchThePortableKernelsUnoptimised) {
  MICROAOT_REQUIRE_QEMU();
  expect_kernels_match_portable("-O0");
}

}  // namespace
}  // namespace microaot::e2e
