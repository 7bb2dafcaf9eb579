#include "compile/plan_checks.h"

#include <cstdint>

#include "codegen/emit.h"
#include "compile/plan_memory.h"
#include "memory/liveness.h"
#include "memory/plan_errors.h"

namespace microaot {

namespace {

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
    facts.live_at_peak = named_buffers(model, model.buffers, live_records_at(model.buffers, peak));
  }
  for (const MemoryPlan& other : model.planner_results) {
    if (other.arena_size < model.plan.arena_size) facts.smaller_plans.push_back({other.planner, other.arena_size});
  }
  facts.alignment = model.options.alignment;
  facts.tiling = tiling_facts(model);
  throw CompileError(budget_failure_text(facts));
}

// The persistent region lives in the arena, the first pool, after the activations planned there.
void check_persistent_fits_first_pool(const CompiledModel& model) {
  const PoolOption& first = model.options.pools[0];
  const int64_t end = persistent_base(model) + model.persistent_bytes;
  if (model.persistent.empty() || end <= first.size) return;
  throw CompileError(persistent_overflow_text({first.name, first.size}, end, model.persistent_bytes,
                                              model.plan.arena_size));
}

}  // namespace

std::string pool_failure_message(const CompiledModel& model, const PlanRequest& request, const PoolFailure& f) {
  std::vector<NamedBytes> pools;
  for (const PoolOption& p : model.options.pools) pools.push_back({p.name, p.size});
  const bool at_step = f.kind == PoolFailureKind::kOnePoolOnly || f.kind == PoolFailureKind::kTotal;
  return pool_failure_text(f, pools, named_buffers(model, request.records, f.buffers),
                           at_step ? step_text(model, f.op) : std::string());
}

void check_planned_memory(const CompiledModel& model) {
  if (!model.options.pools.empty()) check_persistent_fits_first_pool(model);
  check_arena_limit(model);
  check_budget(model);
}

}  // namespace microaot
