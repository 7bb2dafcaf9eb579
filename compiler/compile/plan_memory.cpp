#include "compile/plan_memory.h"

#include <algorithm>
#include <cstdint>

#include "codegen/emit.h"
#include "compile/plan_bands.h"
#include "kernels/kernel_registry.h"
#include "memory/arena_bounds.h"
#include "memory/band_choice.h"
#include "memory/in_place.h"
#include "memory/liveness.h"
#include "memory/plan_check.h"
#include "memory/plan_errors.h"
#include "memory/planners.h"
#include "memory/pools.h"
#include "ops/palette_weights.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

constexpr int64_t kScratchAlignment = 16;

// An in-place option that passed the checks (memory/in_place.h), tied to its records.
struct Candidate {
  size_t step = 0;
  OverlapPermit permit;
  InPlaceOption option;
};

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

// The in-place options the ops offer and pick_in_place accepts, with the scratch their flavor needs.
std::vector<Candidate> in_place_candidates(const CompiledModel& model) {
  std::vector<InPlaceOffer> offers;
  std::vector<InPlaceOption> options;
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    if (offers_in_place(model, step)) add_offers(model, step, offers, options);
  }
  std::vector<Candidate> candidates;
  for (const InPlacePick& pick : pick_in_place(model.buffers, offers)) {
    candidates.push_back({offers[pick.offer].step, pick.permit, options[pick.offer]});
    // The DSP palette kernels' overlap flavors hold a chunk of output rows (a decode per chunk).
    if (options[pick.offer].variant == KernelVariant::kOverlap) {
      candidates.back().option.scratch_bytes *= overlap_chunk_rows(model.calls[candidates.back().step]);
    }
  }
  return candidates;
}

// A step's scratch lives over the step (a chain's: over the step the chain runs in).
BufferRecord scratch_record(const CompiledModel& model, int64_t bytes, size_t step) {
  BufferRecord r;
  r.kind = BufferKind::kScratch;
  r.size = align_up(bytes, kScratchAlignment);
  r.alignment = kScratchAlignment;
  r.first_op = r.last_op = band_step(model.chains, static_cast<int>(step));
  r.step = static_cast<int>(step);
  return r;
}

// Records and permits for one attempt: the tensors, every kernel's own scratch, and the candidates in
// `use` with the scratch their in-place flavor needs. scratch_of[step] receives the scratch record index.
PlanRequest build_request(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                          const std::vector<Candidate>& candidates, const std::vector<bool>& use,
                          std::vector<int>& scratch_of) {
  PlanRequest request{tensors, {}};
  scratch_of.assign(model.calls.size(), -1);
  std::vector<int64_t> scratch_bytes(model.calls.size(), 0);
  for (size_t step = 0; step < model.calls.size(); ++step) scratch_bytes[step] = model.calls[step].scratch_bytes;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!use[i]) continue;
    request.permits.push_back(candidates[i].permit);
    // The overlap flavor's row follows the kernel's own scratch in the one buffer it is handed.
    scratch_bytes[candidates[i].step] += candidates[i].option.scratch_bytes;
  }
  for (const FusedChain& c : model.chains) {
    OverlapPermit permit;
    if (chain_permit(model, tensors, c, permit)) request.permits.push_back(permit);
  }
  for (size_t step = 0; step < model.calls.size(); ++step) {
    if (scratch_bytes[step] == 0) continue;
    scratch_of[step] = static_cast<int>(request.records.size());
    request.records.push_back(scratch_record(model, scratch_bytes[step], step));
  }
  return request;
}

MemoryPlan run_planner(const CompiledModel& model, const PlanRequest& request) {
  const PlannerFn planner = find_planner(model.options.planner);
  if (planner == nullptr) throw CompileError("unknown memory planner '" + model.options.planner + "'");
  MemoryPlan plan = planner(request);
  const std::vector<std::string> problems = check_plan(request, plan);
  MICROAOT_CHECK(problems.empty(), "planner '" + plan.planner + "' produced an invalid plan: " +
                                       (problems.empty() ? std::string() : problems.front()));
  return plan;
}

// Which candidates the plan actually relies on (their buffers share bytes).
std::vector<bool> used_candidates(const std::vector<Candidate>& candidates, const std::vector<bool>& offered,
                                  const PlanRequest& request, const MemoryPlan& plan,
                                  const std::vector<size_t>& pool_of = {}) {
  std::vector<OverlapPermit> permits;
  for (const Candidate& c : candidates) permits.push_back(c.permit);
  return permits_used(permits, offered, request, plan, pool_of);
}

// Calls whose buffers overlap need the variant of their option (choose_kernels gives it to the call); a
// variant other than plain takes the planned scratch as its last argument.
void record_planned_variants(CompiledModel& model, const std::vector<Candidate>& candidates,
                             const std::vector<bool>& used) {
  model.planned_variants.assign(model.calls.size(), KernelVariant::kPlain);
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!used[i] || candidates[i].option.variant == KernelVariant::kPlain) continue;
    MICROAOT_CHECK(model.scratch_buffer[candidates[i].step] >= 0, "in-place variant without scratch");
    model.planned_variants[candidates[i].step] = candidates[i].option.variant;
  }
}

std::vector<BufferRecord> arena_tensors(const CompiledModel& model) {
  return arena_records(model.graph, model.options.alignment, model.options.io_in_arena);
}

// A buffer as error messages name it: the tensor, or the kernel scratch of a step.
std::string describe_buffer(const Graph& graph, const BufferRecord& r) {
  if (r.kind == BufferKind::kScratch) return "scratch of step " + std::to_string(scratch_step(r));
  return describe_tensor(graph, r.tensor_id);
}

std::string step_text(const CompiledModel& model, int step) {
  return "step " + std::to_string(step) + ", " + describe_op(model.graph, model.graph.ops.at(step));
}

std::vector<NamedBytes> named_buffers(const CompiledModel& model, const std::vector<BufferRecord>& records,
                                      const std::vector<size_t>& indices) {
  std::vector<NamedBytes> named;
  for (size_t i : indices) named.push_back({describe_buffer(model.graph, records[i]), records[i].size});
  return named;
}

// The buffers live at `step` (empty ones left out), as the budget error lists them.
std::vector<NamedBytes> live_buffers(const CompiledModel& model, int step) {
  std::vector<size_t> live;
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    const BufferRecord& r = model.buffers[i];
    if (r.first_op <= step && r.last_op >= step && r.size != 0) live.push_back(i);
  }
  return named_buffers(model, model.buffers, live);
}

// The generated code indexes memories with 32-bit sizes on the microcontroller.
void check_arena_limit(const CompiledModel& model) {
  if (planned_ram_bytes(model) > INT32_MAX) throw CompileError(arena_limit_text(planned_ram_bytes(model)));
}

TilingFacts tiling_facts(const CompiledModel& model) {
  return {model.tiling_floor_bytes, model.untiled_bound_bytes, is_graph(model), model.options.tiling,
          model.chains.size()};
}

// The budget error: how much is missing, where the peak is, what is live there and what could help.
void check_budget(const CompiledModel& model) {
  const int64_t budget = model.options.ram_budget;
  const int64_t required = planned_ram_bytes(model);
  if (budget <= 0 || required <= budget) return;
  BudgetFacts facts;
  facts.required_bytes = required;
  facts.budget_bytes = budget;
  facts.macro = module_names(model).macro;
  facts.pools = model.options.pools.size();
  facts.io_in_arena = model.options.io_in_arena;
  const int peak = model.lower_bound.op;
  if (peak >= 0 && peak < static_cast<int>(model.graph.ops.size())) {
    facts.peak_step = step_text(model, peak);
    facts.live_at_peak = live_buffers(model, peak);
  }
  for (const MemoryPlan& other : model.planner_results) {
    if (other.arena_size < model.plan.arena_size) facts.smaller_plans.push_back({other.planner, other.arena_size});
  }
  facts.alignment = model.options.alignment;
  facts.tiling = tiling_facts(model);
  throw CompileError(budget_failure_text(facts));
}

}  // namespace

int64_t arena_header_bytes(const CompiledModel& model) {
  return model.plan.arena_size + model.persistent_bytes == 0 ? 0 : align_up(8, model.options.alignment);
}

int64_t planned_ram_bytes(const CompiledModel& model) {
  // The persistent region follows the activations, at an aligned offset; the header precedes them.
  int64_t total = arena_header_bytes(model) +
                  (model.persistent.empty() ? model.plan.arena_size : persistent_base(model) + model.persistent_bytes);
  for (size_t k = 1; k < model.pool_used.size(); ++k) total += model.pool_used[k];
  return total + io_buffer_bytes_outside(model);
}

int64_t io_buffer_bytes_outside(const CompiledModel& model) {
  if (model.options.io_in_arena) return 0;
  int64_t total = 0;
  for (int id : model.graph.inputs) total += align_up(model.graph.tensor(id).byte_size(), model.options.alignment);
  for (int id : model.graph.outputs) total += align_up(model.graph.tensor(id).byte_size(), model.options.alignment);
  return total;
}

int64_t overlap_bytes(const CompiledModel& model, size_t a, size_t b) {
  return planned_overlap(PlanRequest{model.buffers, model.permits}, model.plan, model.pool_of, a, b);
}

namespace {
// Why the pools cannot hold the buffers (memory/plan_errors.h), with the flags' and the graph's names.
std::string pool_failure(const CompiledModel& model, const PlanRequest& request, const PoolFailure& f) {
  std::vector<NamedBytes> pools;
  for (const PoolOption& p : model.options.pools) pools.push_back({p.name, p.size});
  const bool at_step = f.kind == PoolFailureKind::kOnePoolOnly || f.kind == PoolFailureKind::kTotal;
  return pool_failure_text(f, pools, named_buffers(model, request.records, f.buffers),
                           at_step ? step_text(model, f.op) : std::string());
}

// --pool: the request spread over the pools in the order given; the first is the arena.
PooledPlan plan_into_pools(const CompiledModel& model, const PlanRequest& request) {
  const PlannerFn planner = find_planner(model.options.planner);
  if (planner == nullptr) throw CompileError("unknown memory planner '" + model.options.planner + "'");
  std::vector<PoolSpec> specs;
  for (const PoolOption& p : model.options.pools) {
    specs.push_back({p.name, p.size, std::max(p.alignment, model.options.alignment)});
  }
  const PooledPlan pooled = plan_pools(request, specs, planner);
  const std::vector<std::string> problems =
      pooled.ok ? check_pooled_plan(request, specs, pooled) : std::vector<std::string>{};
  MICROAOT_CHECK(problems.empty(), "the pool planner produced an invalid plan: " +
                                       (problems.empty() ? std::string() : problems.front()));
  return pooled;
}

MemoryPlan offsets_plan(const PooledPlan& pooled) {
  MemoryPlan plan;
  plan.offsets = pooled.offsets;
  return plan;
}

int64_t pooled_bytes(const PooledPlan& pooled) {
  int64_t total = 0;
  for (int64_t used : pooled.used) total += used;
  return total;
}

// With --pool, the same two attempts as with one arena (plan_model_memory). The second one matters more
// here: an in-place option whose two buffers went to different pools cannot be used, but its scratch was
// reserved. The smaller sum of the pools wins (the first on ties).
void plan_model_pools(CompiledModel& model, const std::vector<BufferRecord>& tensors,
                      const std::vector<Candidate>& candidates, PlanRequest request, std::vector<int> scratch_of) {
  PooledPlan pooled = plan_into_pools(model, request);
  if (!pooled.ok) throw CompileError(pool_failure(model, request, pooled.failure));
  const std::vector<bool> offered(candidates.size(), true);
  std::vector<bool> used = used_candidates(candidates, offered, request, offsets_plan(pooled), pooled.pool);
  if (used != offered) {
    std::vector<int> retry_scratch;
    PlanRequest retry = build_request(model, tensors, candidates, used, retry_scratch);
    PooledPlan retry_pooled = plan_into_pools(model, retry);
    if (retry_pooled.ok && pooled_bytes(retry_pooled) < pooled_bytes(pooled)) {
      request = std::move(retry);
      pooled = std::move(retry_pooled);
      scratch_of = std::move(retry_scratch);
      used = used_candidates(candidates, used, request, offsets_plan(pooled), pooled.pool);
    }
  }
  model.buffers = request.records;
  model.permits = request.permits;
  model.scratch_buffer = scratch_of;
  model.pool_of = pooled.pool;
  model.pool_used = pooled.used;
  model.pool_planners = pooled.planners;
  model.plan.offsets = pooled.offsets;
  model.plan.arena_size = pooled.used[0];
  model.plan.planner = pooled.planners[0].empty() ? model.options.planner : pooled.planners[0];
  record_planned_variants(model, candidates, used);
}

// The persistent region lives in the arena, the first pool, after the activations planned there.
void check_persistent_fits_first_pool(const CompiledModel& model) {
  const PoolOption& first = model.options.pools[0];
  const int64_t end = persistent_base(model) + model.persistent_bytes;
  if (model.persistent.empty() || end <= first.size) return;
  throw CompileError(persistent_overflow_text({first.name, first.size}, end, model.persistent_bytes,
                                              model.plan.arena_size));
}

// The variables, one after the other: they live across runs, so nothing can share their bytes.
void plan_persistent(CompiledModel& model) {
  for (size_t id = 0; id < model.graph.tensors.size(); ++id) {
    const Tensor& t = model.graph.tensors[id];
    if (!t.is_persistent || t.is_dead) continue;
    const int64_t size = align_up(t.byte_size(), model.options.alignment);
    model.persistent.push_back({static_cast<int>(id), model.persistent_bytes, size});
    model.persistent_bytes += size;
  }
}
}  // namespace

namespace {
// Places `tensors` (the chains already applied) with their in-place options and scratch: one arena, or the pools.
void place_buffers(CompiledModel& model, const std::vector<BufferRecord>& tensors) {
  model.buffers = tensors;
  const std::vector<Candidate> candidates = in_place_candidates(model);
  // First attempt: every candidate offered. Second: only those the first plan used, so that the scratch
  // of options the planner did not take is not reserved. The smaller arena wins (the first on ties).
  std::vector<bool> offered(candidates.size(), true);
  std::vector<int> scratch_of;
  PlanRequest request = build_request(model, tensors, candidates, offered, scratch_of);
  if (!model.options.pools.empty()) {
    plan_model_pools(model, tensors, candidates, request, scratch_of);
    return;
  }
  MemoryPlan plan = run_planner(model, request);
  std::vector<bool> used = used_candidates(candidates, offered, request, plan);
  if (used != offered) {
    std::vector<int> retry_scratch;
    PlanRequest retry = build_request(model, tensors, candidates, used, retry_scratch);
    MemoryPlan retry_plan = run_planner(model, retry);
    if (retry_plan.arena_size < plan.arena_size) {
      offered = used;
      request = std::move(retry);
      plan = std::move(retry_plan);
      scratch_of = std::move(retry_scratch);
      used = used_candidates(candidates, offered, request, plan);
    }
  }
  model.buffers = request.records;
  model.permits = request.permits;
  model.plan = plan;
  model.scratch_buffer = scratch_of;
  model.planner_results = run_all_planners(request);
  record_planned_variants(model, candidates, used);
}

// Fused bands (compile/plan_bands.h), AOT only: without a budget the chains whose estimated cost (theirs and
// the variant switches outside them: estimated_extra_instructions) stays within kFreeTilingPercent of the
// model's instructions; with one, none while the untiled plan fits, else the cheapest of the first
// kFittingPlans plans that fit as the target bound is lowered (by what the last plan still exceeded).
constexpr int64_t kFreeTilingPercent = 2;
constexpr int64_t kUnlimitedCost = INT64_MAX / 4;
constexpr int kFreeAttempts = 4;
constexpr int kFittingPlans = 4;

// No budget: the cheap chains, kept only when the plan they give is smaller. Where the switches outside the
// chains take the plan over the limit, the chains get that much less.
void plan_free_bands(CompiledModel& model, const std::vector<BufferRecord>& tensors,
                     const std::vector<FusedChain>& candidates) {
  const int64_t limit = model.base_instructions * kFreeTilingPercent / 100;
  const int64_t untiled = planned_ram_bytes(model);
  int64_t max_extra = limit;
  for (int attempt = 0; attempt < kFreeAttempts && max_extra >= 0; ++attempt) {
    std::vector<FusedChain> chains = choose_bands(model, tensors, candidates, max_extra, 0);
    if (chains.empty()) break;
    model.chains = std::move(chains);
    place_buffers(model, banded_records(model, tensors, model.chains));
    const int64_t extra = estimated_extra_instructions(model);
    if (extra <= limit) {
      if (planned_ram_bytes(model) < untiled) return;
      break;
    }
    max_extra -= extra - limit;
  }
  if (model.chains.empty()) return;
  model.chains.clear();
  place_buffers(model, tensors);
}

// A budget the plan exceeds: ever lower target bounds until kFittingPlans plans fit or tiling cannot lower the
// bound; the best placed plan (better_placed: the cheapest that fits, else the smallest) is kept.
void plan_bands_to_budget(CompiledModel& model, const std::vector<BufferRecord>& tensors,
                          const std::vector<FusedChain>& candidates, int64_t budget) {
  int64_t bound = model.lower_bound.bytes;
  std::vector<FusedChain> best_chains;
  PlacedBands best{planned_ram_bytes(model), 0};
  bool best_is_placed = true;
  if (best.ram_bytes <= budget) return;
  for (int fitting = 0; fitting < kFittingPlans;) {
    const int64_t target = bound - std::max<int64_t>(planned_ram_bytes(model) - budget, 1);
    std::vector<FusedChain> chains =
        choose_bands(model, tensors, candidates, kUnlimitedCost, std::max<int64_t>(target, 1));
    const std::vector<BufferRecord> banded = banded_records(model, tensors, chains);
    const int64_t next_bound = banded_bound(model, tensors, chains);
    if (next_bound >= bound) break;  // tiling cannot lower it further: check_budget explains
    bound = next_bound;
    model.chains = std::move(chains);
    place_buffers(model, banded);
    const PlacedBands placed{planned_ram_bytes(model), estimated_extra_instructions(model)};
    fitting += placed.ram_bytes <= budget ? 1 : 0;
    best_is_placed = better_placed(placed, best, budget);
    if (best_is_placed) {
      best = placed;
      best_chains = model.chains;
    }
  }
  if (best_is_placed) return;
  model.chains = best_chains;  // check_budget reports the smallest plan when none fits
  place_buffers(model, banded_records(model, tensors, model.chains));
}

void plan_with_bands(CompiledModel& model, const std::vector<BufferRecord>& tensors) {
  model.chains.clear();
  model.base_instructions = base_instructions(model);
  place_buffers(model, tensors);  // untiled: the in-place variants the candidates' costs credit
  model.untiled_variants = model.planned_variants;
  const std::vector<FusedChain> candidates = band_candidates(model);
  model.tiling_floor_bytes =
      banded_bound(model, tensors, choose_bands(model, tensors, candidates, kUnlimitedCost, 0));
  if (is_graph(model) || !model.options.tiling) return;  // the interpreter runs whole steps: no bands
  if (model.options.ram_budget <= 0) {
    plan_free_bands(model, tensors, candidates);
  } else {
    plan_bands_to_budget(model, tensors, candidates, model.options.ram_budget);
  }
}
}  // namespace

void plan_model_memory(CompiledModel& model) {
  plan_persistent(model);
  const std::vector<BufferRecord> tensors = arena_tensors(model);
  model.buffers = tensors;
  model.lower_bound = classic_bound(tensors);
  model.untiled_bound_bytes = model.lower_bound.bytes;
  model.source_order_bound_bytes =
      source_order_bound(model.graph, model.options.alignment, model.options.io_in_arena);
  plan_with_bands(model, tensors);
  if (!model.chains.empty()) model.lower_bound = classic_bound(model.buffers);  // the reports' peak: as planned
  if (!model.options.pools.empty()) check_persistent_fits_first_pool(model);
  check_arena_limit(model);
  check_budget(model);
}

}  // namespace microaot
