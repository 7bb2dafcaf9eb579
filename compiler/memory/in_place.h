// In-place reuse: which of the ops' in-place options become overlap permits, and which of them a plan relies on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

// One in-place option of the op at `step`, as the graph-level checks (the handler, the kernel variant, chains,
// empty tensors) left it: the op may write the storage `output_storage` over `input_storage`.
struct InPlaceOffer {
  size_t step = 0;
  int input_storage = -1;
  int output_storage = -1;
  bool touches_interface = false;  // either storage is a graph input or output
  int64_t max_shift = 0;
};

// An accepted offer (index into the offers) and the permit it gives over the records.
struct InPlacePick {
  size_t offer = 0;
  OverlapPermit permit;
};

// The offers whose input really dies at their step and whose output is born there, in the order offered.
// Left out: an input that is its output, graph inputs and outputs (with --io-in-arena off they do not live in
// the arena at all, and keeping the input intact lets run() be repeated on the same input), storage without a
// tensor record (constants), and an offer of a pair already taken (x + x offers the same input twice).
std::vector<InPlacePick> pick_in_place(const std::vector<BufferRecord>& records,
                                       const std::vector<InPlaceOffer>& offers);

// Bytes two records share in `plan` (0 when disjoint); with `pool_of` (per record, --pool), 0 across pools.
int64_t planned_overlap(const PlanRequest& request, const MemoryPlan& plan, const std::vector<size_t>& pool_of,
                        size_t a, size_t b);

// Per permit: whether `offered` and the plan makes its two buffers share bytes (the plan relies on it).
std::vector<bool> permits_used(const std::vector<OverlapPermit>& permits, const std::vector<bool>& offered,
                               const PlanRequest& request, const MemoryPlan& plan,
                               const std::vector<size_t>& pool_of = {});

}  // namespace microaot
