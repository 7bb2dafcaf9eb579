// The Helium output step (microaot/internal/mve_dot.h) on the emulated Cortex-M55 against the portable
// arithmetic, on the values random models seldom reach (ties of the rounding shift in both signs, int32
// extremes, every shift): e2e/mve/output_step_check.c, built bare-metal with the bench harness's start-up
// code and run under QEMU mps3-an547. The differential cases (differential_qemu_test.cpp) cover the kernels'
// products; a model's sums rarely land on a tie, so those cases pass without the ties' fix-up. And
// microaot_mve_row_times_units over more units than its chunk of sums (e2e/mve/row_times_units_check.c), which
// the differential cases' models (32 channels or units at most) never reach.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {
namespace {

// Builds e2e/mve/CHECK.c bare-metal for the M55 and runs it under QEMU: its exit status (0: every value matched).
void expect_check_passes(const std::string& check) {
  const std::string dir = make_temp_dir();
  const std::string target = std::string(MICROAOT_RUNTIME_DIR) + "/../targets/cortex-m";
  const std::string elf = dir + "/check.elf";
  const std::vector<std::string> build = {
      "arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-std=c99", "-Wall", "-Wextra",
      "-Werror", "-I" + std::string(MICROAOT_RUNTIME_DIR) + "/include", "-I" + target,
      std::string(MICROAOT_E2E_DIR) + "/mve/" + check + ".c", target + "/startup.c", target + "/semihost.c",
      "-nostartfiles", "--specs=nano.specs", "-T", target + "/mps3_an547.ld", "-L" + target,
      "-Wl,--no-warn-rwx-segments", "-o", elf};
  ASSERT_EQ(run_process(build), 0) << "building " << check;
  const std::vector<std::string> run = {"timeout", "120", "qemu-system-arm", "-M", "mps3-an547", "-nographic",
                                        "-monitor", "none", "-serial", "none", "-semihosting-config",
                                        "enable=on,target=native", "-kernel", elf};
  EXPECT_EQ(run_process(run), 0) << check << ": the Helium code differs from the portable arithmetic";
  remove_dir(dir);
}

TEST(MveOutputStep, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  expect_check_passes("output_step_check");
}

// More units than one chunk of sums (a CONV_2D of one output pixel over 70 channels, mww_hey_jarvis_int8's last
// convolution): the second chunk was requantized with the first chunk's multipliers and shifts before the fix.
TEST(MveRowTimesUnits, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  expect_check_passes("row_times_units_check");
}

}  // namespace
}  // namespace microaot::e2e
