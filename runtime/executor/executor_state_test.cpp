// The executor core's persistent region on a hand-made model with state: a running sum per byte,
// out = state + in, then state = out (two steps), with the state after the activations of the arena. The
// test's own recurrence is the reference: state carries over runs, reset and init restore the initial
// bytes, two contexts on two arenas keep two states, and a state another context overwrote is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "executor_test_model.h"
#include "microaot/executor.h"

namespace {

constexpr uint32_t kBytes = 4;
constexpr uint32_t kHeader = kTestArenaHeader;
constexpr uint32_t kStateOffset = 16;  // in at 0, out at 8, state at 16
constexpr uint8_t kInitial[kBytes] = {1, 2, 3, 250};

microaot_status step(const microaot_context* ctx, uint32_t index) {
  uint8_t* in = ctx->arena;
  uint8_t* out = ctx->arena + 8;
  uint8_t* state = ctx->arena + kStateOffset;
  for (uint32_t i = 0; i < kBytes; ++i) {
    if (index == 0) out[i] = static_cast<uint8_t>(state[i] + in[i]);
    if (index == 1) state[i] = out[i];
  }
  return MICROAOT_STATUS_OK;
}

const microaot_io_desc inputs[] = {{0, kBytes, 0}};
const microaot_io_desc outputs[] = {{8, kBytes, 0}};

microaot_model make_model(const uint8_t* initial) {
  microaot_model m = arena_test_model(kStateOffset + kBytes, inputs, outputs, 2, step);
  m.persistent_offset = kStateOffset;
  m.persistent_size = kBytes;
  m.persistent_init = initial;
  return m;
}

struct Instance {
  microaot_context ctx;
  microaot_slot slots[1];
  alignas(16) uint8_t arena[kHeader + kStateOffset + kBytes];
  microaot_status init(const microaot_model& m, uint8_t* on = nullptr) {
    return microaot_init(&ctx, &m, slots, on != nullptr ? on : arena, sizeof arena);
  }
  // One run of `in` (the same byte everywhere); the first output byte, or -status on failure.
  int run(uint8_t in) {
    const uint8_t data[kBytes] = {in, in, in, in};
    uint8_t out[kBytes];
    if (microaot_set_input(&ctx, 0, data, kBytes) != MICROAOT_STATUS_OK) return -1000;
    const microaot_status status = microaot_run(&ctx);
    if (status != MICROAOT_STATUS_OK) return -static_cast<int>(status);
    if (microaot_get_output(&ctx, 0, out, kBytes) != MICROAOT_STATUS_OK) return -1001;
    return out[0];
  }
};

TEST(ExecutorState, StateCarriesOverRunsAsTheRecurrence) {
  const microaot_model m = make_model(kInitial);
  Instance a;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  uint8_t expected = kInitial[0];
  for (int n = 1; n <= 20; ++n) {
    const uint8_t in = static_cast<uint8_t>(n * 7);
    expected = static_cast<uint8_t>(expected + in);
    ASSERT_EQ(a.run(in), expected) << "run " << n;
  }
}

TEST(ExecutorState, ResetAndInitRestoreTheInitialState) {
  const microaot_model m = make_model(kInitial);
  Instance a;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(5), kInitial[0] + 5);
  EXPECT_EQ(a.run(5), kInitial[0] + 10);
  EXPECT_EQ(microaot_reset(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(5), kInitial[0] + 5);
  EXPECT_EQ(a.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(5), kInitial[0] + 5);
}

TEST(ExecutorState, NoInitialBytesMeansZeros) {
  const microaot_model m = make_model(nullptr);
  Instance a;
  std::memset(a.arena, 0xAB, sizeof a.arena);
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(9), 9);
}

TEST(ExecutorState, TwoArenasKeepTwoStates) {
  const microaot_model m = make_model(kInitial);
  Instance a, b;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(10), kInitial[0] + 10);
  EXPECT_EQ(b.run(1), kInitial[0] + 1);
  EXPECT_EQ(a.run(10), kInitial[0] + 20);
  EXPECT_EQ(b.run(1), kInitial[0] + 2);
}

TEST(ExecutorState, StateOverwrittenOnASharedArenaIsRefusedUntilReset) {
  const microaot_model m = make_model(kInitial);
  Instance a, b;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(10), kInitial[0] + 10);
  ASSERT_EQ(b.init(m, a.arena), MICROAOT_STATUS_OK);  // writes its initial state over a's
  EXPECT_EQ(a.run(10), -static_cast<int>(MICROAOT_STATUS_ARENA_CLOBBERED));
  EXPECT_EQ(a.run(10), -static_cast<int>(MICROAOT_STATUS_ARENA_CLOBBERED));
  EXPECT_EQ(microaot_reset(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.run(10), kInitial[0] + 10);
  EXPECT_EQ(b.run(1), -static_cast<int>(MICROAOT_STATUS_ARENA_CLOBBERED));  // a's reset took b's state
}

TEST(ExecutorState, ResetNeedsAnInitializedContextNotRunning) {
  const microaot_model m = make_model(kInitial);
  Instance a;
  std::memset(&a.ctx, 0, sizeof a.ctx);
  EXPECT_EQ(microaot_reset(nullptr), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_reset(&a.ctx), MICROAOT_STATUS_BAD_STATE);
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  const uint8_t data[kBytes] = {3, 3, 3, 3};
  ASSERT_EQ(microaot_set_input(&a.ctx, 0, data, kBytes), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run_steps(&a.ctx, 1), MICROAOT_STATUS_IN_PROGRESS);
  EXPECT_EQ(microaot_reset(&a.ctx), MICROAOT_STATUS_OK);  // abandons the run
  EXPECT_EQ(microaot_run_steps(&a.ctx, 1), MICROAOT_STATUS_INPUT_NOT_SET);
  EXPECT_EQ(a.run(3), kInitial[0] + 3);
  EXPECT_EQ(microaot_destroy(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_reset(&a.ctx), MICROAOT_STATUS_BAD_STATE);
}

}  // namespace
