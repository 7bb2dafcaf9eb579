// The choice among fused-band chains (memory/bands.h), a pure function over the tensor records and the
// candidates' effects (compile/plan_bands.cpp builds the request). A chain changes the bytes live only at its
// own steps, so each candidate's effect is a delta over them, found once, and a set of disjoint chains is
// scored by adding the deltas of the chains that change: no records copied per evaluation.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "memory/buffer.h"

namespace microaot {

// What a chain does to the tensor records: its steps run in the first, so every lifetime's end inside maps to
// it; its intermediate maps (tensor id, bytes) shrink to their line buffers; at its first step its output and
// input share `overlap_bytes` (the permit to write the output over the input rows no band reads any more).
struct ChainSpan {
  int first_step = 0;
  int last_step = 0;
  std::vector<std::pair<int, int64_t>> line_buffers;
  int64_t overlap_bytes = 0;
};

// The records with the spans' lifetimes and line buffers applied (spans disjoint).
std::vector<BufferRecord> band_records(const std::vector<BufferRecord>& records, const std::vector<ChainSpan>& spans);

// Tensor bytes live at each of `steps` + 1 steps, less each span's overlap at its first step: the score from
// scratch (records already banded by the spans).
std::vector<int64_t> live_bytes(const std::vector<BufferRecord>& records, const std::vector<ChainSpan>& spans,
                                size_t steps);

// live_bytes(band_records(records, {span}), {span}) - live_bytes(records, {}) at steps first_step.. last_step
// (zero elsewhere: a line buffer lives inside its chain, every mapped lifetime end lies in it).
std::vector<int64_t> span_delta(const std::vector<BufferRecord>& records, const ChainSpan& span);

// What the choice minimizes: the peak of the live bytes, then the sum of their squares (which falls when one
// of several equal peaks does): a double, exact below 2^53 and without overflow for maps of gigabytes.
struct LiveScore {
  int64_t peak = 0;
  double squares = 0;
};
LiveScore live_score(const std::vector<int64_t>& live);

// One candidate chain as the choice sees it; delta is span_delta (delta[k] at step first_step + k).
struct ChainOption {
  int first_step = 0;
  int last_step = 0;
  int64_t band_rows = 0;
  int pace = 0;  // candidates of one pace and band height cut into each other
  int64_t extra_instructions = 0;
  std::vector<int64_t> delta;
};

struct BandChoiceRequest {
  std::vector<int64_t> live;  // live_bytes of the records without chains
  std::vector<ChainOption> options;
  int64_t max_extra = 0;     // the most estimated extra instructions
  int64_t target_bytes = 0;  // stop once the peak is at most this (0: as low as the cost allows)
};

struct BandChoice {
  std::vector<int> options;  // indices into the request's options, their steps disjoint, by first step
  LiveScore score;
  int64_t extra_instructions = 0;
};

// Greedy: adds the option that lowers the peak most per extra instruction (at equal peak, the squares), either
// dropping the chosen ones it overlaps or cutting them to their steps before and after it where those are
// options of the same band height and pace. Both walks (with and without cuts: the greedy is not monotone) run;
// where both fit the target the cheaper wins, else the lower peak, then the cheaper.
BandChoice choose_chains(const BandChoiceRequest& request);

// A plan with chains as placed: its RAM and the cost model's extra instructions, the chains' and those of the
// variants the steps outside them switched (compile/plan_bands.h, estimated_extra_instructions).
struct PlacedBands {
  int64_t ram_bytes = 0;
  int64_t extra_instructions = 0;
};

// Under a budget: whether plan a is better than b. One that fits beats one that does not; of two that fit the
// fewer extra instructions win (then the smaller); of two that do not, the smaller (then the cheaper).
bool better_placed(const PlacedBands& a, const PlacedBands& b, int64_t budget);

}  // namespace microaot
