// The differential harness on the emulated Cortex-M4 (where ISA-specific implementations run): a faithful
// candidate passes, a wrong one is caught.
#include <gtest/gtest.h>

#include "differential_util.h"
#include "e2e_util.h"

namespace microaot::e2e {
namespace {

TEST(DifferentialHarnessM4, FaithfulPassesAndWrongIsCaught) {
  MICROAOT_REQUIRE_QEMU();
  const std::string dir = make_temp_dir();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "2", "--target", "cortex-m4", "--kernel-source",
                              "kernels/add_s8.c=" + write_faithful_add_s8(dir)},
                             &output),
            0)
      << output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "10", "--target", "cortex-m4", "--kernel-source",
                              "kernels/add_s8.c=" + write_wrong_add_s8(dir)},
                             &output),
            1)
      << output;
  remove_dir(dir);
}

}  // namespace
}  // namespace microaot::e2e
