// The records memory planners work on: one per buffer that needs arena storage, and the plan that places them.
// Planners and the checker see only these records, never the graph, so they can be tested on synthetic input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace microaot {

enum class BufferKind {
  kTensor,   // a tensor's storage (aliases are folded into their owner)
  kScratch,  // a kernel's temporary, live during one op only
};

// One buffer to place. Lifetimes are inclusive positions in the graph's op execution order; two buffers
// conflict (may not share bytes) when their [first_op, last_op] intervals intersect.
struct BufferRecord {
  int tensor_id = -1;     // kTensor: the tensor that owns the storage; kScratch: -1
  int64_t size = 0;       // bytes
  int64_t alignment = 1;  // the offset must be a multiple of this (> 0)
  int first_op = 0;
  int last_op = 0;
  BufferKind kind = BufferKind::kTensor;
  int step = -1;  // kScratch: the step whose kernel takes it, when not first_op (a fused chain runs it earlier)
};

// The step a scratch buffer belongs to (its name in the reports and memory_map.h).
inline int scratch_step(const BufferRecord& r) { return r.step >= 0 ? r.step : r.first_op; }

// In-place reuse: the op at records[output].first_op may write its output over records[input], which dies
// at that op, because its kernel never writes ahead of what it still has to read. Two buffers with a
// permit may share bytes only when offset(output) - offset(input) <= max_shift (bytes, may be negative);
// without a permit, conflicting buffers never share a byte.
struct OverlapPermit {
  size_t output = 0;  // index into the records
  size_t input = 0;   // index into the records
  int64_t max_shift = 0;
};

// Everything a planner sees.
struct PlanRequest {
  std::vector<BufferRecord> records;
  std::vector<OverlapPermit> permits;
};

// Where each buffer goes: offsets[i] is the byte offset in the arena of records[i].
struct MemoryPlan {
  std::vector<int64_t> offsets;  // parallel to the records
  int64_t arena_size = 0;        // bytes; at least the end of every buffer
  std::string planner;           // the registered name of the planner that made it
  bool proven_optimal = false;   // no valid plan of these records has a smaller arena
};

// Smallest multiple of `alignment` (> 0) that is >= value (>= 0).
inline int64_t align_up(int64_t value, int64_t alignment) {
  MICROAOT_CHECK(alignment > 0 && value >= 0, "align_up needs a positive alignment and a non-negative value");
  return (value + alignment - 1) / alignment * alignment;
}

// True when the two buffers are live at a common op.
inline bool lifetimes_intersect(const BufferRecord& a, const BufferRecord& b) {
  return a.first_op <= b.last_op && b.first_op <= a.last_op;
}

}  // namespace microaot
