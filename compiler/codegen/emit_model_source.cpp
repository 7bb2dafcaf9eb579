// NAME.c: the kernel parameters (const, in flash), the step function (the fixed sequence of kernel calls
// on addresses decided at compile time), and the data and wrappers the executor core runs it with.
#include <algorithm>
#include <set>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {

void emit_includes(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  out << "#include <float.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n";
  out << "#include \"" << n.prefix << ".h\"\n#include \"memory_map.h\"\n";
  std::set<std::string> headers;
  for (const KernelCall& call : model.calls) headers.insert(call.custom ? "microaot/custom_op.h" : call.info().header);
  if (!model.chains.empty()) headers.insert("microaot/band_move.h");  // the line buffers' moves
  for (const std::string& h : headers) out << "#include \"" << h << "\"\n";
  out << custom_includes(model);
  out << "\n";
}

void emit_constant_declarations(std::ostringstream& out, const CompiledModel& model) {
  out << "/* Weights and biases, defined in weights.c (flash). */\n";
  for (int id : used_constants(model)) {
    const Tensor& t = model.graph.tensor(id);
    out << "extern const " << dtype_c_type(t.dtype) << " " << constant_symbol(model, id) << "["
        << t.num_elements() << "];\n";
  }
  out << "\n";
}

bool in_chain(const CompiledModel& model, size_t step) {
  return std::any_of(model.chains.begin(), model.chains.end(),
                     [&](const FusedChain& c) { return c.contains(static_cast<int>(step)); });
}

// Whether a step outside the fused bands takes the struct `owner` defines.
bool whole_call_takes(const CompiledModel& model, size_t owner) {
  for (size_t step = owner; step < model.calls.size(); ++step) {
    if (!in_chain(model, step) && params_owner(model, step) == owner) return true;
  }
  return false;
}

void emit_params(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  out << "/* Operator parameters, all computed at compile time. */\n";
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    if (params_owner(model, step) != step) continue;  // the call takes the earlier, equal struct
    if (!call.custom && !whole_call_takes(model, step)) {  // only band calls: their structs name its arrays
      out << c_params_array_declarations(op_symbol(n, step), *call.info().params, call.params);
      continue;
    }
    out << (call.custom ? custom_call_tables(model, step, op_symbol(n, step))
                        : c_params_definition(op_symbol(n, step), *call.info().params, call.params));
  }
  out << "\n";
}

}  // namespace

std::string planned_address(const CompiledModel& model, int id) {
  const int slot = io_slot(model, id);
  if (slot >= 0) return "ctx->slots[" + std::to_string(slot) + "].buffer";  // bound I/O: not in the plan
  const size_t pool = pool_of_tensor(model, id);
  const std::string address = (pool == 0 ? "arena" : pool_symbol(model, pool)) + " + " +
                              module_names(model).macro + "_TENSOR_" + std::to_string(model.graph.storage_of(id)) +
                              "_OFFSET";
  const RingWindow& ring = model.graph.tensor(id).ring;
  if (ring.position < 0) return address;
  // A ring buffer's window (microaot/kernels/ring.h) starts where the ring's position says.
  return address + " + microaot_ring_window(" + planned_address(model, ring.position) + ", " +
         std::to_string(ring.slots) + ", " + std::to_string(ring.unit_bytes) + ")";
}

namespace {
// One kernel argument: a constant's symbol, NULL for an absent optional input, else a planned address:
// in the arena, in a pool, or (I/O outside the arena) in the buffer bound to the context's slot. A
// byte-generic (`any`) parameter takes it as void *.
std::string argument(const CompiledModel& model, const Op& op, int id, const KernelArgSpec& spec,
                     int64_t offset = 0) {
  if (id == kNoTensor) return "NULL";
  const Tensor& t = model.graph.tensor(id);
  if (t.is_constant && !spec.any_type) return constant_symbol(model, id);
  if (t.is_constant) return "(const void *)" + constant_symbol(model, id);
  // An `out` argument may also be state the op updates in place (SVDF's), one of the op's inputs.
  const bool is_output =
      spec.is_output() || std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end();
  const std::string address = planned_address(model, id) + (offset == 0 ? "" : " + " + std::to_string(offset));
  const std::string qualifier = is_output ? "" : "const ";
  const std::string generic = "(" + qualifier + "void *)(" + address + ")";
  if (spec.any_type) return generic;
  // Through void *: the planner aligned every buffer, which a cast from uint8_t * cannot know.
  return "(" + qualifier + dtype_c_type(t.dtype) + " *)" + generic;
}

// The C element type of a list's array of pointers, e.g. "const int8_t *const" for in*:s8.
std::string list_element_type(const KernelArgSpec& spec) {
  const std::string element = spec.any_type ? "void" : dtype_c_type(spec.dtype);
  return (spec.is_output() ? "" : "const ") + element + " *const";
}

}  // namespace

std::string scratch_argument(const CompiledModel& model, size_t step) {
  MICROAOT_CHECK(model.scratch_buffer[step] >= 0, "a call takes scratch but none was planned");
  const size_t pool = model.pool_of.empty() ? 0 : model.pool_of[model.scratch_buffer[step]];
  return "(void *)(" + (pool == 0 ? std::string("arena") : pool_symbol(model, pool)) + " + " +
         module_names(model).macro + "_SCRATCH_" + std::to_string(step) + "_OFFSET)";
}

namespace {

bool uses_arena(const CompiledModel& model) {
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    const bool scratch = call.custom ? call.scratch_bytes > 0 : call.info().takes_scratch();
    if (scratch && (model.pool_of.empty() || model.pool_of[model.scratch_buffer[step]] == 0)) return true;
    for (int id : call.args) {
      if (id != kNoTensor && !model.graph.tensor(id).is_constant && io_slot(model, id) < 0 &&
          pool_of_tensor(model, id) == 0) {
        return true;
      }
    }
  }
  return false;
}

// A list argument: its array of pointers, declared in the case's block. Returns the name to pass.
std::string emit_list(std::ostringstream& out, const KernelArgSpec& spec, const std::vector<std::string>& items) {
  out << "      " << list_element_type(spec) << " list[" << items.size() << "] = {";
  for (size_t i = 0; i < items.size(); ++i) out << (i == 0 ? "" : ", ") << items[i];
  out << "};\n";
  return "list";
}

}  // namespace

std::string kernel_call_text(const CompiledModel& model, size_t step, const std::string& params,
                             const std::vector<int64_t>& input_offsets, int64_t output_offset, std::string& prelude) {
  const KernelCall& call = model.calls[step];
  const KernelInfo& kernel = call.info();
  const Op& op = model.graph.ops[step];
  const std::vector<KernelArgSpec> specs = kernel.tensor_args();
  const std::vector<std::vector<int>> groups = split_arguments(kernel, call.args);
  std::ostringstream lists;
  std::string arguments = "&" + params;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::string> texts;
    for (int id : groups[g]) {
      // A band reads and writes rows of its tensors (compile/plan_bands.h): the offsets move to them.
      int64_t offset = id == op.outputs[0] ? output_offset : 0;
      for (size_t i = 0; i < input_offsets.size() && i < op.inputs.size(); ++i) {
        if (id == op.inputs[i]) offset = input_offsets[i];
      }
      texts.push_back(argument(model, op, id, specs[g], offset));
    }
    arguments += ", " + (specs[g].is_list() ? emit_list(lists, specs[g], texts) : texts[0]);
  }
  if (kernel.takes_scratch()) arguments += ", " + scratch_argument(model, step);
  prelude = lists.str();
  return kernel.function() + "(" + arguments + ")";
}

namespace {

// One case of the step function: the kernel call, after the array of pointers a list argument takes.
void emit_step_case(std::ostringstream& out, const CompiledModel& model, size_t step) {
  const KernelCall& call = model.calls[step];
  if (call.custom) {
    out << custom_call_case(model, step, op_symbol(module_names(model), step));
    return;
  }
  for (const FusedChain& chain : model.chains) {
    if (chain.contains(static_cast<int>(step))) {
      if (chain.first_step == static_cast<int>(step)) out << emit_band_case(model, chain);
      return;
    }
  }
  const KernelInfo& kernel = call.info();
  const Op& op = model.graph.ops[step];
  const char* open = kernel.has_list() ? " {" : "";  // a block for the list's array
  out << "    case " << step << "u:" << open << " /* " << op_kind_name(op.kind) << " (op " << op.source_index << ") */\n";
  std::string prelude;
  const std::string call_text =
      kernel_call_text(model, step, op_symbol(module_names(model), params_owner(model, step)) + "_params", {}, 0,
                       prelude) + ";\n";
  // A kernel that checks its data returns its status, which ends the run when not OK.
  out << prelude << "      " << (kernel.returns_status() ? "return " + call_text : call_text + "      break;\n")
      << (*open ? "    }\n" : "");
}

// The step function the executor core calls once per operator (microaot_step_fn).
void emit_step_function(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const bool arena = uses_arena(model);  // a model of only reshapes, or of I/O only, needs no arena pointer
  out << "/* Operator `step` of the schedule: one kernel call on addresses fixed at compile time. */\n"
      << "static microaot_status " << n.prefix << "_step(const microaot_context *ctx, uint32_t step) {\n";
  if (arena) out << "  uint8_t *arena = ctx->arena;\n";
  if (!arena) out << "  (void)ctx; /* unused when no operator touches the arena or a bound buffer */\n";
  out << "  switch (step) {\n";
  for (size_t step = 0; step < model.calls.size(); ++step) emit_step_case(out, model, step);
  out << "    default:\n      break;\n  }\n  return MICROAOT_STATUS_OK;\n}\n\n";
}
}  // namespace

// emit_api_source.cpp: the static memories (before the step function, which addresses the pools), then
// the descriptor and the API wrappers.
std::string emit_static_memory(const CompiledModel& model);
std::string emit_api_source(const CompiledModel& model);

std::string emit_model_source(const CompiledModel& model) {
  std::ostringstream out;
  out << kGeneratedBanner;
  if (is_graph(model)) {  // the steps are the blob's; this file binds it to the interpreter
    out << "#include <stddef.h>\n#include <stdint.h>\n\n#include \"" << module_names(model).prefix << ".h\"\n\n"
        << emit_static_memory(model) << emit_api_source(model);
    return out.str();
  }
  emit_includes(out, model);
  emit_constant_declarations(out, model);
  emit_params(out, model);
  out << emit_band_params(model);
  out << emit_static_memory(model);
  emit_step_function(out, model);
  out << emit_api_source(model);
  return out.str();
}

}  // namespace microaot
