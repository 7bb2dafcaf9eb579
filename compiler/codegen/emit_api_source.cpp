// The API half of NAME.c: the optional static arena, input/output tables and the state-checked calls.
// It is the same text for every model apart from names and numbers.
#include <algorithm>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"

namespace microaot {

namespace {
void emit_io_table(std::ostringstream& out, const CompiledModel& model, const std::string& what,
                   const std::vector<int>& ids) {
  const ModuleNames n = module_names(model);
  if (model.options.io_in_arena) {
    out << "static const size_t " << n.prefix << "_" << what << "_offsets[] = {";
    for (size_t i = 0; i < ids.size(); ++i) {
      out << (i ? ", " : "") << n.macro << "_TENSOR_" << model.graph.storage_of(ids[i]) << "_OFFSET";
    }
    out << "};\n";
  }
  if (!model.pool_of.empty() && model.options.io_in_arena) {
    out << "static const unsigned char " << n.prefix << "_" << what << "_pools[] = {";
    for (size_t i = 0; i < ids.size(); ++i) out << (i ? ", " : "") << pool_of_tensor(model, ids[i]) << "u";
    out << "};\n";
  }
  out << "static const size_t " << n.prefix << "_" << what << "_sizes[] = {";
  for (size_t i = 0; i < ids.size(); ++i) out << (i ? ", " : "") << model.graph.tensor(ids[i]).byte_size() << "u";
  out << "};\n";
}

// Where input/output `index` lives: in the arena, or in the buffer bound to the context.
std::string io_base(const CompiledModel& model, const std::string& what) {
  const ModuleNames n = module_names(model);
  if (model.pool_of.empty()) return "ctx->arena";
  return n.prefix + "_pool_base(ctx, " + n.prefix + "_" + what + "_pools[index])";
}
std::string input_address(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  return model.options.io_in_arena ? io_base(model, "input") + " + " + n.prefix + "_input_offsets[index]"
                                   : "ctx->io[index]";
}
std::string output_address(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  return model.options.io_in_arena ? io_base(model, "output") + " + " + n.prefix + "_output_offsets[index]"
                                   : "ctx->io[" + n.macro + "_NUM_INPUTS + index]";
}

// --pool: the further pools as static symbols the linker can place, and the base of pool k.
void emit_pools(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  for (size_t k = 1; k < model.options.pools.size(); ++k) {
    const PoolOption& pool = model.options.pools[k];
    const std::string section = n.macro + "_POOL_" + c_macro_name(pool.name) + "_SECTION";
    out << "/* Pool '" << pool.name << "': define " << section << " to place it. */\n"
        << "#ifndef " << section << "\n#define " << section << "\n#endif\n"
        << "#if defined(__GNUC__) || defined(__clang__)\n"
        << "uint8_t " << pool_symbol(model, k) << "[" << std::max<int64_t>(1, model.pool_used[k])
        << "] __attribute__((aligned(" << std::max(pool.alignment, model.options.alignment) << "))) " << section
        << ";\n#else\nuint8_t " << pool_symbol(model, k) << "[" << std::max<int64_t>(1, model.pool_used[k])
        << "];\n#endif\n";
  }
  if (!model.options.io_in_arena) return;  // only the I/O calls need a pool's base at run time
  out << "\nstatic uint8_t *" << n.prefix << "_pool_base(" << n.prefix << "_context *ctx, size_t pool) {\n"
      << "  switch (pool) {\n";
  for (size_t k = 1; k < model.options.pools.size(); ++k) {
    out << "    case " << k << "u: return " << pool_symbol(model, k) << ";\n";
  }
  out << "    default: return ctx->arena;\n  }\n}\n\n";
}

// --io-in-arena off: default I/O buffers (static, beside the static arena) and the bind calls.
void emit_io_buffers(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const Graph& g = model.graph;
  out << "#ifndef " << m << "_NO_STATIC_ARENA\n";
  std::vector<std::string> names;
  for (size_t i = 0; i < g.inputs.size() + g.outputs.size(); ++i) {
    const bool is_input = i < g.inputs.size();
    const int id = is_input ? g.inputs[i] : g.outputs[i - g.inputs.size()];
    const std::string name = p + "_static_" + (is_input ? "input" : "output") +
                             std::to_string(is_input ? i : i - g.inputs.size());
    names.push_back(name);
    out << "static uint64_t " << name << "[" << (g.tensor(id).byte_size() + 7) / 8 << "];\n";
  }
  out << "static uint8_t *const " << p << "_static_io[] = {";
  for (size_t i = 0; i < names.size(); ++i) out << (i ? ", " : "") << "(uint8_t *)" << names[i];
  out << "};\n#endif\n\n";
  const auto bind = [&](const std::string& what, const std::string& count, const std::string& slot) {
    out << "microaot_status " << p << "_bind_" << what << "(" << p
        << "_context *ctx, size_t index, void *buffer, size_t size) {\n"
        << "  if (ctx == NULL || buffer == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
        << "  if (ctx->state == " << m << "_STATE_IDLE || ctx->state == " << m
        << "_STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;\n"
        << "  if (index >= " << count << ") return MICROAOT_STATUS_BAD_INDEX;\n"
        << "  if (size < " << p << "_" << what << "_sizes[index]) return MICROAOT_STATUS_BAD_SIZE;\n"
        << "  if (((uintptr_t)buffer % " << m << "_IO_ALIGN) != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;\n"
        << "  ctx->io[" << slot << "] = (uint8_t *)buffer;\n  return MICROAOT_STATUS_OK;\n}\n\n";
  };
  bind("input", m + "_NUM_INPUTS", "index");
  bind("output", m + "_NUM_OUTPUTS", m + "_NUM_INPUTS + index");
}

// C has no empty arrays: a model without activations in the arena (I/O outside) still gets one byte.
std::string static_arena_length(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  return model.plan.arena_size == 0 ? std::string("1u") : n.macro + "_ARENA_SIZE";
}

void emit_static_arena(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  if (!model.options.shared_arena.empty()) {
    out << "#ifndef " << n.macro << "_NO_STATIC_ARENA\n"
        << "/* The arena shared by every model of this folder (shared_arena.c): never run two of them at once. */\n"
        << "extern uint8_t " << model.options.shared_arena << "[];\n"
        << "#define " << n.prefix << "_static_arena " << model.options.shared_arena << "\n#endif\n\n";
    return;
  }
  out << "#ifndef " << n.macro << "_NO_STATIC_ARENA\n"
      << "/* Define " << n.macro << "_ARENA_SECTION (e.g. __attribute__((section(\".sram2\")))) to place it. */\n"
      << "#ifndef " << n.macro << "_ARENA_SECTION\n#define " << n.macro << "_ARENA_SECTION\n#endif\n"
      << "#if defined(__GNUC__) || defined(__clang__)\n"
      << "static uint8_t " << n.prefix << "_static_arena[" << static_arena_length(model) << "] __attribute__((aligned("
      << n.macro << "_ARENA_ALIGN))) " << n.macro << "_ARENA_SECTION;\n"
      << "#else\n"
      << "static uint64_t " << n.prefix << "_static_arena_words[(" << static_arena_length(model) << " + 7u) / 8u];\n"
      << "#define " << n.prefix << "_static_arena ((uint8_t *)" << n.prefix << "_static_arena_words)\n"
      << "#endif\n#endif\n\n";
}

void emit_init_destroy(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const size_t slots = model.graph.inputs.size() + model.graph.outputs.size();
  std::string bind_io;
  if (!model.options.io_in_arena) {
    bind_io = "  for (i = 0; i < " + std::to_string(slots) + "u; ++i) {\n#ifdef " + m +
              "_NO_STATIC_ARENA\n    ctx->io[i] = NULL;\n#else\n    ctx->io[i] = " + p +
              "_static_io[i];\n#endif\n  }\n";
  }
  out << "microaot_status " << p << "_init(" << p << "_context *ctx, void *arena, size_t arena_size) {\n"
      << (bind_io.empty() ? "" : "  size_t i;\n")
      << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  /* Unbound until every check passes: a failed init leaves no usable (or stale) arena behind. */\n"
      << "  ctx->arena = NULL;\n  ctx->state = " << m << "_STATE_IDLE;\n"
      << "  if (arena == NULL) {\n"
      << "#ifdef " << m << "_NO_STATIC_ARENA\n    return MICROAOT_STATUS_NULL_POINTER;\n#else\n"
      << "    arena = " << p << "_static_arena;\n    arena_size = " << m << "_ARENA_SIZE;\n#endif\n  }\n"
      << (model.plan.arena_size == 0 ? "  (void)arena_size;\n"
                                      : "  if (arena_size < " + m + "_ARENA_SIZE) return MICROAOT_STATUS_ARENA_TOO_SMALL;\n")
      << "  if (((uintptr_t)arena % " << m << "_ARENA_ALIGN) != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;\n"
      << "  ctx->arena = (uint8_t *)arena;\n" << bind_io << "  ctx->state = " << m << "_STATE_READY;\n"
      << "  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_destroy(" << p << "_context *ctx) {\n"
      << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state == " << m << "_STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  ctx->arena = NULL;\n  ctx->state = " << m << "_STATE_IDLE;\n  return MICROAOT_STATUS_OK;\n}\n\n";
}

void emit_input_calls(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const std::string ready = "ctx->state != " + m + "_STATE_READY && ctx->state != " + m + "_STATE_DONE";
  out << "microaot_status " << p << "_set_input(" << p
      << "_context *ctx, size_t index, const void *data, size_t size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (" << ready << ") return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_INPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  if (size != " << p << "_input_sizes[index]) return MICROAOT_STATUS_BAD_SIZE;\n"
      << (model.options.io_in_arena ? "" : "  if (ctx->io[index] == NULL) return MICROAOT_STATUS_NULL_POINTER;\n")
      << "  memcpy(" << input_address(model) << ", data, size);\n"
      << "  ctx->state = " << m << "_STATE_READY;\n  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_input_ptr(" << p
      << "_context *ctx, size_t index, void **data, size_t *size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (" << ready << ") return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_INPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  *data = " << input_address(model) << ";\n"
      << "  if (size != NULL) *size = " << p << "_input_sizes[index];\n"
      << "  ctx->state = " << m << "_STATE_READY;\n  return MICROAOT_STATUS_OK;\n}\n\n";
}

void emit_output_calls(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  out << "microaot_status " << p << "_get_output(" << p
      << "_context *ctx, size_t index, void *data, size_t size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state != " << m << "_STATE_DONE) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_OUTPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  if (size != " << p << "_output_sizes[index]) return MICROAOT_STATUS_BAD_SIZE;\n"
      << "  memcpy(data, " << output_address(model) << ", size);\n"
      << "  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_output_ptr(" << p
      << "_context *ctx, size_t index, const void **data, size_t *size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state != " << m << "_STATE_DONE) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_OUTPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  *data = " << output_address(model) << ";\n"
      << "  if (size != NULL) *size = " << p << "_output_sizes[index];\n"
      << "  return MICROAOT_STATUS_OK;\n}\n\n";
}

void emit_tvm_run(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const auto field = [&](int id, size_t i) { return c_identifier(model.graph.tensor(id).name) + "_" + std::to_string(i); };
  out << "int32_t tvmgen_" << p << "_run(struct tvmgen_" << p << "_inputs *inputs, struct tvmgen_" << p
      << "_outputs *outputs) {\n  " << p << "_context ctx;\n  microaot_status status;\n"
      << "  if (inputs == NULL || outputs == NULL) return (int32_t)MICROAOT_STATUS_NULL_POINTER;\n"
      << "  status = " << p << "_init(&ctx, NULL, 0);\n";
  // With the I/O outside the arena, the caller's buffers are bound: zero copy, as microTVM does.
  const bool bind = !model.options.io_in_arena;
  for (size_t i = 0; i < model.graph.inputs.size(); ++i) {
    out << "  if (status == MICROAOT_STATUS_OK) status = " << p << (bind ? "_bind_input" : "_set_input") << "(&ctx, "
        << i << "u, inputs->" << field(model.graph.inputs[i], i) << ", " << p << "_input_sizes[" << i << "]);\n";
  }
  for (size_t i = 0; bind && i < model.graph.outputs.size(); ++i) {
    out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_bind_output(&ctx, " << i << "u, outputs->"
        << field(model.graph.outputs[i], i) << ", " << p << "_output_sizes[" << i << "]);\n";
  }
  out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_run(&ctx);\n";
  for (size_t i = 0; !bind && i < model.graph.outputs.size(); ++i) {
    out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_get_output(&ctx, " << i << "u, outputs->"
        << field(model.graph.outputs[i], i) << ", " << p << "_output_sizes[" << i << "]);\n";
  }
  out << "  (void)" << p << "_destroy(&ctx);\n  return (int32_t)status;\n}\n\n";
}
}  // namespace

std::string emit_api_source(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  std::ostringstream out;
  emit_static_arena(out, model);
  if (!model.pool_of.empty()) emit_pools(out, model);
  emit_io_table(out, model, "input", model.graph.inputs);
  emit_io_table(out, model, "output", model.graph.outputs);
  out << "\n";
  if (!model.options.io_in_arena) emit_io_buffers(out, model);
  emit_init_destroy(out, model);
  emit_input_calls(out, model);
  emit_output_calls(out, model);
  if (model.options.interface_api_c) emit_tvm_run(out, model);
  return out.str();
}

}  // namespace microaot
