#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "ir/ir_dump.h"

namespace microaot {

std::string emit_weights_source(const CompiledModel& model) {
  std::ostringstream out;
  out << kGeneratedBanner << "/* The model's constants: const, so they stay in flash. */\n";
  out << "#include <stdint.h>\n\n";
  out << "#if defined(__GNUC__) || defined(__clang__)\n#define MICROAOT_WEIGHT_ALIGN __attribute__((aligned("
      << model.options.alignment << ")))\n#else\n#define MICROAOT_WEIGHT_ALIGN\n#endif\n\n";
  for (int id : used_constants(model)) {
    const Tensor& t = model.graph.tensor(id);
    const std::string sym = constant_symbol(model, id);
    out << "/* tensor " << t.source_index << " '" << c_comment_text(t.name) << "': " << dtype_name(t.dtype) << " "
        << format_shape(t.shape) << ", " << t.byte_size() << " bytes */\n";
    out << "extern const " << dtype_c_type(t.dtype) << " " << sym << "[" << t.num_elements() << "];\n";
    out << "const " << dtype_c_type(t.dtype) << " " << sym << "[" << t.num_elements() << "] MICROAOT_WEIGHT_ALIGN = {\n"
        << c_initializer(t) << "};\n\n";
  }
  return out.str();
}

}  // namespace microaot
