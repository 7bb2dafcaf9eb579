#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "ir/ir_dump.h"

namespace microaot {

std::string emit_memory_map(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  std::ostringstream out;
  out << kGeneratedBanner;
  out << "/* Every planned buffer of " << n.prefix << ": byte offset in the arena, size, alignment, and the\n"
      << " * schedule steps (see network_info.txt) of its first and last use. Planner: " << model.plan.planner
      << ". */\n";
  out << "#ifndef " << n.macro << "_MEMORY_MAP_H\n#define " << n.macro << "_MEMORY_MAP_H\n\n";
  out << "#define " << n.macro << "_MEMORY_ARENA_SIZE " << model.plan.arena_size << "u\n\n";
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    const BufferRecord& b = model.buffers[i];
    const Tensor& t = model.graph.tensor(b.tensor_id);
    const std::string m = n.macro + "_TENSOR_" + std::to_string(b.tensor_id);
    out << "/* '" << c_comment_text(t.name) << "' " << dtype_name(t.dtype) << " " << format_shape(t.shape)
        << ", steps " << b.first_op << ".." << b.last_op << " */\n";
    out << "#define " << m << "_OFFSET " << model.plan.offsets[i] << "u\n";
    out << "#define " << m << "_SIZE " << t.byte_size() << "u\n";
    out << "#define " << m << "_ALIGN " << b.alignment << "u\n";
  }
  out << "\n/* Views that share another tensor's bytes (reshapes). */\n";
  for (size_t id = 0; id < model.graph.tensors.size(); ++id) {
    const Tensor& t = model.graph.tensors[id];
    if (t.alias_of < 0 || t.is_dead) continue;
    const int owner = model.graph.storage_of(static_cast<int>(id));
    out << "#define " << n.macro << "_TENSOR_" << id << "_OFFSET " << n.macro << "_TENSOR_" << owner
        << "_OFFSET /* '" << c_comment_text(t.name) << "' */\n";
  }
  out << "\n#endif /* " << n.macro << "_MEMORY_MAP_H */\n";
  return out.str();
}

}  // namespace microaot
