#include "memory/plan_check.h"

#include <algorithm>
#include <map>
#include <utility>

namespace microaot {

namespace {

std::string name(const BufferRecord& r) {
  if (r.kind == BufferKind::kScratch) return "scratch of op " + std::to_string(scratch_step(r));
  return "tensor " + std::to_string(r.tensor_id);
}

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

// Why permit k is malformed, or "" when it is well formed.
std::string permit_problem(const std::vector<BufferRecord>& records, size_t k, const OverlapPermit& p) {
  std::string head = "overlap permit " + std::to_string(k);
  if (p.output >= records.size() || p.input >= records.size()) {
    return head + " refers to record " + std::to_string(std::max(p.output, p.input)) + " of " +
           std::to_string(records.size());
  }
  const BufferRecord& out = records[p.output];
  const BufferRecord& in = records[p.input];
  head += " (" + name(out) + " over " + name(in) + ")";
  if (p.output == p.input) return head + " names the same buffer twice";
  if (out.kind != BufferKind::kTensor || in.kind != BufferKind::kTensor) return head + " involves a scratch buffer";
  if (in.last_op != out.first_op) {
    return head + ": " + name(in) + " dies at op " + std::to_string(in.last_op) + ", not at op " +
           std::to_string(out.first_op) + " where " + name(out) + " is produced";
  }
  return "";
}

// Deliberately not the planners' lifetimes_intersect(): the oracle shares no logic with what it checks.
bool live_together(const BufferRecord& a, const BufferRecord& b) {
  return !(a.last_op < b.first_op || b.last_op < a.first_op);
}

bool bytes_intersect(int64_t a_offset, int64_t a_size, int64_t b_offset, int64_t b_size) {
  if (a_size <= 0 || b_size <= 0) return false;
  return a_offset < b_offset + b_size && b_offset < a_offset + a_size;
}

using PermitTable = std::multimap<std::pair<size_t, size_t>, int64_t>;  // (output, input) -> max_shift

// True when a permit lets `out` overlap `in` at these offsets; when a permit exists but the shift is too
// large, `refusal` says so.
bool permitted(const PermitTable& permits, size_t out, size_t in, const std::vector<int64_t>& offsets,
               std::string& refusal, const std::vector<BufferRecord>& records) {
  auto range = permits.equal_range({out, in});
  for (auto it = range.first; it != range.second; ++it) {
    int64_t shift = offsets[out] - offsets[in];
    if (shift <= it->second) return true;
    refusal = "; " + name(records[out]) + " is written over " + name(records[in]) + " at shift " +
              std::to_string(shift) + ", above the permitted " + std::to_string(it->second);
  }
  return false;
}

void check_overlaps(const PlanRequest& request, const MemoryPlan& plan, const PermitTable& permits,
                    std::vector<std::string>& problems) {
  const std::vector<BufferRecord>& records = request.records;
  // All pairs: quadratic, but simple enough to trust as an oracle, and fast for a few thousand buffers.
  for (size_t i = 0; i < records.size(); ++i) {
    for (size_t j = i + 1; j < records.size(); ++j) {
      const BufferRecord& a = records[i];
      const BufferRecord& b = records[j];
      if (!live_together(a, b) || !bytes_intersect(plan.offsets[i], a.size, plan.offsets[j], b.size)) continue;
      std::string refusal;
      if (permitted(permits, i, j, plan.offsets, refusal, records)) continue;
      if (permitted(permits, j, i, plan.offsets, refusal, records)) continue;
      problems.push_back(span(a, plan.offsets[i]) + " overlaps " + span(b, plan.offsets[j]) +
                         " while both are live" + refusal);
    }
  }
}

}  // namespace

std::vector<std::string> check_plan(const PlanRequest& request, const MemoryPlan& plan) {
  const std::vector<BufferRecord>& records = request.records;
  std::vector<std::string> problems;
  if (plan.offsets.size() != records.size()) {
    problems.push_back("the plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                       std::to_string(records.size()) + " buffers");
    return problems;
  }
  if (plan.arena_size < 0) problems.push_back("negative arena size " + std::to_string(plan.arena_size));
  for (size_t i = 0; i < records.size(); ++i) check_buffer(records[i], plan.offsets[i], plan.arena_size, problems);
  PermitTable permits;
  for (size_t k = 0; k < request.permits.size(); ++k) {
    const OverlapPermit& p = request.permits[k];
    std::string problem = permit_problem(records, k, p);
    if (problem.empty()) {
      permits.emplace(std::make_pair(p.output, p.input), p.max_shift);
    } else {
      problems.push_back(problem);
    }
  }
  check_overlaps(request, plan, permits, problems);
  if (problems.size() > kMaxPlanProblems) {
    size_t more = problems.size() - kMaxPlanProblems;
    problems.resize(kMaxPlanProblems);
    problems.push_back("... and " + std::to_string(more) + " more problems");
  }
  return problems;
}

}  // namespace microaot
