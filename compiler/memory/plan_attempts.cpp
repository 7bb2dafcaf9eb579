#include "memory/plan_attempts.h"

#include "memory/in_place.h"

namespace microaot {

namespace {

// A step's scratch lives over the step it runs in; `step` names it (memory_map.h, the reports).
BufferRecord scratch_record(const RequestParts& parts, int64_t bytes, size_t step) {
  BufferRecord r;
  r.kind = BufferKind::kScratch;
  r.size = align_up(bytes, parts.scratch_alignment);
  r.alignment = parts.scratch_alignment;
  r.first_op = r.last_op = parts.runs_in[step];
  r.step = static_cast<int>(step);
  return r;
}

std::vector<OverlapPermit> candidate_permits(const RequestParts& parts) {
  std::vector<OverlapPermit> permits;
  for (const InPlaceCandidate& c : parts.candidates) permits.push_back(c.permit);
  return permits;
}

}  // namespace

PlanRequest assemble_request(const RequestParts& parts, const std::vector<bool>& use, std::vector<int>& scratch_of) {
  MICROAOT_CHECK(use.size() == parts.candidates.size() && parts.runs_in.size() == parts.step_scratch.size(),
                 "assemble_request: parts of different lengths");
  PlanRequest request{parts.tensors, {}};
  std::vector<int64_t> scratch_bytes = parts.step_scratch;
  for (size_t i = 0; i < parts.candidates.size(); ++i) {
    if (!use[i]) continue;
    request.permits.push_back(parts.candidates[i].permit);
    scratch_bytes[parts.candidates[i].step] += parts.candidates[i].scratch_bytes;
  }
  request.permits.insert(request.permits.end(), parts.chain_permits.begin(), parts.chain_permits.end());
  scratch_of.assign(scratch_bytes.size(), -1);
  for (size_t step = 0; step < scratch_bytes.size(); ++step) {
    if (scratch_bytes[step] == 0) continue;
    scratch_of[step] = static_cast<int>(request.records.size());
    request.records.push_back(scratch_record(parts, scratch_bytes[step], step));
  }
  return request;
}

int64_t placed_bytes(const MemoryPlan& plan) { return plan.arena_size; }

int64_t placed_bytes(const PooledPlan& plan) {
  int64_t total = 0;
  for (int64_t used : plan.used) total += used;
  return total;
}

std::vector<bool> candidates_used(const RequestParts& parts, const std::vector<bool>& offered,
                                  const PlanRequest& request, const MemoryPlan& plan) {
  return permits_used(candidate_permits(parts), offered, request, plan);
}

std::vector<bool> candidates_used(const RequestParts& parts, const std::vector<bool>& offered,
                                  const PlanRequest& request, const PooledPlan& plan) {
  MemoryPlan offsets;
  offsets.offsets = plan.offsets;
  return permits_used(candidate_permits(parts), offered, request, offsets, plan.pool);
}

}  // namespace microaot
