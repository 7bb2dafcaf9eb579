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
  std::ostringstream body;
  for (int id : used_constants(model)) {
    const Tensor& t = model.graph.tensor(id);
    const std::string sym = constant_symbol(model, id);
    body << "/* tensor " << t.source_index << " '" << c_comment_text(t.name) << "': " << dtype_name(t.dtype) << " "
         << format_shape(t.shape) << ", " << t.byte_size() << " bytes */\n";
    body << "extern const " << dtype_c_type(t.dtype) << " " << sym << "[" << t.num_elements() << "];\n";
    body << "const " << dtype_c_type(t.dtype) << " " << sym << "[" << t.num_elements() << "] MICROAOT_WEIGHT_ALIGN = {\n"
         << c_initializer(t) << "};\n\n";
  }
  emit_params_arrays(body, model);
  const std::string text = body.str();
  std::ostringstream out;
  out << kGeneratedBanner << "/* The model's constants: const, so they stay in flash. */\n";
  // A float constant of +-FLT_MAX or +-inf is written FLT_MAX or INFINITY (c_initializer): only then the
  // headers that define them, so that other models' weights.c stay as they were.
  if (text.find("FLT_MAX") != std::string::npos) out << "#include <float.h>\n";
  if (text.find("INFINITY") != std::string::npos) out << "#include <math.h>\n";
  out << "#include <stdint.h>\n\n";
  out << "#if defined(__GNUC__) || defined(__clang__)\n#define MICROAOT_WEIGHT_ALIGN __attribute__((aligned("
      << model.options.alignment << ")))\n#else\n#define MICROAOT_WEIGHT_ALIGN\n#endif\n\n";
  return out.str() + text;
}

}  // namespace microaot
