#include "compile/plan_memory.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>

#include "codegen/emit.h"
#include "compile/plan_bands.h"
#include "kernels/kernel_registry.h"
#include "memory/liveness.h"
#include "memory/plan_check.h"
#include "memory/planners.h"
#include "memory/pools.h"
#include "ops/palette_weights.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

constexpr int64_t kScratchAlignment = 16;

// An in-place option that passed the graph-level checks, tied to its records.
struct Candidate {
  size_t step = 0;
  OverlapPermit permit;
  InPlaceOption option;
};

std::map<int, size_t> record_of_tensor(const std::vector<BufferRecord>& records) {
  std::map<int, size_t> index;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].kind == BufferKind::kTensor) index[records[i].tensor_id] = i;
  }
  return index;
}

bool is_graph_interface(const Graph& graph, int storage) {
  const auto is_storage = [&](int id) { return graph.storage_of(id) == storage; };
  return std::any_of(graph.inputs.begin(), graph.inputs.end(), is_storage) ||
         std::any_of(graph.outputs.begin(), graph.outputs.end(), is_storage);
}

// An op with an empty input or output has no bytes to share (and the row-wise bounds no rows to count).
bool touches_empty_tensor(const Graph& graph, const Op& op) {
  const auto empty = [&](int id) { return id != kNoTensor && graph.tensor(id).byte_size() == 0; };
  return std::any_of(op.inputs.begin(), op.inputs.end(), empty) ||
         std::any_of(op.outputs.begin(), op.outputs.end(), empty);
}

// The in-place options of every op whose input really dies at that op and whose output is born there.
// Graph inputs and outputs are left out: with --io-in-arena off they do not live in the arena at all,
// and keeping the input intact lets run() be repeated on the same input.
std::vector<Candidate> in_place_candidates(const CompiledModel& model) {
  std::vector<Candidate> candidates;
  const std::map<int, size_t> records = record_of_tensor(model.buffers);
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    const Op& op = model.graph.ops[step];
    const OpHandler& handler = op_handler(op.kind);
    if (handler.in_place == nullptr || touches_empty_tensor(model.graph, op)) continue;
    // A chain's steps run interleaved: its own permit (chain_permits) replaces theirs.
    if (std::any_of(model.chains.begin(), model.chains.end(),
                    [&](const FusedChain& c) { return c.contains(static_cast<int>(step)); })) {
      continue;
    }
    for (const InPlaceOption& option : handler.in_place(model.graph, op)) {
      // Only a variant the chosen kernel has.
      if (kernel_registry().find(model.calls[step].stem, option.variant) == nullptr) continue;
      MICROAOT_CHECK(option.input >= 0 && option.input < static_cast<int>(op.inputs.size()) && option.output >= 0 &&
                         option.output < static_cast<int>(op.outputs.size()),
                     "in-place option of " + describe_op(model.graph, op) + " names a missing tensor");
      const int in = op.inputs[option.input];
      if (in == kNoTensor) continue;
      const int in_storage = model.graph.storage_of(in);
      const int out_storage = model.graph.storage_of(op.outputs[option.output]);
      if (in_storage == out_storage || is_graph_interface(model.graph, in_storage) ||
          is_graph_interface(model.graph, out_storage)) {
        continue;
      }
      const auto in_record = records.find(in_storage);
      const auto out_record = records.find(out_storage);
      if (in_record == records.end() || out_record == records.end()) continue;  // constants
      const BufferRecord& input = model.buffers[in_record->second];
      const BufferRecord& output = model.buffers[out_record->second];
      if (input.last_op != static_cast<int>(step) || output.first_op != static_cast<int>(step)) continue;
      const bool duplicate = std::any_of(candidates.begin(), candidates.end(), [&](const Candidate& c) {
        return c.permit.output == out_record->second && c.permit.input == in_record->second;
      });  // x + x offers the same input twice
      if (duplicate) continue;
      candidates.push_back({step, OverlapPermit{out_record->second, in_record->second, option.max_shift}, option});
      // The DSP palette kernels' overlap flavors hold a chunk of output rows (a decode per chunk).
      if (option.variant == KernelVariant::kOverlap) {
        candidates.back().option.scratch_bytes *= overlap_chunk_rows(model.calls[step]);
      }
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

int64_t overlap_of(const PlanRequest& request, const MemoryPlan& plan, const std::vector<size_t>& pool_of, size_t a,
                   size_t b) {
  if (!pool_of.empty() && pool_of[a] != pool_of[b]) return 0;
  const int64_t begin = std::max(plan.offsets[a], plan.offsets[b]);
  const int64_t end = std::min(plan.offsets[a] + request.records[a].size, plan.offsets[b] + request.records[b].size);
  return std::max<int64_t>(0, end - begin);
}

// Which candidates the plan actually relies on (their buffers share bytes).
std::vector<bool> used_candidates(const std::vector<Candidate>& candidates, const std::vector<bool>& offered,
                                  const PlanRequest& request, const MemoryPlan& plan,
                                  const std::vector<size_t>& pool_of = {}) {
  std::vector<bool> used(candidates.size(), false);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const OverlapPermit& p = candidates[i].permit;
    used[i] = offered[i] && overlap_of(request, plan, pool_of, p.output, p.input) > 0;
  }
  return used;
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

// With --io-in-arena off, graph inputs and outputs get buffers of their own, outside the plan.
std::vector<BufferRecord> arena_tensors(const CompiledModel& model) {
  std::vector<BufferRecord> records = analyze_lifetimes(model.graph, model.options.alignment);
  if (model.options.io_in_arena) return records;
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const BufferRecord& r) { return is_graph_interface(model.graph, r.tensor_id); }),
                records.end());
  return records;
}

// A buffer as error messages name it: the tensor, or the kernel scratch of a step.
std::string describe_buffer(const Graph& graph, const BufferRecord& r) {
  if (r.kind == BufferKind::kScratch) return "scratch of step " + std::to_string(scratch_step(r));
  return describe_tensor(graph, r.tensor_id);
}

std::string live_tensors_text(const CompiledModel& model, int step) {
  std::ostringstream out;
  for (const BufferRecord& r : model.buffers) {
    if (r.first_op > step || r.last_op < step || r.size == 0) continue;
    out << "\n  " << describe_buffer(model.graph, r) << ": " << r.size << " bytes";
  }
  return out.str();
}

// The generated code indexes memories with 32-bit sizes on the microcontroller.
void check_arena_limit(const CompiledModel& model) {
  if (planned_ram_bytes(model) > INT32_MAX) {
    throw CompileError("the model needs " + std::to_string(planned_ram_bytes(model)) +
                       " bytes of RAM for its buffers; the limit is 2 GiB - 1");
  }
}

// What fused bands do and could do for the budget error.
std::string tiling_help(const CompiledModel& model) {
  std::ostringstream out;
  const int64_t floor = model.tiling_floor_bytes;
  if (floor <= 0 || floor >= model.untiled_bound_bytes) {
    out << "\n  fused bands (tiling) cannot lower the classic bound (" << model.untiled_bound_bytes
        << " bytes): no chain of row-streamable layers holds its peak";
  } else if (is_graph(model) || !model.options.tiling) {
    out << "\n  " << (is_graph(model) ? "--executor aot" : "--tiling auto")
        << ": fused bands could bring the classic bound from " << model.untiled_bound_bytes << " down to " << floor
        << " bytes" << (is_graph(model) ? "; the graph executor runs whole layers" : "");
  } else if (model.chains.empty()) {
    out << "\n  fused bands could bring the classic bound from " << model.untiled_bound_bytes << " down to " << floor
        << " bytes, but no choice of them gave a smaller plan than this one";
  } else {
    out << "\n  fused bands already run " << model.chains.size() << " chain(s); the most tiling could reach is a "
        << "classic bound of " << floor << " bytes (now " << model.untiled_bound_bytes << " untiled)";
  }
  return out.str();
}

// The budget error: how much is missing, where the peak is, what is live there and what could help.
void check_budget(const CompiledModel& model) {
  const int64_t budget = model.options.ram_budget;
  const int64_t required = planned_ram_bytes(model);
  if (budget <= 0 || required <= budget) return;
  const PeakInfo peak = model.lower_bound;
  std::ostringstream out;
  out << "Static memory planning failed. Required: " << required << " bytes, Available: " << budget << " bytes."
      << "\nThe budget counts what the application provides: " << module_names(model).macro
      << "_ARENA_SIZE (the arena, its header included)" << (model.options.pools.size() > 1 ? ", every further --pool" : "")
      << (model.options.io_in_arena ? "" : ", the input/output buffers") << "; the contexts are not counted.";
  if (peak.op >= 0 && peak.op < static_cast<int>(model.graph.ops.size())) {
    out << "\nThe peak is at step " << peak.op << ", " << describe_op(model.graph, model.graph.ops[peak.op])
        << ", where these buffers are live:" << live_tensors_text(model, peak.op);
  }
  out << "\nWhat could help:";
  for (const MemoryPlan& other : model.planner_results) {
    if (other.arena_size < model.plan.arena_size) {
      out << "\n  --planner " << other.planner << " needs " << other.arena_size << " bytes";
    }
  }
  if (!model.options.io_in_arena) out << "\n  --io-in-arena on shares the input/output bytes with activations";
  if (model.options.pools.empty()) {
    out << "\n  --pool main:" << budget << " --pool NAME:SIZE instead of --ram-budget, if the board has a second "
        << "memory (e.g. slower SRAM): the first --pool is the arena, the next takes what does not fit";
  } else {
    out << "\n  no --ram-budget: it counts the RAM of every pool, while each --pool is already bounded by its size";
  }
  out << tiling_help(model);
  out << "\n  --alignment 4 (now " << model.options.alignment << ") wastes fewer bytes between buffers";
  out << "\n  a smaller input resolution or fewer channels around the peak layer";
  throw CompileError(out.str());
}

// The classic bound for the ops in the order of the .tflite file (before schedule_for_memory).
int64_t source_order_bound(const CompiledModel& model) {
  CompiledModel original;
  original.options = model.options;
  original.graph = model.graph;
  std::stable_sort(original.graph.ops.begin(), original.graph.ops.end(),
                   [](const Op& a, const Op& b) { return a.source_index < b.source_index; });
  return classic_bound(arena_tensors(original)).bytes;
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
  return overlap_of(PlanRequest{model.buffers, model.permits}, model.plan, model.pool_of, a, b);
}

namespace {
std::string pools_text(const CompiledModel& model) {
  std::string text;
  for (const PoolOption& p : model.options.pools) {
    text += (text.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.size) + " bytes)";
  }
  return text;
}

std::string step_text(const CompiledModel& model, int step) {
  return "step " + std::to_string(step) + ", " + describe_op(model.graph, model.graph.ops.at(step));
}

std::string buffers_text(const CompiledModel& model, const PlanRequest& request, const std::vector<size_t>& buffers) {
  std::string text;
  for (size_t i : buffers) {
    text += "\n  " + describe_buffer(model.graph, request.records[i]) + ": " +
            std::to_string(request.records[i].size) + " bytes";
  }
  return text;
}

// Why the pools cannot hold the buffers, in the words of the flags: the first --pool is the arena.
std::string pool_failure_text(const CompiledModel& model, const PlanRequest& request, const PoolFailure& f) {
  const std::string pool = f.pool < model.options.pools.size() ? model.options.pools[f.pool].name : "?";
  const std::string figures = "Static memory planning failed. Required: " + std::to_string(f.required_bytes) +
                              " bytes, Available: " + std::to_string(f.available_bytes) + " bytes";
  std::ostringstream out;
  switch (f.kind) {
    case PoolFailureKind::kTooLarge:
      out << figures << " in the largest pool, " << pool << "." << buffers_text(model, request, f.buffers)
          << "\nA buffer is never split across pools; enlarge a pool to at least " << f.required_bytes << " bytes.";
      break;
    case PoolFailureKind::kOnePoolOnly:
      out << figures << " in pool " << pool << ".\nAt " << step_text(model, f.op)
          << ", these buffers are live and fit in no other pool:" << buffers_text(model, request, f.buffers)
          << "\nEven with in-place reuse they need " << f.required_bytes << " bytes together; a buffer is never "
          << "split across pools. Enlarge pool " << pool << ", or another pool so that one of them fits there.";
      break;
    case PoolFailureKind::kTotal:
      out << figures << " in all pools together.\nAt " << step_text(model, f.op) << ", these buffers are live:"
          << buffers_text(model, request, f.buffers) << "\nEven with in-place reuse they need "
          << f.required_bytes << " bytes; add or enlarge a pool.";
      break;
    default:
      out << "Static memory planning failed: no placement found in the pools " << pools_text(model) << ".\nPool "
          << pool << " still needed " << f.required_bytes << " bytes of its " << f.available_bytes
          << " with no buffer left that a later pool can hold. Pools are assigned by a heuristic, so a placement "
          << "may exist; enlarge pool " << pool << " or add a pool after it.";
  }
  return out.str();
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
  if (!pooled.ok) throw CompileError(pool_failure_text(model, request, pooled.failure));
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
  throw CompileError("Static memory planning failed. Required: " + std::to_string(end) + " bytes, Available: " +
                     std::to_string(first.size) + " bytes in pool " + first.name + ": the model's state (" +
                     std::to_string(model.persistent_bytes) + " bytes of variables) stays in the first "
                     "pool, after its " + std::to_string(model.plan.arena_size) + " bytes of activations");
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

// Fused bands (compile/plan_bands.h), AOT only: without a budget the chains whose estimated cost stays within
// kFreeTilingPercent of the model's instructions; with one, none while the untiled plan fits, else the
// cheapest that bring the plan within it (the target bound lowered by what the last plan still exceeded).
constexpr int64_t kFreeTilingPercent = 2;

void plan_with_bands(CompiledModel& model, const std::vector<BufferRecord>& tensors) {
  model.chains.clear();
  model.base_instructions = base_instructions(model);
  place_buffers(model, tensors);  // untiled: the in-place variants the candidates' costs credit
  const std::vector<FusedChain> candidates = band_candidates(model);
  const int64_t unlimited = INT64_MAX / 4;
  model.tiling_floor_bytes =
      banded_bound(model, tensors, choose_bands(model, tensors, candidates, unlimited, 0));
  if (is_graph(model) || !model.options.tiling) return;  // the interpreter runs whole steps: no bands
  const int64_t budget = model.options.ram_budget;
  if (budget <= 0) {  // the cheap chains, kept only when the plan they give is smaller
    std::vector<FusedChain> chains =
        choose_bands(model, tensors, candidates, model.base_instructions * kFreeTilingPercent / 100, 0);
    if (chains.empty()) return;
    const int64_t untiled = planned_ram_bytes(model);
    model.chains = std::move(chains);
    place_buffers(model, banded_records(model, tensors, model.chains));
    if (planned_ram_bytes(model) < untiled) return;
    model.chains.clear();
    place_buffers(model, tensors);
    return;
  }
  int64_t bound = model.lower_bound.bytes;
  std::vector<FusedChain> best_chains;  // the smallest plan so far, kept when none fits
  int64_t best_ram = planned_ram_bytes(model);
  while (planned_ram_bytes(model) > budget) {
    const int64_t target = bound - (planned_ram_bytes(model) - budget);
    std::vector<FusedChain> chains = choose_bands(model, tensors, candidates, unlimited, std::max<int64_t>(target, 1));
    const std::vector<BufferRecord> banded = banded_records(model, tensors, chains);
    const int64_t next_bound = banded_bound(model, tensors, chains);
    if (next_bound >= bound) break;  // tiling cannot lower it further: check_budget explains
    bound = next_bound;
    model.chains = std::move(chains);
    place_buffers(model, banded);
    if (planned_ram_bytes(model) < best_ram) {
      best_ram = planned_ram_bytes(model);
      best_chains = model.chains;
    }
  }
  if (planned_ram_bytes(model) > best_ram) {  // check_budget reports the smallest plan
    model.chains = best_chains;
    place_buffers(model, banded_records(model, tensors, model.chains));
  }
}
}  // namespace

void plan_model_memory(CompiledModel& model) {
  plan_persistent(model);
  const std::vector<BufferRecord> tensors = arena_tensors(model);
  model.buffers = tensors;
  model.lower_bound = classic_bound(tensors);
  model.untiled_bound_bytes = model.lower_bound.bytes;
  model.source_order_bound_bytes = source_order_bound(model);
  plan_with_bands(model, tensors);
  if (!model.chains.empty()) model.lower_bound = classic_bound(model.buffers);  // the reports' peak: as planned
  if (!model.options.pools.empty()) check_persistent_fits_first_pool(model);
  check_arena_limit(model);
  check_budget(model);
}

}  // namespace microaot
