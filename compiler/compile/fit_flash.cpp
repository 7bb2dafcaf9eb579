#include "compile/fit_flash.h"

#include <algorithm>
#include <sstream>

#include "support/diagnostics.h"

namespace microaot {

namespace {
// The code estimate, from the M4 bench's libraries (docs/benchmarks.md: 2 to 16 KB of code for 1 to 31
// steps): generous, so that an image the estimate fits links.
constexpr int64_t kCodeBaseBytes = 4096;       // the executor's API, NAME.c's frame, platform.c
// Each distinct kernel, with the sources it includes: the packed k x k kernel with its three-row path and row
// sources is about 5 KB at -O2, the pools and depthwise ones 3 KB.
constexpr int64_t kCodePerKernelBytes = 3584;
constexpr int64_t kCodePerCallBytes = 64;      // each step's call and its params
// Fused bands (MobileNetV2-224 on the M4: 725 calls and moves in 18 KB of step function, 103 params structs
// of 88 bytes): generous too.
constexpr int64_t kCodePerBandActionBytes = 32;
constexpr int64_t kCodePerBandParamsBytes = 128;

const std::string kInt16Suffix = "_w16";  // ops/packed_weights.cpp names the int16 twin of a packed stem so

std::vector<WidenCandidate> candidates_of(const std::vector<KernelCall>& calls, const std::vector<int64_t>& macs) {
  std::vector<WidenCandidate> out;
  for (size_t step = 0; step < calls.size(); ++step) {
    if (!has_int16_weights(calls[step])) continue;
    // The int16 words are the int8 words' lanes split in two: the widening adds the int8 form's bytes.
    out.push_back({step, calls[step].derived[0].byte_size() / 2, macs[step] / 4});
  }
  return out;
}

std::string what_could_help(const Graph& graph, const std::vector<KernelCall>& calls, bool bands) {
  std::vector<std::pair<int64_t, size_t>> by_bytes;
  for (size_t step = 0; step < calls.size(); ++step) {
    std::vector<KernelCall> one = {calls[step]};
    by_bytes.push_back({estimated_weights_bytes(graph, one), step});
  }
  std::stable_sort(by_bytes.begin(), by_bytes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::ostringstream out;
  out << "\nThe largest weights:";
  for (size_t i = 0; i < std::min<size_t>(3, by_bytes.size()); ++i) {
    out << "\n  step " << by_bytes[i].second << ", " << describe_op(graph, graph.ops[by_bytes[i].second]) << ": "
        << by_bytes[i].first << " bytes";
  }
  out << "\nWhat could help:\n  --optimize size keeps every layer on the portable kernels (int8 weights, no packing padding)"
      << (bands ? "\n  --tiling off, or a larger --ram-budget: fewer fused-band calls unrolled in NAME.c" : "")
      << "\n  a part with more flash, or a model with fewer or narrower layers (pruned, or distilled)";
  return out.str();
}
}  // namespace

bool has_int16_weights(const KernelCall& call) {
  return !call.custom && !call.derived.empty() && call.stem.size() > kInt16Suffix.size() &&
         call.stem.compare(call.stem.size() - kInt16Suffix.size(), kInt16Suffix.size(), kInt16Suffix) == 0;
}

namespace {
// The candidates by instructions saved per byte, most first (then by step).
std::vector<WidenCandidate> by_worth(const std::vector<WidenCandidate>& candidates) {
  std::vector<WidenCandidate> order = candidates;
  std::stable_sort(order.begin(), order.end(), [](const WidenCandidate& a, const WidenCandidate& b) {
    // a saves more per byte than b: a.instructions / a.bytes > b.instructions / b.bytes, without division
    return static_cast<__int128>(a.instructions) * b.bytes > static_cast<__int128>(b.instructions) * a.bytes;
  });
  return order;
}

// The kept-int8 steps of `all` widened back, most worth first, while their bytes and the kernels they add (their
// stem in `widest`, the calls with every layer widened) fit in `room`; `calls` the current ones.
std::set<size_t> widened_back(const std::vector<WidenCandidate>& all, const std::vector<KernelCall>& widest,
                              const std::vector<KernelCall>& calls, std::set<size_t> int8_steps, int64_t room) {
  std::set<std::string> stems;
  for (const KernelCall& call : calls) stems.insert(call.stem);
  for (const WidenCandidate& c : by_worth(all)) {
    if (int8_steps.count(c.step) == 0) continue;
    const std::string& stem = widest[c.step].stem;
    const int64_t extra = c.bytes + (stems.count(stem) != 0 ? 0 : kCodePerKernelBytes);
    if (extra > room) continue;
    room -= extra;
    stems.insert(stem);
    int8_steps.erase(c.step);
  }
  return int8_steps;
}
}  // namespace

std::set<size_t> choose_widened(const std::vector<WidenCandidate>& candidates, int64_t room) {
  std::set<size_t> chosen;
  for (const WidenCandidate& c : by_worth(candidates)) {
    if (c.bytes > room) continue;
    room -= c.bytes;
    chosen.insert(c.step);
  }
  return chosen;
}

int64_t estimated_weights_bytes(const Graph& graph, const std::vector<KernelCall>& calls) {
  std::set<int> constants;
  int64_t total = 0;
  for (const KernelCall& call : calls) {
    for (int id : call.args) {
      if (id >= 0 && graph.tensor(id).is_constant) constants.insert(id);
    }
    for (const Tensor& t : call.derived) total += t.is_persistent ? 0 : t.byte_size();
    for (const ParamValue& v : call.params.values()) {  // per-channel arrays, at most 4 bytes an element
      total += 4 * static_cast<int64_t>(v.form == ParamValue::Form::kReals ? v.reals.size() : v.integers.size());
    }
  }
  for (int id : constants) total += graph.tensor(id).byte_size();
  return total;
}

int64_t estimated_code_bytes(const std::vector<KernelCall>& calls) {
  std::set<std::string> kernels;
  for (const KernelCall& call : calls) kernels.insert(call.stem);
  return kCodeBaseBytes + kCodePerKernelBytes * static_cast<int64_t>(kernels.size()) +
         kCodePerCallBytes * static_cast<int64_t>(calls.size());
}

int64_t estimated_band_code_bytes(const std::vector<FusedChain>& chains) {
  int64_t bytes = 0;
  for (const FusedChain& chain : chains) {
    bytes += kCodePerBandActionBytes * static_cast<int64_t>(chain.schedule.actions.size());
    for (size_t layer = 0; layer < chain.layers.size(); ++layer) {
      bytes += kCodePerBandParamsBytes * static_cast<int64_t>(band_shapes(chain.schedule, static_cast<int>(layer)).size());
    }
  }
  return bytes;
}

FlashFit fit_flash_budget(const Graph& graph, const std::vector<int64_t>& macs, int64_t budget, bool widening,
                          const ChooseCalls& choose, std::vector<KernelCall>& calls, int64_t band_code_bytes) {
  FlashFit fit;
  fit.budget = budget;
  fit.per_layer = widening && budget > 0;
  const std::vector<WidenCandidate> all = candidates_of(calls, macs);
  const std::vector<KernelCall> widest = calls;
  std::set<size_t> int8_steps;
  const auto code = [&]() { return estimated_code_bytes(calls) + band_code_bytes; };
  const auto estimate = [&]() { return estimated_weights_bytes(graph, calls) + code(); };
  while (budget > 0 && estimate() > budget) {
    const std::vector<WidenCandidate> widened = candidates_of(calls, macs);
    if (widened.empty()) {
      std::ostringstream out;
      out << "Flash budget exceeded. Required: " << estimate() << " bytes (weights "
          << estimated_weights_bytes(graph, calls) << " + code estimate " << code()
          << (band_code_bytes > 0 ? ", of which the fused bands' " + std::to_string(band_code_bytes) : "")
          << (widening ? ", every packed layer's weights int8" : "") << "), Available: " << budget << " bytes."
          << what_could_help(graph, calls, band_code_bytes > 0);
      throw CompileError(out.str());
    }
    int64_t widened_bytes = 0;
    for (const WidenCandidate& c : widened) widened_bytes += c.bytes;
    const std::set<size_t> keep = choose_widened(widened, budget - (estimate() - widened_bytes));
    const size_t before = int8_steps.size();
    for (const WidenCandidate& c : widened) {
      if (keep.count(c.step) == 0) int8_steps.insert(c.step);
    }
    if (int8_steps.size() == before) {  // the kernels the mix links outgrew the room: give up the least worth
      const WidenCandidate* worst = &widened[0];
      for (const WidenCandidate& c : widened) {
        if (static_cast<__int128>(c.instructions) * worst->bytes < static_cast<__int128>(worst->instructions) * c.bytes) worst = &c;
      }
      int8_steps.insert(worst->step);
    }
    calls = choose(int8_steps);
  }
  // The rounds above can overshoot (each mix links both forms' kernels): widen back what still fits, if the whole
  // estimate then agrees.
  if (!int8_steps.empty()) {
    const std::set<size_t> back = widened_back(all, widest, calls, int8_steps, budget - estimate());
    if (back != int8_steps) {
      std::vector<KernelCall> before = calls;
      calls = choose(back);
      if (estimate() <= budget) {
        int8_steps = back;
      } else {
        calls.swap(before);
      }
    }
  }
  for (const WidenCandidate& c : all) (int8_steps.count(c.step) ? fit.kept_int8 : fit.widened).push_back(c);
  fit.weights_bytes = estimated_weights_bytes(graph, calls);
  fit.code_bytes = code();
  fit.band_code_bytes = band_code_bytes;
  return fit;
}

}  // namespace microaot
