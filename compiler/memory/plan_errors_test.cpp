#include "memory/plan_errors.h"

#include <gtest/gtest.h>

namespace microaot {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TilingFacts tiling(int64_t floor, int64_t untiled, bool graph, bool on, size_t chains) {
  return TilingFacts{floor, untiled, graph, on, chains};
}

TEST(PlanErrors, TilingHelpNamesWhatBandsCouldDo) {
  EXPECT_EQ(tiling_help_text(tiling(0, 500, false, true, 0)),
            "\n  fused bands (tiling) cannot lower the classic bound (500 bytes): no chain of row-streamable layers "
            "holds its peak");
  EXPECT_EQ(tiling_help_text(tiling(500, 500, false, true, 0)), tiling_help_text(tiling(0, 500, false, true, 0)));
  EXPECT_EQ(tiling_help_text(tiling(300, 500, true, true, 0)),
            "\n  --executor aot: fused bands could bring the classic bound from 500 down to 300 bytes; the graph "
            "executor runs whole layers");
  EXPECT_EQ(tiling_help_text(tiling(300, 500, false, false, 0)),
            "\n  --tiling auto: fused bands could bring the classic bound from 500 down to 300 bytes");
  EXPECT_EQ(tiling_help_text(tiling(300, 500, false, true, 0)),
            "\n  fused bands could bring the classic bound from 500 down to 300 bytes, but no choice of them gave a "
            "smaller plan than this one");
  EXPECT_EQ(tiling_help_text(tiling(300, 500, false, true, 2)),
            "\n  fused bands already run 2 chain(s); the most they can do is bring the classic bound from 500 down "
            "to 300 bytes");
}

BudgetFacts budget() {
  BudgetFacts f;
  f.required_bytes = 1200;
  f.budget_bytes = 1000;
  f.macro = "NET";
  f.alignment = 16;
  f.tiling = tiling(0, 900, false, true, 0);
  return f;
}

TEST(PlanErrors, BudgetTextGivesFiguresPeakAndHelp) {
  BudgetFacts f = budget();
  f.peak_step = "step 3, CONV_2D (op 3)";
  f.live_at_peak = {{"tensor a", 400}, {"scratch of step 3", 32}};
  f.smaller_plans = {{"linear", 1100}};
  const std::string text = budget_failure_text(f);
  EXPECT_EQ(text.rfind("Static memory planning failed. Required: 1200 bytes, Available: 1000 bytes.\nThe budget "
                       "counts what the application provides: NET_ARENA_SIZE (the arena, its header included); the "
                       "contexts are not counted.\nThe peak is at step 3, CONV_2D (op 3), where these buffers are "
                       "live:\n  tensor a: 400 bytes\n  scratch of step 3: 32 bytes\nWhat could help:\n  --planner "
                       "linear needs 1100 bytes\n  --pool main:1000 --pool NAME:SIZE",
                       0),
            0u);
  EXPECT_TRUE(has(text, tiling_help_text(f.tiling) + "\n  --alignment 4 (now 16)"));
  EXPECT_TRUE(has(text, "\n  a smaller input resolution or fewer channels around the peak layer"));
  EXPECT_FALSE(has(text, "--io-in-arena on"));
}

TEST(PlanErrors, BudgetTextFollowsTheFlags) {
  BudgetFacts f = budget();
  f.pools = 2;
  f.io_in_arena = false;
  const std::string text = budget_failure_text(f);
  EXPECT_TRUE(has(text, "(the arena, its header included), every further --pool, the input/output buffers;"));
  EXPECT_TRUE(has(text, "\n  --io-in-arena on shares the input/output bytes with activations"));
  EXPECT_TRUE(has(text, "\n  no --ram-budget: it counts the RAM of every pool"));
  EXPECT_FALSE(has(text, "The peak is at"));
}

TEST(PlanErrors, PoolTextsNameThePoolTheBuffersAndTheStep) {
  const std::vector<NamedBytes> pools{{"sram", 1000}, {"dram", 4000}};
  const std::vector<NamedBytes> buffers{{"tensor a", 5000}};
  PoolFailure f;
  f.kind = PoolFailureKind::kTooLarge;
  f.pool = 1;
  f.required_bytes = 5000;
  f.available_bytes = 4000;
  EXPECT_EQ(pool_failure_text(f, pools, buffers, ""),
            "Static memory planning failed. Required: 5000 bytes, Available: 4000 bytes in the largest pool, dram.\n"
            "  tensor a: 5000 bytes\nA buffer is never split across pools; enlarge a pool to at least 5000 bytes.");
  f.kind = PoolFailureKind::kOnePoolOnly;
  EXPECT_TRUE(has(pool_failure_text(f, pools, buffers, "step 2, ADD"),
                  "in pool dram.\nAt step 2, ADD, these buffers are live and fit in no other pool:\n  tensor a"));
  f.kind = PoolFailureKind::kTotal;
  EXPECT_TRUE(has(pool_failure_text(f, pools, buffers, "step 2, ADD"),
                  "in all pools together.\nAt step 2, ADD, these buffers are live:\n  tensor a: 5000 bytes\nEven "
                  "with in-place reuse they need 5000 bytes; add or enlarge a pool."));
  f.kind = PoolFailureKind::kNoPlacement;
  f.pool = 7;
  EXPECT_TRUE(has(pool_failure_text(f, pools, buffers, ""),
                  "no placement found in the pools sram (1000 bytes), dram (4000 bytes).\nPool ? still needed"));
}

TEST(PlanErrors, StateAndArenaLimitTexts) {
  EXPECT_EQ(persistent_overflow_text({"sram", 1000}, 1040, 64, 976),
            "Static memory planning failed. Required: 1040 bytes, Available: 1000 bytes in pool sram: the model's "
            "state (64 bytes of variables) stays in the first pool, after its 976 bytes of activations");
  EXPECT_EQ(arena_limit_text(3000000000), "the model needs 3000000000 bytes of RAM for its buffers; the limit is 2 GiB - 1");
}

}  // namespace
}  // namespace microaot
