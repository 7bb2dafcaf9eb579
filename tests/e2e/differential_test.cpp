// The differential harness on the host: a faithful candidate passes on every random case, a candidate
// wrong only where an input is 1 modulo 16 is caught, and a kernel file the model's folder lacks is a usage error.
#include <gtest/gtest.h>

#include "differential_util.h"
#include "e2e_util.h"

namespace microaot::e2e {
namespace {

TEST(DifferentialHarness, FaithfulCandidateMatchesOnEveryCase) {
  const std::string dir = make_temp_dir();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "4", "--kernel-source",
                              "kernels/add_s8.c=" + write_faithful_add_s8(dir)},
                             &output),
            0)
      << output;
  EXPECT_NE(output.find("4 of 4 cases identical"), std::string::npos) << output;
  remove_dir(dir);
}

TEST(DifferentialHarness, CatchesACandidateWrongOnSomeInputValues) {
  const std::string dir = make_temp_dir();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "10", "--kernel-source",
                              "kernels/add_s8.c=" + write_wrong_add_s8(dir)},
                             &output),
            1)
      << output;
  EXPECT_NE(output.find("DIFFERENT in case"), std::string::npos) << output;
  remove_dir(dir);
}

// Focused models (--focus) carry per-channel weights and sums that seldom clamp: a faithful conv passes them, one
// that mixes up two channels' requantization is caught.
TEST(DifferentialHarness, FocusedModelsCatchAConvThatMixesUpChannels) {
  const std::string dir = make_temp_dir();
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "conv_2d_s8", "--focus", "CONV_2D", "--cases", "2", "--kernel-source",
                              "kernels/conv_2d_s8.c=" + write_faithful_conv_2d_s8(dir)},
                             &output),
            0)
      << output;
  EXPECT_EQ(run_differential({"--kernel", "conv_2d_s8", "--focus", "CONV_2D", "--cases", "4", "--kernel-source",
                              "kernels/conv_2d_s8.c=" + write_channel_mixing_conv_2d_s8(dir)},
                             &output),
            1)
      << output;
  EXPECT_NE(output.find("DIFFERENT in case"), std::string::npos) << output;
  remove_dir(dir);
}

TEST(DifferentialHarness, RefusesAKernelFileTheFolderLacksAndTooFewCases) {
  std::string output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--cases", "1", "--kernel-source", "kernels/nope.c=/dev/null"},
                             &output),
            2);
  EXPECT_NE(output.find("no kernel file 'kernels/nope.c'"), std::string::npos) << output;
  EXPECT_EQ(run_differential({"--kernel", "no_such_stem", "--cases", "1", "--max-tries", "50"}, &output), 2);
  EXPECT_NE(output.find("0 of 1 cases identical (too few cases found)"), std::string::npos) << output;
  EXPECT_EQ(run_differential({"--kernel", "add_s8", "--focus", "NO_SUCH_OPERATOR"}, &output), 2);
  EXPECT_NE(output.find("--focus: no operator NO_SUCH_OPERATOR"), std::string::npos) << output;
}

}  // namespace
}  // namespace microaot::e2e
