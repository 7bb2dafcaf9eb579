// The API half of NAME.c: the optional static arena, input/output tables and the state-checked calls.
// It is the same text for every model apart from names and numbers.
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"

namespace microaot {

namespace {
void emit_io_table(std::ostringstream& out, const CompiledModel& model, const std::string& what,
                   const std::vector<int>& ids) {
  const ModuleNames n = module_names(model);
  out << "static const size_t " << n.prefix << "_" << what << "_offsets[] = {";
  for (size_t i = 0; i < ids.size(); ++i) {
    out << (i ? ", " : "") << n.macro << "_TENSOR_" << model.graph.storage_of(ids[i]) << "_OFFSET";
  }
  out << "};\nstatic const size_t " << n.prefix << "_" << what << "_sizes[] = {";
  for (size_t i = 0; i < ids.size(); ++i) out << (i ? ", " : "") << model.graph.tensor(ids[i]).byte_size() << "u";
  out << "};\n";
}

void emit_static_arena(std::ostringstream& out, const ModuleNames& n) {
  out << "#ifndef " << n.macro << "_NO_STATIC_ARENA\n"
      << "/* Define " << n.macro << "_ARENA_SECTION (e.g. __attribute__((section(\".sram2\")))) to place it. */\n"
      << "#ifndef " << n.macro << "_ARENA_SECTION\n#define " << n.macro << "_ARENA_SECTION\n#endif\n"
      << "#if defined(__GNUC__) || defined(__clang__)\n"
      << "static uint8_t " << n.prefix << "_static_arena[" << n.macro << "_ARENA_SIZE] __attribute__((aligned("
      << n.macro << "_ARENA_ALIGN))) " << n.macro << "_ARENA_SECTION;\n"
      << "#else\n"
      << "static uint64_t " << n.prefix << "_static_arena_words[(" << n.macro << "_ARENA_SIZE + 7u) / 8u];\n"
      << "#define " << n.prefix << "_static_arena ((uint8_t *)" << n.prefix << "_static_arena_words)\n"
      << "#endif\n#endif\n\n";
}

void emit_init_destroy(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  out << "microaot_status " << p << "_init(" << p << "_context *ctx, void *arena, size_t arena_size) {\n"
      << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  /* Unbound until every check passes: a failed init leaves no usable (or stale) arena behind. */\n"
      << "  ctx->arena = NULL;\n  ctx->state = " << m << "_STATE_IDLE;\n"
      << "  if (arena == NULL) {\n"
      << "#ifdef " << m << "_NO_STATIC_ARENA\n    return MICROAOT_STATUS_NULL_POINTER;\n#else\n"
      << "    arena = " << p << "_static_arena;\n    arena_size = " << m << "_ARENA_SIZE;\n#endif\n  }\n"
      << "  if (arena_size < " << m << "_ARENA_SIZE) return MICROAOT_STATUS_ARENA_TOO_SMALL;\n"
      << "  if (((uintptr_t)arena % " << m << "_ARENA_ALIGN) != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;\n"
      << "  ctx->arena = (uint8_t *)arena;\n  ctx->state = " << m << "_STATE_READY;\n"
      << "  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_destroy(" << p << "_context *ctx) {\n"
      << "  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state == " << m << "_STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  ctx->arena = NULL;\n  ctx->state = " << m << "_STATE_IDLE;\n  return MICROAOT_STATUS_OK;\n}\n\n";
}

void emit_input_calls(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const std::string ready = "ctx->state != " + m + "_STATE_READY && ctx->state != " + m + "_STATE_DONE";
  out << "microaot_status " << p << "_set_input(" << p
      << "_context *ctx, size_t index, const void *data, size_t size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (" << ready << ") return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_INPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  if (size != " << p << "_input_sizes[index]) return MICROAOT_STATUS_BAD_SIZE;\n"
      << "  memcpy(ctx->arena + " << p << "_input_offsets[index], data, size);\n"
      << "  ctx->state = " << m << "_STATE_READY;\n  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_input_ptr(" << p
      << "_context *ctx, size_t index, void **data, size_t *size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (" << ready << ") return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_INPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  *data = ctx->arena + " << p << "_input_offsets[index];\n"
      << "  if (size != NULL) *size = " << p << "_input_sizes[index];\n"
      << "  ctx->state = " << m << "_STATE_READY;\n  return MICROAOT_STATUS_OK;\n}\n\n";
}

void emit_output_calls(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  out << "microaot_status " << p << "_get_output(" << p
      << "_context *ctx, size_t index, void *data, size_t size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state != " << m << "_STATE_DONE) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_OUTPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  if (size != " << p << "_output_sizes[index]) return MICROAOT_STATUS_BAD_SIZE;\n"
      << "  memcpy(data, ctx->arena + " << p << "_output_offsets[index], size);\n"
      << "  return MICROAOT_STATUS_OK;\n}\n\n";
  out << "microaot_status " << p << "_output_ptr(" << p
      << "_context *ctx, size_t index, const void **data, size_t *size) {\n"
      << "  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;\n"
      << "  if (ctx->state != " << m << "_STATE_DONE) return MICROAOT_STATUS_BAD_STATE;\n"
      << "  if (index >= " << m << "_NUM_OUTPUTS) return MICROAOT_STATUS_BAD_INDEX;\n"
      << "  *data = ctx->arena + " << p << "_output_offsets[index];\n"
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
  for (size_t i = 0; i < model.graph.inputs.size(); ++i) {
    out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_set_input(&ctx, " << i << "u, inputs->"
        << field(model.graph.inputs[i], i) << ", " << p << "_input_sizes[" << i << "]);\n";
  }
  out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_run(&ctx);\n";
  for (size_t i = 0; i < model.graph.outputs.size(); ++i) {
    out << "  if (status == MICROAOT_STATUS_OK) status = " << p << "_get_output(&ctx, " << i << "u, outputs->"
        << field(model.graph.outputs[i], i) << ", " << p << "_output_sizes[" << i << "]);\n";
  }
  out << "  (void)" << p << "_destroy(&ctx);\n  return (int32_t)status;\n}\n\n";
}
}  // namespace

std::string emit_api_source(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  std::ostringstream out;
  emit_static_arena(out, n);
  emit_io_table(out, model, "input", model.graph.inputs);
  emit_io_table(out, model, "output", model.graph.outputs);
  out << "\n";
  emit_init_destroy(out, n);
  emit_input_calls(out, n);
  emit_output_calls(out, n);
  if (model.options.interface_api_c) emit_tvm_run(out, model);
  return out.str();
}

}  // namespace microaot
