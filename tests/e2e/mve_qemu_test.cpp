// The Helium output step (microaot/internal/mve_dot.h) on the emulated Cortex-M55 against the portable
// arithmetic, on the values random models seldom reach (ties of the rounding shift in both signs, int32
// extremes, every shift): e2e/mve/output_step_check.c, built bare-metal with the bench harness's start-up
// code and run under QEMU mps3-an547. The differential cases (differential_qemu_test.cpp) cover the kernels'
// products; a model's sums rarely land on a tie, so those cases pass without the ties' fix-up. And the CONV_2D
// and FULLY_CONNECTED kernels on many more layer shapes than the differential cases' few models reach
// (e2e/mve/conv_fc_check.c).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {
namespace {

// Builds e2e/mve/CHECK (with `extra` sources) bare-metal for the M55 and runs it under QEMU: its exit status.
int run_check(const std::string& check, const std::vector<std::string>& extra) {
  const std::string dir = make_temp_dir();
  const std::string target = std::string(MICROAOT_RUNTIME_DIR) + "/../targets/cortex-m";
  const std::string elf = dir + "/check.elf";
  std::vector<std::string> build = {
      "arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-std=c99", "-pedantic", "-Wall", "-Wextra",
      "-Werror", "-I" + std::string(MICROAOT_RUNTIME_DIR) + "/include", "-I" + target,
      std::string(MICROAOT_E2E_DIR) + "/mve/" + check, target + "/startup.c", target + "/semihost.c",
      "-nostartfiles", "--specs=nano.specs", "-T", target + "/mps3_an547.ld", "-L" + target,
      "-Wl,--no-warn-rwx-segments", "-o", elf};
  for (const std::string& source : extra) build.push_back(std::string(MICROAOT_RUNTIME_DIR) + "/" + source);
  if (run_process(build) != 0) {
    ADD_FAILURE() << "building " << check;
    return -1;
  }
  const std::vector<std::string> run = {"timeout", "120", "qemu-system-arm", "-M", "mps3-an547", "-nographic",
                                        "-monitor", "none", "-serial", "none", "-semihosting-config",
                                        "enable=on,target=native", "-kernel", elf};
  const int status = run_process(run);
  remove_dir(dir);
  return status;
}

TEST(MveOutputStep, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  EXPECT_EQ(run_check("output_step_check.c", {}), 0) << "the Helium output step differs from the portable arithmetic";
}

// The Helium CONV_2D and FULLY_CONNECTED kernels against the portable ones on 400 random layers each, shaped to
// reach every blocking and tail of their loops (e2e/mve/conv_fc_check.c); about a second.
TEST(MveConvFullyConnected, MatchThePortableKernelsOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  EXPECT_EQ(run_check("conv_fc_check.c", {"kernels/mve/fully_connected_s8.c"}), 0)
      << "a Helium CONV_2D or FULLY_CONNECTED differs from the portable kernel";
}

}  // namespace
}  // namespace microaot::e2e
