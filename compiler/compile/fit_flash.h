// --flash-budget: the flash the model's library may take (weights + an estimate of its code), and at
// --optimize speed which packed layers get their weights widened to int16 within it (docs/flash-budget.md).
// Widening doubles a packed layer's weight bytes and saves about one instruction per four MACs; the layers
// that save the most instructions per byte are widened first, each that still fits.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "memory/bands.h"

namespace microaot {

// One packed layer's widening: what it costs and what it saves.
struct WidenCandidate {
  size_t step = 0;
  int64_t bytes = 0;         // flash the int16 form adds over the int8 one
  int64_t instructions = 0;  // instructions per inference it saves (estimate: MACs / 4)
};

// The candidates to widen within `room` bytes: by instructions saved per byte (then by step), each that
// still fits in what is left. Returns their steps, ascending.
std::set<size_t> choose_widened(const std::vector<WidenCandidate>& candidates, int64_t room);

// What fit_flash_budget decided, for network_info.txt and report.json.
struct FlashFit {
  int64_t budget = 0;          // 0: none given
  int64_t weights_bytes = 0;   // estimate of the chosen calls' constants
  int64_t code_bytes = 0;      // estimate of the library's code, the fused bands' included
  int64_t band_code_bytes = 0; // of which the fused bands' unrolled calls and their params
  bool per_layer = false;      // the widening was decided layer by layer (speed, DSP, a budget)
  std::vector<WidenCandidate> widened, kept_int8;
};

// The flash estimate of `calls` (chosen, not yet bound): the constants they read, derived ones included, and
// their params' arrays (at 4 bytes an element, the widest); the code: a base, each distinct kernel and call.
int64_t estimated_weights_bytes(const Graph& graph, const std::vector<KernelCall>& calls);
int64_t estimated_code_bytes(const std::vector<KernelCall>& calls);
// The code the fused bands add to NAME.c: each call and line-buffer move of their schedules (unrolled in the
// step function) and each distinct band shape's params struct.
int64_t estimated_band_code_bytes(const std::vector<FusedChain>& chains);

// Whether a chosen call runs a packed kernel with weights widened to int16.
bool has_int16_weights(const KernelCall& call);

// Chooses the calls (choose(int8_steps) gives the calls with those steps' packed weights kept int8) within
// `budget` bytes (0: no budget, every layer as the target's setting says). Throws CompileError, naming the
// sizes and what could help, when even every layer with int8 weights does not fit.
// `widening`: the setting widens packed weights (speed on a DSP cpu); `calls` holds choose({}) on entry and
// the chosen calls on return. `band_code_bytes`: code reserved for the fused bands of a plan made before
// (compile_model plans once, and fits again with that reserve when the bands' code breaks the budget).
using ChooseCalls = std::function<std::vector<KernelCall>(const std::set<size_t>& int8_steps)>;
FlashFit fit_flash_budget(const Graph& graph, const std::vector<int64_t>& macs, int64_t budget, bool widening,
                          const ChooseCalls& choose, std::vector<KernelCall>& calls, int64_t band_code_bytes = 0);

}  // namespace microaot
