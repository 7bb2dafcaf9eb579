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
std::string op_symbol(const ModuleNames& n, size_t step) { return n.prefix + "_op" + std::to_string(step); }

void emit_includes(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  out << "#include <float.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n";
  out << "#include \"" << n.prefix << ".h\"\n#include \"memory_map.h\"\n";
  std::set<std::string> headers;
  for (const KernelCall& call : model.calls) headers.insert(call.info().header);
  for (const std::string& h : headers) out << "#include \"" << h << "\"\n";
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

void emit_params(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  out << "/* Operator parameters, all computed at compile time. */\n";
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    out << c_params_definition(op_symbol(n, step), *call.info().params, call.params);
  }
  out << "\n";
}

// One kernel argument: a constant's symbol, NULL for an absent optional input, else a planned address:
// in the arena, in a pool, or (I/O outside the arena) in the buffer bound to the context's slot.
std::string argument(const CompiledModel& model, const Op& op, int id) {
  if (id == kNoTensor) return "NULL";
  const Tensor& t = model.graph.tensor(id);
  if (t.is_constant) return constant_symbol(model, id);
  const bool is_output = std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end();
  const int slot = io_slot(model, id);
  std::string address = "ctx->slots[" + std::to_string(slot) + "].buffer";
  if (slot < 0) {  // planned: I/O bound to a slot has no buffer in the plan (nor a pool)
    const size_t pool = pool_of_tensor(model, id);
    address = (pool == 0 ? "arena" : pool_symbol(model, pool)) + " + " + module_names(model).macro + "_TENSOR_" +
              std::to_string(model.graph.storage_of(id)) + "_OFFSET";
  }
  // Through void *: the planner aligned every buffer, which a cast from uint8_t * cannot know.
  return std::string("(") + (is_output ? "" : "const ") + dtype_c_type(t.dtype) + " *)(" +
         (is_output ? "void" : "const void") + " *)(" + address + ")";
}

std::string scratch_argument(const CompiledModel& model, size_t step) {
  MICROAOT_CHECK(model.scratch_buffer[step] >= 0, "a call takes scratch but none was planned");
  const size_t pool = model.pool_of.empty() ? 0 : model.pool_of[model.scratch_buffer[step]];
  return "(void *)(" + (pool == 0 ? std::string("arena") : pool_symbol(model, pool)) + " + " +
         module_names(model).macro + "_SCRATCH_" + std::to_string(step) + "_OFFSET)";
}

bool uses_arena(const CompiledModel& model) {
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    const bool scratch = call.info().takes_scratch();
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

// The step function the executor core calls once per operator (microaot_step_fn).
void emit_step_function(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const bool arena = uses_arena(model);  // a model of only reshapes, or of I/O only, needs no arena pointer
  out << "/* Operator `step` of the schedule: one kernel call on addresses fixed at compile time. */\n"
      << "static void " << n.prefix << "_step(const microaot_context *ctx, uint32_t step) {\n";
  if (arena) out << "  uint8_t *arena = ctx->arena;\n";
  if (!arena) out << "  (void)ctx; /* unused when no operator touches the arena or a bound buffer */\n";
  out << "  switch (step) {\n";
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    const Op& op = model.graph.ops[step];
    out << "    case " << step << "u: /* " << op_kind_name(op.kind) << " (op " << op.source_index << ") */\n"
        << "      " << call.info().function() << "(&" << op_symbol(n, step) << "_params";
    for (int id : call.args) out << ", " << argument(model, op, id);
    if (call.info().takes_scratch()) out << ", " << scratch_argument(model, step);
    out << ");\n      break;\n";
  }
  out << "    default:\n      break;\n  }\n}\n\n";
}
}  // namespace

// emit_api_source.cpp: the static memories (before the step function, which addresses the pools), then
// the descriptor and the API wrappers.
std::string emit_static_memory(const CompiledModel& model);
std::string emit_api_source(const CompiledModel& model);

std::string emit_model_source(const CompiledModel& model) {
  std::ostringstream out;
  out << kGeneratedBanner;
  emit_includes(out, model);
  emit_constant_declarations(out, model);
  emit_params(out, model);
  out << emit_static_memory(model);
  emit_step_function(out, model);
  out << emit_api_source(model);
  return out.str();
}

}  // namespace microaot
