#include "compile/plan_memory.h"

#include <algorithm>
#include <cstdint>

#include "codegen/emit.h"
#include "compile/plan_bands.h"
#include "compile/plan_checks.h"
#include "compile/plan_in_place.h"
#include "memory/arena_bounds.h"
#include "memory/band_choice.h"
#include "memory/in_place.h"
#include "memory/liveness.h"
#include "memory/plan_attempts.h"
#include "memory/plan_check.h"
#include "memory/planners.h"
#include "memory/pools.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

PlannerFn model_planner(const CompiledModel& model) {
  const PlannerFn planner = find_planner(model.options.planner);
  if (planner == nullptr) throw CompileError("unknown memory planner '" + model.options.planner + "'");
  return planner;
}

MemoryPlan run_planner(const CompiledModel& model, const PlanRequest& request) {
  MemoryPlan plan = model_planner(model)(request);
  const std::vector<std::string> problems = check_plan(request, plan);
  MICROAOT_CHECK(problems.empty(), "planner '" + plan.planner + "' produced an invalid plan: " +
                                       (problems.empty() ? std::string() : problems.front()));
  return plan;
}

// --pool: the request spread over the pools in the order given; the first is the arena.
PooledPlan plan_into_pools(const CompiledModel& model, const PlanRequest& request) {
  const PlannerFn planner = model_planner(model);
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

// The buffers, their permits and each call's scratch record, as the chosen attempt planned them.
template <typename Plan>
void keep_request(CompiledModel& model, const Placement<Plan>& placed) {
  model.buffers = placed.request.records;
  model.permits = placed.request.permits;
  model.scratch_buffer = placed.scratch_of;
}

// --pool: each buffer's pool and offset there; the first pool is the arena.
void keep_pooled(CompiledModel& model, const PooledPlan& pooled) {
  model.pool_of = pooled.pool;
  model.pool_used = pooled.used;
  model.pool_planners = pooled.planners;
  model.plan.offsets = pooled.offsets;
  model.plan.arena_size = pooled.used[0];
  model.plan.planner = pooled.planners[0].empty() ? model.options.planner : pooled.planners[0];
}

// Places `tensors` (the chains already applied) with their in-place options and scratch, in two attempts
// (memory/plan_attempts.h): one arena, or the pools.
void place_buffers(CompiledModel& model, const std::vector<BufferRecord>& tensors) {
  model.buffers = tensors;  // in_place_candidates picks over them
  const InPlaceCandidates in_place = in_place_candidates(model);
  const RequestParts parts = request_parts(model, tensors, in_place.candidates);
  if (!model.options.pools.empty()) {
    const Placement<PooledPlan> placed = place_with_retry<PooledPlan>(
        parts, [&](const PlanRequest& request) { return plan_into_pools(model, request); });
    if (!placed.plan.ok) throw CompileError(pool_failure_message(model, placed.request, placed.plan.failure));
    keep_request(model, placed);
    keep_pooled(model, placed.plan);
    record_planned_variants(model, in_place, placed.used);
    return;
  }
  const Placement<MemoryPlan> placed = place_with_retry<MemoryPlan>(
      parts, [&](const PlanRequest& request) { return run_planner(model, request); });
  keep_request(model, placed);
  model.plan = placed.plan;
  model.planner_results = run_all_planners(placed.request);
  record_planned_variants(model, in_place, placed.used);
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

void plan_model_memory(CompiledModel& model) {
  plan_persistent(model);
  const CompileOptions& o = model.options;
  const std::vector<BufferRecord> tensors = arena_records(model.graph, o.alignment, o.io_in_arena);
  model.buffers = tensors;
  model.lower_bound = classic_bound(tensors);
  model.untiled_bound_bytes = model.lower_bound.bytes;
  model.source_order_bound_bytes = source_order_bound(model.graph, o.alignment, o.io_in_arena);
  plan_with_bands(model, tensors);
  if (!model.chains.empty()) model.lower_bound = classic_bound(model.buffers);  // the reports' peak: as planned
  check_planned_memory(model);
}

}  // namespace microaot
