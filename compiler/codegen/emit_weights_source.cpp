#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "ir/ir_dump.h"

namespace microaot {
namespace {

// The constant arrays of the operators' params (per-channel multipliers and shifts, shapes, tables), which
// NAME.c's params structs point to: constants of the model like the weights, in flash beside them.
void emit_params_arrays(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const KernelCall& call = model.calls[step];
    if (call.custom) continue;  // a custom call's tables stay with its call in NAME.c
    if (params_owner(model, step) != step) continue;  // shares an earlier step's
    const std::string arrays = c_params_arrays(op_symbol(n, step), *call.info().params, call.params);
    if (!arrays.empty()) out << "/* step " << step << ": params arrays */\n" << arrays << "\n";
  }
}

}  // namespace

std::string emit_weights_source(const CompiledModel& model) {
  std::ostringstream out;
  out << kGeneratedBanner << "/* The model's constants: const, so they stay in flash. */\n";
  // float.h and math.h: a float constant of +-FLT_MAX or +-inf is written FLT_MAX or INFINITY (c_initializer).
  out << "#include <float.h>\n#include <math.h>\n#include <stdint.h>\n\n";
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
  emit_params_arrays(out, model);
  return out.str();
}

}  // namespace microaot
