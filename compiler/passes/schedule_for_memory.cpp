// Reorders the ops of a graph with branches (residual blocks, parallel heads) so that the largest set of
// simultaneously live activations is as small as possible. Every order tried is a topological order of
// the data flow, so the results do not change. A depth-first branch-and-bound over ready ops, with a node
// budget so that the compile stays fast and deterministic; the original order wins ties.
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "passes/pass.h"

namespace microaot {

namespace {

constexpr int64_t kNodeBudget = 200000;  // op placements tried; chains need one per op, branches more

// The data flow in terms of storage (aliases folded in): who produces and who reads each storage.
struct Flow {
  std::vector<int64_t> bytes;                  // per storage id; 0 for constants
  std::vector<std::vector<int>> reads, writes;  // per op: storage ids
  std::vector<int> readers;                    // per storage: number of reading ops
  std::vector<bool> preset;                    // graph inputs: live from the start
  std::vector<bool> pinned;                    // graph outputs: live until the end
  std::vector<std::vector<int>> preds;         // per op: ops it must follow
};

bool is_activation(const Graph& graph, int id) {
  return id != kNoTensor && !graph.tensor(graph.storage_of(id)).is_constant;
}

void add_unique(std::vector<int>& list, int value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

Flow build_flow(const Graph& graph) {
  const size_t n = graph.tensors.size();
  Flow flow{std::vector<int64_t>(n, 0), {}, {}, std::vector<int>(n, 0), std::vector<bool>(n, false),
            std::vector<bool>(n, false), {}};
  for (size_t id = 0; id < n; ++id) {
    // A variable lives in the persistent region: ordered like an activation, but no arena bytes.
    const bool arena = is_activation(graph, static_cast<int>(id)) && !graph.tensors[id].is_persistent;
    if (arena) flow.bytes[id] = graph.tensors[id].byte_size();
  }
  std::vector<int> producer(n, -1);
  for (size_t op = 0; op < graph.ops.size(); ++op) {
    std::vector<int> reads, writes;
    for (int id : graph.ops[op].inputs) {
      if (is_activation(graph, id)) add_unique(reads, graph.storage_of(id));
    }
    for (int id : graph.ops[op].outputs) {
      if (is_activation(graph, id)) add_unique(writes, graph.storage_of(id));
    }
    for (int s : reads) ++flow.readers[s];
    flow.reads.push_back(reads);
    flow.writes.push_back(writes);
  }
  for (int id : graph.inputs) flow.preset[graph.storage_of(id)] = true;
  for (int id : graph.outputs) flow.pinned[graph.storage_of(id)] = true;
  flow.preds.resize(graph.ops.size());
  // An op follows the last earlier writer of what it reads or writes, and the readers of what it writes.
  std::vector<std::vector<int>> earlier_readers(n);
  for (size_t op = 0; op < graph.ops.size(); ++op) {
    for (int s : flow.reads[op]) {
      if (producer[s] >= 0) add_unique(flow.preds[op], producer[s]);
    }
    for (int s : flow.writes[op]) {
      if (producer[s] >= 0) add_unique(flow.preds[op], producer[s]);
      for (int r : earlier_readers[s]) add_unique(flow.preds[op], r);
    }
    for (int s : flow.reads[op]) earlier_readers[s].push_back(static_cast<int>(op));
    for (int s : flow.writes[op]) producer[s] = static_cast<int>(op);
  }
  return flow;
}

class OrderSearch {
 public:
  explicit OrderSearch(const Flow& flow) : flow_(flow), ops_(flow.reads.size()) {}

  // Peak live bytes of one complete order.
  int64_t peak_of(const std::vector<int>& order) {
    reset();
    int64_t peak = live_;
    for (int op : order) peak = std::max(peak, apply(op));
    return peak;
  }

  std::vector<int> best_order(const std::vector<int>& start) {
    best_ = start;
    best_peak_ = peak_of(start);
    reset();
    current_.clear();
    nodes_ = 0;
    search(live_);
    return best_;
  }

 private:
  void reset() {
    live_ = 0;
    remaining_readers_ = flow_.readers;
    alive_.assign(flow_.bytes.size(), false);
    done_.assign(ops_, false);
    for (size_t s = 0; s < flow_.bytes.size(); ++s) {
      if (flow_.preset[s] && flow_.bytes[s] > 0) set_alive(static_cast<int>(s), true);
    }
  }

  void set_alive(int s, bool alive) {
    if (alive_[s] == alive) return;
    alive_[s] = alive;
    live_ += alive ? flow_.bytes[s] : -flow_.bytes[s];
  }

  // Runs `op`: its outputs become live, then inputs read for the last time die. Returns the live bytes
  // during the op.
  int64_t apply(int op) {
    done_[op] = true;
    for (int s : flow_.writes[op]) set_alive(s, true);
    for (int s : flow_.reads[op]) set_alive(s, true);  // storage nobody writes is set before run()
    const int64_t during = live_;
    for (int s : flow_.reads[op]) {
      if (--remaining_readers_[s] == 0 && !flow_.pinned[s]) set_alive(s, false);
    }
    for (int s : flow_.writes[op]) {
      if (remaining_readers_[s] == 0 && !flow_.pinned[s]) set_alive(s, false);
    }
    return during;
  }

  bool ready(int op) const {
    if (done_[op]) return false;
    for (int p : flow_.preds[op]) {
      if (!done_[p]) return false;
    }
    return true;
  }

  void search(int64_t peak) {
    if (peak >= best_peak_ || nodes_ >= kNodeBudget) return;
    if (current_.size() == ops_) {
      best_peak_ = peak;
      best_ = current_;
      return;
    }
    for (size_t op = 0; op < ops_; ++op) {
      if (!ready(static_cast<int>(op))) continue;
      ++nodes_;
      // Save what apply() changes, run the op, recurse, restore.
      const std::vector<bool> alive = alive_;
      const std::vector<int> readers = remaining_readers_;
      const int64_t live = live_;
      current_.push_back(static_cast<int>(op));
      const int64_t during = apply(static_cast<int>(op));
      search(std::max(peak, during));
      current_.pop_back();
      done_[op] = false;
      alive_ = alive;
      remaining_readers_ = readers;
      live_ = live;
    }
  }

  const Flow& flow_;
  size_t ops_;
  int64_t live_ = 0;
  std::vector<int> remaining_readers_;
  std::vector<bool> alive_, done_;
  std::vector<int> current_, best_;
  int64_t best_peak_ = 0;
  int64_t nodes_ = 0;
};

}  // namespace

bool schedule_for_memory(Graph& graph, PassContext& /*ctx*/) {
  if (graph.ops.size() < 3) return false;
  const Flow flow = build_flow(graph);
  std::vector<int> original(graph.ops.size());
  for (size_t i = 0; i < original.size(); ++i) original[i] = static_cast<int>(i);
  OrderSearch search(flow);
  const std::vector<int> order = search.best_order(original);
  if (order == original) return false;
  std::vector<Op> ops;
  for (int i : order) ops.push_back(graph.ops[i]);
  graph.ops = std::move(ops);
  return true;
}

}  // namespace microaot
