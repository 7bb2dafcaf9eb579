// The arena-only build of the executor core (executor_arena.c, calls named microaot_arena_*): a model with its
// I/O in the arena, one pool and no state runs as on the full core, shared arenas included; init refuses a
// descriptor with any of the features it leaves out, and the context stays IDLE.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "executor_test_model.h"
#include "microaot/executor.h"

namespace {

constexpr uint32_t kHeader = kTestArenaHeader;
constexpr uint32_t kBytes = 4;    // in at 0, out at 4

microaot_status add_one(const microaot_context* ctx, uint32_t) {
  for (uint32_t i = 0; i < kBytes; ++i) ctx->arena[kBytes + i] = static_cast<uint8_t>(ctx->arena[i] + 1);
  return MICROAOT_STATUS_OK;
}

const microaot_io_desc kInput[] = {{0, kBytes, 0}};
const microaot_io_desc kOutput[] = {{kBytes, kBytes, 0}};

microaot_model arena_model() { return arena_test_model(2 * kBytes, kInput, kOutput, 1, add_one); }

struct Context {
  microaot_context ctx;
  microaot_slot slots[2];
};

alignas(16) uint8_t arena[kHeader + 2 * kBytes];

TEST(ArenaExecutor, RunsAModelWithItsIOInTheArenaAsTheFullCoreDoes) {
  const microaot_model m = arena_model();
  const uint8_t in[kBytes] = {1, 2, 3, 250}, plus_one[kBytes] = {2, 3, 4, 251};
  for (const bool full : {false, true}) {
    Context c{};
    uint8_t out[kBytes] = {};
    const auto init = full ? microaot_init : microaot_arena_init;
    const auto set_input = full ? microaot_set_input : microaot_arena_set_input;
    const auto run_steps = full ? microaot_run_steps : microaot_arena_run_steps;
    const auto get_output = full ? microaot_get_output : microaot_arena_get_output;
    ASSERT_EQ(init(&c.ctx, &m, c.slots, arena, sizeof arena), MICROAOT_STATUS_OK);
    EXPECT_EQ(run_steps(&c.ctx, 1), MICROAOT_STATUS_INPUT_NOT_SET);
    ASSERT_EQ(set_input(&c.ctx, 0, in, kBytes), MICROAOT_STATUS_OK);
    ASSERT_EQ(run_steps(&c.ctx, 1), MICROAOT_STATUS_OK);
    ASSERT_EQ(get_output(&c.ctx, 0, out, kBytes), MICROAOT_STATUS_OK);
    EXPECT_EQ(std::memcmp(out, plus_one, kBytes), 0) << full;
  }
}

// Two contexts on one arena: the second's run clobbers the first's output, which the first then refuses.
TEST(ArenaExecutor, KeepsTheRecordOfTheArenasLastWriter) {
  const microaot_model m = arena_model();
  const uint8_t in[kBytes] = {7, 7, 7, 7};
  uint8_t out[kBytes];
  Context a{}, b{};
  ASSERT_EQ(microaot_arena_init(&a.ctx, &m, a.slots, arena, sizeof arena), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_arena_init(&b.ctx, &m, b.slots, arena, sizeof arena), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_arena_set_input(&a.ctx, 0, in, kBytes), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_arena_run(&a.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_arena_set_input(&b.ctx, 0, in, kBytes), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_arena_run(&b.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_arena_get_output(&a.ctx, 0, out, kBytes), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_EQ(microaot_arena_get_output(&b.ctx, 0, out, kBytes), MICROAOT_STATUS_OK);
}

TEST(ArenaExecutor, InitRefusesAModelWithAFeatureItLeavesOut) {
  static uint8_t in_buffer[kBytes], out_buffer[kBytes], pool1[kBytes];
  static uint8_t* const static_io[] = {in_buffer, out_buffer};
  static uint8_t* const pools[] = {nullptr, pool1};
  static uintptr_t owner = 0;
  static const uint8_t state[kBytes] = {};
  microaot_model outside = arena_model(), pooled = arena_model(), stateful = arena_model();
  outside.io_in_arena = 0;
  outside.static_io = static_io;
  outside.static_owner = &owner;
  pooled.num_pools = 2;
  pooled.pools = pools;
  pooled.static_owner = &owner;
  stateful.persistent_size = kBytes;
  stateful.persistent_init = state;
  for (const microaot_model* m : {&outside, &pooled, &stateful}) {
    Context c{};
    EXPECT_EQ(microaot_arena_init(&c.ctx, m, c.slots, arena, sizeof arena), MICROAOT_STATUS_UNSUPPORTED_MODEL);
    EXPECT_EQ(microaot_arena_run(&c.ctx), MICROAOT_STATUS_BAD_STATE);  // IDLE: nothing runs
    EXPECT_EQ(microaot_init(&c.ctx, m, c.slots, arena, sizeof arena), MICROAOT_STATUS_OK);  // the full core runs it
  }
}

}  // namespace
