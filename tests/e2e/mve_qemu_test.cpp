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

// The Helium DEPTHWISE_CONV_2D, pools, linear ADD and MUL (e2e/mve/kernels_check.c) against the portable kernels
// compiled from their own sources under ref_* names, on 600 rounds of random shapes (depth multipliers,
// strides, dilations, padding, channel tails, broadcasting), about a second under QEMU.
TEST(MveKernels, MatchThePortableKernelsOnRandomShapes) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir();
  const std::string runtime = std::string(MICROAOT_RUNTIME_DIR);
  const std::string target = runtime + "/../targets/cortex-m";
  const std::vector<std::string> flags = {"-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-std=c99",
                                          "-Wall", "-Wextra", "-Werror", "-I" + runtime + "/include", "-I" + target};
  struct Kernel {
    const char *source, *name, *ref;
  };
  const Kernel kernels[] = {{"depthwise_conv_2d_s8", "microaot_depthwise_conv_2d_s8", "ref_dw"},
                            {"average_pool_2d_s8", "microaot_average_pool_2d_s8", "ref_average"},
                            {"max_pool_2d_s8", "microaot_max_pool_2d_s8", "ref_max"},
                            {"add_s8_linear", "microaot_add_s8_linear", "ref_add_linear"},
                            {"mul_s8", "microaot_mul_s8", "ref_mul"}};
  std::vector<std::string> link = {"arm-none-eabi-gcc"};
  link.insert(link.end(), flags.begin(), flags.end());
  for (const Kernel& k : kernels) {
    const std::string ref = dir + "/" + k.ref + ".o";
    std::vector<std::string> build = {"arm-none-eabi-gcc"};
    build.insert(build.end(), flags.begin(), flags.end());
    build.insert(build.end(), {"-D" + std::string(k.name) + "=" + k.ref,
                               "-D" + std::string(k.name) + "_overlap=" + k.ref + "_overlap", "-c",
                               runtime + "/kernels/portable/" + k.source + ".c", "-o", ref});
    ASSERT_EQ(run_process(build), 0) << "building the portable " << k.source;
    link.insert(link.end(), {ref, runtime + "/kernels/mve/" + k.source + ".c"});
  }
  link.insert(link.end(), {std::string(MICROAOT_E2E_DIR) + "/mve/kernels_check.c", target + "/startup.c",
                           target + "/semihost.c", "-nostartfiles", "--specs=nano.specs", "-T",
                           target + "/mps3_an547.ld", "-L" + target, "-Wl,--no-warn-rwx-segments", "-o",
                           dir + "/check.elf"});
  ASSERT_EQ(run_process(link), 0) << "building the check";
  const std::vector<std::string> run = {"timeout", "120", "qemu-system-arm", "-M", "mps3-an547", "-nographic",
                                        "-monitor", "none", "-serial", "none", "-semihosting-config",
                                        "enable=on,target=native", "-kernel", dir + "/check.elf"};
  EXPECT_EQ(run_process(run), 0) << "a Helium kernel differs from the portable one";
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
