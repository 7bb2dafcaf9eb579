// The independent plan checker: verifies any plan against its request without knowing which planner made
// it. It is the oracle of every planner test and the compiler's last guard before codegen.
#pragma once

#include <string>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

// Every problem found, one sentence each naming the buffers involved ("tensor 7", "scratch of op 3");
// empty means the plan is valid. Checks:
// - records: size >= 0, alignment > 0, first_op <= last_op; one offset per record;
// - permits: indices in range, output != input, both tensors (not scratch), and the input dies exactly at
//   the op that produces the output (records[input].last_op == records[output].first_op);
// - offsets non-negative and aligned, every buffer inside [0, arena_size);
// - no two buffers with intersecting lifetimes share a byte (empty buffers share nothing), unless a valid
//   permit for that (output, input) pair has offset(output) - offset(input) <= max_shift.
// Long lists are cut after kMaxPlanProblems entries plus one summary line.
constexpr size_t kMaxPlanProblems = 50;
std::vector<std::string> check_plan(const PlanRequest& request, const MemoryPlan& plan);

}  // namespace microaot
