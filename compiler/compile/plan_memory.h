// The memory stage of the compile: lifetimes + kernel scratch + in-place permits -> planner -> checker,
// then the kernel variants that the chosen overlaps require (model.planned_variants).
#pragma once

#include "compile/compile_model.h"

namespace microaot {

// Fills model.buffers, model.permits, model.plan, model.planner_results (one arena) or model.pool_of,
// pool_used and pool_planners (--pool), model.scratch_buffer, and model.planned_variants: the overlap variant
// for calls whose output overlaps their input (choose_kernels gives it to them). Throws CompileError when the plan does not
// fit the RAM budget or the pools.
void plan_model_memory(CompiledModel& model);

// Bytes of the input/output buffers outside the arena (--io-in-arena off), each aligned; 0 otherwise.
int64_t io_buffer_bytes_outside(const CompiledModel& model);

// Bytes at the start of the arena that record which context wrote it last (microaot/executor.h): a
// pointer, 8 bytes rounded up to the alignment so the planned offsets after it stay aligned; 0 when
// the model has no arena.
int64_t arena_header_bytes(const CompiledModel& model);

// RAM the plan takes, as the application provides it and --ram-budget counts it: the arena with its header
// (NAME_ARENA_SIZE), the further pools and the I/O buffers outside the arena.
int64_t planned_ram_bytes(const CompiledModel& model);

// Bytes of two buffers' overlap in the plan (0 when disjoint).
int64_t overlap_bytes(const CompiledModel& model, size_t a, size_t b);

}  // namespace microaot
