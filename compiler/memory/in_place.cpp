#include "memory/in_place.h"

#include <algorithm>
#include <map>

namespace microaot {

namespace {

std::map<int, size_t> record_of_tensor(const std::vector<BufferRecord>& records) {
  std::map<int, size_t> index;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].kind == BufferKind::kTensor) index[records[i].tensor_id] = i;
  }
  return index;
}

bool already_picked(const std::vector<InPlacePick>& picks, size_t output, size_t input) {
  return std::any_of(picks.begin(), picks.end(), [&](const InPlacePick& p) {
    return p.permit.output == output && p.permit.input == input;
  });
}

}  // namespace

std::vector<InPlacePick> pick_in_place(const std::vector<BufferRecord>& records,
                                       const std::vector<InPlaceOffer>& offers) {
  std::vector<InPlacePick> picks;
  const std::map<int, size_t> index = record_of_tensor(records);
  for (size_t i = 0; i < offers.size(); ++i) {
    const InPlaceOffer& o = offers[i];
    if (o.input_storage == o.output_storage || o.touches_interface) continue;
    const auto in = index.find(o.input_storage);
    const auto out = index.find(o.output_storage);
    if (in == index.end() || out == index.end()) continue;  // constants
    const int step = static_cast<int>(o.step);
    if (records[in->second].last_op != step || records[out->second].first_op != step) continue;
    if (already_picked(picks, out->second, in->second)) continue;
    picks.push_back({i, OverlapPermit{out->second, in->second, o.max_shift}});
  }
  return picks;
}

int64_t planned_overlap(const PlanRequest& request, const MemoryPlan& plan, const std::vector<size_t>& pool_of,
                        size_t a, size_t b) {
  if (!pool_of.empty() && pool_of[a] != pool_of[b]) return 0;
  const int64_t begin = std::max(plan.offsets[a], plan.offsets[b]);
  const int64_t end = std::min(plan.offsets[a] + request.records[a].size, plan.offsets[b] + request.records[b].size);
  return std::max<int64_t>(0, end - begin);
}

std::vector<bool> permits_used(const std::vector<OverlapPermit>& permits, const std::vector<bool>& offered,
                               const PlanRequest& request, const MemoryPlan& plan,
                               const std::vector<size_t>& pool_of) {
  std::vector<bool> used(permits.size(), false);
  for (size_t i = 0; i < permits.size(); ++i) {
    used[i] = offered[i] && planned_overlap(request, plan, pool_of, permits[i].output, permits[i].input) > 0;
  }
  return used;
}

}  // namespace microaot
