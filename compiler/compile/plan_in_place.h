// In-place reuse in the compile: the options the model's ops offer with the kernels chosen, as candidates of
// the planner's attempts (memory/plan_attempts.h), and the kernel variants the chosen plan then requires.
#pragma once

#include <vector>

#include "compile/compile_model.h"
#include "memory/plan_attempts.h"

namespace microaot {

struct InPlaceCandidates {
  std::vector<InPlaceCandidate> candidates;
  std::vector<KernelVariant> variants;  // parallel: the variant the candidate's call runs when the plan uses it
};

// The options the ops offer (outside fused chains, without an empty tensor, of a variant the chosen kernel has)
// that pick_in_place accepts over model.buffers, with the scratch their flavor needs.
InPlaceCandidates in_place_candidates(const CompiledModel& model);

// The parts of every attempt's request over `tensors` (model.chains applied): each call's own scratch, the step
// it runs in, the chains' permits, and `candidates`.
RequestParts request_parts(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                           const std::vector<InPlaceCandidate>& candidates);

// model.planned_variants: the variant of each candidate the plan uses (choose_kernels gives it to the call; a
// variant other than plain takes the planned scratch as its last argument), plain elsewhere.
void record_planned_variants(CompiledModel& model, const InPlaceCandidates& in_place, const std::vector<bool>& used);

}  // namespace microaot
