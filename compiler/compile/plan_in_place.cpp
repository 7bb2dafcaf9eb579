#include "compile/plan_in_place.h"

#include <algorithm>

#include "compile/plan_bands.h"
#include "kernels/kernel_registry.h"
#include "memory/arena_bounds.h"
#include "memory/in_place.h"
#include "ops/op_handler.h"
#include "ops/palette_weights.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

constexpr int64_t kScratchAlignment = 16;

// An op with an empty input or output has no bytes to share (and the row-wise bounds no rows to count).
bool touches_empty_tensor(const Graph& graph, const Op& op) {
  const auto empty = [&](int id) { return id != kNoTensor && graph.tensor(id).byte_size() == 0; };
  return std::any_of(op.inputs.begin(), op.inputs.end(), empty) ||
         std::any_of(op.outputs.begin(), op.outputs.end(), empty);
}

// Whether the step's in-place options are offered at all. A chain's steps run interleaved: its own permit
// (chain_permits) replaces theirs.
bool offers_in_place(const CompiledModel& model, size_t step) {
  const Op& op = model.graph.ops[step];
  if (op_handler(op.kind).in_place == nullptr || touches_empty_tensor(model.graph, op)) return false;
  return std::none_of(model.chains.begin(), model.chains.end(),
                      [&](const FusedChain& c) { return c.contains(static_cast<int>(step)); });
}

// The step's in-place options of a variant the chosen kernel has, with the storages they name.
void add_offers(const CompiledModel& model, size_t step, std::vector<InPlaceOffer>& offers,
                std::vector<InPlaceOption>& options) {
  const Graph& graph = model.graph;
  const Op& op = graph.ops[step];
  for (const InPlaceOption& option : op_handler(op.kind).in_place(graph, op)) {
    if (kernel_registry().find(model.calls[step].stem, option.variant) == nullptr) continue;
    MICROAOT_CHECK(option.input >= 0 && option.input < static_cast<int>(op.inputs.size()) && option.output >= 0 &&
                       option.output < static_cast<int>(op.outputs.size()),
                   "in-place option of " + describe_op(graph, op) + " names a missing tensor");
    const int in = op.inputs[option.input];
    if (in == kNoTensor) continue;
    const int in_storage = graph.storage_of(in);
    const int out_storage = graph.storage_of(op.outputs[option.output]);
    const bool interface = is_graph_interface(graph, in_storage) || is_graph_interface(graph, out_storage);
    offers.push_back({step, in_storage, out_storage, interface, option.max_shift});
    options.push_back(option);
  }
}

}  // namespace

InPlaceCandidates in_place_candidates(const CompiledModel& model) {
  std::vector<InPlaceOffer> offers;
  std::vector<InPlaceOption> options;
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    if (offers_in_place(model, step)) add_offers(model, step, offers, options);
  }
  InPlaceCandidates result;
  for (const InPlacePick& pick : pick_in_place(model.buffers, offers)) {
    const InPlaceOption& option = options[pick.offer];
    const size_t step = offers[pick.offer].step;
    int64_t scratch = option.scratch_bytes;
    // The DSP palette kernels' overlap flavors hold a chunk of output rows (a decode per chunk).
    if (option.variant == KernelVariant::kOverlap) scratch *= overlap_chunk_rows(model.calls[step]);
    result.candidates.push_back({step, pick.permit, scratch});
    result.variants.push_back(option.variant);
  }
  return result;
}

RequestParts request_parts(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                           const std::vector<InPlaceCandidate>& candidates) {
  RequestParts parts;
  parts.tensors = tensors;
  for (size_t step = 0; step < model.calls.size(); ++step) {
    parts.step_scratch.push_back(model.calls[step].scratch_bytes);
    parts.runs_in.push_back(band_step(model.chains, static_cast<int>(step)));
  }
  parts.candidates = candidates;
  for (const FusedChain& c : model.chains) {
    OverlapPermit permit;
    if (chain_permit(model, tensors, c, permit)) parts.chain_permits.push_back(permit);
  }
  parts.scratch_alignment = kScratchAlignment;
  return parts;
}

void record_planned_variants(CompiledModel& model, const InPlaceCandidates& in_place, const std::vector<bool>& used) {
  model.planned_variants.assign(model.calls.size(), KernelVariant::kPlain);
  for (size_t i = 0; i < in_place.candidates.size(); ++i) {
    if (!used[i] || in_place.variants[i] == KernelVariant::kPlain) continue;
    const size_t step = in_place.candidates[i].step;
    MICROAOT_CHECK(model.scratch_buffer[step] >= 0, "in-place variant without scratch");
    model.planned_variants[step] = in_place.variants[i];
  }
}

}  // namespace microaot
