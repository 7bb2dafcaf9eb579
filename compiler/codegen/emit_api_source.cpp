// The parts of NAME.c around the executor core: the static memories (arena, pools, default I/O buffers),
// the model descriptor the core runs on, and the public API as thin wrappers over the core.
#include <algorithm>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"

namespace microaot {

namespace {
// C has no empty arrays: a model without activations in the arena (I/O outside) still gets one byte.
std::string static_arena_length(const CompiledModel& model) {
  if (is_graph(model)) return module_names(model).macro + "_STATIC_ARENA_SIZE";  // sized for replacement blobs
  return arena_buffer_bytes(model) == 0 ? std::string("1u") : module_names(model).macro + "_ARENA_SIZE";
}

// <MACRO>_STATIC_ARENA_BASE: the static arena (the folder's shared one with several models), or NULL.
void emit_static_arena(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string base = "#define " + n.macro + "_STATIC_ARENA_BASE ";
  out << "#ifndef " << n.macro << "_NO_STATIC_ARENA\n";
  if (!model.options.shared_arena.empty()) {
    out << "/* The arena shared by every model of this folder (shared_arena.c). */\n"
        << "extern uint8_t " << model.options.shared_arena << "[];\n" << base << model.options.shared_arena << "\n";
  } else {
    out << "/* Define " << n.macro << "_ARENA_SECTION (e.g. __attribute__((section(\".sram2\")))) to place it. */\n"
        << "#ifndef " << n.macro << "_ARENA_SECTION\n#define " << n.macro << "_ARENA_SECTION\n#endif\n"
        << "#if defined(__GNUC__) || defined(__clang__)\n"
        << "static uint8_t " << n.prefix << "_static_arena[" << static_arena_length(model) << "] __attribute__((aligned("
        << n.macro << "_ARENA_ALIGN))) " << n.macro << "_ARENA_SECTION;\n" << base << n.prefix << "_static_arena\n"
        << "#else\n"
        << "static uint64_t " << n.prefix << "_static_arena_words[(" << static_arena_length(model) << " + 7u) / 8u];\n"
        << base << "((uint8_t *)" << n.prefix << "_static_arena_words)\n#endif\n";
  }
  out << "#else\n" << base << "NULL\n#endif\n\n";
}

// --pool: the further pools as symbols the linker can place, and their table (pool 0 is the arena).
void emit_pools(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  for (size_t k = 1; k < model.options.pools.size(); ++k) {
    const PoolOption& pool = model.options.pools[k];
    const std::string section = n.macro + "_POOL_" + c_macro_name(pool.name) + "_SECTION";
    const std::string array = pool_symbol(model, k) + "[" + std::to_string(std::max<int64_t>(1, model.pool_used[k])) + "]";
    out << "/* Pool '" << pool.name << "': define " << section << " to place it. */\n"
        << "#ifndef " << section << "\n#define " << section << "\n#endif\n"
        << "#if defined(__GNUC__) || defined(__clang__)\nuint8_t " << array << " __attribute__((aligned("
        << std::max(pool.alignment, model.options.alignment) << "))) " << section << ";\n#else\nuint8_t " << array
        << ";\n#endif\n";
  }
  out << "static uint8_t *const " << n.prefix << "_pools[] = {NULL";
  for (size_t k = 1; k < model.options.pools.size(); ++k) out << ", " << pool_symbol(model, k);
  out << "};\n\n";
}

// --io-in-arena off: a default buffer per input/output (static, beside the static arena), bound by init.
void emit_static_io(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const Graph& g = model.graph;
  std::vector<std::string> names;
  out << "#ifndef " << n.macro << "_NO_STATIC_ARENA\n";
  for (size_t i = 0; i < g.inputs.size() + g.outputs.size(); ++i) {
    const bool is_input = i < g.inputs.size();
    const int id = is_input ? g.inputs[i] : g.outputs[i - g.inputs.size()];
    names.push_back(n.prefix + "_static_" + (is_input ? "input" : "output") +
                    std::to_string(is_input ? i : i - g.inputs.size()));
    out << "static uint64_t " << names.back() << "[" << (g.tensor(id).byte_size() + 7) / 8 << "];\n";
  }
  out << "static uint8_t *const " << n.prefix << "_static_io[] = {";
  for (size_t i = 0; i < names.size(); ++i) out << (i ? ", " : "") << "(uint8_t *)" << names[i];
  out << "};\n#define " << n.macro << "_STATIC_IO " << n.prefix << "_static_io\n#else\n#define " << n.macro
      << "_STATIC_IO NULL\n#endif\n\n";
}

void emit_io_table(std::ostringstream& out, const CompiledModel& model, const std::string& what,
                   const std::vector<int>& ids) {
  const ModuleNames n = module_names(model);
  out << "static const microaot_io_desc " << n.prefix << "_" << what << "[] = {";
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string offset = model.options.io_in_arena
                                   ? n.macro + "_TENSOR_" + std::to_string(model.graph.storage_of(ids[i])) + "_OFFSET"
                                   : "0u";
    out << (i ? ", " : "") << "{" << offset << ", " << model.graph.tensor(ids[i]).byte_size() << "u, "
        << (model.options.io_in_arena ? pool_of_tensor(model, ids[i]) : 0) << "u}";
  }
  out << "};\n";
}

// The operator names for the profiling hooks, kept only when they are called.
void emit_op_names(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  if (model.calls.empty()) {
    out << "#define " << n.macro << "_OP_NAMES NULL\n\n";
    return;
  }
  out << "#ifdef MICROAOT_PROFILE\nstatic const char *const " << n.prefix << "_op_names[] = {";
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    out << (step ? ", " : "") << "\"" << op_kind_name(model.graph.ops[step].kind) << "\"";
  }
  out << "};\n#define " << n.macro << "_OP_NAMES " << n.prefix << "_op_names\n#else\n#define " << n.macro
      << "_OP_NAMES NULL\n#endif\n\n";
}

bool has_nonzero_initial_state(const CompiledModel& model) {
  const std::vector<uint8_t> bytes = initial_state(model);
  return std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b != 0; });
}

// What init and reset copy into the persistent region (in flash), unless it is all zeros.
void emit_initial_state(std::ostringstream& out, const CompiledModel& model) {
  if (!has_nonzero_initial_state(model)) return;
  const std::vector<uint8_t> bytes = initial_state(model);
  out << "/* The state init and reset restore: the variables' initial values (CALL_ONCE's initialisation,\n"
      << " * evaluated at compile time). */\nstatic const uint8_t " << module_names(model).prefix
      << "_persistent_init[" << bytes.size() << "] = {";
  for (size_t i = 0; i < bytes.size(); ++i) out << (i % 24 == 0 ? "\n  " : " ") << static_cast<int>(bytes[i]) << "u,";
  out << "\n};\n\n";
}

void emit_descriptor(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const bool in_arena = model.options.io_in_arena;
  const std::vector<std::pair<const char*, std::string>> fields = {
      {"arena_size", m + "_ARENA_SIZE"},
      {"arena_header", m + "_ARENA_HEADER_SIZE"},
      {"arena_align", m + "_ARENA_ALIGN"},
      {"io_align", in_arena ? "1u" : m + "_IO_ALIGN"},
      {"num_inputs", m + "_NUM_INPUTS"},
      {"num_outputs", m + "_NUM_OUTPUTS"},
      {"num_steps", m + "_NUM_OPS"},
      {"num_pools", std::to_string(std::max<size_t>(1, model.options.pools.size())) + "u"},
      {"io_in_arena", in_arena ? "1u" : "0u"},
      {"inputs", p + "_inputs"},
      {"outputs", p + "_outputs"},
      {"pools", model.options.pools.size() > 1 ? p + "_pools" : "NULL"},
      {"static_arena", m + "_STATIC_ARENA_BASE"},
      {"static_io", in_arena ? "NULL" : m + "_STATIC_IO"},
      {"static_owner", has_static_owner(model) ? "&" + p + "_static_owner" : "NULL"},
      {"run_step", p + "_step"},
      {"op_names", m + "_OP_NAMES"},
      {"program", "NULL"},
      {"persistent_offset", model.persistent.empty() ? "0u" : m + "_PERSISTENT_OFFSET"},
      {"persistent_size", model.persistent.empty() ? "0u" : m + "_PERSISTENT_SIZE"},
      {"persistent_init", has_nonzero_initial_state(model) ? p + "_persistent_init" : "NULL"},
  };
  out << "/* What the executor core (microaot/executor.h) needs to run this model. */\n"
      << "static const microaot_model " << p << "_descriptor = {\n";
  for (const auto& [field, value] : fields) out << "  ." << field << " = " << value << ",\n";
  out << "};\n\n";
  out << "/* NAME.h, network_info.txt and report.json count " << context_bytes32(model)
      << " bytes per context on 32-bit targets. */\n"
      << "typedef char " << p << "_context_size_check[sizeof(void *) != 4u || sizeof(" << p
      << "_context) == " << context_bytes32(model) << "u ? 1 : -1];\n\n";
}

// The public calls: each one forwards to the core with the context's core part (NULL stays NULL).
struct Wrapper {
  const char* result;
  const char* name;
  const char* params;  // after the context
  const char* args;    // after the core context
  bool io_outside_only;
};
constexpr Wrapper kWrappers[] = {
    {"microaot_status", "set_input", "size_t index, const void *data, size_t size", "index, data, size", false},
    {"microaot_status", "input_ptr", "size_t index, void **data, size_t *size", "index, data, size", false},
    {"microaot_status", "bind_input", "size_t index, void *buffer, size_t size", "index, buffer, size", true},
    {"microaot_status", "bind_output", "size_t index, void *buffer, size_t size", "index, buffer, size", true},
    {"microaot_status", "run", "", "", false},
    {"microaot_status", "run_steps", "size_t max_ops", "max_ops", false},
    {"microaot_status", "get_output", "size_t index, void *data, size_t size", "index, data, size", false},
    {"microaot_status", "output_ptr", "size_t index, const void **data, size_t *size", "index, data, size", false},
    {"microaot_status", "destroy", "", "", false},
    {"microaot_status", "reset", "", "", false},
};

// --executor graph: what this firmware offers a blob, and init through the blob's loader.
void emit_graph_init(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  out << "extern const microaot_graph_kernel " << p << "_kernels[]; /* kernel_table.c */\n\n"
      << "static const microaot_graph_firmware " << p << "_firmware = {" << p << "_kernels, " << n.macro
      << "_NUM_KERNELS, " << n.macro << "_MAX_INPUTS, " << n.macro << "_STATIC_ARENA_BASE,\n    "
      << n.macro << "_STATIC_ARENA_SIZE};\n\n"
      << "typedef char " << p << "_context_size_check[sizeof(void *) != 4u || sizeof(" << p << "_context) == "
      << context_bytes32(model) << "u + 8u * (" << n.macro << "_MAX_INPUTS - " << n.macro << "_NUM_INPUTS) ? 1 : -1];\n\n";
  out << "microaot_status " << p << "_init_blob(" << p << "_context *ctx, const void *blob, size_t blob_size, void *arena,\n"
      << "                                size_t arena_size) {\n"
      << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  return microaot_graph_init(&ctx->core, &ctx->graph, ctx->slots, &" << p
      << "_firmware, blob, blob_size, arena, arena_size);\n}\n\n";
  out << "microaot_status " << p << "_init(" << p << "_context *ctx, void *arena, size_t arena_size) {\n"
      << "  return " << p << "_init_blob(ctx, " << p << "_blob, sizeof " << p << "_blob, arena, arena_size);\n}\n\n";
  out << "uint32_t " << p << "_missing_kernel(const " << p << "_context *ctx) {\n"
      << "  return ctx == NULL ? MICROAOT_BLOB_NONE : ctx->graph.missing_kernel;\n}\n\n";
}

void emit_wrappers(std::ostringstream& out, const CompiledModel& model) {
  const std::string& p = module_names(model).prefix;
  out << "static microaot_context *" << p << "_core(" << p << "_context *ctx) {\n"
      << "  return ctx == NULL ? NULL : &ctx->core;\n}\n\n";
  if (is_graph(model)) {
    emit_graph_init(out, model);
  } else {
    out << "microaot_status " << p << "_init(" << p << "_context *ctx, void *arena, size_t arena_size) {\n"
        << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
        << "  return " << executor_call_prefix(model) << "init(&ctx->core, &" << p
        << "_descriptor, ctx->slots, arena, arena_size);\n}\n\n";
  }
  for (const Wrapper& w : kWrappers) {
    if (w.io_outside_only && model.options.io_in_arena) continue;
    const std::string params = *w.params ? std::string(", ") + w.params : "";
    const std::string args = *w.args ? std::string(", ") + w.args : "";
    out << w.result << " " << p << "_" << w.name << "(" << p << "_context *ctx" << params << ") {\n"
        << "  return " << (w.io_outside_only ? "microaot_" : executor_call_prefix(model)) << w.name << "("
        << p << "_core(ctx)" << args << ");\n}\n\n";
  }
  out << "const char *" << p << "_status_string(microaot_status status) { return microaot_status_string(status); }\n\n";
}

void emit_tvm_run(std::ostringstream& out, const CompiledModel& model) {
  const std::string& p = module_names(model).prefix;
  const Graph& g = model.graph;
  const auto field = [&](int id, size_t i) { return c_identifier(g.tensor(id).name) + "_" + std::to_string(i); };
  out << "int32_t tvmgen_" << p << "_run(struct tvmgen_" << p << "_inputs *inputs, struct tvmgen_" << p
      << "_outputs *outputs) {\n  " << p << "_context ctx;\n  void *in[" << g.inputs.size() << "];\n  void *out["
      << g.outputs.size() << "];\n"
      << "  if (inputs == NULL || outputs == NULL) return (int32_t)MICROAOT_STATUS_NULL_POINTER;\n";
  for (size_t i = 0; i < g.inputs.size(); ++i) out << "  in[" << i << "] = inputs->" << field(g.inputs[i], i) << ";\n";
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    out << "  out[" << i << "] = outputs->" << field(g.outputs[i], i) << ";\n";
  }
  out << "  return (int32_t)microaot_run_once" << (model.options.io_in_arena ? "" : "_bound") << "(&ctx.core, &" << p
      << "_descriptor, ctx.slots, in, out);\n}\n\n";
}
}  // namespace

std::vector<uint8_t> initial_state(const CompiledModel& model) {
  std::vector<uint8_t> bytes(static_cast<size_t>(model.persistent_bytes), 0);
  for (const PersistentBuffer& p : model.persistent) {
    const std::vector<uint8_t>& value = model.graph.tensor(p.tensor_id).data;
    std::copy(value.begin(), value.end(), bytes.begin() + p.offset);
  }
  return bytes;
}

std::string emit_static_memory(const CompiledModel& model) {
  std::ostringstream out;
  const std::string& p = module_names(model).prefix;
  emit_static_arena(out, model);
  if (model.options.pools.size() > 1) emit_pools(out, model);
  if (!model.options.io_in_arena) emit_static_io(out, model);
  if (has_static_owner(model)) {
    out << "/* The context that wrote this model's pools and default I/O buffers last (every context shares them). */\n"
        << "static uintptr_t " << p << "_static_owner;\n\n";
  }
  return out.str();
}

std::string emit_api_source(const CompiledModel& model) {
  std::ostringstream out;
  if (is_graph(model)) {  // the descriptor comes from the blob
    emit_wrappers(out, model);
    return out.str();
  }
  emit_io_table(out, model, "inputs", model.graph.inputs);
  emit_io_table(out, model, "outputs", model.graph.outputs);
  out << "\n";
  emit_op_names(out, model);
  emit_initial_state(out, model);
  emit_descriptor(out, model);
  emit_wrappers(out, model);
  if (model.options.interface_api_c) emit_tvm_run(out, model);
  return out.str();
}

}  // namespace microaot
