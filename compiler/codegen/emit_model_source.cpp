// NAME.c: the kernel parameters (const, in flash), the API with its state checks, and run(): the fixed
// sequence of kernel calls on arena offsets decided at compile time.
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
  out << "#include <float.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n";
  out << "#include \"" << n.prefix << ".h\"\n#include \"memory_map.h\"\n#include \"platform.h\"\n";
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

// One kernel argument: a constant's symbol, NULL for an absent optional input, else an arena address.
std::string argument(const CompiledModel& model, const Op& op, int id) {
  if (id == kNoTensor) return "NULL";
  const Tensor& t = model.graph.tensor(id);
  if (t.is_constant) return constant_symbol(model, id);
  const bool is_output = std::find(op.outputs.begin(), op.outputs.end(), id) != op.outputs.end();
  const int slot = io_slot(model, id);
  const size_t pool = pool_of_tensor(model, id);
  const std::string address = slot >= 0 ? "ctx->io[" + std::to_string(slot) + "]"
                                        : (pool == 0 ? "arena" : pool_symbol(model, pool)) + " + " +
                                              module_names(model).macro + "_TENSOR_" +
                                              std::to_string(model.graph.storage_of(id)) + "_OFFSET";
  return std::string("(") + (is_output ? "" : "const ") + dtype_c_type(t.dtype) + " *)(" + address + ")";
}

std::string scratch_argument(const CompiledModel& model, size_t step) {
  MICROAOT_CHECK(model.scratch_buffer[step] >= 0, "a call takes scratch but none was planned");
  const size_t pool = model.pool_of.empty() ? 0 : model.pool_of[model.scratch_buffer[step]];
  return "(void *)(" + (pool == 0 ? std::string("arena") : pool_symbol(model, pool)) + " + " + module_names(model).macro + "_SCRATCH_" + std::to_string(step) + "_OFFSET)";
}

void emit_io_check(std::ostringstream& out, const CompiledModel& model) {
  if (model.options.io_in_arena) return;
  const std::string slots = std::to_string(model.graph.inputs.size() + model.graph.outputs.size());
  out << "  for (i = 0; i < " << slots << "u; ++i) {\n"
      << "    if (ctx->io[i] == NULL) return MICROAOT_STATUS_NULL_POINTER;\n  }\n";
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

void emit_run(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  out << "microaot_status " << n.prefix << "_run(" << n.prefix << "_context *ctx) {\n";
  const bool any_call = uses_arena(model);  // a model of only reshapes, or of I/O only, needs no arena pointer
  if (any_call) out << "  uint8_t *arena;\n";
  if (!model.options.io_in_arena) out << "  size_t i;\n";
  out << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n";
  emit_io_check(out, model);
  out << "  if (ctx->state != " << n.macro << "_STATE_READY && ctx->state != " << n.macro
      << "_STATE_DONE) return MICROAOT_STATUS_BAD_STATE;\n";
  out << "  ctx->state = " << n.macro << "_STATE_RUNNING;\n";
  if (any_call) out << "  arena = ctx->arena;\n";
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    const Op& op = model.graph.ops[step];
    out << "\n  /* step " << step << ": " << op_kind_name(op.kind) << " (op " << op.source_index << ") */\n";
    out << "  MICROAOT_OP_BEGIN(" << step << ", \"" << op_kind_name(op.kind) << "\");\n";
    out << "  " << call.info().function() << "(&" << op_symbol(n, step) << "_params";
    for (int id : call.args) out << ", " << argument(model, op, id);
    if (call.info().takes_scratch()) out << ", " << scratch_argument(model, step);
    out << ");\n";
    out << "  MICROAOT_OP_END(" << step << ", \"" << op_kind_name(op.kind) << "\");\n";
  }
  out << "\n  ctx->state = " << n.macro << "_STATE_DONE;\n  return MICROAOT_STATUS_OK;\n}\n\n";
}
}  // namespace

std::string emit_api_source(const CompiledModel& model);  // emit_api_source.cpp

std::string emit_model_source(const CompiledModel& model) {
  std::ostringstream out;
  out << kGeneratedBanner;
  emit_includes(out, model);
  out << "#ifdef MICROAOT_PROFILE\n"
      << "#define MICROAOT_OP_BEGIN(step, name) microaot_platform_op_begin((step), (name))\n"
      << "#define MICROAOT_OP_END(step, name) microaot_platform_op_end((step), (name))\n"
      << "#else\n#define MICROAOT_OP_BEGIN(step, name) ((void)0)\n#define MICROAOT_OP_END(step, name) ((void)0)\n"
      << "#endif\n\n";
  emit_constant_declarations(out, model);
  emit_params(out, model);
  out << emit_api_source(model);
  emit_run(out, model);
  return out.str();
}

}  // namespace microaot
