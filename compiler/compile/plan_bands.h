// Fused bands in the compile (docs/tiling.md): which chains of lowered calls may run band by band, what
// their line buffers do to the tensor records, and the choice among them by the cost model (memory/bands.h).
#pragma once

#include <vector>

#include "compile/compile_model.h"

namespace microaot {

// Every chain the AOT executor could run band by band: each sub-chain of two or more consecutive
// row-streamable calls (a convolution, depthwise convolution or windowed pool over one image, each taking the
// previous one's output, which nothing else reads), at each band height. The cost model credits the layers
// whose in-place variant the untiled plan runs (model.planned_variants, set by planning without chains).
std::vector<FusedChain> band_candidates(const CompiledModel& model);

// The tensor records with `chains` applied: a chain runs in its first step (the later ones do nothing), so
// every lifetime maps its steps to that one, and each intermediate map shrinks to its line buffer.
std::vector<BufferRecord> banded_records(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                                         const std::vector<FusedChain>& chains);

// The permit to write chain c's output over the rows of its input that its later bands no longer read
// (bands_output_shift), when the input dies in the chain (a graph input too: run() may overwrite inputs);
// `records` are the banded ones. False when there is none.
bool chain_permit(const CompiledModel& model, const std::vector<BufferRecord>& records, const FusedChain& c,
                  OverlapPermit& permit);

// The bound the choice minimizes: the classic bound of the banded records, where each chain's output and
// input count as the bytes they span together at the permitted shift.
int64_t banded_bound(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                     const std::vector<FusedChain>& chains);

// Whether a tensor's storage is a chain's intermediate map, which lives only in a line buffer.
bool in_line_buffer(const CompiledModel& model, int tensor_id);

// The step in which `step` runs: its chain's first, or itself.
int band_step(const std::vector<FusedChain>& chains, int step);

// The instructions the model takes untiled, as the cost model counts them (its multiply-accumulates).
int64_t base_instructions(const CompiledModel& model);

// A step outside the chains whose kernel variant differs from the untiled plan's (model.untiled_variants): the
// plan with chains packs tighter and the step runs its in-place variant where the untiled plan did not (or
// the reverse). The cost model prices the variant (in_place_variant_cost of the step's family, over its input
// map): `estimated` is positive for a switch to the in-place variant, negative for a switch back to plain.
struct VariantSwitch {
  int step = 0;
  BandFamily family = BandFamily::kConv;
  int64_t input_bytes = 0;
  bool to_in_place = false;
  int64_t estimated = 0;
};
std::vector<VariantSwitch> variant_switches(const CompiledModel& model);

// What the cost model predicts the placed plan costs beyond the untiled one: its chains' estimates and the
// variant switches outside them. Candidate plans compare on it.
int64_t estimated_extra_instructions(const CompiledModel& model);

// The chains that bring banded_bound lowest within `max_extra` estimated instructions, added greedily by bytes
// saved per extra instruction (an added chain replaces the chosen ones it shares a step with, or cuts them to
// their steps before and after it); stops as soon as
// the bound is at most `target_bytes` (0: as low as the cost allows).
std::vector<FusedChain> choose_bands(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                                     const std::vector<FusedChain>& candidates, int64_t max_extra,
                                     int64_t target_bytes);

}  // namespace microaot
