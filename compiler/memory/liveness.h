// Lifetime analysis: which tensors need arena storage, how big, and between which ops they must stay intact.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

constexpr int64_t kDefaultArenaAlignment = 16;

// One record per non-constant tensor that owns storage (alias_of == -1) and is used at all, in increasing
// tensor id. Rules (op positions are indices into graph.ops, i.e. execution order):
// - first_op is the first op that writes or reads the storage (aliases included); a graph input, or storage
//   no op writes, is live from op 0 (its contents are set before run(), so op 0's outputs may not take it);
// - last_op is the last op that reads or writes it; a graph output (or an alias of one) lives until the
//   last op; a tensor no op reads still occupies its producer's step;
// - alignment is max(`alignment`, element size); size is the byte size rounded up to that alignment.
// Tensors that are constant, that alias constants, or that no op and no graph input/output mention get none.
std::vector<BufferRecord> analyze_lifetimes(const Graph& graph, int64_t alignment = kDefaultArenaAlignment);

// The largest sum of sizes of simultaneously live buffers — a lower bound on any valid arena — and the
// first op where it is reached. {0, -1} when there are no records.
struct PeakInfo {
  int64_t bytes = 0;
  int op = -1;
};
PeakInfo peak_live_bytes(const std::vector<BufferRecord>& records);
// The classic bound of the reports: peak_live_bytes of the tensor records only (kernel scratch exists
// only for in-place reuse, which the bound leaves out).
PeakInfo classic_bound(const std::vector<BufferRecord>& records);
// The records live at `op` that hold bytes, by index in record order (what the budget error lists at the peak).
std::vector<size_t> live_records_at(const std::vector<BufferRecord>& records, int op);

}  // namespace microaot
