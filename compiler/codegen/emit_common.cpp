#include <algorithm>
#include <set>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "compile/plan_memory.h"
#include "support/diagnostics.h"

namespace microaot {

ModuleNames module_names(const CompiledModel& model) {
  return {c_identifier(model.options.module_name), c_macro_name(model.options.module_name)};
}

std::string op_symbol(const ModuleNames& n, size_t step) { return n.prefix + "_op" + std::to_string(step); }

std::string constant_symbol(const CompiledModel& model, int tensor_id) {
  return module_names(model).prefix + "_tensor_" + std::to_string(tensor_id);
}

std::vector<int> used_constants(const CompiledModel& model) {
  std::set<int> ids;
  for (const KernelCall& call : model.calls) {
    for (int id : call.args) {
      if (id != kNoTensor && model.graph.tensor(id).is_constant) ids.insert(id);
    }
  }
  return {ids.begin(), ids.end()};
}

size_t params_owner(const CompiledModel& model, size_t step) {
  const KernelCall& call = model.calls[step];
  if (call.custom) return step;
  for (size_t earlier = 0; earlier < step; ++earlier) {
    const KernelCall& other = model.calls[earlier];
    if (!other.custom && other.info().params == call.info().params && other.params == call.params) return earlier;
  }
  return step;
}

int64_t weights_bytes(const CompiledModel& model) {
  int64_t total = 0;
  for (int id : used_constants(model)) total += model.graph.tensor(id).byte_size();
  if (is_graph(model)) return total;  // the params arrays travel in the blob's description
  for (size_t step = 0; step < model.calls.size(); ++step) {  // weights.c's params arrays, once per owner
    const KernelCall& call = model.calls[step];
    if (!call.custom && params_owner(model, step) == step) total += call.params.array_bytes(*call.info().params);
  }
  return total;
}

int io_slot(const CompiledModel& model, int tensor_id) {
  if (model.options.io_in_arena) return -1;
  const Graph& g = model.graph;
  const int storage = g.storage_of(tensor_id);
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    if (g.storage_of(g.inputs[i]) == storage) return static_cast<int>(i);
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    if (g.storage_of(g.outputs[i]) == storage) return static_cast<int>(g.inputs.size() + i);
  }
  return -1;
}

size_t pool_of_tensor(const CompiledModel& model, int tensor_id) {
  // With --io-in-arena off, inputs and outputs have no planned buffer: they are bound per context.
  if (model.pool_of.empty() || io_slot(model, tensor_id) >= 0 || persistent_of(model, tensor_id)) return 0;
  return model.pool_of[buffer_of_tensor(model, tensor_id)];
}

std::string pool_symbol(const CompiledModel& model, size_t pool) {
  MICROAOT_CHECK(pool >= 1 && pool < model.options.pools.size(), "pool index out of range");
  return module_names(model).prefix + "_pool_" + model.options.pools[pool].name;
}

int64_t arena_buffer_bytes(const CompiledModel& model) {
  return arena_header_bytes(model) + (model.persistent_bytes == 0 ? model.plan.arena_size
                                                                  : persistent_base(model) + model.persistent_bytes);
}

size_t context_slots(const CompiledModel& model) {
  return model.graph.inputs.size() + (model.options.io_in_arena ? 0 : model.graph.outputs.size());
}

int64_t context_bytes32(const CompiledModel& model) {
  // microaot_context: self, model, arena, slots (4 pointers), next_step, state, persistent_lost (padded to 4);
  // microaot_slot: buffer pointer, written flag (padded to 4).
  constexpr int64_t kCoreBytes32 = 6 * 4;
  constexpr int64_t kSlotBytes32 = 2 * 4;
  // microaot_graph: the descriptor (11 words, 10 pointers), the blob, the firmware table, the missing kernel.
  constexpr int64_t kGraphBytes32 = 24 * 4;
  return kCoreBytes32 + static_cast<int64_t>(context_slots(model)) * kSlotBytes32 + (is_graph(model) ? kGraphBytes32 : 0);
}

bool is_graph(const CompiledModel& model) { return model.options.executor == "graph"; }

int64_t contexts_bytes(const CompiledModel& model) {
  return (model.options.interface_api_c ? 2 : 1) * context_bytes32(model);
}

bool has_static_owner(const CompiledModel& model) { return model.options.pools.size() > 1 || !model.options.io_in_arena; }

bool uses_arena_executor(const CompiledModel& model) {
  return !is_graph(model) && !has_static_owner(model) && model.persistent.empty() && !model.options.interface_api_c;
}

std::string executor_call_prefix(const CompiledModel& model) {
  return uses_arena_executor(model) ? "microaot_arena_" : "microaot_";
}

int64_t static_record_bytes(const CompiledModel& model) {
  constexpr int64_t kOwnerBytes32 = 4;  // a uintptr_t
  return has_static_owner(model) ? kOwnerBytes32 : 0;
}

int64_t static_ram_bytes(const CompiledModel& model) {
  return planned_ram_bytes(model) + static_record_bytes(model) + contexts_bytes(model);  // header in the plan's
}

}  // namespace microaot
