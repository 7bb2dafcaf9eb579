// Reading the Cortex-M harness's results.txt (targets/cortex-m/harness.c), the profiled image's per-step
// lines included.
#include <gtest/gtest.h>

#include "driver/cortex_m.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

const std::string kHead = "clock_check 20001\nclock_sweep_errors 0\ninit_instructions 60\ninit_stack_bytes 32\n";

TEST(CortexMResults, PlainRun) {
  const BoardRun run = parse_board_results(kHead + "sets 1\nset 0\ninstructions 1951860\nstack_bytes 100\ndone 1\n");
  EXPECT_EQ(run.init_instructions, 60);
  EXPECT_EQ(run.init_stack_bytes, 32);
  EXPECT_EQ(run.op_hook_instructions, -1);
  ASSERT_EQ(run.sets.size(), 1u);
  EXPECT_EQ(run.sets[0].instructions, 1951860);
  EXPECT_EQ(run.sets[0].stack_bytes, 100);
  EXPECT_TRUE(run.sets[0].ops.empty());
}

// Each set's steps are written while it runs, before its "set" line.
TEST(CortexMResults, ProfiledRunGivesEachSetItsSteps) {
  const BoardRun run = parse_board_results(kHead + "op_hook_instructions 12\nsets 2\n"
                                                   "op_step 0\nop_instructions 500\nop_step 1\nop_instructions 70\n"
                                                   "set 0\ninstructions 700\nstack_bytes 90\n"
                                                   "op_step 0\nop_instructions 501\nop_step 1\nop_instructions -3\n"
                                                   "set 1\ninstructions 701\nstack_bytes 90\ndone 1\n");
  EXPECT_EQ(run.op_hook_instructions, 12);
  ASSERT_EQ(run.sets.size(), 2u);
  ASSERT_EQ(run.sets[0].ops.size(), 2u);
  EXPECT_EQ(run.sets[0].ops[0].step, 0);
  EXPECT_EQ(run.sets[0].ops[0].instructions, 500);
  EXPECT_EQ(run.sets[0].ops[1].step, 1);
  EXPECT_EQ(run.sets[0].ops[1].instructions, 70);
  ASSERT_EQ(run.sets[1].ops.size(), 2u);
  EXPECT_EQ(run.sets[1].ops[0].instructions, 501);
  EXPECT_EQ(run.sets[1].ops[1].instructions, -3) << "a step's count net of the hooks may come out below zero";
  EXPECT_EQ(run.sets[1].instructions, 701);
}

TEST(CortexMResults, RefusesBrokenResults) {
  const auto refused = [](const std::string& text, const std::string& message) {
    try {
      parse_board_results(text);
    } catch (const CompileError& e) {
      return std::string(e.what()).find(message) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused(kHead + "set 0\ninstructions 5\n", "did not finish"));
  EXPECT_TRUE(refused(kHead + "set 0\ninstructions five\ndone 1\n", "bad results.txt line 'instructions five'"));
  const std::string off = "instruction counting is off";
  EXPECT_TRUE(refused("clock_check 19000\nclock_sweep_errors 0\nset 0\ndone 1\n", off));
  EXPECT_TRUE(refused("clock_check 20002\nclock_sweep_errors 0\nset 0\ndone 1\n", off)) << "exact, not near";
  EXPECT_TRUE(refused("clock_check 20001\nclock_sweep_errors 1\nset 0\ndone 1\n", off));
  EXPECT_TRUE(refused("clock_check 20001\nset 0\ndone 1\n", off)) << "no sweep line";
  EXPECT_FALSE(refused("clock_check 20001\nclock_sweep_left_out 1\nset 0\ndone 1\n", off)) << "--no-sweep";
  EXPECT_TRUE(refused("clock_check 20001\nclock_sweep_left_out 0\nset 0\ndone 1\n", off));
  const std::string pairs = "do not pair up";
  EXPECT_TRUE(refused(kHead + "op_step 0\nset 0\ndone 1\n", pairs));
  EXPECT_TRUE(refused(kHead + "op_instructions 5\nset 0\ndone 1\n", pairs));
  EXPECT_TRUE(refused(kHead + "op_step 0\nop_step 1\nop_instructions 5\nset 0\ndone 1\n", pairs));
  EXPECT_TRUE(refused(kHead + "set 0\nop_step 0\nop_instructions 5\ndone 1\n", pairs)) << "steps after the last set";
}

}  // namespace
}  // namespace microaot
