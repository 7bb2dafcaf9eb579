// Start orders that keep in-place chains together. Lowest fit places a buffer as low as possible, so when
// an input of a chain (A -> B -> C, each output allowed to start at most max_shift above its input) is
// placed before its output, the output sinks to the bottom of the arena and the next link, which may have
// to start below it (negative max_shift: depthwise rows), no longer fits over it. Placing each chain from
// its last output backwards lets lowest fit put every input exactly where its output's shift allows.
#include <algorithm>
#include <numeric>

#include "memory/placement.h"
#include "memory/planners.h"

namespace microaot {

namespace {

// Union-find over the records joined by permits.
size_t root_of(std::vector<size_t>& parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// The members of one group, outputs before their inputs (Kahn's algorithm); among the ready ones the
// latest born first, then `rank` (the base order). A cycle (only possible when buffers are born and die
// at the same op) is broken by taking the best remaining member.
std::vector<size_t> outputs_first(const PlacementContext& context, const std::vector<size_t>& members,
                                  const std::vector<size_t>& rank) {
  std::vector<size_t> waiting(context.size(), 0);  // outputs over x not yet emitted
  for (const OverlapPermit& p : context.permits()) ++waiting[p.input];
  const auto better = [&](size_t a, size_t b) {
    if (context.record(a).first_op != context.record(b).first_op) {
      return context.record(a).first_op > context.record(b).first_op;
    }
    return rank[a] < rank[b];
  };
  std::vector<size_t> left = members, order;
  while (!left.empty()) {
    auto pick = left.end();
    for (auto it = left.begin(); it != left.end(); ++it) {
      if (waiting[*it] == 0 && (pick == left.end() || better(*it, *pick))) pick = it;
    }
    if (pick == left.end()) pick = std::min_element(left.begin(), left.end(), better);  // a cycle
    const size_t x = *pick;
    left.erase(pick);
    order.push_back(x);
    for (const OverlapPermit& p : context.permits()) {
      if (p.output == x && waiting[p.input] > 0) --waiting[p.input];
    }
  }
  return order;
}

}  // namespace

std::vector<size_t> permit_cluster_order(const PlacementContext& context, const std::vector<size_t>& base) {
  if (!context.has_permits()) return base;
  const size_t n = context.size();
  std::vector<size_t> parent(n), rank(n);
  std::iota(parent.begin(), parent.end(), size_t{0});
  for (size_t k = 0; k < base.size(); ++k) rank[base[k]] = k;
  for (const OverlapPermit& p : context.permits()) parent[root_of(parent, p.output)] = root_of(parent, p.input);
  std::vector<std::vector<size_t>> groups(n);
  for (size_t x : base) groups[root_of(parent, x)].push_back(x);
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t x : base) {
    std::vector<size_t>& group = groups[root_of(parent, x)];
    if (group.empty()) continue;  // already emitted with its first member
    for (size_t y : group.size() == 1 ? group : outputs_first(context, group, rank)) order.push_back(y);
    group.clear();
  }
  return order;
}

std::vector<size_t> best_start_order(const PlacementContext& context) {
  std::vector<std::vector<size_t>> starts = {greedy_by_size_order(context.request().records),
                                             greedy_by_conflicts_order(context)};
  if (context.has_permits()) {
    starts.push_back(permit_cluster_order(context, starts[0]));
    starts.push_back(permit_cluster_order(context, starts[1]));
  }
  size_t best = 0;
  int64_t best_arena = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t arena = place_in_order(context, starts[k], "").arena_size;
    if (k == 0 || arena < best_arena) {
      best = k;
      best_arena = arena;
    }
  }
  return starts[best];
}

}  // namespace microaot
