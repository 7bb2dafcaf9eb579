// The files of --executor graph that differ from AOT's: kernel_table.c (what this firmware offers a blob:
// one entry per linked kernel that decodes its params struct and calls it) and weights.c (the model's blob,
// constants and description, as one const array in flash).
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "microaot/graph.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
// graph.h's names of the MICROAOT_DTYPE_* codes, in code order.
constexpr const char* kDtypeNames[MICROAOT_DTYPE_COUNT] = {
    "MICROAOT_DTYPE_ANY", "MICROAOT_DTYPE_S8", "MICROAOT_DTYPE_S16", "MICROAOT_DTYPE_S32",
    "MICROAOT_DTYPE_S64", "MICROAOT_DTYPE_U8", "MICROAOT_DTYPE_BOOL", "MICROAOT_DTYPE_F32"};

const char* role_name(KernelArgSpec::Role role) {
  switch (role) {
    case KernelArgSpec::Role::kIn: return "MICROAOT_ARG_IN";
    case KernelArgSpec::Role::kOptionalIn: return "MICROAOT_ARG_OPTIONAL_IN";
    case KernelArgSpec::Role::kOut: return "MICROAOT_ARG_OUT";
    case KernelArgSpec::Role::kInList: return "MICROAOT_ARG_IN_LIST";
    case KernelArgSpec::Role::kOutList: return "MICROAOT_ARG_OUT_LIST";
    default: break;
  }
  MICROAOT_CHECK(false, "scratch and status are not tensor arguments");
}

std::string hex_word(uint32_t word) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(word));
  return text;
}

std::string fields_symbol(const ParamStruct& params) { return "microaot_fields_" + params.name; }

// The decoding table of a params struct, from the struct's own field list (params.h): described once.
void emit_fields_table(std::ostringstream& out, const ParamStruct& params) {
  out << "#define MICROAOT_GRAPH_STRUCT " << params.c_type() << "\n"
      << "static const microaot_param_field " << fields_symbol(params) << "[] = {MICROAOT_FIELDS_" << params.name
      << "(MICROAOT_GRAPH_FIELD)};\n#undef MICROAOT_GRAPH_STRUCT\n\n";
}

std::string pointer_type(const KernelArgSpec& spec) {
  const std::string element = spec.any_type ? "void" : dtype_c_type(spec.dtype);
  return (spec.is_output() ? "" : "const ") + element + " *";
}

// The call's argument for signature entry `g`: a cast of args[...], or the list's typed array.
std::string call_argument(const std::vector<KernelArgSpec>& specs, size_t g, bool list_before) {
  if (specs[g].is_list()) return "list";
  const std::string index = list_before ? std::to_string(g - 1) + "u + count" : std::to_string(g) + "u";
  return "(" + pointer_type(specs[g]) + ")args[" + index + "]";
}

void emit_entry(std::ostringstream& out, const KernelInfo& kernel) {
  const std::vector<KernelArgSpec> specs = kernel.tensor_args();
  const ParamStruct& params = *kernel.params;
  out << "static microaot_status entry_" << kernel.symbol
      << "(const uint8_t *record, void *const *args, uint32_t num_args, void *scratch) {\n"
      << "  " << params.c_type() << " params;\n";
  size_t list_at = specs.size();
  for (size_t g = 0; g < specs.size(); ++g) {
    if (specs[g].is_list()) list_at = g;
  }
  if (list_at < specs.size()) {
    out << "  " << pointer_type(specs[list_at]) << "list[MICROAOT_GRAPH_MAX_ARGS];\n"
        << "  const uint32_t count = num_args - " << specs.size() - 1 << "u; /* the list's tensors */\n"
        << "  uint32_t i;\n"
        << "  for (i = 0; i < count; ++i) list[i] = (" << pointer_type(specs[list_at]) << ")args[" << list_at
        << "u + i];\n";
  } else {
    out << "  (void)num_args;\n";
  }
  if (!kernel.takes_scratch()) out << "  (void)scratch;\n";
  const std::string fields = fields_symbol(params);
  out << "  microaot_graph_decode_params(&params, " << fields << ", sizeof " << fields << " / sizeof " << fields
      << "[0], record);\n";
  std::string arguments = "&params";
  for (size_t g = 0; g < specs.size(); ++g) arguments += ", " + call_argument(specs, g, g > list_at);
  if (kernel.takes_scratch()) arguments += ", scratch";
  const std::string call = kernel.function() + "(" + arguments + ")";
  out << (kernel.returns_status() ? "  return " + call + ";\n" : "  " + call + ";\n  return MICROAOT_STATUS_OK;\n")
      << "}\n\n";
}

void emit_kernel_record(std::ostringstream& out, const KernelInfo& kernel) {
  const std::vector<KernelArgSpec> specs = kernel.tensor_args();
  out << "static const microaot_arg_spec args_" << kernel.symbol << "[] = {";
  for (size_t g = 0; g < specs.size(); ++g) {
    out << (g ? ", " : "") << "{" << role_name(specs[g].role) << ", "
        << kDtypeNames[specs[g].any_type ? uint32_t{MICROAOT_DTYPE_ANY} : graph_dtype_code(specs[g].dtype)] << "}";
  }
  out << "};\n";
}
}  // namespace

std::vector<const KernelInfo*> linked_kernels(const CompiledModel& model) {
  const KernelRegistry& registry = kernel_registry();
  std::set<int> ids;
  for (const KernelCall& call : model.calls) ids.insert(call.kernel);
  for (const std::string& name : model.options.link_kernels) {
    bool found = false;
    for (const KernelInfo& kernel : registry.kernels) {
      if (name == "all" || kernel.symbol == name || kernel.stem == name) {
        ids.insert(kernel.id);
        found = true;
      }
    }
    if (!found) {
      throw UsageError("--link-kernels: '" + name + "' is neither a kernel nor a kernel stem (`microaot inspect --kernels` lists them)");
    }
  }
  std::vector<const KernelInfo*> kernels;
  for (int id : ids) kernels.push_back(&registry.by_id(id));
  return kernels;
}

std::string emit_kernel_table(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::vector<const KernelInfo*> kernels = linked_kernels(model);
  std::ostringstream out;
  out << kGeneratedBanner
      << "/* The kernels this firmware links for graph blobs, sorted by id (kernel_list.def): each entry decodes\n"
      << " * its params struct from the blob's record and calls the kernel. */\n"
      << "#include <stddef.h>\n#include <stdint.h>\n\n#include \"" << n.prefix << ".h\"\n#include \"microaot/graph.h\"\n";
  std::set<std::string> headers;
  for (const KernelInfo* kernel : kernels) headers.insert(kernel->header);
  for (const std::string& header : headers) out << "#include \"" << header << "\"\n";
  out << "\n";
  std::set<std::string> structs;
  for (const KernelInfo* kernel : kernels) {
    if (structs.insert(kernel->params->name).second) emit_fields_table(out, *kernel->params);
  }
  for (const KernelInfo* kernel : kernels) {
    emit_kernel_record(out, *kernel);
    emit_entry(out, *kernel);
  }
  // C has no empty arrays: a model without operators (only views of its input) gets an entry never read.
  out << "const microaot_graph_kernel " << n.prefix << "_kernels[" << std::max<size_t>(kernels.size(), 1) << "] = {\n";
  if (kernels.empty()) out << "    {0u, 0u, 0u, NULL, NULL, 0u, 0u, NULL}, /* none: " << n.macro << "_NUM_KERNELS is 0 */\n";
  for (const KernelInfo* kernel : kernels) {
    const ParamStruct& params = *kernel->params;
    out << "    {" << kernel->id << "u, " << kernel->tensor_args().size() << "u, " << (kernel->takes_scratch() ? 1 : 0)
        << "u, args_" << kernel->symbol << ", " << fields_symbol(params) << ", " << params.fields.size()
        << "u,\n     (uint16_t)sizeof(" << params.c_type() << "), entry_" << kernel->symbol << "},\n";
  }
  out << "};\n";
  return out.str();
}

std::string emit_blob_source(const CompiledModel& model, const std::vector<uint8_t>& blob) {
  const ModuleNames n = module_names(model);
  std::ostringstream out;
  out << kGeneratedBanner
      << "/* The model blob (" << n.prefix << ".blob, microaot/graph.h): constants and description, const so it\n"
      << " * stays in flash, as words so that it is aligned. */\n"
      << "#include <stdint.h>\n\n#include \"" << n.prefix << ".h\"\n\n"
      << "#if defined(__GNUC__) || defined(__clang__)\n#define MICROAOT_BLOB_ALIGNED __attribute__((aligned(16)))\n"
      << "#else\n#define MICROAOT_BLOB_ALIGNED\n#endif\n\n"
      << "const uint32_t " << n.prefix << "_blob[" << n.macro << "_BLOB_SIZE / 4u] MICROAOT_BLOB_ALIGNED = {";
  for (size_t at = 0; at < blob.size(); at += 4) {
    uint32_t word = 0;
    for (size_t i = 0; i < 4; ++i) word |= static_cast<uint32_t>(blob[at + i]) << (8 * i);
    out << (at % 32 == 0 ? "\n    " : " ") << "0x" << hex_word(word) << "u,";
  }
  out << "\n};\n";
  return out.str();
}

}  // namespace microaot
