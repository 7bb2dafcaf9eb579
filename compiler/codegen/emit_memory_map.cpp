#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "ir/ir_dump.h"

namespace microaot {

namespace {
// The resource variables: in the persistent region after the activations, never reused.
void emit_persistent_map(std::ostringstream& out, const CompiledModel& model) {
  if (model.persistent.empty()) return;
  const ModuleNames n = module_names(model);
  out << "\n/* State kept from run to run (resource variables, variable tensors): offsets in the arena, after the\n"
      << " * activations. */\n"
      << "#define " << n.macro << "_PERSISTENT_OFFSET " << persistent_base(model) << "u\n"
      << "#define " << n.macro << "_PERSISTENT_SIZE " << model.persistent_bytes << "u\n";
  for (const PersistentBuffer& p : model.persistent) {
    const Tensor& t = model.graph.tensor(p.tensor_id);
    const std::string m = n.macro + "_TENSOR_" + std::to_string(p.tensor_id);
    out << "/* '" << c_comment_text(t.name) << "' " << dtype_name(t.dtype) << " " << format_shape(t.shape)
        << ", persistent */\n";
    out << "#define " << m << "_OFFSET " << persistent_base(model) + p.offset << "u\n";
    out << "#define " << m << "_SIZE " << t.byte_size() << "u\n";
  }
}
}  // namespace

std::string emit_memory_map(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  std::ostringstream out;
  out << kGeneratedBanner;
  out << "/* Every planned buffer of " << n.prefix << ": byte offset in the arena, size, alignment, and the\n"
      << " * schedule steps (see network_info.txt) of its first and last use. Planner: " << model.plan.planner
      << ". */\n";
  out << "#ifndef " << n.macro << "_MEMORY_MAP_H\n#define " << n.macro << "_MEMORY_MAP_H\n\n";
  out << "#define " << n.macro << "_MEMORY_ARENA_SIZE " << model.plan.arena_size << "u\n";
  for (size_t k = 0; k < model.pool_used.size(); ++k) {
    out << "#define " << n.macro << "_POOL_" << c_macro_name(model.options.pools[k].name) << "_SIZE "
        << model.pool_used[k] << "u /* pool " << k << (k == 0 ? ": the arena" : "") << " */\n";
  }
  out << "\n";
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    const BufferRecord& b = model.buffers[i];
    if (b.kind == BufferKind::kScratch) {
      const std::string m = n.macro + "_SCRATCH_" + std::to_string(scratch_step(b));
      out << "/* scratch of step " << scratch_step(b) << " */\n";
      out << "#define " << m << "_OFFSET " << model.plan.offsets[i] << "u\n";
      out << "#define " << m << "_SIZE " << b.size << "u\n";
      continue;
    }
    const Tensor& t = model.graph.tensor(b.tensor_id);
    const std::string m = n.macro + "_TENSOR_" + std::to_string(b.tensor_id);
    out << "/* '" << c_comment_text(t.name) << "' " << dtype_name(t.dtype) << " " << format_shape(t.shape)
        << ", steps " << b.first_op << ".." << b.last_op << " */\n";
    out << "#define " << m << "_OFFSET " << model.plan.offsets[i] << "u\n";
    if (!model.pool_of.empty()) {
      out << "#define " << m << "_POOL " << model.pool_of[i] << "u /* "
          << model.options.pools[model.pool_of[i]].name << " */\n";
    }
    out << "#define " << m << "_SIZE " << t.byte_size() << "u\n";
    out << "#define " << m << "_ALIGN " << b.alignment << "u\n";
  }
  emit_persistent_map(out, model);
  out << "\n/* Views that share another tensor's bytes (reshapes). */\n";
  for (size_t id = 0; id < model.graph.tensors.size(); ++id) {
    const Tensor& t = model.graph.tensors[id];
    // A ring buffer's window has no fixed offset (model.c computes it from the ring's position).
    if (t.alias_of < 0 || t.is_dead || t.ring.position >= 0) continue;
    const int owner = model.graph.storage_of(static_cast<int>(id));
    out << "#define " << n.macro << "_TENSOR_" << id << "_OFFSET " << n.macro << "_TENSOR_" << owner
        << "_OFFSET /* '" << c_comment_text(t.name) << "' */\n";
  }
  out << "\n#endif /* " << n.macro << "_MEMORY_MAP_H */\n";
  return out.str();
}

}  // namespace microaot
