// The executor tests' hand-made models: a descriptor with its I/O in the arena (16-byte header and alignment),
// one pool and no state, which each test file then changes where its model differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "microaot/executor.h"

constexpr uint32_t kTestArenaHeader = 16;  // the arena's record of its last writer

template <size_t kInputs, size_t kOutputs>
microaot_model arena_test_model(uint32_t arena_size, const microaot_io_desc (&inputs)[kInputs],
                                const microaot_io_desc (&outputs)[kOutputs], uint32_t num_steps,
                                microaot_step_fn run_step) {
  microaot_model m;
  std::memset(&m, 0, sizeof m);
  m.arena_header = kTestArenaHeader;
  m.arena_size = m.arena_header + arena_size;
  m.arena_align = 16;
  m.io_align = 1;
  m.num_inputs = static_cast<uint32_t>(kInputs);
  m.num_outputs = static_cast<uint32_t>(kOutputs);
  m.num_steps = num_steps;
  m.num_pools = 1;
  m.io_in_arena = 1;
  m.inputs = inputs;
  m.outputs = outputs;
  m.run_step = run_step;
  return m;
}
