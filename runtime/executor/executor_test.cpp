// The executor core on a small hand-made model: out = 2 * (in0 + in1) + 1 per byte, in three steps, with the
// output written over in0 as the in-place planner does. Covers the state machine, run_steps, the record of
// the last writer of shared memory (arena, pools, default I/O buffers), binding and the status strings.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "executor_test_model.h"
#include "microaot/executor.h"

namespace {

constexpr uint32_t kBytes = 4;     // every tensor: 4 uint8 elements
constexpr uint32_t kHeader = kTestArenaHeader;
constexpr uint32_t kTmpOffset = 8; // in0 at 0, in1 at 4, tmp at 8, out at 0 (over in0)

alignas(16) uint8_t pool1[kBytes];
alignas(16) uint8_t static_arena[kHeader + 12];
uint8_t static_in0[kBytes], static_in1[kBytes], static_out[kBytes];
uint8_t *const static_io[] = {static_in0, static_in1, static_out};
uint8_t *const pools[] = {nullptr, pool1};
uintptr_t static_owner = 0;

// Called once from inside step 1 when set: what a profiling hook or an interrupt handler might do.
std::function<void()> during_step1;

uint8_t* tensor(const microaot_context* ctx, size_t slot) {
  const microaot_model* m = ctx->model;
  if (!m->io_in_arena) return ctx->slots[slot].buffer;
  const microaot_io_desc& d = slot < m->num_inputs ? m->inputs[slot] : m->outputs[slot - m->num_inputs];
  return (d.pool == 0 ? ctx->arena : pool1) + d.offset;
}

uint8_t* tmp(const microaot_context* ctx) {
  return ctx->model->num_pools > 1 ? pool1 : ctx->arena + kTmpOffset;
}

microaot_status step(const microaot_context* ctx, uint32_t index) {
  uint8_t* t = tmp(ctx);
  for (uint32_t i = 0; i < kBytes; ++i) {
    if (index == 0) t[i] = static_cast<uint8_t>(tensor(ctx, 0)[i] + tensor(ctx, 1)[i]);
    if (index == 1) t[i] = static_cast<uint8_t>(t[i] * 2);
    if (index == 2) tensor(ctx, 2)[i] = static_cast<uint8_t>(t[i] + 1);
  }
  if (index == 1 && during_step1) {
    const std::function<void()> hook = during_step1;
    during_step1 = nullptr;
    hook();
  }
  return MICROAOT_STATUS_OK;
}

const microaot_io_desc in_arena_inputs[] = {{0, kBytes, 0}, {4, kBytes, 0}};
const microaot_io_desc in_arena_outputs[] = {{0, kBytes, 0}};

microaot_model make_model(bool io_in_arena) {
  microaot_model m = arena_test_model(12, in_arena_inputs, in_arena_outputs, 3, step);
  m.io_in_arena = io_in_arena ? 1 : 0;
  m.static_arena = static_arena;
  if (!io_in_arena) {
    m.static_io = static_io;
    m.static_owner = &static_owner;
  }
  return m;
}

struct Instance {
  microaot_context ctx;
  microaot_slot slots[3];
  alignas(16) uint8_t arena[kHeader + 12];
  microaot_status init(const microaot_model& m, bool own_arena = true) {
    return microaot_init(&ctx, &m, slots, own_arena ? arena : nullptr, own_arena ? sizeof arena : 0);
  }
  // init on `owner`'s arena: the two contexts share it.
  microaot_status init_on(const microaot_model& m, Instance& owner) {
    return microaot_init(&ctx, &m, slots, owner.arena, sizeof owner.arena);
  }
  microaot_status set(uint8_t a, uint8_t b) {
    const uint8_t in0[kBytes] = {a, a, a, a};
    const uint8_t in1[kBytes] = {b, 1, 2, 3};
    const microaot_status s = microaot_set_input(&ctx, 0, in0, kBytes);
    return s != MICROAOT_STATUS_OK ? s : microaot_set_input(&ctx, 1, in1, kBytes);
  }
  std::vector<uint8_t> output() {
    std::vector<uint8_t> out(kBytes);
    EXPECT_EQ(microaot_get_output(&ctx, 0, out.data(), kBytes), MICROAOT_STATUS_OK);
    return out;
  }
};

// a on its own arena, b on a's: the two share it.
void share_one_arena(const microaot_model& m, Instance& a, Instance& b) {
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init_on(m, a), MICROAOT_STATUS_OK);
}

std::vector<uint8_t> expected(uint8_t a, uint8_t b) {
  const uint8_t in1[kBytes] = {b, 1, 2, 3};
  std::vector<uint8_t> out(kBytes);
  for (uint32_t i = 0; i < kBytes; ++i) out[i] = static_cast<uint8_t>(2 * (a + in1[i]) + 1);
  return out;
}

TEST(Executor, RunComputesTheModel) {
  const microaot_model m = make_model(true);
  Instance x;
  ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(x.set(5, 7), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(x.output(), expected(5, 7));
}

// Step 1 refuses its data when input 1 starts with 0xff (as a gather refuses an index out of range).
microaot_status refusing_step(const microaot_context* ctx, uint32_t index) {
  if (index == 1 && tensor(ctx, 1)[0] == 0xff) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  return step(ctx, index);
}

TEST(Executor, AKernelThatRefusesItsDataEndsTheRunWithNoOutput) {
  microaot_model m = make_model(true);
  m.run_step = refusing_step;
  for (size_t max_ops : {size_t{1}, size_t{100}}) {
    Instance x;
    ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
    ASSERT_EQ(x.set(5, 0xff), MICROAOT_STATUS_OK);
    microaot_status s = MICROAOT_STATUS_IN_PROGRESS;
    for (int calls = 0; calls < 5 && s == MICROAOT_STATUS_IN_PROGRESS; ++calls) s = microaot_run_steps(&x.ctx, max_ops);
    EXPECT_EQ(s, MICROAOT_STATUS_VALUE_OUT_OF_RANGE) << max_ops;
    uint8_t out[kBytes];
    EXPECT_EQ(microaot_get_output(&x.ctx, 0, out, kBytes), MICROAOT_STATUS_BAD_STATE);
    ASSERT_EQ(x.set(5, 7), MICROAOT_STATUS_OK);  // good data again: the next run completes
    ASSERT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_OK);
    EXPECT_EQ(x.output(), expected(5, 7));
  }
}

TEST(Executor, RunStepsEqualsRunForEveryBound) {
  const microaot_model m = make_model(true);
  for (size_t max_ops : {size_t{1}, size_t{2}, size_t{3}, size_t{100}}) {
    Instance x;
    ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
    ASSERT_EQ(x.set(9, 4), MICROAOT_STATUS_OK);
    size_t calls = 1;
    microaot_status s;
    while ((s = microaot_run_steps(&x.ctx, max_ops)) == MICROAOT_STATUS_IN_PROGRESS) ++calls;
    EXPECT_EQ(s, MICROAOT_STATUS_OK);
    EXPECT_EQ(calls, (3 + max_ops - 1) / max_ops) << max_ops;
    EXPECT_EQ(x.output(), expected(9, 4)) << max_ops;
  }
  Instance x;
  ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run_steps(&x.ctx, 0), MICROAOT_STATUS_BAD_SIZE);
}

TEST(Executor, OnlyRunStepsAndDestroyDuringASteppedRun) {
  const microaot_model m = make_model(true);
  Instance x;
  uint8_t buffer[kBytes] = {};
  void* in = nullptr;
  const void* out = nullptr;
  ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(x.set(1, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run_steps(&x.ctx, 1), MICROAOT_STATUS_IN_PROGRESS);
  EXPECT_EQ(microaot_set_input(&x.ctx, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_input_ptr(&x.ctx, 0, &in, nullptr), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_get_output(&x.ctx, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_output_ptr(&x.ctx, 0, &out, nullptr), MICROAOT_STATUS_BAD_STATE);
  ASSERT_EQ(microaot_run_steps(&x.ctx, 5), MICROAOT_STATUS_OK);
  EXPECT_EQ(x.output(), expected(1, 2));
  ASSERT_EQ(x.set(1, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run_steps(&x.ctx, 1), MICROAOT_STATUS_IN_PROGRESS);
  EXPECT_EQ(microaot_destroy(&x.ctx), MICROAOT_STATUS_OK);  // abandons the run
  EXPECT_EQ(microaot_run_steps(&x.ctx, 1), MICROAOT_STATUS_BAD_STATE);
}

TEST(Executor, EveryInputMustBeWrittenBeforeEveryRun) {
  const microaot_model m = make_model(true);
  Instance x;
  uint8_t in0[kBytes] = {3, 3, 3, 3};
  void* ptr = nullptr;
  ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  ASSERT_EQ(microaot_set_input(&x.ctx, 0, in0, kBytes), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  ASSERT_EQ(x.set(3, 4), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_OK);
  // The output overwrote in0: a second run would read it as input.
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  EXPECT_EQ(x.output(), expected(3, 4));
  // input_ptr counts as a write (the caller fills the buffer itself).
  ASSERT_EQ(microaot_input_ptr(&x.ctx, 0, &ptr, nullptr), MICROAOT_STATUS_OK);
  std::memcpy(ptr, in0, kBytes);
  ASSERT_EQ(microaot_input_ptr(&x.ctx, 1, &ptr, nullptr), MICROAOT_STATUS_OK);
  std::memset(ptr, 4, kBytes);
  ASSERT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_OK);
  const std::vector<uint8_t> want = {15, 15, 15, 15};
  EXPECT_EQ(x.output(), want);
}

// The sequence on one buffer: kws_set_input; ad_set_input; ad_run; kws_run.
TEST(Executor, AnotherContextsWriteIsReportedNeverRead) {
  const microaot_model m = make_model(true);
  Instance a, b;
  ASSERT_NO_FATAL_FAILURE(share_one_arena(m, a, b));
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);  // until the inputs are written again
  EXPECT_EQ(b.output(), expected(2, 2));
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.output(), expected(1, 1));
  // Outputs: another context's input write makes them unreadable.
  uint8_t out[kBytes];
  const void* ptr = nullptr;
  EXPECT_EQ(microaot_get_output(&b.ctx, 0, out, kBytes), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_EQ(microaot_output_ptr(&b.ctx, 0, &ptr, nullptr), MICROAOT_STATUS_ARENA_CLOBBERED);
  void* in = nullptr;
  ASSERT_EQ(microaot_input_ptr(&b.ctx, 0, &in, nullptr), MICROAOT_STATUS_OK);  // input_ptr then...
  EXPECT_EQ(microaot_get_output(&a.ctx, 0, out, kBytes), MICROAOT_STATUS_ARENA_CLOBBERED);
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);  // ...another context's write
  EXPECT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);
}

TEST(Executor, ModelsChainOnOneArena) {
  const microaot_model m = make_model(true);
  Instance a, b;
  const void* out = nullptr;
  ASSERT_NO_FATAL_FAILURE(share_one_arena(m, a, b));
  ASSERT_EQ(a.set(1, 0), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_output_ptr(&a.ctx, 0, &out, nullptr), MICROAOT_STATUS_OK);
  // b's input 0 is the very bytes of a's output: the copy must handle the overlap.
  ASSERT_EQ(microaot_set_input(&b.ctx, 0, out, kBytes), MICROAOT_STATUS_OK);
  const uint8_t zeros[kBytes] = {};
  ASSERT_EQ(microaot_set_input(&b.ctx, 1, zeros, kBytes), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  const std::vector<uint8_t> a_out = expected(1, 0);
  std::vector<uint8_t> want(kBytes);
  for (uint32_t i = 0; i < kBytes; ++i) want[i] = static_cast<uint8_t>(2 * a_out[i] + 1);
  EXPECT_EQ(b.output(), want);
}

TEST(Executor, ASteppedRunInterruptedByAnotherContextIsReported) {
  const microaot_model m = make_model(true);
  Instance a, b;
  ASSERT_NO_FATAL_FAILURE(share_one_arena(m, a, b));
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run_steps(&a.ctx, 2), MICROAOT_STATUS_IN_PROGRESS);
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run_steps(&a.ctx, 1), MICROAOT_STATUS_ARENA_CLOBBERED);
  uint8_t out[kBytes];
  EXPECT_EQ(microaot_get_output(&a.ctx, 0, out, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(b.output(), expected(2, 2));  // b did not lose anything: a wrote nothing after b
}

TEST(Executor, AContextRunFromInsideARunSpoilsBoth) {
  const microaot_model m = make_model(true);
  Instance a, b;
  ASSERT_NO_FATAL_FAILURE(share_one_arena(m, a, b));
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  bool ran = false;
  during_step1 = [&] {
    EXPECT_EQ(b.set(0, 0), MICROAOT_STATUS_OK);
    EXPECT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
    ran = true;
  };
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_TRUE(ran);
  uint8_t out[kBytes];
  EXPECT_EQ(microaot_get_output(&b.ctx, 0, out, kBytes), MICROAOT_STATUS_ARENA_CLOBBERED);
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.output(), expected(1, 1));
}

TEST(Executor, PoolsAreSharedByEveryContextOfTheModel) {
  microaot_model m = make_model(true);
  m.num_pools = 2;
  m.pools = pools;
  m.static_owner = &static_owner;
  Instance a, b;  // two arenas, one pool (it holds tmp)
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);  // a's inputs are in a's own arena: intact
  EXPECT_EQ(a.output(), expected(1, 1));
  EXPECT_EQ(b.output(), expected(2, 2));  // outputs in each arena: tmp in the pool does not matter
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run_steps(&a.ctx, 1), MICROAOT_STATUS_IN_PROGRESS);  // tmp written in the pool
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run_steps(&a.ctx, 2), MICROAOT_STATUS_ARENA_CLOBBERED);
}

TEST(Executor, AnInputInAPoolIsSharedToo) {
  static const microaot_io_desc inputs[] = {{0, kBytes, 0}, {0, kBytes, 1}};
  microaot_model m = make_model(true);
  m.num_pools = 2;
  m.pools = pools;
  m.static_owner = &static_owner;
  m.inputs = inputs;
  m.run_step = [](const microaot_context* ctx, uint32_t index) {
    uint8_t* in0 = ctx->arena;
    for (uint32_t i = 0; i < kBytes; ++i) {
      if (index == 2) in0[i] = static_cast<uint8_t>(in0[i] + pool1[i]);  // out over in0
    }
    return MICROAOT_STATUS_OK;
  };
  Instance a, b;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
}

TEST(Executor, DefaultIoBuffersAreSharedByEveryContextOfTheModel) {
  const microaot_model m = make_model(false);
  Instance a, b;
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  ASSERT_EQ(a.set(1, 1), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_ARENA_CLOBBERED);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);  // inputs outside the arena survive a run
  EXPECT_EQ(b.output(), expected(2, 2));
}

TEST(Executor, BoundBuffersAreTheCallersAndMustNotOverlap) {
  const microaot_model m = make_model(false);
  Instance a, b;
  uint8_t in0[kBytes] = {1, 1, 1, 1}, in1[kBytes] = {1, 1, 2, 3}, out[2 * kBytes] = {};
  ASSERT_EQ(a.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(b.init(m), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_bind_input(&a.ctx, 0, a.arena + 4, kBytes), MICROAOT_STATUS_BUFFER_OVERLAP);
  EXPECT_EQ(microaot_bind_input(&a.ctx, 0, static_arena, kBytes), MICROAOT_STATUS_BUFFER_OVERLAP);
  EXPECT_EQ(microaot_bind_input(&a.ctx, 0, static_out, kBytes), MICROAOT_STATUS_BUFFER_OVERLAP);
  EXPECT_EQ(microaot_bind_input(&a.ctx, 0, in0, kBytes - 1), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_EQ(microaot_bind_input(&a.ctx, 2, in0, kBytes), MICROAOT_STATUS_BAD_INDEX);
  ASSERT_EQ(microaot_bind_input(&a.ctx, 0, in0, kBytes), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_bind_input(&a.ctx, 1, in1, kBytes), MICROAOT_STATUS_OK);
  EXPECT_EQ(microaot_bind_output(&a.ctx, 0, in0 + 2, kBytes), MICROAOT_STATUS_BUFFER_OVERLAP);
  ASSERT_EQ(microaot_bind_output(&a.ctx, 0, out, kBytes), MICROAOT_STATUS_OK);
  // b's run on the default buffers does not touch a's: a's bound inputs need no rewrite, ever.
  ASSERT_EQ(b.set(2, 2), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&b.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);
  ASSERT_EQ(microaot_run(&a.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(a.output(), expected(1, 1));
  EXPECT_EQ(std::vector<uint8_t>(out, out + kBytes), expected(1, 1));
  // A new output buffer holds no result yet.
  ASSERT_EQ(microaot_bind_output(&a.ctx, 0, out + kBytes, kBytes), MICROAOT_STATUS_OK);
  const void* ptr = nullptr;
  EXPECT_EQ(microaot_output_ptr(&a.ctx, 0, &ptr, nullptr), MICROAOT_STATUS_BAD_STATE);
}

TEST(Executor, IdleCopiedAndRunningContextsAreRefused) {
  const microaot_model m = make_model(true);
  microaot_context zero;
  std::memset(&zero, 0, sizeof zero);
  uint8_t buffer[kBytes] = {};
  EXPECT_EQ(microaot_set_input(&zero, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_bind_input(&zero, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_bind_output(&zero, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_run_steps(&zero, 1), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_destroy(&zero), MICROAOT_STATUS_OK);
  Instance x;
  ASSERT_EQ(x.init(m), MICROAOT_STATUS_OK);
  ASSERT_EQ(x.set(1, 1), MICROAOT_STATUS_OK);
  microaot_context copy = x.ctx;  // a copy points at the original's slots: refused until init
  EXPECT_EQ(microaot_run(&copy), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(microaot_set_input(&copy, 0, buffer, kBytes), MICROAOT_STATUS_BAD_STATE);
  // From inside its own run (a hook), every call on the context is refused, init and destroy included.
  during_step1 = [&] {
    void* in = nullptr;
    EXPECT_EQ(microaot_init(&x.ctx, &m, x.slots, x.arena, sizeof x.arena), MICROAOT_STATUS_BAD_STATE);
    EXPECT_EQ(microaot_destroy(&x.ctx), MICROAOT_STATUS_BAD_STATE);
    EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_BAD_STATE);
    EXPECT_EQ(microaot_run_steps(&x.ctx, 1), MICROAOT_STATUS_BAD_STATE);
    EXPECT_EQ(microaot_input_ptr(&x.ctx, 0, &in, nullptr), MICROAOT_STATUS_BAD_STATE);
  };
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_OK);
  EXPECT_EQ(x.output(), expected(1, 1));
}

TEST(Executor, InitChecksTheArena) {
  microaot_model m = make_model(true);
  Instance x;
  EXPECT_EQ(microaot_init(&x.ctx, &m, x.slots, x.arena, sizeof x.arena - 1), MICROAOT_STATUS_ARENA_TOO_SMALL);
  EXPECT_EQ(microaot_init(&x.ctx, &m, x.slots, x.arena + 1, sizeof x.arena), MICROAOT_STATUS_ARENA_MISALIGNED);
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_EQ(x.init(m, false), MICROAOT_STATUS_OK);  // the static arena
  EXPECT_EQ(x.ctx.arena, static_arena + kHeader);
  m.static_arena = nullptr;
  EXPECT_EQ(x.init(m, false), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_init(nullptr, &m, x.slots, x.arena, sizeof x.arena), MICROAOT_STATUS_NULL_POINTER);
}

TEST(Executor, RunOnceWritesRunsAndReads) {
  const microaot_model m = make_model(true);
  Instance x;
  uint8_t in0[kBytes] = {6, 6, 6, 6}, in1[kBytes] = {5, 1, 2, 3}, out[kBytes] = {};
  void* const inputs[] = {in0, in1};
  void* const outputs[] = {out};
  ASSERT_EQ(microaot_run_once(&x.ctx, &m, x.slots, inputs, outputs), MICROAOT_STATUS_OK);
  EXPECT_EQ(std::vector<uint8_t>(out, out + kBytes), expected(6, 5));
  EXPECT_EQ(microaot_run(&x.ctx), MICROAOT_STATUS_BAD_STATE);  // destroyed
  const microaot_model bound = make_model(false);
  ASSERT_EQ(microaot_run_once_bound(&x.ctx, &bound, x.slots, inputs, outputs), MICROAOT_STATUS_OK);
  EXPECT_EQ(std::vector<uint8_t>(out, out + kBytes), expected(6, 5));
  EXPECT_EQ(microaot_run_once(&x.ctx, &m, x.slots, nullptr, outputs), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_EQ(microaot_run_once_bound(&x.ctx, &bound, x.slots, inputs, nullptr), MICROAOT_STATUS_NULL_POINTER);
}

TEST(Executor, EveryStatusHasItsOwnText) {
  std::vector<std::string> texts;
  for (int s = MICROAOT_STATUS_OK; s <= MICROAOT_STATUS_MISSING_KERNEL; ++s) {
    const std::string text = microaot_status_string(static_cast<microaot_status>(s));
    EXPECT_FALSE(text.empty());
    for (const std::string& other : texts) EXPECT_NE(text, other);
    texts.push_back(text);
  }
  EXPECT_STREQ(microaot_status_string(static_cast<microaot_status>(MICROAOT_STATUS_MISSING_KERNEL + 1)), "unknown status");
  EXPECT_STREQ(microaot_status_string(static_cast<microaot_status>(-1)), "unknown status");
  EXPECT_STREQ(microaot_status_string(MICROAOT_STATUS_ARENA_CLOBBERED), "arena clobbered by another context");
}

}  // namespace
