// The Helium output step (microaot/internal/mve_dot.h) on the emulated Cortex-M55 against the portable
// arithmetic, on the values random models seldom reach (ties of the rounding shift in both signs, int32
// extremes, every shift): e2e/mve/output_step_check.c, built bare-metal with the bench harness's start-up
// code and run under QEMU mps3-an547. The differential cases (differential_qemu_test.cpp) cover the kernels'
// products; a model's sums rarely land on a tie, so those cases pass without the ties' fix-up.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "support/process.h"

namespace microaot::e2e {
namespace {

TEST(MveOutputStep, MatchesThePortableArithmeticOnTheM55) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir();
  const std::string target = std::string(MICROAOT_RUNTIME_DIR) + "/../targets/cortex-m";
  const std::string elf = dir + "/check.elf";
  const std::vector<std::string> build = {
      "arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-std=c99", "-Wall", "-Wextra",
      "-Werror", "-I" + std::string(MICROAOT_RUNTIME_DIR) + "/include", "-I" + target,
      std::string(MICROAOT_E2E_DIR) + "/mve/output_step_check.c", target + "/startup.c", target + "/semihost.c",
      "-nostartfiles", "--specs=nano.specs", "-T", target + "/mps3_an547.ld", "-L" + target,
      "-Wl,--no-warn-rwx-segments", "-o", elf};
  ASSERT_EQ(run_process(build), 0) << "building the check";
  const std::vector<std::string> run = {"timeout", "120", "qemu-system-arm", "-M", "mps3-an547", "-nographic",
                                        "-monitor", "none", "-serial", "none", "-semihosting-config",
                                        "enable=on,target=native", "-kernel", elf};
  EXPECT_EQ(run_process(run), 0) << "the Helium output step differs from the portable arithmetic";
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
