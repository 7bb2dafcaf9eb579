// The independent plan checker: verifies any plan against its records without knowing which planner made
// it. It is the oracle of every planner test and the compiler's last guard before codegen.
#pragma once

#include <string>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

// Every problem found, one sentence each naming the tensor ids involved; empty means the plan is valid.
// Checks: well-formed records (size >= 0, alignment > 0, first_op <= last_op), one offset per record,
// offsets non-negative and aligned, every buffer inside [0, arena_size), and no two buffers with
// intersecting lifetimes sharing a byte (empty buffers share nothing). Long lists are cut after
// kMaxPlanProblems entries plus one summary line.
constexpr size_t kMaxPlanProblems = 50;
std::vector<std::string> check_plan(const std::vector<BufferRecord>& records, const MemoryPlan& plan);

}  // namespace microaot
