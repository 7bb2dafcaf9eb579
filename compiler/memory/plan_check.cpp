#include "memory/plan_check.h"

namespace microaot {

namespace {

std::string name(const BufferRecord& r) { return "tensor " + std::to_string(r.tensor_id); }

std::string span(const BufferRecord& r, int64_t offset) {
  return name(r) + " (ops " + std::to_string(r.first_op) + ".." + std::to_string(r.last_op) + ", bytes [" +
         std::to_string(offset) + ", " + std::to_string(offset + r.size) + "))";
}

// Problems of one buffer taken alone: its record, and its offset against alignment and arena.
void check_buffer(const BufferRecord& r, int64_t offset, int64_t arena_size, std::vector<std::string>& out) {
  if (r.size < 0) out.push_back(name(r) + " has negative size " + std::to_string(r.size));
  if (r.first_op > r.last_op) {
    out.push_back(name(r) + " has first_op " + std::to_string(r.first_op) + " after last_op " +
                  std::to_string(r.last_op));
  }
  if (r.alignment <= 0) {
    out.push_back(name(r) + " has non-positive alignment " + std::to_string(r.alignment));
  } else if (offset % r.alignment != 0) {
    out.push_back(name(r) + " offset " + std::to_string(offset) + " is not aligned to " +
                  std::to_string(r.alignment));
  }
  if (offset < 0) out.push_back(name(r) + " has negative offset " + std::to_string(offset));
  if (offset + r.size > arena_size) {
    out.push_back(name(r) + " ends at byte " + std::to_string(offset + r.size) + ", beyond the arena size " +
                  std::to_string(arena_size));
  }
}

// Deliberately not the planners' lifetimes_intersect(): the oracle shares no logic with what it checks.
bool live_together(const BufferRecord& a, const BufferRecord& b) {
  return !(a.last_op < b.first_op || b.last_op < a.first_op);
}

bool bytes_intersect(int64_t a_offset, int64_t a_size, int64_t b_offset, int64_t b_size) {
  if (a_size <= 0 || b_size <= 0) return false;
  return a_offset < b_offset + b_size && b_offset < a_offset + a_size;
}

}  // namespace

std::vector<std::string> check_plan(const std::vector<BufferRecord>& records, const MemoryPlan& plan) {
  std::vector<std::string> problems;
  if (plan.offsets.size() != records.size()) {
    problems.push_back("the plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                       std::to_string(records.size()) + " buffers");
    return problems;
  }
  if (plan.arena_size < 0) problems.push_back("negative arena size " + std::to_string(plan.arena_size));
  for (size_t i = 0; i < records.size(); ++i) check_buffer(records[i], plan.offsets[i], plan.arena_size, problems);
  // All pairs: quadratic, but simple enough to trust as an oracle, and fast for a few thousand buffers.
  for (size_t i = 0; i < records.size(); ++i) {
    for (size_t j = i + 1; j < records.size(); ++j) {
      const BufferRecord& a = records[i];
      const BufferRecord& b = records[j];
      if (!live_together(a, b) || !bytes_intersect(plan.offsets[i], a.size, plan.offsets[j], b.size)) continue;
      problems.push_back(span(a, plan.offsets[i]) + " overlaps " + span(b, plan.offsets[j]) +
                         " while both are live");
    }
  }
  if (problems.size() > kMaxPlanProblems) {
    size_t more = problems.size() - kMaxPlanProblems;
    problems.resize(kMaxPlanProblems);
    problems.push_back("... and " + std::to_string(more) + " more problems");
  }
  return problems;
}

}  // namespace microaot
